//! The results of a JSON Lines file put away on the worker and read back give a command what
//! holding them gives: the same results in the same order (where each was read, its document
//! as a command puts it away, its fingerprint and copy key), the same files read as the same
//! formats with the same counts, and the same findings, whatever the file holds (results of
//! several formats, broken and blank lines, documents that are no result, repeated lines),
//! how many lines a chunk reads and how many files there are.

use std::path::Path;
use std::sync::atomic::Ordering;

use serde_json::Value;

use super::park::{PARK_AT_TEST, PARKED_TEST};
use super::{Options, UNREADABLE, load_results_into};
use crate::config::Selection;
use crate::seeded::below;

/// One line of JSON from each result document of the fixtures that parses, and every line of
/// their JSON Lines files; the real files of `../shared/realworld` too, where they are beside
/// the tree.
fn line_pool() -> Vec<String> {
    let mut pool = Vec::new();
    for folder in [
        "testdata/adapters",
        "testdata/clean",
        "testdata/sidecar",
        "../shared/realworld",
    ] {
        for entry in walkdir::WalkDir::new(folder).sort_by_file_name() {
            // The real files are not part of a fresh clone: the fixtures are pool enough.
            let Ok(entry) = entry else {
                continue;
            };
            let ext = entry
                .path()
                .extension()
                .map(|e| e.to_string_lossy().to_lowercase());
            let Ok(text) = std::fs::read_to_string(entry.path()) else {
                continue;
            };
            if ext.as_deref() == Some("jsonl") {
                pool.extend(
                    text.lines()
                        .filter(|l| !l.trim().is_empty())
                        .map(str::to_owned),
                );
            } else if ext.as_deref() == Some("json")
                && text.len() < 200_000
                && let Ok(value) = serde_json::from_str::<Value>(&text)
                && value.is_object()
            {
                pool.push(serde_json::to_string(&value).unwrap());
            }
        }
    }
    assert!(pool.len() > 50, "the fixtures hold results: {}", pool.len());
    pool
}

/// A JSON Lines text of `count` lines drawn from `pool`, now and then a line broken, blank, a
/// document that is no result, or the line before again.
fn drawn_lines(state: &mut u64, pool: &[String], count: usize) -> String {
    let mut text = String::new();
    let mut last = String::new();
    for _ in 0..count {
        let line = match below(state, 40) {
            0 => {
                let l = &pool[below(state, pool.len())];
                let cut = (0..=below(state, l.len()))
                    .rev()
                    .find(|&c| l.is_char_boundary(c));
                l[..cut.unwrap_or(0)].to_string()
            }
            1 => String::new(),
            2 => "{\"not\": \"a result\"}".to_string(),
            3 | 4 if !last.is_empty() => last.clone(),
            _ => pool[below(state, pool.len())].clone(),
        };
        text.push_str(&line);
        text.push('\n');
        last = line;
    }
    text
}

/// A result as a command that puts it away is given it: where it was read (file, document,
/// format), its document as put away, its fingerprint (identity and label) and copy key.
type Given = (
    String,
    usize,
    &'static str,
    Vec<u8>,
    Vec<u8>,
    String,
    Option<u64>,
);

/// What a command that puts results away is given, and what the run says of the files.
#[derive(Debug, PartialEq)]
struct Kept {
    results: Vec<Given>,
    read: Vec<String>,
    findings: Vec<String>,
    internal: Vec<String>,
}

fn kept(dir: &Path, options: &Options) -> Kept {
    let mut results = Vec::new();
    let corpus = load_results_into(&[dir.to_path_buf()], options, &mut |r| {
        let print = crate::fingerprint::of_result(&r);
        results.push((
            r.origin.path.raw().to_string(),
            r.origin.doc_start,
            r.origin.format,
            rmp_serde::to_vec_named(&r.doc).unwrap(),
            print.identity_bytes().to_vec(),
            print.label().to_string(),
            crate::copies::copy_key(&r.doc),
        ));
    });
    Kept {
        results,
        read: corpus
            .read
            .iter()
            .map(|r| format!("{} {} {}", r.path.raw(), r.read_as, r.results))
            .collect(),
        findings: corpus
            .findings
            .iter()
            .map(|f| format!("{} {:?} {}", f.rule.code, f.primary, f.message.raw()))
            .collect(),
        internal: corpus.internal_errors,
    }
}

#[test]
fn results_put_away_come_back_as_they_were_held() {
    let pool = line_pool();
    let mut state = 29;
    let mut with_results = 0;
    let parked_before = PARKED_TEST.load(Ordering::Relaxed);
    for round in 0..30 {
        let dir = tempfile::tempdir().unwrap();
        for f in 0..=below(&mut state, 3) {
            // Now and then past a chunk's results, to be put away more than once.
            let count = if below(&mut state, 3) == 0 {
                below(&mut state, 8)
            } else {
                100 + below(&mut state, 400)
            };
            let text = drawn_lines(&mut state, &pool, count);
            std::fs::write(dir.path().join(format!("run-{f}.jsonl")), text).unwrap();
        }
        if below(&mut state, 3) == 0 {
            std::fs::write(
                dir.path().join("alone.json"),
                &pool[below(&mut state, pool.len())],
            )
            .unwrap();
        }
        let options = Options {
            lean: true,
            put_away: true,
            drop_claims: true,
            selection: Selection::default().only(&UNREADABLE),
            lines_per_chunk: [0, 1, 7, 64][below(&mut state, 4)],
            ..Options::default()
        };
        // Held: never put away. Then put away from a drawn count on: every result as soon as
        // a chunk makes one, or some and the last held.
        PARK_AT_TEST.store(usize::MAX, Ordering::Relaxed);
        let held = kept(dir.path(), &options);
        PARK_AT_TEST.store([1, 2, 5, 40, 256][below(&mut state, 5)], Ordering::Relaxed);
        let parked = kept(dir.path(), &options);
        PARK_AT_TEST.store(super::park::PARK_AT, Ordering::Relaxed);
        assert!(
            held.internal.is_empty(),
            "round {round}: {:?}",
            held.internal
        );
        assert_eq!(parked, held, "round {round}");
        with_results += usize::from(!held.results.is_empty());
    }
    assert!(with_results > 18, "{with_results} draws kept results");
    assert!(
        PARKED_TEST.load(Ordering::Relaxed) - parked_before > 5_000,
        "results were put away"
    );
}
