//! `benchlint regress --format github`: GitHub Actions annotations. GitHub shows 10 errors
//! and 10 warnings per step, so at most [`PER_SEVERITY`] of each are written, worst first
//! (failing cells as errors, by the size of the change toward worse; undecided and unmatched
//! cells as warnings), then one `::notice` naming how many more the step summary holds. The
//! summary itself is the Markdown report (`crate::report::regress_markdown`), which the command
//! writes to `$GITHUB_STEP_SUMMARY` when it is set. Messages are escaped as workflow-command
//! data, file names as properties (`crate::report::github::push_escaped`), after the same
//! masking and escaping as every terminal line.

use std::fmt::Write as _;

use super::github::push_escaped;
use super::regress_common::{Worst, badness, change};
use crate::regress::{Cell, Report, Verdict};

/// Annotations written per severity.
pub const PER_SEVERITY: usize = 10;

fn severity(report: &Report, c: &Cell) -> Option<&'static str> {
    if report.fails(c) {
        return Some("error");
    }
    match c.verdict {
        Verdict::Regression
        | Verdict::Inconclusive
        | Verdict::NotDecidable
        | Verdict::NotComparable
        | Verdict::Missing => Some("warning"),
        _ => None,
    }
}

fn message(report: &Report, c: &Cell) -> String {
    let config = &report.configs[c.config];
    let mut m = format!(
        "{} at {} ({} {}): {} {}",
        c.metric.as_str(),
        c.level,
        config.fingerprint,
        config.label.line(),
        c.verdict.word(c.confirmed),
        change(c)
    );
    if !c.codes.is_empty() {
        let _ = write!(m, " ({})", c.codes.join(", "));
    }
    for r in &c.reasons {
        m.push_str("; ");
        m.push_str(&r.line());
    }
    if let Some(n) = super::regress_common::launches_note(c, report.options.threshold) {
        m.push_str("; ");
        m.push_str(&n);
    }
    m
}

/// The annotation of `c`, of severity `sev`.
fn annotation(report: &Report, c: &Cell, sev: &str) -> String {
    let mut out = String::from("::");
    out.push_str(sev);
    let run = c
        .head
        .as_deref()
        .or(c.base.as_deref())
        .and_then(|s| s.launches.first().and_then(|l| s.runs_of(l).first()));
    if let Some(r) = run {
        out.push_str(" file=");
        push_escaped(
            &mut out,
            &report.runs.path(r.run).line().replace('\\', "/"),
            true,
        );
        out.push(',');
    } else {
        out.push(' ');
    }
    out.push_str("title=benchlint regress::");
    push_escaped(&mut out, &message(report, c), false);
    out.push('\n');
    out
}

/// Renders the annotations of `report`: the errors worst first, then the warnings (a failing
/// cell, the only error, comes before every other in that order).
pub fn render(report: &Report) -> Vec<u8> {
    let mut worst = [Worst::counted(PER_SEVERITY), Worst::counted(PER_SEVERITY)];
    let mut place = 0;
    for (_, cells) in report.by_config() {
        for c in cells {
            if let Some(sev) = severity(report, &c) {
                let k = usize::from(sev == "warning");
                worst[k].offer(badness(report, &c, place), || annotation(report, &c, sev));
            }
            place += 1;
        }
    }
    let mut out = String::new();
    let mut more = [0usize; 2];
    for (k, w) in worst.into_iter().enumerate() {
        let offered = w.offered();
        let lines = w.into_lines();
        more[k] = offered - lines.len();
        for line in lines {
            out.push_str(&line);
        }
    }
    if more.iter().any(|&n| n > 0) {
        out.push_str("::notice title=benchlint regress::");
        push_escaped(
            &mut out,
            &format!(
                "{} more errors and {} more warnings are in the step summary (--format markdown)",
                more[0], more[1]
            ),
            false,
        );
        out.push('\n');
    }
    if let Some(reason) = &report.no_comparable {
        out.push_str("::error title=benchlint regress::");
        push_escaped(&mut out, reason, false);
        out.push('\n');
    }
    out.into_bytes()
}
