//! What a config file found inside the checked paths may not do.
//!
//! `benchlint check submissions/` may find `submissions/pr-123/benchlint.toml`: a file the
//! corpus's author wrote, as much a part of the untrusted input as the results beside it. A
//! config that says `ignore = ["ALL"]` would turn a corpus with a leaked key into "All checks
//! passed". So a config found by discovery *inside the checked paths* is read with limits. A
//! config found above them (the repository's own `benchlint.toml`) or named with `--config`
//! (from the CI definition) is used as written; `--isolated` reads none (as ruff does).
//!
//! A config inside the checked paths:
//! - cannot turn off the input errors (every `E` code) or M018 (secrets): not with `ignore`,
//!   not with a `select` that leaves them out, not with `[per-file-ignores]`;
//! - cannot lower their severity below the default (it may raise it);
//! - may tighten the resource bounds (`max_file_bytes`, `max_depth`, `max_array_items`,
//!   `max_levels`), never loosen them beyond the defaults;
//! - cannot change the caps on findings shown (`max_findings_per_file`, `max_findings`): a
//!   lower cap would leave error-level findings out of the report, SARIF and annotations
//!   (`max_findings = 0` empties them), and a higher one is a bound on the work of the run;
//! - reads `[[sidecar]] path` files only inside its own folder, symlinks resolved, and extends
//!   only files inside it (src/config/layered.rs);
//! - cannot exclude files from the walk (`exclude`, `extend-exclude` are dropped): a corpus
//!   that could hide its own files would pass by having none.
//!
//! Each limit that changes what the file asked is said on stderr, once.

use super::{Config, Selector};
use crate::diagnostic::Severity;
use crate::rules::RULES;
use crate::thresholds::Thresholds;

/// Whether a config inside the checked paths may not turn `code` off or soften it.
pub fn is_protected(code: &str) -> bool {
    code.starts_with('E') || code == "M018"
}

/// The protected codes, in code order.
pub fn protected_codes() -> Vec<&'static str> {
    RULES
        .iter()
        .map(|r| r.meta.code)
        .filter(|c| is_protected(c))
        .collect()
}

impl Config {
    /// Applies the limits of a config inside the checked paths (see the module documentation). Returns what
    /// was overridden, one sentence each, for a warning.
    pub fn limit_in_tree(&mut self) -> Vec<String> {
        let mut notes = Vec::new();
        let protected = protected_codes();
        // Exact ignores of protected codes go; every protected code is selected again, at the
        // highest specificity, so no prefix (`E`, `M`, `ALL`) and no `select` can drop it.
        let before = self.layer.ignore.len();
        self.layer
            .ignore
            .retain(|s| !matches!(s, Selector::Prefix(p) if p.len() >= 4 && is_protected(p)));
        let dropped_exact = before != self.layer.ignore.len();
        let resolved = super::selection::resolve(std::slice::from_ref(&self.layer));
        let off: Vec<&str> = protected
            .iter()
            .copied()
            .filter(|c| !resolved.contains(c))
            .collect();
        if dropped_exact || !off.is_empty() {
            notes.push(format!(
                "turns off {}; a config inside the checked paths cannot turn off input errors (E) or secrets (M018)",
                if off.is_empty() {
                    "protected rules".to_string()
                } else {
                    off.join(", ")
                }
            ));
        }
        self.layer
            .extend_select
            .extend(protected.iter().map(|c| Selector::Prefix((*c).to_string())));
        // Severity: never below the default for a protected code.
        let mut softened = Vec::new();
        for code in &protected {
            let default =
                crate::rules::find_rule(code).map_or(Severity::Error, |r| r.meta.severity);
            let asked = self
                .severity
                .iter()
                .filter(|(s, _)| s.matches(code))
                .max_by_key(|(s, _)| s.specificity())
                .map(|(_, sev)| *sev);
            if asked.is_some_and(|a| a < default) {
                softened.push(*code);
                self.severity
                    .retain(|(s, _)| !matches!(s, Selector::Prefix(p) if p == code));
                self.severity
                    .push((Selector::Prefix((*code).to_string()), default));
            }
        }
        if !softened.is_empty() {
            notes.push(format!(
                "lowers the severity of {}; a config inside the checked paths cannot",
                softened.join(", ")
            ));
        }
        if self.per_file_ignores.iter().any(|p| {
            protected
                .iter()
                .any(|c| p.selectors.iter().any(|s| s.matches(c)))
        }) {
            notes.push("[per-file-ignores] would turn off input errors or secrets in some files; they stay on".into());
        }
        if let Some(t) = self.thresholds.as_mut() {
            let d = Thresholds::default();
            let mut lowered = Vec::new();
            if t.max_findings_per_file < d.max_findings_per_file {
                t.max_findings_per_file = d.max_findings_per_file;
                lowered.push("max_findings_per_file");
            }
            if t.max_findings < d.max_findings {
                t.max_findings = d.max_findings;
                lowered.push("max_findings");
            }
            if !lowered.is_empty() {
                notes.push(format!(
                    "lowers {}; a config inside the checked paths cannot cap the findings shown, or error-level findings would go unlisted (use --config)",
                    lowered.join(", ")
                ));
            }
            let loosened = cap_bounds(t);
            if !loosened.is_empty() {
                notes.push(format!(
                    "raises {} above the default; a config inside the checked paths may only lower resource bounds (use --config or --max-file-size)",
                    loosened.join(", ")
                ));
            }
        }
        if self.exclude.as_ref().is_some_and(|e| !e.is_empty()) || !self.extend_exclude.is_empty() {
            notes.push("`exclude` and `extend-exclude` are not followed; a config inside the checked paths cannot hide files from the check (use --exclude, or a config above the corpus)".into());
        }
        self.exclude = None;
        self.extend_exclude.clear();
        self.in_tree = true;
        notes
    }
}

/// Caps the resource bounds of `t` at their defaults; the names of those that were above.
fn cap_bounds(t: &mut Thresholds) -> Vec<&'static str> {
    let d = Thresholds::default();
    let mut out = Vec::new();
    macro_rules! cap {
        ($($field:ident),*) => {$(
            if t.$field > d.$field {
                t.$field = d.$field;
                out.push(stringify!($field));
            }
        )*};
    }
    cap!(
        max_file_bytes,
        max_depth,
        max_array_items,
        max_levels,
        max_findings_per_file,
        max_findings
    );
    out
}
