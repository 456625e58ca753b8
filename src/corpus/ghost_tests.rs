//! A ghost stands for its finding in everything the file's cap does: the exact-repeat test
//! and the count. Over drawn findings (repeats, near-repeats that differ in one compared part,
//! messages held as one string or as parts), under several selections and caps, a list whose
//! findings past the cap are ghosts gives the findings kept and the counts of the list kept
//! whole.

use super::super::outcome::FileOutcome;
use super::*;
use crate::config::{Layer, Selector};
use crate::diagnostic::dedup_in_order;
use crate::diagnostic::drawn::{finding, findings};
use crate::rules::RULES;
use crate::seeded::below;

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
