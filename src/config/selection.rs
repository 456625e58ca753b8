//! Which rules run, where, and at what severity: ruff's selection semantics.
//!
//! A selector is `ALL`, a rule code (`M005`), a prefix of codes (`M`, `M0`, `M01`) or a rule
//! name (`missing-speculative-config`, as specific as its code). Each layer (the built-in
//! default `select = ["ALL"]`, then the config file, then the command line) applies its
//! selectors from the least specific to the most specific; at equal specificity `ignore` wins
//! over `select`. A layer with `select` replaces the set built so far; a layer with only
//! `extend-select` and `ignore` edits it.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use globset::{GlobBuilder, GlobMatcher};

use super::paths;
use crate::diagnostic::{Finding, Severity};
use crate::rules::{RULES, find_rule};

/// One selector.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Selector {
    /// Every rule.
    All,
    /// Every rule whose code starts with this (a full code is the most specific prefix).
    Prefix(String),
}

impl Selector {
    /// Parses `ALL`, a code, a prefix of codes or a rule name.
    pub fn parse(text: &str) -> Result<Selector, String> {
        let text = text.trim();
        if text == "ALL" {
            return Ok(Selector::All);
        }
        if !text.is_empty() && RULES.iter().any(|r| r.meta.code.starts_with(text)) {
            return Ok(Selector::Prefix(text.to_string()));
        }
        if let Some(rule) = find_rule(text).filter(|r| r.meta.name == text) {
            return Ok(Selector::Prefix(rule.meta.code.to_string()));
        }
        let upper = text.to_ascii_uppercase();
        let hint = if upper != text && RULES.iter().any(|r| r.meta.code.starts_with(&upper)) {
            format!("; did you mean `{upper}`?")
        } else {
            "; `benchlint rules` lists the codes".to_string()
        };
        Err(format!("unknown rule code or prefix `{text}`{hint}"))
    }

    /// 0 for `ALL`, else the length of the prefix.
    pub fn specificity(&self) -> usize {
        match self {
            Selector::All => 0,
            Selector::Prefix(p) => p.len(),
        }
    }

    /// Whether the selector takes in `code`.
    pub fn matches(&self, code: &str) -> bool {
        match self {
            Selector::All => true,
            Selector::Prefix(p) => code.starts_with(p.as_str()),
        }
    }
}

/// Parses a comma-separated list of selectors (`--select E,M005`).
pub fn parse_list(text: &str) -> Result<Vec<Selector>, String> {
    text.split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(Selector::parse)
        .collect()
}

/// One layer of selection (the config file, or the command line).
#[derive(Debug, Clone, Default)]
pub struct Layer {
    /// Replaces the set built so far when present.
    pub select: Option<Vec<Selector>>,
    /// Adds to it.
    pub extend_select: Vec<Selector>,
    /// Removes from it.
    pub ignore: Vec<Selector>,
}

/// Resolves layers (lowest priority first) into the codes that run.
pub fn resolve(layers: &[Layer]) -> BTreeSet<&'static str> {
    let mut set: BTreeSet<&'static str> = RULES.iter().map(|r| r.meta.code).collect();
    for layer in layers {
        let mut updates: BTreeMap<&'static str, bool> = BTreeMap::new();
        let selects: Vec<&Selector> = layer
            .select
            .iter()
            .flatten()
            .chain(&layer.extend_select)
            .collect();
        let max = selects
            .iter()
            .chain(layer.ignore.iter().collect::<Vec<_>>().iter())
            .map(|s| s.specificity())
            .max();
        for spec in 0..=max.unwrap_or(0) {
            for s in selects.iter().filter(|s| s.specificity() == spec) {
                for r in RULES.iter().filter(|r| s.matches(r.meta.code)) {
                    updates.insert(r.meta.code, true);
                }
            }
            for s in layer.ignore.iter().filter(|s| s.specificity() == spec) {
                for r in RULES.iter().filter(|r| s.matches(r.meta.code)) {
                    updates.insert(r.meta.code, false);
                }
            }
        }
        if layer.select.is_some() {
            set = updates
                .into_iter()
                .filter_map(|(c, on)| on.then_some(c))
                .collect();
        } else {
            for (c, on) in updates {
                if on {
                    set.insert(c);
                } else {
                    set.remove(c);
                }
            }
        }
    }
    set
}

