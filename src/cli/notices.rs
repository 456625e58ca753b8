//! What `check` says on stderr beside its report: configuration globs that match nothing, stale
//! baseline entries, a baseline written, findings past the caps. Each names inputs masked and
//! escaped for a terminal. Under `--quiet` and `--silent` ([`set_verbosity`]) nothing but
//! errors is said.

use std::io::Write;
use std::path::Path;
use std::sync::atomic::{AtomicU8, Ordering};

use super::lint_args::Verbosity;

/// The run's verbosity: 0 normal, 1 quiet, 2 silent.
static VERBOSITY: AtomicU8 = AtomicU8::new(0);

/// Sets how much the run says on stderr (once, before it starts).
pub(super) fn set_verbosity(v: Verbosity) {
    let n = match v {
        Verbosity::Normal => 0,
        Verbosity::Quiet => 1,
        Verbosity::Silent => 2,
    };
    VERBOSITY.store(n, Ordering::Relaxed);
}

/// Whether warnings and notes are said (neither `--quiet` nor `--silent`).
pub(super) fn says_warnings() -> bool {
    VERBOSITY.load(Ordering::Relaxed) == 0
}

/// Whether errors that explain exit 1 are said (not `--silent`).
fn says_errors() -> bool {
    VERBOSITY.load(Ordering::Relaxed) < 2
}

use super::setup::Setup;
use crate::baseline::{Baseline, Stale};
use crate::config::paths;

fn warn(message: &str) {
    if !says_warnings() {
        return;
    }
    // Names the config file and its globs: input text, masked and escaped.
    let _ = writeln!(
        std::io::stderr(),
        "benchlint: warning: {}",
        crate::text::line(message)
    );
}

/// Globs of the config that match none of the files checked (nor the corpus, whose findings
/// about it as a whole they may turn off): a warning each, never silent.
pub(super) fn warn_unmatched_globs(setup: &Setup, files: &[String], corpus: &str) {
    let Some(config) = &setup.config else {
        return;
    };
    if files.is_empty() {
        return;
    }
    for p in setup.options.selection.per_file_ignores() {
        let selection = &setup.options.selection;
        if !files.iter().any(|f| p.matches(&selection.key(f)))
            && !selection.covers_corpus(p, corpus)
        {
            warn(&format!(
                "{}: [per-file-ignores] \"{}\" matches no file checked",
                config.display, p.pattern
            ));
        }
    }
    let sidecars = &setup.options.sidecars;
    for s in &sidecars.entries {
        if !files.iter().any(|f| s.matches(&sidecars.key(Path::new(f)))) {
            warn(&format!(
                "{}: [[sidecar]] files = \"{}\" matches no file checked",
                config.display, s.pattern
            ));
        }
    }
}

pub(super) fn report_stale(baseline: &Baseline, stale: &[Stale], allowed: bool) {
    if !says_errors() || (allowed && !says_warnings()) {
        return;
    }
    let mut err = std::io::stderr().lock();
    let word = if allowed { "warning" } else { "error" };
    let n = stale.len();
    let _ = writeln!(
        err,
        "benchlint: {word}: the baseline `{}` has {n} stale {} (matching no finding any more):",
        crate::text::line(&paths::display(&baseline.path)),
        if n == 1 { "entry" } else { "entries" }
    );
    // Entries are the baseline file's text.
    for s in stale {
        let pointer = if s.pointer.is_empty() {
            "/"
        } else {
            &s.pointer
        };
        let _ = writeln!(
            err,
            "  {}: {} at {}",
            crate::text::line(&s.path),
            crate::text::line(&s.code),
            crate::text::line(pointer)
        );
    }
    let _ = writeln!(
        err,
        "  help: run the same command with `--update-baseline` to prune them"
    );
}

/// Says on stderr how many files and folders the walk skipped because `exclude` or a
/// `.gitignore` names them: a file left out is never left out unsaid.
pub(super) fn report_excluded(n: usize) {
    if n > 0 {
        warn_note(&format!(
            "skipped {n} {} that `exclude` or `.gitignore` name (`--show-files` lists what was read; `--no-respect-gitignore` reads what `.gitignore` names)",
            if n == 1 {
                "file or folder"
            } else {
                "files and folders"
            }
        ));
    }
}

