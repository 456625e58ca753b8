//! The held findings come out ([`Last`]) as sorting them all in memory gives, however small the budget:
//! over generated findings with every field drawn (repeats, near-repeats that differ only in a
//! related place or a severity, several texts of each kind, hidden characters), the merged runs
//! against [`sort_findings`] and the cap against [`keep_within`].

use std::borrow::Cow;

use super::*;
use crate::config::Selection;
use crate::diagnostic::Omitted;
use crate::diagnostic::{Absent, Placed, Position, Severity, sort_findings};
use crate::engine::last::BATCH;
use crate::rules::RULES;
use crate::seeded::below;
use crate::text::{FileText, Text};

fn text(state: &mut u64) -> Text {
    let words = [
        "one launch",
        "ü \u{202e} hidden",
        "sk-live-0123456789abcdefABCDEF",
        "",
        "`x`",
    ];
    let kind = below(state, 5);
    let mut pick = || words[below(state, words.len())].to_string();
    match kind {
        0 => Text::Own(Cow::Owned(pick())),
        1 => Text::file(pick()),
        2 => Text::quoting(pick()),
        n => {
            let mut t = Text::own("configuration ");
            t.push_file(pick());
            t.push_own(" measured once");
            if n == 4 {
                t.compact();
            }
            t
        }
    }
}

fn location(state: &mut u64) -> Location {
    let paths = [
        "runs/a.json",
        "runs/b.json",
        "runs/c/d.jsonl",
        "corpus",
        "ü/e.json",
    ];
    let pointers = ["", "/id", "/levels/0/ttft_ms", "/launch/id", "/a~1b"];
    Location {
        path: paths[below(state, paths.len())].into(),
        doc_start: below(state, 3) * 100,
        pointer: FileText::new(pointers[below(state, pointers.len())]),
        offset: (below(state, 4) == 0).then(|| below(state, 50)),
    }
}

fn position(state: &mut u64) -> Option<Position> {
    (below(state, 3) > 0).then(|| Position {
        line: below(state, 40) + 1,
        column: below(state, 80) + 1,
        start: below(state, 4000),
        len: below(state, 30),
        chars: below(state, 30),
    })
}

fn finding(state: &mut u64) -> Finding {
    let related: Vec<Location> = (0..below(state, 3)).map(|_| location(state)).collect();
    let placed = (below(state, 2) == 0).then(|| Placed {
        primary: position(state),
        related: related.iter().map(|_| position(state)).collect(),
    });
    Finding {
        rule: RULES[below(state, 12) * 5 % RULES.len()].meta,
        severity: [Severity::Info, Severity::Warning, Severity::Error][below(state, 3)],
        pre_rule: below(state, 5) == 0,
        primary: location(state),
        corpus: below(state, 6) == 0,
        related,
        message: text(state),
        label: (below(state, 2) == 0).then(|| text(state)),
        help: (below(state, 2) == 0).then(|| text(state)),
        absent: (below(state, 5) == 0).then(|| {
            Box::new(Absent {
                what: text(state),
                field: text(state),
                words: "the host name".into(),
                pointer: "/platform/host".into(),
                sidecar: (below(state, 2) == 0).then(|| text(state)),
            })
        }),
        key: (below(state, 4) == 0).then(|| Box::new("/workload/warmup_excluded".to_string())),
        placed,
    }
}

/// Findings drawn from `seed`, a third of them copies of one drawn before (some with a severity
/// or a related place changed, so they sort equal without repeating it).
fn findings(seed: u64, n: usize) -> Vec<Finding> {
    let mut state = seed;
    let mut out: Vec<Finding> = Vec::with_capacity(n);
    for _ in 0..n {
        let f = if !out.is_empty() && below(&mut state, 3) == 0 {
            let mut copy = out[below(&mut state, out.len())].clone();
            match below(&mut state, 3) {
                0 => copy.severity = Severity::Error,
                1 => copy.related.push(location(&mut state)),
                _ => {}
            }
            copy
        } else {
            finding(&mut state)
        };
        out.push(f);
    }
    out
}

fn shown(findings: &[Finding]) -> Vec<String> {
    findings.iter().map(|f| format!("{f:?}")).collect()
}

#[test]
fn every_budget_gives_the_order_of_one_sort() {
    let selection = Selection::default();
    for seed in 1..=12u64 {
        let made = findings(
            seed,
            40 + 60 * usize::from(u8::try_from(seed).expect("small")),
        );
        let mut expected = made.clone();
        sort_findings(&mut expected);
        for budget in [0, 700, 5_000, 40_000, BUDGET] {
            let mut held = Held::new(&selection, budget);
            for f in made.clone() {
                held.push(f);
            }
            let mut last = held.finish(usize::MAX);
            let mut merged: Vec<Finding> = Vec::new();
            while let Some(batch) = last.next_batch() {
                merged.extend(batch);
            }
            assert!(last.failure().is_none(), "{:?}", last.failure());
            assert_eq!(
                shown(&merged),
                shown(&expected),
                "seed {seed}, budget {budget}"
            );
        }
    }
}

