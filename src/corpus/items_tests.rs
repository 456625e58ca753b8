//! A document that is an array, read an item at a time, gives what parsing it whole gives: the
//! same findings in the same order at the same places, the same results from the same items
//! with the same documents, the same companion or unknown document, whatever the array holds
//! (a sweep's rows, a list of runs, per-request records, anything else), how its text is
//! written or broken, what the file is named and which command reads it.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use super::drawn_text::{bare_nan, cut_short};
use super::line_file_tests::{off, shown};
use super::{Entry, Options, UNREADABLE, beside, discover, items, parse, per_file};
use crate::config::Selection;
use crate::seeded::below;

/// Every item of the arrays of the fixtures (and of `../shared/realworld`, where it is beside
/// the tree), and every object document of the adapters' fixtures.
fn pools() -> (Vec<Value>, Vec<Vec<Value>>) {
    let (mut items, mut arrays) = (Vec::new(), Vec::new());
    for folder in ["testdata", "../shared/realworld"] {
        for entry in walkdir::WalkDir::new(folder).sort_by_file_name() {
            // The real files are not part of a fresh clone: the fixtures are pool enough.
            let Ok(entry) = entry else {
                continue;
            };
            if entry.path().extension().is_none_or(|e| e != "json") {
                continue;
            }
            let Ok(text) = std::fs::read_to_string(entry.path()) else {
                continue;
            };
            if text.len() > 2_000_000 {
                continue;
            }
            match serde_json::from_str::<Value>(&text) {
                Ok(Value::Array(all)) if !all.is_empty() => {
                    items.extend(all.iter().take(50).cloned());
                    arrays.push(all.into_iter().take(50).collect());
                }
                Ok(v @ Value::Object(_))
                    if entry.path().starts_with("testdata/adapters") && text.len() < 100_000 =>
                {
                    items.push(v);
                }
                _ => {}
            }
        }
    }
    assert!(
        arrays.len() >= 5,
        "the fixtures hold arrays: {}",
        arrays.len()
    );
    assert!(
        items.len() > 100,
        "the fixtures hold documents: {}",
        items.len()
    );
    (items, arrays)
}

/// An array: the items of one of the arrays, repeated and reordered, now and then past the
/// count a document's results are put away at, now and then with items of any document mixed
/// in, or one changed.
fn drawn_array(state: &mut u64, items: &[Value], arrays: &[Vec<Value>]) -> Value {
    let theme = &arrays[below(state, arrays.len())];
    let count = match below(state, 8) {
        0 => 257 + below(state, 300),
        1 => 0,
        _ => 1 + below(state, 20),
    };
    // Odd items are rare in a long array, which one of them makes no sweep at all.
    let odds = if count > 256 { 30 * count } else { 30 };
    let mut out = Vec::with_capacity(count);
    for _ in 0..count {
        let mut item = if below(state, odds / 3) == 0 {
            items[below(state, items.len())].clone()
        } else {
            theme[below(state, theme.len())].clone()
        };
        match below(state, odds) {
            0 => item = json!("not a row"),
            1 => {
                if let Some(obj) = item.as_object_mut()
                    && !obj.is_empty()
                {
                    let key = obj.keys().nth(below(state, obj.len())).cloned().unwrap();
                    obj.shift_remove(&key);
                }
            }
            2 => {
                if let Some(obj) = item.as_object_mut() {
                    obj.insert("run_number".into(), json!(below(state, 3)));
                }
            }
            // What M018 finds: a key in a row, a secret argument in an argv.
            3 => {
                if let Some(obj) = item.as_object_mut() {
                    obj.insert("api_key".into(), json!("sk-proj-4f9a8b7c6d5e4f3a2b1c0d9e"));
                }
            }
            4 => item = json!(["vllm", "serve", "--api-key", "token-abc123"]),
            5 => {
                if let Some(obj) = item.as_object_mut() {
                    obj.insert(
                        "command".into(),
                        json!("vllm serve m --api-key hunter2-secret-value"),
                    );
                }
            }
            _ => {}
        }
        out.push(item);
    }
    Value::Array(out)
}

/// The text of `array`, now and then changed as text: a bare `NaN`, a key written twice, cut
/// short, followed by more, or another document after it.
fn drawn_text(state: &mut u64, array: &Value) -> String {
    let mut text = if below(state, 2) == 0 {
        serde_json::to_string_pretty(array).unwrap()
    } else {
        serde_json::to_string(array).unwrap()
    };
    match below(state, 12) {
        0 => bare_nan(&mut text, &[": 0.", ":0."]),
        1 => {
            if let Some(at) = text.find("\"conc\"").or_else(|| text.find("\"model")) {
                text.insert_str(at, "\"conc\": 7, ");
            }
        }
        2 => cut_short(state, &mut text),
        3 => text.push_str(" trailing"),
        4 => text.push_str("\n{\"another\": \"document\"}\n"),
        5 => text = format!("  \n{text}"),
        _ => {}
    }
    text
}

/// Names the documents are read under: a sweep's aggregate, a list of runs, llmperf's records,
/// MLPerf's accuracy log, any name, and a file read line by line (never read apart).
const NAMES: [&str; 6] = [
    "agg_bmk.json",
    "results.json",
    "run_individual_responses.json",
    "mlperf_log_accuracy.json",
    "anything.json",
    "runs.jsonl",
];

