//! A JSON Lines file read from the file a chunk of lines at a time, never whole, gives what it
//! gives read whole in one chunk: the same findings in the same order, placed at the same lines
//! and bytes, the same results, claims and documents no adapter reads, whatever the chunk.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use super::{Entry, FileOutcome, Handed, Handing, Options, beside, discover, line_file, per_file};
use crate::seeded::below;

/// Lines a drawn file is made of: every line of this repository's JSON Lines fixtures (vLLM,
/// SGLang, AIPerf, genai-perf, canonical, broken), canonical results and a claims document
/// written on one line, and lines the reader tells apart (broken, non-standard, repeated keys,
/// wide integers, scalars, blank).
pub(super) fn pool() -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for entry in walkdir::WalkDir::new("testdata").sort_by_file_name() {
        let entry = entry.unwrap();
        if entry.path().extension().is_some_and(|e| e == "jsonl") {
            let text = std::fs::read_to_string(entry.path()).unwrap();
            lines.extend(text.lines().map(str::to_string));
        }
    }
    for one in [
        "testdata/rules/C001-mixed-precision/fail/fp8-against-nvfp4/h200-fp8.json",
        "testdata/rules/C001-mixed-precision/fail/fp8-against-nvfp4/gb10-x8-nvfp4.json",
        "testdata/rules/C001-mixed-precision/fail/fp8-against-nvfp4/claims.json",
    ] {
        let text = std::fs::read_to_string(one).unwrap();
        let value: serde_json::Value = serde_json::from_str(&text).unwrap();
        lines.push(serde_json::to_string(&value).unwrap());
    }
    for odd in [
        "{broken",
        "{\"a\": 1",
        "not json at all",
        "{\"a\": NaN, \"a\": 2}",
        "{\"c\": 99999999999999999999}",
        "3",
        "\"text\"",
        "",
        "   ",
        "[1, 2, 3]",
    ] {
        lines.push(odd.to_string());
    }
    assert!(lines.len() > 40, "the fixtures hold JSON Lines files");
    lines
}

/// A file of lines drawn from `pool`: mostly results, now and then odd lines, `\r\n` ends, a
/// byte order mark, the last line ended or not; and now and then a file of broken lines only.
pub(super) fn drawn(state: &mut u64, pool: &[String], case: usize) -> Vec<u8> {
    let odd = pool.len() - 10;
    let mut text = String::new();
    let count = 1 + below(state, 30);
    for i in 0..count {
        let line = if case % 9 == 4 {
            ["{broken", "not json at all", ""][below(state, 3)]
        } else if below(state, 4) == 0 {
            &pool[odd + below(state, 10)]
        } else {
            &pool[below(state, odd)]
        };
        text.push_str(line);
        if i + 1 < count || below(state, 3) > 0 {
            text.push_str(if below(state, 6) == 0 { "\r\n" } else { "\n" });
        }
    }
    let mut bytes = Vec::new();
    if case % 7 == 3 {
        bytes.extend_from_slice(&[0xEF, 0xBB, 0xBF]);
    }
    bytes.extend_from_slice(text.as_bytes());
    bytes
}

/// What a user sees of a file's outcome: every finding with its place, the results (file,
/// document, format, id), the claims, what no adapter reads, what was left out.
pub(super) fn shown(o: &FileOutcome) -> String {
    let mut out = String::new();
    for f in o.findings.iter().chain(&o.unknown) {
        let _ = writeln!(out, "{f:?}");
    }
    for r in &o.results {
        let _ = writeln!(
            out,
            "{} @{} {} {}",
            r.origin.path.raw(),
            r.origin.doc_start,
            r.origin.format,
            r.doc.id
        );
    }
    for c in &o.claims {
        let _ = writeln!(out, "claims @{} {}", c.origin.doc_start, c.claims.len());
    }
    let _ = writeln!(
        out,
        "{:?} {:?} {:?} {:?} {:?}",
        o.omitted, o.companion, o.skipped, o.internal, o.artifact_refs
    );
    out
}

/// The file at `path` read whole, in one chunk (as every JSON Lines file was read before it was
/// read from the file), and read from the file `size` documents at a time.
fn both(path: &Path, options: &Options, size: usize) -> (String, String) {
    let (entries, _, _) = discover::discover_all(&[path.to_path_buf()], &options.walk);
    let entry: &Entry = &entries[0];
    let run: Vec<&Path> = entries.iter().map(Entry::path).collect();
    let hood = beside::Neighbourhood::new(&run, options.thresholds.json_limits());
    let nothing = |_: Handed<'_>| {};
    // A command taking a file's results all at once gets the file read whole.
    let whole_hand = Some(Handing {
        to: &nothing,
        in_chunks: false,
    });
    let whole_options = Options {
        lines_per_chunk: usize::MAX,
        ..options.clone()
    };
    let whole = per_file::process_file(entry, &whole_options, (&run, &hood), whole_hand);
    let chunked = Options {
        lines_per_chunk: size,
        ..options.clone()
    };
    assert!(line_file::reads_by_line(entry, None));
    let by_line = line_file::process_line_file(entry, &chunked, &hood, None);
    (shown(&whole), shown(&by_line))
}

#[test]
fn a_json_lines_file_read_by_line_in_chunks_is_read_as_whole() {
    let pool = pool();
    let dir = tempfile::tempdir().unwrap();
    let mut state = 0x11e5_u64;
    let mut findings = 0;
    for case in 0..48 {
        let path: PathBuf = dir.path().join(format!("case-{case}.jsonl"));
        std::fs::write(&path, drawn(&mut state, &pool, case)).unwrap();
        let mut options = Options {
            lean: case % 2 == 0,
            samples_apart: case % 4 == 1,
            ..Options::default()
        };
        if case % 3 == 0 {
            // A small cap: what it keeps is the first made, across chunks.
            options.thresholds.max_findings_per_file = 6;
        }
        for size in [1, 2, 5] {
            let (whole, by_line) = both(&path, &options, size);
            assert_eq!(by_line, whole, "case {case}, {size} a chunk");
            findings += whole.lines().count();
        }
    }
    assert!(findings > 1000, "{findings} lines shown");
}

