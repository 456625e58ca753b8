//! Findings for the reports' tests: every field holds each of a list of hostile strings
//! (quotes, controls, bidirectional and invisible characters, a secret, markup), with related
//! places, positions known and unknown, a corpus-wide finding and pre-rule labels.

use super::Prepared;
use crate::diagnostic::{Finding, Location, Position, Severity};
use crate::engine::Summary;
use crate::rules::RULES;
use crate::text::Text;

/// Strings a result file could put in a path, a key or a value.
pub(super) const HOSTILE: &[&str] = &[
    "runs/a.json",
    "quote \" backslash \\ slash /",
    "line\nfeed\rreturn\ttab\u{8}\u{c}",
    "\u{1b}[31mred\u{1b}[0m and \u{7f} and \u{85}",
    "bidi \u{202e}evil\u{202c} zero\u{200b}width \u{feff}",
    "tag \u{E0041} and emoji 😀 and é",
    "token sk-proj-Q9vLx2mT7rB4nK8wE1yZ5cH3jD6fA0gP here",
    "<script>alert(1)</script> & ::error::",
    "",
];

fn position(line: usize, column: usize) -> Position {
    Position {
        line,
        column,
        start: 0,
        len: 1,
        chars: 1,
    }
}

pub(super) fn prepared() -> Prepared {
    let mut findings = Vec::new();
    let mut positions = Vec::new();
    let mut related_positions = Vec::new();
    for (k, s) in HOSTILE.iter().enumerate() {
        let mut message = Text::own("at ");
        message.push_file(*s);
        message.push_own(" the value is wrong");
        let related = (0..k % 3)
            .map(|r| Location::new(format!("{s}/other{r}.json"), format!("/levels/{r}/{s}")))
            .collect::<Vec<_>>();
        related_positions.push(
            (0..related.len())
                .map(|r| (r % 2 == 0).then(|| position(r + 2, 7)))
                .collect(),
        );
        findings.push(Finding {
            rule: RULES[k % RULES.len()].meta,
            severity: [Severity::Error, Severity::Warning, Severity::Info][k % 3],
            pre_rule: k % 4 == 1,
            primary: Location::new(format!("corpus/{s}.json"), format!("/platform/{s}")),
            corpus: k == 3,
            related,
            message,
            label: None,
            help: (k % 2 == 0).then(|| Text::quoting(format!("write `{s}` as a number"))),
            absent: None,
            key: None,
            placed: None,
        });
        positions.push((k != 3).then(|| position(k + 1, 2 * k + 1)));
    }
    Prepared {
        findings,
        positions,
        related_positions,
        summary: Summary::default(),
        color: false,
        max_file_bytes: 1 << 20,
        files: Vec::new(),
        project: super::project::Project::default(),
        fail_on: Severity::Error,
        quiet: false,
        file_index: std::sync::OnceLock::new(),
    }
}
