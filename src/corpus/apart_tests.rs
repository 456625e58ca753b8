//! A file's documents checked apart on the workers, each into an outcome of its own added to the
//! file's in order, give what checking them one after another gives: the same findings in the
//! same order, the same counts past the cap, results, claims, companion, documents no adapter
//! reads, and the same results handed over in the same batches.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use super::line_file_tests::{drawn, pool, selections, shown};
use super::{Entry, Handed, Handing, Options, beside, discover, line_file, per_file};
use crate::seeded::below;

/// How `path` reads under `options`, in turn (`true`) or apart, with the results handed over
/// (a JSON Lines file a chunk of lines at a time): what is shown of the outcome, then each
/// handing.
fn read(path: &Path, options: &Options, in_turn: bool) -> String {
    let (entries, _, _) = discover::discover_all(&[path.to_path_buf()], &options.walk);
    let entry: &Entry = &entries[0];
    let run: Vec<&Path> = entries.iter().map(Entry::path).collect();
    let hood = beside::Neighbourhood::new(&run, options.thresholds.json_limits());
    let handed = Mutex::new(String::new());
    let record = |h: Handed<'_>| {
        let ids: Vec<&str> = h.results.iter().map(|r| r.doc.id.as_str()).collect();
        let mut handed = handed.lock().unwrap();
        let _ = writeln!(handed, "{} @{} {:?} last {}", h.path, h.base, ids, h.last);
    };
    let hand = Some(Handing {
        to: &record,
        in_chunks: true,
    });
    super::recognise::check_in_turn(in_turn);
    let outcome = if line_file::reads_by_line(entry, None) {
        line_file::process_line_file(entry, options, &hood, hand)
    } else {
        per_file::process_file(entry, options, (&run, &hood), hand)
    };
    super::recognise::check_in_turn(false);
    let mut outcome = outcome;
    // What the loader does with every file's outcome before keeping it.
    outcome.cap(options);
    format!("{}{}", shown(&outcome), handed.into_inner().unwrap())
}

/// Drawn files of many documents (every JSON Lines fixture line, canonical results and claims
/// on one line, broken and odd lines), as JSON Lines and as a JSON file of several documents,
/// under caps that cut them early, late and never, several selections, lean or not, a drawn
/// number of lines a chunk, on a pool of four workers so that documents really are checked at
/// once.
#[test]
fn documents_checked_apart_give_what_checking_them_in_turn_gives() {
    let pool = pool();
    let dir = tempfile::tempdir().unwrap();
    let selections = selections(dir.path());
    let workers = rayon::ThreadPoolBuilder::new()
        .num_threads(4)
        .build()
        .unwrap();
    let mut state = 0xa9a7_u64;
    let (mut shown_lines, mut cut, mut handings) = (0, 0, 0);
    for case in 0..36 {
        let text = drawn(&mut state, &pool, case);
        let ending = if case % 3 == 2 { "json" } else { "jsonl" };
        let path: PathBuf = dir.path().join(format!("case-{case}.{ending}"));
        std::fs::write(&path, &text).unwrap();
        for cap in [0, 2, 9, 1000] {
            let mut options = Options {
                lean: case % 2 == 0,
                samples_apart: case % 4 == 1,
                selection: selections[(case + cap) % selections.len()].clone(),
                lines_per_chunk: [1, 2, 7, 256][below(&mut state, 4)],
                ..Options::default()
            };
            options.thresholds.max_findings_per_file = cap;
            let (in_turn, apart) =
                workers.install(|| (read(&path, &options, true), read(&path, &options, false)));
            assert_eq!(apart, in_turn, "case {case} ({ending}), cap {cap}");
            shown_lines += in_turn.lines().count();
            cut += usize::from(!in_turn.contains("Omitted { errors: 0, warnings: 0, infos: 0"));
            handings += in_turn.matches(" last ").count();
        }
    }
    // The draw reaches what it is for: many findings, caps that cut, results handed over.
    assert!(shown_lines > 2000, "{shown_lines} lines shown");
    assert!(cut > 40, "{cut} reads cut by the cap");
    assert!(handings > 100, "{handings} handings");
}

/// Documents that hold many results each (InferenceX's rows, a GuideLLM sweep's benchmarks, alone
/// and as lines of a JSON Lines file), checked apart, give what checking them in turn gives.
#[test]
fn documents_of_many_results_checked_apart_give_what_checking_them_in_turn_gives() {
    let dir = tempfile::tempdir().unwrap();
    let workers = rayon::ThreadPoolBuilder::new()
        .num_threads(4)
        .build()
        .unwrap();
    let fixtures = [
        "testdata/adapters/inferencex/agg_bmk.json",
        "testdata/adapters/guidellm/v0.8.1-concurrent-sweep.json",
        "testdata/adapters/guidellm/v0.8.1-server-errors.json",
    ];
    let mut lines = String::new();
    let mut paths = Vec::new();
    for fixture in fixtures {
        let text = std::fs::read_to_string(fixture).unwrap();
        let name = Path::new(fixture).file_name().unwrap();
        let path = dir.path().join(name);
        std::fs::write(&path, &text).unwrap();
        paths.push(path);
        let value: serde_json::Value = serde_json::from_str(&text).unwrap();
        lines.push_str(&serde_json::to_string(&value).unwrap());
        lines.push('\n');
    }
    let by_line = dir.path().join("documents.jsonl");
    std::fs::write(&by_line, lines.repeat(3)).unwrap();
    paths.push(by_line);
    let mut results = 0;
    for path in &paths {
        for cap in [0, 2, 9, 1000] {
            let mut options = Options {
                lean: cap % 2 == 0,
                ..Options::default()
            };
            options.thresholds.max_findings_per_file = cap;
            let (in_turn, apart) =
                workers.install(|| (read(path, &options, true), read(path, &options, false)));
            assert_eq!(apart, in_turn, "{}, cap {cap}", path.display());
            results += in_turn.lines().filter(|l| l.contains(" @")).count();
        }
    }
    assert!(results > 100, "{results} results read");
}