/// A JSON Lines file swapped for a link to a file outside after the walk is refused when opened,
/// as a file read whole is: never read, quoted or placed in.
#[test]
fn a_json_lines_file_swapped_after_the_walk_is_not_read() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = dir.path().join("corpus");
    std::fs::create_dir_all(&corpus).unwrap();
    let lines = corpus.join("runs.jsonl");
    let text =
        std::fs::read_to_string("testdata/adapters/sglang/late-2025-server-info.jsonl").unwrap();
    std::fs::write(&lines, &text).unwrap();
    let secret = dir.path().join("secret.jsonl");
    let planted = text.replace("\"dataset_name\": \"", "\"dataset_name\": \"TOPSECRET-");
    assert_ne!(planted, text);
    std::fs::write(&secret, planted).unwrap();
    let options = Options::default();
    let (entries, _, _) = discover::discover_all(std::slice::from_ref(&corpus), &options.walk);
    let run: Vec<&Path> = entries.iter().map(Entry::path).collect();
    let hood = beside::Neighbourhood::new(&run, options.thresholds.json_limits());
    let read = line_file::process_line_file(&entries[0], &options, &hood, None);
    assert!(!read.results.is_empty());
    std::fs::remove_file(&lines).unwrap();
    std::os::unix::fs::symlink(&secret, &lines).unwrap();
    let swapped = line_file::process_line_file(&entries[0], &options, &hood, None);
    assert!(swapped.results.is_empty(), "the swapped file was read");
    assert_eq!(swapped.findings.len(), 1, "{:#?}", swapped.findings);
    assert_eq!(swapped.findings[0].rule.code, "E001");
    assert!(
        swapped.findings[0]
            .message
            .raw()
            .contains("changed while it was being checked")
    );
    assert!(!format!("{:?}", swapped.findings).contains("TOPSECRET"));
}

/// The rule or family `c`, as a config file names it.
pub(super) fn code(c: &str) -> crate::config::Selector {
    crate::config::Selector::parse(c).expect("a code")
}

/// A layer of the config that turns the rule `c` off.
pub(super) fn off(c: &str) -> crate::config::Layer {
    crate::config::Layer {
        select: None,
        extend_select: Vec::new(),
        ignore: vec![code(c)],
    }
}

/// The selections a capped file is read under: none, a rule turned off, a family made softer,
/// and a rule turned off for these files only (`[per-file-ignores]`).
pub(super) fn selections(dir: &Path) -> Vec<crate::config::Selection> {
    use crate::config::{PerFileIgnore, Selection};
    vec![
        Selection::default(),
        Selection::new(&[off("M001")], Vec::new(), Vec::new(), dir),
        Selection::new(
            &[],
            vec![(code("M0"), crate::diagnostic::Severity::Info)],
            Vec::new(),
            dir,
        ),
        Selection::new(
            &[],
            vec![(code("M013"), crate::diagnostic::Severity::Error)],
            vec![PerFileIgnore::new("case-*.jsonl", vec![code("M001"), code("R")]).unwrap()],
            dir,
        ),
    ]
}

/// A file read under a cap keeps the first findings it makes and counts the rest, by the
/// severity the selection gives them. Findings known to lie past the cap before they are made
/// are counted without being made: this holds the outcome to the one of making every finding
/// and dropping those past the cap, whatever the cap, the selection and the way of reading.
#[test]
fn findings_counted_past_the_cap_are_those_made_and_dropped() {
    let pool = pool();
    let dir = tempfile::tempdir().unwrap();
    let selections = selections(dir.path());
    let mut state = 0xca9_u64;
    let mut counted = 0;
    for case in 0..40 {
        let path: PathBuf = dir.path().join(format!("case-{case}.jsonl"));
        std::fs::write(&path, drawn(&mut state, &pool, case)).unwrap();
        let (entries, _, _) =
            discover::discover_all(std::slice::from_ref(&path), &Options::default().walk);
        let run: Vec<&Path> = entries.iter().map(Entry::path).collect();
        let hood = beside::Neighbourhood::new(&run, Options::default().thresholds.json_limits());
        for cap in [0, 1, 3, 8] {
            let mut options = Options {
                lean: case % 2 == 0,
                selection: selections[(case + cap) % selections.len()].clone(),
                ..Options::default()
            };
            options.thresholds.max_findings_per_file = cap;
            for by_line in [false, true] {
                let read = |every: bool| {
                    super::cap::make_every_finding(every);
                    let mut o = if by_line {
                        line_file::process_line_file(&entries[0], &options, &hood, None)
                    } else {
                        let whole = Options {
                            lines_per_chunk: usize::MAX,
                            ..options.clone()
                        };
                        per_file::process_file(&entries[0], &whole, (&run, &hood), None)
                    };
                    super::cap::make_every_finding(false);
                    // What the loader does with every file's outcome before keeping it.
                    o.cap(&options);
                    format!("{:?}\n{:?}\n{:?}", o.findings, o.unknown, o.omitted)
                };
                let (made, counted_early) = (read(true), read(false));
                assert_eq!(
                    counted_early, made,
                    "case {case}, cap {cap}, by line {by_line}"
                );
                counted +=
                    usize::from(!made.contains("Omitted { errors: 0, warnings: 0, infos: 0"));
            }
        }
    }
    assert!(
        counted > 150,
        "{counted} reads counted findings past the cap"
    );
}