/// How `path` reads under `options`, its arrays parsed whole (`true`) or an item at a time
/// where they can be: what is shown of the outcome, then each result's document.
fn read(path: &Path, options: &Options, whole: bool) -> String {
    let (entries, _, _) = discover::discover_all(&[path.to_path_buf()], &options.walk);
    let entry: &Entry = &entries[0];
    let run: Vec<&Path> = entries.iter().map(Entry::path).collect();
    let hood = beside::Neighbourhood::new(&run, options.thresholds.json_limits());
    items::read_whole(whole);
    let mut outcome = per_file::process_file(entry, options, (&run, &hood), None);
    items::read_whole(false);
    outcome.unpark(entry.display.raw());
    let mut out = shown(&outcome);
    for r in &outcome.results {
        let _ = writeln!(out, "{:?}", r.doc);
    }
    out
}

/// How many documents of `text` (named `name`) the parser leaves to be read an item at a time.
fn read_apart(name: &str, text: &str, options: &Options) -> usize {
    parse::parse_json_text(name, text, options)
        .documents
        .iter()
        .filter(|d| items::is_apart(d))
        .count()
}

#[test]
fn an_array_read_an_item_at_a_time_gives_what_parsing_it_whole_gives() {
    let (pool, arrays) = pools();
    let dir = tempfile::tempdir().unwrap();
    let without_m018 = Selection::new(&[off("M018")], Vec::new(), Vec::new(), dir.path());
    let mut state = 0x1_7e45_u64;
    let (mut apart, mut results, mut companions, mut unknown, mut secrets) = (0, 0, 0, 0, 0);
    for case in 0..240 {
        let array = drawn_array(&mut state, &pool, &arrays);
        let text = drawn_text(&mut state, &array);
        let name = NAMES[below(&mut state, NAMES.len())];
        let folder = dir.path().join(format!("case-{case}"));
        std::fs::create_dir(&folder).unwrap();
        let path: PathBuf = folder.join(name);
        std::fs::write(&path, &text).unwrap();
        // As `summary` and its kin read (results put away), as `check` reads, with and without
        // M018, as `import` reads (the samples apart), and with a small bound on arrays' items.
        let mut options = match case % 4 {
            3 => Options {
                lean: true,
                ..Options::default()
            },
            0 => Options {
                lean: true,
                put_away: true,
                drop_claims: true,
                selection: Selection::default().only(&UNREADABLE),
                ..Options::default()
            },
            1 => Options {
                lean: true,
                selection: without_m018.clone(),
                ..Options::default()
            },
            _ => Options {
                samples_apart: true,
                drop_claims: true,
                selection: Selection::default().only(&UNREADABLE),
                ..Options::default()
            },
        };
        if case % 7 == 3 {
            options.thresholds.max_array_items = 1 + below(&mut state, 30);
        }
        if case % 9 == 2 {
            options.thresholds.max_findings_per_file = 1 + below(&mut state, 3);
        }
        let whole = read(&path, &options, true);
        let by_item = read(&path, &options, false);
        assert_eq!(by_item, whole, "case {case} ({name}):\n{text}");
        apart += read_apart(name, &text, &options);
        results += whole.lines().filter(|l| l.starts_with("ResultDoc")).count();
        companions += usize::from(whole.contains("Some(\""));
        unknown += usize::from(whole.contains("E004"));
        secrets += usize::from(whole.contains("M018"));
    }
    // The draws reach what they are for.
    assert!(apart > 120, "documents read apart: {apart}");
    assert!(results > 3_000, "results read: {results}");
    assert!(companions > 20, "companions: {companions}");
    assert!(unknown > 10, "unknown documents: {unknown}");
    assert!(secrets > 10, "cases with secrets found: {secrets}");
}

/// An array is read an item at a time wherever the results are read typed, M018 on or off;
/// never where the results are read whole as JSON, in a file read line by line or a sidecar.
#[test]
fn arrays_stay_whole_where_the_results_are_read_whole_or_by_line() {
    let text = std::fs::read_to_string("testdata/adapters/inferencex/agg_bmk.json").unwrap();
    let dir = tempfile::tempdir().unwrap();
    let without_m018 = Selection::new(&[off("M018")], Vec::new(), Vec::new(), dir.path());
    let lean = |selection: Selection| Options {
        lean: true,
        selection,
        ..Options::default()
    };
    assert_eq!(
        read_apart("agg_bmk.json", &text, &lean(without_m018.clone())),
        1
    );
    assert_eq!(
        read_apart("agg_bmk.json", &text, &lean(Selection::default())),
        1
    );
    assert_eq!(
        read_apart("agg_bmk.jsonl", &text, &lean(without_m018.clone())),
        0
    );
    assert_eq!(
        read_apart("agg_bmk.meta.json", &text, &lean(without_m018.clone())),
        0
    );
    let plain = Options {
        selection: without_m018,
        ..Options::default()
    };
    assert_eq!(read_apart("agg_bmk.json", &text, &plain), 0);
}
