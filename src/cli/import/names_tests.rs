//! Output names against the former way of finding the names taken (each output file's name
//! lower-cased, two for each result), over drawn sets of inputs whose names meet with and
//! without case, through `.provenance`, through suffixes and through several results in one
//! file.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use super::names::{Namer, stem_of};
use crate::seeded::below;

/// The former `output_names`, kept as the reference.
fn reference(paths: &[&str]) -> Vec<Result<String, String>> {
    let mut per_file: BTreeMap<&str, usize> = BTreeMap::new();
    for &path in paths {
        *per_file.entry(path).or_default() += 1;
    }
    let mut seen: BTreeMap<&str, usize> = BTreeMap::new();
    let mut used = BTreeSet::new();
    let mut files: BTreeMap<String, &str> = BTreeMap::new();
    let mut next: BTreeMap<String, usize> = BTreeMap::new();
    paths
        .iter()
        .map(|&path| {
            // The name part is the same as it was; what is held to the former way is the
            // numbering and the names taken.
            let mut stem = stem_of(path, &[]);
            if per_file[path] > 1 {
                let k = seen.entry(path).or_default();
                *k += 1;
                let _ = write!(stem, "-{k}");
            }
            let mut name = stem.clone();
            if !used.insert(name.clone()) {
                let n = next.entry(stem.clone()).or_insert(2);
                loop {
                    name = format!("{stem}-{n}");
                    *n += 1;
                    if used.insert(name.clone()) {
                        break;
                    }
                }
            }
            let outputs = [
                format!("{name}.json").to_lowercase(),
                format!("{name}.provenance.json").to_lowercase(),
            ];
            if let Some(other) = outputs.iter().find_map(|o| files.get(o)) {
                return Err((*other).to_string());
            }
            for o in outputs {
                files.insert(o, path);
            }
            Ok(name)
        })
        .collect()
}

/// The names [`Namer`] gives `paths`, in order.
fn output_names(paths: &[&str], args: &[std::path::PathBuf]) -> Vec<Result<String, String>> {
    let mut per_file: BTreeMap<&str, usize> = BTreeMap::new();
    for &path in paths {
        *per_file.entry(path).or_default() += 1;
    }
    let mut namer = Namer::new(args);
    paths
        .iter()
        .map(|&path| namer.name(path, per_file[path]))
        .collect()
}

/// Names that meet another's with or without case, through `.provenance` either way, or
/// through a suffix the numbering gives.
const PARTS: [&str; 14] = [
    "r",
    "R",
    "r.provenance",
    "R.PROVENANCE",
    "r.Provenance.json",
    "r-2",
    "r-1",
    "Run",
    "run",
    "a b",
    "x.provenance.provenance",
    "X.provenance",
    "x",
    "r.provenance-2",
];

#[test]
fn one_key_for_both_files_refuses_what_two_did() {
    let mut state = 17;
    let (mut refused, mut suffixed) = (0, 0);
    for round in 0..500 {
        let count = 1 + below(&mut state, 14);
        let mut paths: Vec<String> = Vec::new();
        for _ in 0..count {
            if !paths.is_empty() && below(&mut state, 5) == 0 {
                // Another result of a file already listed.
                let again = paths[below(&mut state, paths.len())].clone();
                paths.push(again);
                continue;
            }
            let folder = ["c", "C", "c/d", "c/D"][below(&mut state, 4)];
            let name = PARTS[below(&mut state, PARTS.len())];
            let ext = [".json", ".jsonl", ".JSON", ""][below(&mut state, 4)];
            paths.push(format!("{folder}/{name}{ext}"));
        }
        paths.sort();
        let refs: Vec<&str> = paths.iter().map(String::as_str).collect();
        let got = output_names(&refs, &[]);
        assert_eq!(got, reference(&refs), "round {round}: {refs:?}");
        refused += got.iter().filter(|n| n.is_err()).count();
        suffixed += got
            .iter()
            .filter(|n| n.as_ref().is_ok_and(|n| n.ends_with("-2")))
            .count();
    }
    // The draw meets every way names clash.
    assert!(
        refused > 100 && suffixed > 100,
        "{refused} refused, {suffixed} suffixed"
    );
}
