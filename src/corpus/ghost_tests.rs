//! A ghost stands for its finding in everything the file's cap does: the exact-repeat test
//! and the count. Over drawn findings (repeats, near-repeats that differ in one compared part,
//! messages held as one string or as parts), under several selections and caps, a list whose
//! findings past the cap are ghosts gives the findings kept and the counts of the list kept
//! whole.

use std::borrow::Cow;

use super::super::outcome::FileOutcome;
use super::*;
use crate::config::{Layer, Selector};
use crate::diagnostic::dedup_in_order;
use crate::rules::RULES;
use crate::seeded::below;
use crate::text::{FileText, Text};

fn message(state: &mut u64) -> Text {
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

fn location(state: &mut u64) -> Location {
    let paths = ["runs/a.json", "runs/b.json"];
    let pointers = ["", "/id", "/0/ttft", "/1/ttft"];
    Location {
        path: paths[below(state, paths.len())].into(),
        doc_start: below(state, 2) * 100,
        pointer: FileText::new(pointers[below(state, pointers.len())]),
        offset: (below(state, 4) == 0).then(|| below(state, 3)),
    }
}

fn finding(state: &mut u64) -> Finding {
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
fn findings(state: &mut u64, n: usize) -> Vec<Finding> {
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

fn selections() -> Vec<Selection> {
    let code = |c: &str| Selector::parse(c).expect("a code");
    let dir = std::path::Path::new(".");
    vec![
        Selection::default(),
        Selection::new(
            &[Layer {
                select: None,
                extend_select: Vec::new(),
                ignore: vec![code(RULES[7].meta.code)],
            }],
            Vec::new(),
            Vec::new(),
            dir,
        ),
        Selection::new(
            &[],
            vec![(code(RULES[0].meta.code), Severity::Info)],
            Vec::new(),
            dir,
        ),
    ]
}

#[test]
fn two_findings_share_a_key_exactly_when_the_cap_takes_one_for_a_repeat_of_the_other() {
    let mut state = 0x6768_6f73_u64;
    let (mut same, mut differ) = (0, 0);
    for _ in 0..4000 {
        let pair = findings(&mut state, 2);
        let mut deduped = pair.clone();
        dedup_in_order(&mut deduped);
        let repeats = deduped.len() == 1;
        assert_eq!(
            keys_of(&pair[0]).1 == keys_of(&pair[1]).1,
            repeats,
            "{pair:?}"
        );
        same += usize::from(repeats);
        differ += usize::from(!repeats);
    }
    assert!(same > 500 && differ > 500, "{same} repeats, {differ} not");
}

/// A file's findings, the cap cutting them at the last cap (`finish`, exact repeats dropped
/// first) or at a cap between documents (`cap`, nothing dropped but past the cap), kept whole
/// and with every finding from a point past the cap's worth of distinct ones a ghost.
#[test]
fn ghosts_past_the_cap_are_counted_as_the_findings_they_stand_for() {
    let mut state = 0x0063_6170_u64;
    let mut counted = 0;
    for case in 0..600 {
        let n = 1 + below(&mut state, 40);
        let made = findings(&mut state, n);
        let selection = &selections()[case % 3];
        let cap = [0, 1, 3, 8][below(&mut state, 4)];
        let mut options = super::super::Options {
            selection: selection.clone(),
            ..super::super::Options::default()
        };
        options.thresholds.max_findings_per_file = cap;
        // Where ghosts may begin: past the cap's worth of distinct findings, the selection
        // applied, as `FileOutcome::lighten_past_cap` finds it.
        let mut selected = made.clone();
        selection.apply(&mut selected);
        let Some(from) = crate::diagnostic::past_first_distinct(&selected, cap) else {
            continue;
        };
        let from = from + below(&mut state, selected.len() - from + 1);
        // The file's last cap, or one between its documents.
        let close = |o: &mut FileOutcome| {
            if case % 2 == 0 {
                o.finish(&options);
            } else {
                o.cap(&options);
            }
        };
        let whole = {
            let mut o = FileOutcome {
                findings: selected.clone(),
                ..FileOutcome::default()
            };
            close(&mut o);
            o
        };
        let ghosted = {
            let mut o = FileOutcome {
                findings: selected[..from].to_vec(),
                ghosts: selected[from..]
                    .iter()
                    .filter_map(|f| Ghost::of(f.clone(), selection, (&"elsewhere".into(), 7)))
                    .collect(),
                ..FileOutcome::default()
            };
            close(&mut o);
            o
        };
        let shown = |o: &FileOutcome| {
            let kept: Vec<String> = o
                .findings
                .iter()
                .map(|f| {
                    format!(
                        "{} {:?} {:?} {} {:?}",
                        f.rule.code,
                        f.severity,
                        f.primary,
                        f.message.raw(),
                        f.related
                    )
                })
                .collect();
            format!("{kept:#?}\n{:?}", o.omitted)
        };
        assert_eq!(
            shown(&ghosted),
            shown(&whole),
            "case {case}, cap {cap}, from {from}"
        );
        assert!(ghosted.ghosts.is_empty());
        counted += whole.omitted.total();
    }
    assert!(counted > 1000, "{counted} findings counted past the cap");
}

/// A ghost's places are moved into the file as the findings kept are: one made in a chunk of
/// lines at byte 500 of the file repeats the finding kept there, and only that one.
#[test]
fn a_ghost_is_keyed_by_its_places_in_the_file() {
    let selection = Selection::default();
    let path: PathText = "runs/a.jsonl".into();
    let mut state = 3u64;
    let mut f = finding(&mut state);
    f.primary = Location::new(path.clone(), "/id");
    f.related = vec![Location::new("runs/b.json", "/id")];
    let ghost = Ghost::of(f.clone(), &selection, (&path, 500)).unwrap();
    let mut moved = f.clone();
    moved.primary.doc_start = 500;
    assert_eq!(ghost.key, keys_of(&moved).1);
    assert_ne!(ghost.key, keys_of(&f).1);
}