#[test]
fn the_cap_lists_the_first_and_counts_the_rest_as_one_sort_does() {
    let selection = Selection::default();
    let made = findings(77, 900);
    for cap in [0, 1, 250, 10_000] {
        let mut expected = made.clone();
        sort_findings(&mut expected);
        let mut omitted = Omitted::default();
        crate::corpus::keep_within(&mut expected, cap, &mut omitted, &Selection::default());
        let mut held = Held::new(&selection, 3_000);
        for f in made.clone() {
            held.push(f);
        }
        let mut last = held.finish(cap);
        let listed: Vec<Finding> = last.by_ref().collect();
        assert_eq!(shown(&listed), shown(&expected), "cap {cap}");
        assert_eq!(last.listed(), expected.len());
        assert_eq!(last.omitted(), omitted, "cap {cap}");
    }
}

#[test]
fn a_batch_ends_where_a_file_ends() {
    let selection = Selection::default();
    let mut made = Vec::new();
    for k in 0..3 * BATCH {
        let mut f = findings(5, 1).remove(0);
        f.primary.path = format!("runs/{:02}.json", k / 1000).into();
        f.primary.pointer = FileText::new(format!("/levels/{k}"));
        made.push(f);
    }
    let mut held = Held::new(&selection, 10_000);
    for f in made {
        held.push(f);
    }
    let mut last = held.finish(usize::MAX);
    let mut paths_seen: Vec<String> = Vec::new();
    while let Some(batch) = last.next_batch() {
        assert!(batch.len() >= BATCH || last.next_batch().is_none());
        let first = batch[0].primary.path.raw().to_string();
        assert!(
            !paths_seen.contains(&first),
            "{first} was split between two batches"
        );
        let mut paths: Vec<String> = batch
            .iter()
            .map(|f| f.primary.path.raw().to_string())
            .collect();
        paths.dedup();
        paths_seen.extend(paths);
    }
    assert_eq!(paths_seen.len(), 13);
}

#[test]
fn the_selection_is_applied_to_what_was_written_out() {
    use crate::config::{Layer, Selector};
    // One code drawn turned off, another turned to info.
    let (off, softer) = (RULES[0].meta.code, RULES[5].meta.code);
    let layer = Layer {
        select: None,
        extend_select: Vec::new(),
        ignore: vec![Selector::parse(off).expect("a code")],
    };
    let selection = Selection::new(
        &[layer],
        vec![(Selector::parse(softer).expect("a code"), Severity::Info)],
        Vec::new(),
        std::path::Path::new("."),
    );
    let made = findings(9, 600);
    let mut expected = made.clone();
    selection.apply(&mut expected);
    sort_findings(&mut expected);
    let mut held = Held::new(&selection, 2_000);
    for f in made {
        held.push(f);
    }
    let listed: Vec<Finding> = held.finish(usize::MAX).collect();
    assert!(listed.iter().all(|f| f.rule.code != off));
    assert!(listed.iter().any(|f| f.rule.code == softer));
    assert_eq!(shown(&listed), shown(&expected));
}

/// Everything `check_each` hands out on `paths`, and its counts, holding `budget` bytes.
fn checked_within(paths: &[std::path::PathBuf], budget: usize) -> (Vec<String>, String, usize) {
    let options = crate::corpus::Options::default();
    let mut out = Vec::new();
    let (mut checked, mut last) =
        crate::engine::check_each_within(paths, &options, budget, &mut |file| {
            out.extend(shown(&file));
        });
    let per_file = out.len();
    while let Some(batch) = last.next_batch() {
        out.extend(shown(&batch));
    }
    crate::engine::close(&mut checked, &last);
    let counts = format!(
        "{:?} {:?} {:?}",
        checked.summary, checked.corpus.omitted, checked.corpus.internal_errors
    );
    let last_ones = out.len() - per_file;
    (out, counts, last_ones)
}

#[test]
fn a_check_writing_every_finding_out_hands_out_what_one_in_memory_does() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut corpora = vec![root.join("testdata/corpora"), root.join("testdata/rules")];
    let realworld = root.join("../shared/realworld");
    if realworld.is_dir() {
        corpora.push(realworld);
    } else {
        println!("../shared/realworld is not beside the tree: checked on testdata only");
    }
    for corpus in corpora {
        let paths = [corpus.clone()];
        let (in_memory, counts, last_ones) = checked_within(&paths, BUDGET);
        // The corpus-wide rules' findings, the ones held, are there to write out.
        assert!(last_ones > 20, "{}: {last_ones}", corpus.display());
        for budget in [0, 20_000] {
            let (written_out, spilled_counts, _) = checked_within(&paths, budget);
            assert_eq!(spilled_counts, counts, "{} at {budget}", corpus.display());
            assert_eq!(written_out, in_memory, "{} at {budget}", corpus.display());
        }
    }
}

