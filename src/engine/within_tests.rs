//! The run's cap merged over two streams gives what sorting the two together and cutting the
//! list gives: over drawn findings with exact and near repeats, within each stream and across
//! the two, under caps from none to all, with the second stream in memory or held on disk.

use super::*;
use crate::config::Selection;
use crate::corpus::keep_within;
use crate::diagnostic::drawn::findings;
use crate::engine::Held;
use crate::seeded::below;

/// What `check` gave before the cap was merged in: the two lists one after the other, sorted,
/// deduplicated, cut at `cap` with every rule counted.
fn whole(files: &[Finding], last: &[Finding], cap: usize) -> (Vec<Finding>, Omitted) {
    let mut all: Vec<Finding> = files.iter().chain(last).cloned().collect();
    sort_findings(&mut all);
    let mut omitted = Omitted::default();
    keep_within(&mut all, cap, &mut omitted, &Selection::default());
    (all, omitted)
}

/// Two streams drawn from one list, so that each holds repeats of the other's findings.
fn streams(state: &mut u64) -> (Vec<Finding>, Vec<Finding>) {
    let n = 1 + below(state, 60);
    let mut files = Vec::new();
    let mut last = Vec::new();
    for f in findings(state, n) {
        match below(state, 5) {
            0 => {
                files.push(f.clone());
                last.push(f);
            }
            1 | 2 => files.push(f),
            _ => last.push(f),
        }
    }
    (files, last)
}

fn shown(listed: &[Finding], omitted: Omitted) -> String {
    format!("{listed:#?}\n{omitted:?}")
}

#[test]
fn the_cap_merged_over_two_streams_keeps_and_counts_what_the_whole_list_does() {
    let mut state = 0x7769_7468_696e_u64;
    let mut cut = 0;
    for _ in 0..800 {
        let (files, mut last) = streams(&mut state);
        let n = files.len() + last.len();
        let cap = [0, 1, 3, 8, n / 2, usize::MAX][below(&mut state, 6)];
        let (expected, expected_omitted) = whole(&files, &last, cap);
        // `Last` hands its findings sorted, without repeats.
        sort_findings(&mut last);
        let mut omitted = Omitted::default();
        let listed = merge_within(files.clone(), last.into_iter(), cap, &mut omitted);
        cut += usize::from(omitted != Omitted::default());
        assert_eq!(
            shown(&listed, omitted),
            shown(&expected, expected_omitted),
            "cap {cap}, files {files:#?}"
        );
    }
    assert!(cut > 200, "only {cut} cases were cut by the cap");
}

/// The second stream as `check` gets it: held, written to disk in sorted runs past a budget of
/// a few findings, and merged back.
#[test]
fn the_cap_merged_over_findings_held_on_disk_keeps_and_counts_what_the_whole_list_does() {
    let folder = tempfile::tempdir().expect("a temporary folder");
    let selection = Selection::default();
    let mut state = 0x6469_736b_u64;
    for _ in 0..200 {
        let (files, last) = streams(&mut state);
        let n = files.len() + last.len();
        let cap = [0, 2, n / 2, usize::MAX][below(&mut state, 4)];
        let (expected, expected_omitted) = whole(&files, &last, cap);
        let mut held = Held::in_folder(&selection, 700 * below(&mut state, 4), folder.path());
        for f in last {
            held.push(f);
        }
        let mut out = held.finish(usize::MAX);
        let mut omitted = Omitted::default();
        let listed = merge_within(files, out.by_ref(), cap, &mut omitted);
        assert!(out.failure().is_none());
        assert_eq!(shown(&listed, omitted), shown(&expected, expected_omitted));
    }
}
