//! Files no one wrote by hand: variants of every adapter fixture under `testdata/adapters` and
//! of every real file under `../shared/realworld` (when present), checked in-process through
//! the library. Each seed file is copied with its folder into a scratch corpus, then changed
//! one way at a time: a key dropped (one at a time, across a record), a record cut to a subset
//! of its keys, a record that served nothing (its completion counts 0), an unknown key added,
//! a number written as a string, the file moved out of its folder, renamed, and its folder
//! nested one level deeper. Invariants on every variant:
//!
//! - nothing panics (a panic is an internal error of the run);
//! - every file is accounted for: each file of the scratch corpus is reached, and a file
//!   whose original was read as results is read as results again or carries a finding
//!   saying why not (never a silent skip);
//! - one record never spoils its file: a change to one record of a file holding several never
//!   makes the file E004 and leaves every other record read;
//! - a dropped key never creates an error-level finding the original lacked, other than the
//!   checklist (M, L) rules reporting what is now absent, E003 for a record whose load key
//!   was the key dropped, and the rules that judge a figure the drop took away.
//!
//! The choice of keys, records and numbers is drawn from a fixed seed and the count is bounded,
//! so `cargo test` is quick and reproducible; `BENCHLINT_VARIANTS=N` runs up to N variants per
//! seed file and `BENCHLINT_VARIANT_SEED` another seed (the longer run of `fuzz/run.sh`).

mod change;
mod focused;
mod invariants;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use benchlint::corpus::Options;
use benchlint::diagnostic::Finding;
use benchlint::engine;

/// A small deterministic generator (xorshift64*): the same seed draws the same variants.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            usize::try_from(self.next() % (n as u64)).unwrap_or(0)
        }
    }
}

/// Seed files: the JSON and JSON Lines files of `dir` (recursively), small enough to copy
/// often, sorted.
fn seed_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(read) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<PathBuf> = read.filter_map(Result::ok).map(|e| e.path()).collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            seed_files(&p, out);
        } else if p
            .extension()
            .is_some_and(|e| e == "json" || e == "jsonl" || e == "yaml")
            && std::fs::metadata(&p).is_ok_and(|m| m.len() > 0 && m.len() < 300_000)
            && !p.to_string_lossy().contains("broken")
        {
            out.push(p);
        }
    }
}

/// Findings on `file` (its path as the loader shows it ends with the file's path under the root).
fn on_file<'a>(findings: &'a [Finding], root: &Path, file: &Path) -> Vec<&'a Finding> {
    let rel = file
        .strip_prefix(root)
        .unwrap()
        .to_string_lossy()
        .into_owned();
    findings
        .iter()
        .filter(|f| f.primary.path.raw().ends_with(&rel))
        .collect()
}

struct Checked {
    results: usize,
    findings: Vec<Finding>,
    read: Vec<(String, usize)>,
    internal: Vec<String>,
    /// For each result of the file: where its load key came from (source pointers).
    load_sources: BTreeSet<String>,
    /// Whether a result of the file is a losing run (every request failed, say).
    lost: bool,
    /// Levels read in the whole scratch corpus from files other than the changed one (a
    /// ladder's level files are read into one result: each level counts for its own file).
    other_levels: usize,
}

/// Whether level `i` of `r` was read from the file whose path ends with `rel`: a level of a
/// ladder points into its own file, any other into the result's.
fn level_from(r: &benchlint::corpus::LoadedResult, i: usize, rel: &str) -> bool {
    match r
        .provenance
        .lookup(&format!("/levels/{i}"))
        .as_ref()
        .map(|(p, rest)| (&**p, *rest))
    {
        Some((benchlint::model::Provenance::Beside { path, .. }, _)) => path.ends_with(rel),
        _ => r.origin.path.raw().ends_with(rel),
    }
}

fn check(root: &Path, file: &Path) -> Checked {
    let out = engine::check(&[root.to_path_buf()], &Options::default());
    let rel = file
        .strip_prefix(root)
        .unwrap()
        .to_string_lossy()
        .into_owned();
    let mine: Vec<_> = out
        .corpus
        .results
        .iter()
        .filter(|r| r.origin.path.raw().ends_with(&rel))
        .collect();
    // Every result of the scratch corpus: a level file of a ladder is read into its folder's
    // first file's result, its load pointing into the level file.
    let mut load_sources = BTreeSet::new();
    for r in &out.corpus.results {
        for key in ["concurrency", "request_rate", "max_concurrency"] {
            for (i, _) in r.doc.levels.iter().enumerate() {
                if let Some((p, _)) = r.provenance.lookup(&format!("/levels/{i}/{key}")) {
                    load_sources.insert(format!("{p:?}"));
                }
            }
        }
    }
    let other_levels = out
        .corpus
        .results
        .iter()
        .map(|r| {
            (0..r.doc.levels.len())
                .filter(|i| !level_from(r, *i, &rel))
                .count()
        })
        .sum();
    Checked {
        other_levels,
        results: mine.len(),
        findings: out.findings,
        read: out
            .corpus
            .read
            .iter()
            .map(|f| (f.path.raw().to_string(), f.results))
            .collect(),
        internal: out.corpus.internal_errors.clone(),
        lost: mine
            .iter()
            .any(|r| r.doc.outcome != benchlint::model::Outcome::Ok),
        load_sources,
    }
}