/// A `[per-file-ignores]` entry: a glob and the rules it turns off in the files it matches.
#[derive(Debug, Clone)]
pub struct PerFileIgnore {
    /// The glob as written.
    pub pattern: String,
    matcher: GlobMatcher,
    /// A pattern without `/` matches the file name in any folder.
    basename: bool,
    /// The rules it turns off.
    pub selectors: Vec<Selector>,
}

impl PerFileIgnore {
    /// Compiles `pattern` (relative to the config file's folder; `*` stops at `/`, `**` does
    /// not).
    pub fn new(pattern: &str, selectors: Vec<Selector>) -> Result<Self, String> {
        Ok(PerFileIgnore {
            pattern: pattern.to_string(),
            matcher: compile_glob(pattern)?,
            basename: !pattern.trim_start_matches("./").contains('/'),
            selectors,
        })
    }

    /// Whether the glob matches `key` (a path relative to the config file's folder).
    pub fn matches(&self, key: &str) -> bool {
        glob_matches(&self.matcher, self.basename, key)
    }
}

/// Compiles a config glob: `./` dropped, a trailing `/` means everything below.
pub fn compile_glob(pattern: &str) -> Result<GlobMatcher, String> {
    let mut p = pattern.trim_start_matches("./").to_string();
    if p.ends_with('/') {
        p.push_str("**");
    }
    GlobBuilder::new(&p)
        .literal_separator(true)
        .build()
        .map(|g| g.compile_matcher())
        .map_err(|e| format!("invalid glob `{pattern}`: {}", e.kind()))
}

/// Matches `key` (relative, forward slashes), or only its file name when `basename`.
pub fn glob_matches(matcher: &GlobMatcher, basename: bool, key: &str) -> bool {
    if matcher.is_match(key) {
        return true;
    }
    basename
        && key
            .rsplit('/')
            .next()
            .is_some_and(|name| matcher.is_match(name))
}

/// A file name no glob names but one that matches any name (`*`, `**`): matching it under a
/// folder tells whether a glob covers every file of that folder.
const ANY_NAME: &str = "\u{1}";

/// Everything the engine consults about rules: which run, where, at what severity.
#[derive(Debug, Clone)]
pub struct Selection {
    enabled: BTreeSet<&'static str>,
    severity: Vec<(Selector, Severity)>,
    per_file: Vec<PerFileIgnore>,
    /// Absolute folder the per-file globs are relative to.
    base: PathBuf,
    /// Absolute current folder (finding paths are relative to it).
    cwd: PathBuf,
    /// Codes `[per-file-ignores]` cannot turn off (a config inside the checked paths, `config::trust`).
    protected: Vec<&'static str>,
}

impl Default for Selection {
    fn default() -> Self {
        let cwd = paths::normalize(&std::env::current_dir().unwrap_or_default());
        Selection {
            enabled: RULES.iter().map(|r| r.meta.code).collect(),
            severity: Vec::new(),
            per_file: Vec::new(),
            base: cwd.clone(),
            cwd,
            protected: Vec::new(),
        }
    }
}

impl Selection {
    /// A selection from resolved parts. `base` is the folder per-file globs are relative to.
    pub fn new(
        layers: &[Layer],
        severity: Vec<(Selector, Severity)>,
        per_file: Vec<PerFileIgnore>,
        base: &Path,
    ) -> Self {
        let mut severity = severity;
        // Stable: at equal specificity the later entry wins, so it must come later.
        severity.sort_by_key(|(s, _)| s.specificity());
        Selection {
            enabled: resolve(layers),
            severity,
            per_file,
            base: paths::absolute(base),
            ..Selection::default()
        }
    }

    /// The same selection, with `codes` out of reach of `[per-file-ignores]`.
    #[must_use]
    pub fn with_protected(mut self, codes: Vec<&'static str>) -> Self {
        self.protected = codes;
        self
    }

    /// The same selection with only those of `codes` it runs left running: a command that
    /// reads results and keeps no finding but these has every other rule's work thrown away.
    #[must_use]
    pub fn only(mut self, codes: &[&str]) -> Self {
        self.enabled.retain(|code| codes.contains(code));
        self
    }

