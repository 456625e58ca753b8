//! A run whose results are put away on disk against the same run holding them: over drawn
//! corpora of every rule's fixture cases, harness folders and the demo corpus, some cases
//! copied twice (copies of a run, shared ids) and some files renamed deeper, and a file's
//! results put away from a drawn count on, the findings, counts and internal errors are the
//! same, in the same order.

use std::path::{Path, PathBuf};

use crate::corpus::Options;
use crate::engine::check;
use crate::seeded::below;

/// Every case a corpus may be drawn from: each fixture case of each rule, each harness's
/// fixture folder, the demo corpus's files.
fn cases() -> Vec<PathBuf> {
    let mut cases = Vec::new();
    let mut rules: Vec<PathBuf> = std::fs::read_dir("testdata/rules")
        .expect("the rules' fixtures")
        .map(|e| e.expect("an entry").path())
        .collect();
    rules.sort();
    for rule in rules {
        for side in ["pass", "fail"] {
            let Ok(entries) = std::fs::read_dir(rule.join(side)) else {
                continue;
            };
            let mut entries: Vec<PathBuf> = entries.map(|e| e.expect("an entry").path()).collect();
            entries.sort();
            cases.extend(entries);
        }
    }
    for folder in ["testdata/adapters", "testdata/corpora/demo"] {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(folder)
            .expect("a fixture folder")
            .map(|e| e.expect("an entry").path())
            .filter(|p| p.extension().is_none_or(|x| x != "md"))
            .collect();
        entries.sort();
        cases.extend(entries);
    }
    cases
}

fn copy_tree(from: &Path, to: &Path) {
    if from.is_dir() {
        std::fs::create_dir_all(to).expect("a folder");
        for e in std::fs::read_dir(from).expect("a fixture folder") {
            let e = e.expect("an entry");
            copy_tree(&e.path(), &to.join(e.file_name()));
        }
    } else {
        std::fs::copy(from, to).expect("a copy");
    }
}

/// What a run gives a user: every finding, the counts, the internal errors.
fn run(root: &Path, on_disk: bool) -> (Vec<String>, String, Vec<String>) {
    let options = Options {
        lean: true,
        results_on_disk: on_disk,
        ..Options::default()
    };
    let checked = check(&[root.to_path_buf()], &options);
    let findings = checked.findings.iter().map(|f| format!("{f:?}")).collect();
    (
        findings,
        format!("{:?}", checked.summary),
        checked.corpus.internal_errors,
    )
}

#[test]
fn results_put_away_are_judged_as_results_held() {
    let cases = cases();
    assert!(cases.len() > 100, "{} cases", cases.len());
    let mut state = 0x5eed_0fd1_5c00;
    let mut compared = 0;
    for draw in 0..48 {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let n = 1 + below(&mut state, 10);
        for k in 0..n {
            let case = &cases[below(&mut state, cases.len())];
            let name = case.file_name().expect("a name").to_owned();
            // Beside the others, in a folder of its own, or twice: a run kept in two places.
            let copies = if below(&mut state, 4) == 0 { 2 } else { 1 };
            for c in 0..copies {
                let to = if below(&mut state, 3) == 0 {
                    dir.path().join(format!("deep-{k}-{c}")).join(&name)
                } else {
                    dir.path()
                        .join(format!("{k}-{c}-{}", name.to_string_lossy()))
                };
                if let Some(parent) = to.parent() {
                    std::fs::create_dir_all(parent).expect("a folder");
                }
                copy_tree(case, &to);
            }
        }
        let held = run(dir.path(), false);
        // The results of a file of many put away as they are made, from a drawn count on
        // (every file's, at 1), and read back at the file's turn.
        let park_at = [1, 2, 40, crate::corpus::PARK_AT][below(&mut state, 4)];
        crate::corpus::PARK_AT_TEST.store(park_at, std::sync::atomic::Ordering::Relaxed);
        let away = run(dir.path(), true);
        crate::corpus::PARK_AT_TEST
            .store(crate::corpus::PARK_AT, std::sync::atomic::Ordering::Relaxed);
        assert_eq!(held.2, away.2, "draw {draw}: internal errors");
        assert_eq!(held.1, away.1, "draw {draw}: counts");
        assert_eq!(held.0.len(), away.0.len(), "draw {draw}: findings");
        for (h, a) in held.0.iter().zip(&away.0) {
            assert_eq!(h, a, "draw {draw}");
        }
        compared += held.0.len();
    }
    assert!(compared > 500, "only {compared} findings compared");
}