#[test]
fn a_rule_dropped_leaves_none_of_its_findings_written_out_or_not() {
    let selection = Selection::default();
    let made = findings(31, 800);
    let rule = made[0].rule;
    let mut expected: Vec<Finding> = made
        .iter()
        .filter(|f| !std::ptr::eq(f.rule, rule))
        .cloned()
        .collect();
    sort_findings(&mut expected);
    let mut held = Held::new(&selection, 4_000);
    let (before, after) = made.split_at(500);
    for f in before.iter().cloned() {
        held.push(f);
    }
    held.drop_rule(rule);
    for f in after.iter().cloned() {
        held.push(f);
    }
    let listed: Vec<Finding> = held.finish(usize::MAX).collect();
    assert!(before.iter().any(|f| std::ptr::eq(f.rule, rule)));
    assert_eq!(shown(&listed), shown(&expected));
}

#[test]
fn without_a_temporary_folder_the_findings_stay_in_memory_and_come_out_the_same() {
    let selection = Selection::default();
    let made = findings(41, 700);
    let mut expected = made.clone();
    sort_findings(&mut expected);
    let nowhere = std::env::temp_dir().join("benchlint-no-such-folder/deeper");
    let mut held = Held::in_folder(&selection, 0, &nowhere);
    for f in made {
        held.push(f);
    }
    assert!(
        held.in_memory && held.spill.is_none(),
        "nothing was written"
    );
    let mut last = held.finish(usize::MAX);
    let listed: Vec<Finding> = last.by_ref().collect();
    assert!(last.failure().is_none());
    assert_eq!(shown(&listed), shown(&expected));
}

#[test]
fn a_damaged_temporary_file_is_a_failure_said_never_a_panic() {
    use std::io::Write as _;
    let selection = Selection::default();
    // Real runs, then the file cut or overwritten at every few bytes of its first run.
    let made = findings(43, 60);
    let dir = tempfile::tempdir().expect("a folder");
    let mut held = Held::in_folder(&selection, 0, dir.path());
    for f in made {
        held.push(f);
    }
    let Some(spill) = held.spill.take() else {
        panic!("the runs were written");
    };
    let whole = spill.end;
    let bytes = {
        use std::io::{Read as _, Seek as _};
        let mut file = &spill.file;
        file.rewind().expect("rewind");
        let mut all = Vec::new();
        file.read_to_end(&mut all).expect("read");
        all
    };
    let mut state = 9;
    let mut failures = 0;
    for cut in (1..u64::try_from(bytes.len()).expect("small")).step_by(37) {
        let mut file = tempfile::tempfile().expect("a file");
        let mut damaged = bytes.clone();
        let at = usize::try_from(cut).expect("small");
        damaged[at] ^= u8::try_from(below(&mut state, 255) + 1).expect("a byte");
        damaged.truncate(at + below(&mut state, 40));
        file.write_all(&damaged).expect("write");
        let written = Written {
            file,
            rules: spill.rules.clone(),
            runs: spill.runs.clone(),
        };
        let mut last = Last::merge(Some(written), Vec::new(), usize::MAX, Vec::new());
        let listed = last.by_ref().count();
        assert!(listed <= spill.runs.len());
        if u64::try_from(damaged.len()).expect("small") < whole {
            assert!(last.failure().is_some(), "a file cut at {at} read as whole");
        }
        failures += usize::from(last.failure().is_some());
    }
    assert!(failures > 10, "{failures}");
}

#[test]
fn what_is_held_in_memory_stays_within_the_budget_however_many_come() {
    let selection = Selection::default();
    let dir = tempfile::tempdir().expect("a folder");
    let budget = 20_000;
    let mut held = Held::in_folder(&selection, budget, dir.path());
    let mut heaviest = 0;
    for f in findings(47, 5_000) {
        heaviest = heaviest.max(weight_of(&f));
        held.push(f);
        assert!(
            held.weight <= budget + heaviest,
            "{} bytes held against a budget of {budget}",
            held.weight
        );
    }
    let runs = held.spill.as_ref().map_or(0, |s| s.runs.len());
    assert!(runs > 20, "{runs} runs written");
    assert_eq!(held.finish(usize::MAX).count(), {
        let mut all = findings(47, 5_000);
        sort_findings(&mut all);
        all.len()
    });
}
