//! The findings cap: past `max_findings_per_file` or `max_findings`, findings are counted by
//! the severity the selection gives them, not stored. The selection is the configuration's, so
//! the cap sits with the loader and the engine that apply it, not with the findings.

use crate::config::Selection;
use crate::diagnostic::{Finding, Omitted, Severity};

#[cfg(test)]
thread_switch!(
    /// Findings past the cap made (and dropped by it) on this thread rather than counted
    /// before they are made: the tests hold one way to the other.
    MAKE_EVERY_FINDING,
    make_every_finding,
    made_past_cap
);

/// Whether a finding known to lie past the cap is still made: only in the test that holds
/// counting it unmade to making it.
pub(super) fn makes_every_finding() -> bool {
    #[cfg(test)]
    return made_past_cap();
    #[cfg(not(test))]
    false
}

/// Counts a finding of rule `code` (its severity, and whether it predates the rule) placed in
/// `path` (about the corpus or not), made past the cap, as the selection and [`keep_within`]
/// count it once it is made and dropped: for a caller that knows it lies past the cap before
/// making it.
pub fn count_past_cap(
    (code, severity, pre_rule): (&str, Severity, bool),
    (path, corpus): (&str, bool),
    selection: &Selection,
    omitted: &mut Omitted,
) {
    // Dropped by the selection first (`Selection::apply`), then by the cap's own check.
    let applies = if corpus {
        selection.runs_on_corpus(path, code)
    } else {
        selection.runs_on(path, code)
    };
    if !applies || !selection.runs_on(path, code) {
        return;
    }
    let severity = if pre_rule {
        severity
    } else {
        selection.severity_of(code).unwrap_or(severity)
    };
    omitted.count(severity, pre_rule);
}

/// Keeps the first `cap` of `findings` (in the order they were made, which is deterministic),
/// counting the rest into `omitted` with the severity the selection gives them; findings of
/// rules the selection turns off on their file are dropped without a count.
pub fn keep_within(
    findings: &mut Vec<Finding>,
    cap: usize,
    omitted: &mut Omitted,
    selection: &Selection,
) {
    if findings.len() <= cap {
        return;
    }
    for f in findings.drain(cap..) {
        if !selection.runs_on(f.primary.path.raw(), f.rule.code) {
            continue;
        }
        let severity = if f.pre_rule {
            f.severity
        } else {
            selection.severity_of(f.rule.code).unwrap_or(f.severity)
        };
        omitted.count(severity, f.pre_rule);
    }
}
