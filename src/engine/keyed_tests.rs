//! Runs written and merged back by key give what one sort by key gives, whatever the runs'
//! sizes, written to a temporary file or kept in memory where none can be made; and a damaged
//! run is a failure said, never a panic or a finding made up.

use super::{Key, KeyedRuns};
use crate::diagnostic::{Finding, Location, Severity};
use crate::rules::RULES;
use crate::seeded::{below, next};
use crate::text::Text;

fn finding(state: &mut u64) -> Finding {
    Finding {
        rule: RULES[below(state, RULES.len())].meta,
        severity: [Severity::Info, Severity::Warning, Severity::Error][below(state, 3)],
        pre_rule: false,
        primary: Location::new(
            format!("runs/{}.json", below(state, 4)),
            format!("/levels/{}", below(state, 9)),
        ),
        corpus: false,
        related: Vec::new(),
        message: Text::own(format!("finding {}", next(state) % 1000)),
        label: None,
        help: None,
        absent: None,
        key: None,
        placed: None,
    }
}

/// Keys drawn with many equal places, each numbered in drawing order.
fn drawn(seed: u64, n: usize) -> Vec<(Key, Finding)> {
    let mut state = seed;
    (0..n as u64)
        .map(|k| ((below(&mut state, 40) as u64, k), finding(&mut state)))
        .collect()
}

fn shown(items: impl Iterator<Item = Finding>) -> Vec<String> {
    items.map(|f| format!("{f:?}")).collect()
}

#[test]
fn merged_runs_give_one_sort_by_key() {
    let dir = tempfile::tempdir().unwrap();
    let gone = dir.path().join("no such folder");
    for seed in 1..=60u64 {
        let n = below(&mut seed.clone(), 300);
        let items = drawn(seed, n);
        let mut sorted = items.clone();
        sorted.sort_by_key(|(k, _)| *k);
        let expected = shown(sorted.into_iter().map(|(_, f)| f));
        // A temporary folder, and one where no file can be made (every run kept in memory).
        for folder in [dir.path(), gone.as_path()] {
            let mut runs = KeyedRuns::new(Some(folder));
            let mut state = seed ^ 0x5eed;
            let mut left = items.clone();
            while !left.is_empty() {
                let take = (1 + below(&mut state, 50)).min(left.len());
                let mut batch: Vec<(Key, Finding)> = left.drain(..take).collect();
                runs.write_run(&mut batch);
                assert!(batch.is_empty());
            }
            let mut merged = runs.merge();
            let got = shown(merged.by_ref());
            assert!(merged.failure().is_none(), "seed {seed}");
            assert_eq!(got, expected, "seed {seed}, folder {folder:?}");
        }
    }
}

#[test]
fn a_damaged_run_is_a_failure_said() {
    use std::io::{Seek, SeekFrom, Write};
    let dir = tempfile::tempdir().unwrap();
    let mut runs = KeyedRuns::new(Some(dir.path()));
    let mut batch = drawn(7, 200);
    runs.write_run(&mut batch);
    // Every byte past the first records overwritten: a length that runs past the end, or a
    // record that does not read back.
    let mut file = runs.spill.as_ref().unwrap().try_clone().unwrap();
    file.seek(SeekFrom::Start(300)).unwrap();
    file.write_all(&[0xff; 64]).unwrap();
    let mut merged = runs.merge();
    let got: Vec<Finding> = merged.by_ref().collect();
    assert!(got.len() < 200);
    assert!(
        merged
            .failure()
            .is_some_and(|e| e.contains("could not be read back")),
        "{:?}",
        merged.failure()
    );
}
