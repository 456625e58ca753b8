//! The findings handed over a batch at a time, whatever the batch, come out as the writers
//! listed them when each file's findings came whole: drawn files (a JSON document of many
//! items written compact or indented, a small one, a JSON Lines file, a file that is not
//! there) and drawn findings on them (pointers that resolve and that do not, repeats of one
//! place, related places in other files, corpus-wide findings), through the held findings'
//! merge, against the batches that end where a file's findings end.

use std::fmt::Write as _;
use std::path::Path;

use super::InFileOrder;
use crate::config::Selection;
use crate::diagnostic::{Finding, Location, Severity};
use crate::engine::{Held, Summary};
use crate::rules::RULES;
use crate::seeded::below;
use crate::text::Text;

/// The files drawn findings point into, written to `dir`; their paths.
fn files(dir: &Path, state: &mut u64) -> Vec<String> {
    let items: Vec<serde_json::Value> = (0..120)
        .map(|i| serde_json::json!({"id": format!("c{i}"), "value": i, "sides": [i, {"x": i}]}))
        .collect();
    let doc = serde_json::json!({"schema": "x", "items": items});
    let big = if below(state, 2) == 0 {
        serde_json::to_string_pretty(&doc).unwrap()
    } else {
        doc.to_string()
    };
    let lines: String = (0..60).fold(String::new(), |mut out, i| {
        let _ = writeln!(out, "{{\"id\":\"r{i}\",\"levels\":[{{\"c\":{i}}}]}}");
        out
    });
    let paths = [
        ("big.json", big),
        (
            "small.json",
            "{\"a\": [1, 2, 3], \"b\": {\"c\": true}}".to_string(),
        ),
        ("lines.jsonl", lines),
    ];
    let mut out: Vec<String> = paths
        .iter()
        .map(|(name, text)| {
            let p = dir.join(name);
            std::fs::write(&p, text).unwrap();
            p.to_string_lossy().into_owned()
        })
        .collect();
    out.push(dir.join("gone.json").to_string_lossy().into_owned());
    out
}

fn pointer(state: &mut u64) -> String {
    match below(state, 7) {
        0 => "/schema".to_string(),
        1 => format!("/items/{}", below(state, 130)),
        2 => format!("/items/{}/value", below(state, 130)),
        3 => format!("/items/{}/sides/1/x", below(state, 125)),
        4 => "/nowhere/at/all".to_string(),
        5 => format!("/{}/levels/0/c", below(state, 70)),
        _ => format!("/a/{}", below(state, 4)),
    }
}

fn finding(state: &mut u64, paths: &[String]) -> Finding {
    // Most findings on the first file, so that it draws many batches' worth.
    let path = if below(state, 4) == 0 {
        paths[below(state, paths.len())].clone()
    } else {
        paths[0].clone()
    };
    let related = (0..below(state, 3))
        .map(|_| Location::new(paths[below(state, paths.len())].clone(), pointer(state)))
        .collect();
    Finding {
        rule: RULES[below(state, 9) * 7 % RULES.len()].meta,
        severity: [Severity::Info, Severity::Warning, Severity::Error][below(state, 3)],
        pre_rule: below(state, 6) == 0,
        primary: Location::new(path, pointer(state)),
        corpus: below(state, 10) == 0,
        related,
        message: Text::own(format!("finding {}", below(state, 50))),
        label: None,
        help: None,
        absent: None,
        key: None,
        placed: None,
    }
}

/// What a writer shows of each finding, in the order it shows them.
fn listed(batches: impl Iterator<Item = Vec<Finding>>) -> Vec<String> {
    let mut out = Vec::new();
    for batch in batches {
        let p = crate::report::sources::prepare(batch, Summary::default(), 1 << 30, false);
        for (i, f) in p.findings.iter().enumerate() {
            out.push(format!(
                "{} {} {} {} {:?} {:?}",
                f.primary.path.raw(),
                f.primary.pointer.raw(),
                f.rule.code,
                f.message.raw(),
                p.positions[i],
                p.related_positions[i]
            ));
        }
    }
    out
}

#[test]
fn every_batch_size_lists_what_whole_files_list() {
    let selection = Selection::default();
    for seed in 1..=40u64 {
        let mut state = seed * 0x9e37_79b9;
        let dir = tempfile::tempdir().unwrap();
        let paths = files(dir.path(), &mut state);
        let n = 50 + below(&mut state, 400);
        let findings: Vec<Finding> = (0..n).map(|_| finding(&mut state, &paths)).collect();
        let held = |budget: usize| {
            let mut h = Held::new(&selection, budget);
            for f in &findings {
                h.push(f.clone());
            }
            h.finish(usize::MAX)
        };
        let budget = [0, 2_000, 1 << 20][below(&mut state, 3)];
        let mut whole = held(budget);
        let expected = listed(std::iter::from_fn(|| whole.next_batch()));
        let batch = 1 + below(&mut state, 60);
        let mut last = held(budget);
        let mut ordered = InFileOrder::with_batch(&mut last, 1 << 30, batch, dir.path());
        let got = listed(std::iter::from_fn(|| {
            let b = ordered.next_batch();
            if let Some(b) = &b {
                // Whole files while fewer than a batch, or a batch of one file's findings.
                assert!(
                    b.len() <= 2 * batch,
                    "seed {seed}: a batch of {} for batches of {batch}",
                    b.len()
                );
            }
            b
        }));
        assert!(ordered.failure().is_none(), "seed {seed}");
        assert_eq!(got.len(), expected.len(), "seed {seed}");
        for (i, (g, e)) in got.iter().zip(&expected).enumerate() {
            assert_eq!(g, e, "seed {seed}, batch {batch}, finding {i}");
        }
    }
}