fn warn_note(message: &str) {
    if says_warnings() {
        let _ = writeln!(std::io::stderr(), "benchlint: note: {message}");
    }
}

/// Says on stderr, once, that the baseline names files outside its folder, which are refused
/// without looking them up (so the message is the same whether they exist or not).
pub(super) fn report_outside(baseline: &Baseline) {
    let n = baseline.outside.len();
    let shown: Vec<String> = baseline
        .outside
        .iter()
        .take(3)
        .map(|p| format!("`{}`", crate::text::line(p)))
        .collect();
    let _ = writeln!(
        std::io::stderr(),
        "benchlint: error: the baseline `{}` names {n} {} outside its folder ({}{}); entries are paths under the baseline's folder, so {} refused and never looked up\n  help: remove {} (`--update-baseline` drops {})",
        crate::text::line(&paths::display(&baseline.path)),
        if n == 1 { "file" } else { "files" },
        shown.join(", "),
        if n > 3 { ", …" } else { "" },
        if n == 1 { "it is" } else { "they are" },
        if n == 1 { "it" } else { "them" },
        if n == 1 { "it" } else { "them" },
    );
}

/// Says on stderr that the baseline was written.
pub(super) fn wrote_baseline(updated: &Baseline) {
    if !says_warnings() {
        return;
    }
    let _ = writeln!(
        std::io::stderr(),
        "benchlint: wrote {} {} to the baseline `{}`",
        updated.len(),
        if updated.len() == 1 {
            "entry"
        } else {
            "entries"
        },
        crate::text::line(&paths::display(&updated.path))
    );
}

/// Says on stderr what the SARIF run left out past GitHub's limit.
pub(super) fn sarif_cut(cut: &crate::report::SarifCut) {
    let _ = writeln!(
        std::io::stderr(),
        "benchlint: warning: the SARIF run holds at most {} results (GitHub code scanning rejects more): {} findings were left out ({}), errors kept first; its last result says so",
        crate::report::MAX_SARIF_RESULTS,
        cut.total(),
        cut.words()
    );
}

/// Says on stderr that the baseline is in the version 1 form and how it is read.
pub(super) fn old_baseline(b: &Baseline, updating: bool) {
    let _ = writeln!(
        std::io::stderr(),
        "benchlint: note: the baseline `{}` is in the version 1 form, which keys a missing field by the object that lacks it; its entries are matched as they were written{}",
        crate::text::line(&paths::display(&b.path)),
        if updating {
            "; it is being rewritten in version 2"
        } else {
            " (`--update-baseline` rewrites it in version 2, keyed by each missing field's own pointer)"
        }
    );
}

/// Says on stderr that findings went past the caps, and where.
pub(super) fn report_omitted(corpus: &crate::corpus::Corpus, t: &crate::thresholds::Thresholds) {
    let n = corpus.omitted.total();
    if n == 0 {
        return;
    }
    let files: Vec<String> = corpus
        .capped_files
        .iter()
        .take(5)
        .map(|f| format!("`{}`", crate::text::line(f)))
        .collect();
    let more = corpus.capped_files.len().saturating_sub(files.len());
    let mut listed = files.join(", ");
    if more > 0 {
        let _ = std::fmt::Write::write_fmt(&mut listed, format_args!(" and {more} more"));
    }
    let per_file = if files.is_empty() {
        String::new()
    } else {
        format!(" (over {} in {listed})", t.max_findings_per_file)
    };
    warn_own(&format!(
        "{n} findings past the caps were counted (in the summary and the exit code) but not listed{per_file}; the run keeps at most {} per file and {} in all (`max_findings_per_file`, `max_findings` under [thresholds])",
        t.max_findings_per_file, t.max_findings
    ));
}

/// A warning of benchlint's own words (inputs in it already escaped).
pub(super) fn warn_own(message: &str) {
    if !says_warnings() {
        return;
    }
    let _ = writeln!(std::io::stderr(), "benchlint: warning: {message}");
}
