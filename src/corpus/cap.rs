//! The findings cap: past `max_findings_per_file` or `max_findings`, findings are counted by
//! the severity the selection gives them, not stored. The selection is the configuration's, so
//! the cap sits with the loader and the engine that apply it, not with the findings.

use crate::config::Selection;
use crate::diagnostic::{Finding, Omitted};

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
