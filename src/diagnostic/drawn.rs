//! Drawn findings for the tests of what orders, deduplicates and caps them: repeats, and
//! near-repeats that differ in one compared part (severity, related places, document, message),
//! with messages held as one string or as parts, on two paths.

use std::borrow::Cow;

use super::{Finding, Location, Severity};
use crate::rules::RULES;
use crate::seeded::below;
use crate::text::{FileText, Text};

pub(crate) fn message(state: &mut u64) -> Text {
    let words = ["one launch", "ü \u{202e}", "", "`x`"];
    let word = words[below(state, words.len())];
    match below(state, 4) {
        0 => Text::Own(Cow::Owned(format!("configuration {word} measured once"))),
        1 => Text::file(format!("configuration {word} measured once")),
        // The same raw text held as parts, joined or not: equal to the two above.
        n => {
            let mut t = Text::own("configuration ");
            t.push_file(word);
            t.push_own(" measured once");
            if n == 3 {
                t.compact();
            }
            t
        }
    }
}

pub(crate) fn location(state: &mut u64) -> Location {
    let paths = ["runs/a.json", "runs/b.json"];
    let pointers = ["", "/id", "/0/ttft", "/1/ttft"];
    Location {
        path: paths[below(state, paths.len())].into(),
        doc_start: below(state, 2) * 100,
        pointer: FileText::new(pointers[below(state, pointers.len())]),
        offset: (below(state, 4) == 0).then(|| below(state, 3)),
    }
}

pub(crate) fn finding(state: &mut u64) -> Finding {
    Finding {
        rule: RULES[[0, 7, 30][below(state, 3)] % RULES.len()].meta,
        severity: [Severity::Info, Severity::Warning, Severity::Error][below(state, 3)],
        pre_rule: below(state, 6) == 0,
        primary: location(state),
        corpus: false,
        related: (0..below(state, 2)).map(|_| location(state)).collect(),
        message: message(state),
        label: None,
        help: (below(state, 2) == 0).then(|| Text::own("what to do")),
        absent: None,
        key: None,
        placed: None,
    }
}

/// `n` findings, half of them copies of one before (some with one compared part changed).
pub(crate) fn findings(state: &mut u64, n: usize) -> Vec<Finding> {
    let mut out: Vec<Finding> = Vec::with_capacity(n);
    for _ in 0..n {
        let f = if !out.is_empty() && below(state, 2) == 0 {
            let mut copy = out[below(state, out.len())].clone();
            match below(state, 5) {
                0 => copy.severity = Severity::Error,
                1 => copy.related.push(location(state)),
                2 => copy.primary.doc_start += 1,
                3 => copy.message = message(state),
                _ => {}
            }
            copy
        } else {
            finding(state)
        };
        out.push(f);
    }
    out
}