    /// Whether rule `code` runs at all.
    pub fn runs(&self, code: &str) -> bool {
        self.enabled.contains(code)
    }

    /// Whether rule `code` runs on the file shown as `path` (per-file-ignores).
    pub fn runs_on(&self, path: &str, code: &str) -> bool {
        if !self.runs(code) {
            return false;
        }
        if self.per_file.is_empty() || self.protected.contains(&code) {
            return true;
        }
        let key = self.key(path);
        !self
            .per_file
            .iter()
            .any(|p| p.matches(&key) && p.selectors.iter().any(|s| s.matches(code)))
    }

    /// Whether rule `code` runs on the corpus shown as `path`, for a finding about the corpus as
    /// a whole (S008, S009). A `[per-file-ignores]` entry covers the corpus when its glob
    /// matches the corpus's own path, relative to the config's folder (`results` for a run of
    /// `check results`; `.` when the corpus is that folder), or every file in it (`results/`,
    /// `results/**`, `**`, `*`): ignoring a rule for every file of a folder ignores it for the
    /// folder too.
    pub fn runs_on_corpus(&self, path: &str, code: &str) -> bool {
        if !self.runs(code) {
            return false;
        }
        if self.per_file.is_empty() || self.protected.contains(&code) {
            return true;
        }
        !self
            .per_file
            .iter()
            .any(|p| self.covers_corpus(p, path) && p.selectors.iter().any(|s| s.matches(code)))
    }

    /// Whether entry `p` covers the corpus shown as `path` ([`Selection::runs_on_corpus`]).
    pub fn covers_corpus(&self, p: &PerFileIgnore, path: &str) -> bool {
        let key = self.key(path);
        if key.is_empty() || key == "." {
            p.matches(".") || p.matches(ANY_NAME)
        } else {
            p.matches(&key) || p.matches(&format!("{key}/{ANY_NAME}"))
        }
    }

    /// The codes that run, in code order.
    pub fn enabled(&self) -> impl Iterator<Item = &'static str> + '_ {
        self.enabled.iter().copied()
    }

    /// The per-file-ignores entries.
    pub fn per_file_ignores(&self) -> &[PerFileIgnore] {
        &self.per_file
    }

    /// The path of a file (as shown) relative to the folder the globs are relative to.
    pub fn key(&self, path: &str) -> String {
        paths::key(&self.cwd, &self.base, Path::new(path))
    }

    /// The configured severity of `code`, when `[severity]` names it or a prefix of it.
    pub fn severity_of(&self, code: &str) -> Option<Severity> {
        self.severity
            .iter()
            .rev()
            .find(|(s, _)| s.matches(code))
            .map(|(_, sev)| *sev)
    }

    /// Whether `f`'s rule runs where `f` lies: on its file, or on the corpus for a finding
    /// about the corpus as a whole.
    fn runs_for(&self, f: &Finding) -> bool {
        let path = f.primary.path.raw();
        if f.corpus {
            self.runs_on_corpus(path, f.rule.code)
        } else {
            self.runs_on(path, f.rule.code)
        }
    }

    /// Gives `f` its configured severity. A pre-rule finding stays a label (info) whatever the
    /// override says.
    fn give_severity(&self, f: &mut Finding) {
        if !f.pre_rule
            && let Some(s) = self.severity_of(f.rule.code)
        {
            f.severity = s;
        }
    }

    /// [`Selection::apply`] to one finding: whether it is kept, its severity set if so.
    pub fn keeps(&self, f: &mut Finding) -> bool {
        let runs = self.runs_for(f);
        if runs {
            self.give_severity(f);
        }
        runs
    }

    /// Drops findings of rules that do not run (or not on their file) and applies severity
    /// overrides.
    pub fn apply(&self, findings: &mut Vec<Finding>) {
        let mut cache: BTreeMap<(String, bool, &'static str), bool> = BTreeMap::new();
        findings.retain(|f| {
            *cache
                .entry((f.primary.path.raw().to_string(), f.corpus, f.rule.code))
                .or_insert_with(|| self.runs_for(f))
        });
        for f in findings.iter_mut() {
            self.give_severity(f);
        }
    }
}

#[cfg(test)]
#[path = "selection_tests.rs"]
mod tests;
