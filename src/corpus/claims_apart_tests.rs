//! A claims document read a claim at a time gives what reading it whole gives: the same
//! findings in the same order at the same places (schema errors, unreadable claims, bare `NaN`,
//! repeated keys, broken documents, items past the bound), the same claims read, whatever the
//! document holds, where its keys sit, how its file is split or marked and which command reads
//! it.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use serde_json::{Map, Value, json};

use super::drawn_text::{bare_nan, cut_short};
use super::line_file_tests::{code, off, shown};
use super::{Entry, Options, beside, discover, line_file, parse, per_file};
use crate::config::Selection;
use crate::seeded::below;

/// Every claims document of this repository's fixtures that parses, as a value.
fn claims_pool() -> Vec<Value> {
    let mut pool = Vec::new();
    for entry in walkdir::WalkDir::new("testdata").sort_by_file_name() {
        let entry = entry.unwrap();
        if entry.path().extension().is_none_or(|e| e != "json") {
            continue;
        }
        let Ok(text) = std::fs::read_to_string(entry.path()) else {
            continue;
        };
        if !text.contains(crate::model::CLAIMS_SCHEMA) {
            continue;
        }
        if let Ok(value) = serde_json::from_str::<Value>(&text)
            && value.get("claims").is_some_and(Value::is_array)
        {
            pool.push(value);
        }
    }
    assert!(pool.len() > 20, "the fixtures hold claims files");
    pool
}

/// A value that is not what a claim's field holds, or one a claim cannot be read with.
fn odd_value(state: &mut u64, depth: usize) -> Value {
    match below(state, 9) {
        0 => json!("not a number"),
        1 => json!(1.5),
        2 => json!(15.0),
        3 => json!(99_999_999_999_999_999_999.0),
        4 => Value::Null,
        5 => json!([1, "two", null]),
        6 => json!({"nested": {"deeper": [true]}}),
        7 => {
            let mut v = json!(1);
            for _ in 0..depth {
                v = json!([v]);
            }
            v
        }
        _ => Value::String("x".repeat(300)),
    }
}

/// `claim` changed in one of the ways a hand-written claims file goes wrong.
fn mutate_claim(state: &mut u64, claim: &mut Value) {
    match below(state, 9) {
        0 => {}
        1 => {
            if let Some(obj) = claim.as_object_mut()
                && !obj.is_empty()
            {
                let key = obj.keys().nth(below(state, obj.len())).cloned().unwrap();
                obj.shift_remove(&key);
            }
        }
        2 | 3 => {
            let depth = 3 + below(state, 12);
            let odd = odd_value(state, depth);
            if let Some(obj) = claim.as_object_mut()
                && !obj.is_empty()
            {
                let key = obj.keys().nth(below(state, obj.len())).cloned().unwrap();
                obj.insert(key, odd);
            }
        }
        4 => {
            if let Some(obj) = claim.as_object_mut() {
                obj.insert("extra".into(), odd_value(state, 2));
            }
        }
        5 => *claim = [json!("not a claim"), json!([]), json!(3)][below(state, 3)].clone(),
        _ => {
            // A number the typed claim cannot hold, in a field that is a number.
            if let Some(obj) = claim.as_object_mut() {
                let numeric: Vec<String> = obj
                    .iter()
                    .filter(|(_, v)| v.is_number())
                    .map(|(k, _)| k.clone())
                    .collect();
                if !numeric.is_empty() {
                    let key = numeric[below(state, numeric.len())].clone();
                    obj.insert(key, json!(99_999_999_999_999_999_999.0));
                }
            }
        }
    }
}

/// A claims document drawn from `pool`: claims taken from several documents, some changed,
/// and the document's own keys now and then reordered, added to or replaced.
fn drawn_document(state: &mut u64, pool: &[Value]) -> Value {
    let mut claims = Vec::new();
    // Now and then past ten claims, where `/claims/10` sorts before `/claims/2`.
    let count = if below(state, 4) == 0 {
        12 + below(state, 30)
    } else {
        below(state, 12)
    };
    for _ in 0..count {
        let doc = &pool[below(state, pool.len())];
        let items = doc["claims"].as_array().unwrap();
        if items.is_empty() {
            continue;
        }
        let mut claim = items[below(state, items.len())].clone();
        if below(state, 9) == 0 {
            mutate_claim(state, &mut claim);
        }
        claims.push(claim);
    }
    let mut root = Map::new();
    let claims_first = below(state, 4) == 0;
    if claims_first {
        root.insert("claims".into(), Value::Array(claims.clone()));
    }
    root.insert("schema".into(), json!(crate::model::CLAIMS_SCHEMA));
    if !claims_first {
        root.insert("claims".into(), Value::Array(claims));
    }
    match below(state, 10) {
        0 => {
            root.insert("note".into(), json!("a key the schema does not know"));
        }
        1 => {
            root.insert(
                "claims".into(),
                [json!({}), json!("x")][below(state, 2)].clone(),
            );
        }
        _ => {}
    }
    Value::Object(root)
}

/// The text of `doc`, now and then changed as text: a bare `NaN`, a key written twice, the
/// schema written with escapes, the document cut short or followed by more.
fn drawn_text(state: &mut u64, doc: &Value) -> String {
    let mut text = if below(state, 2) == 0 {
        serde_json::to_string_pretty(doc).unwrap()
    } else {
        serde_json::to_string(doc).unwrap()
    };
    match below(state, 10) {
        0 => bare_nan(&mut text, &[": 1", ":1"]),
        1 => {
            if let Some(at) = text.find("\"id\"") {
                text.insert_str(at, "\"id\": \"first\", ");
            }
        }
        2 => {
            text = text.replacen("benchlint/claims/v1", "benchlint\\/claims\\/v1", 1);
        }
        3 => cut_short(state, &mut text),
        4 => text.push_str(" trailing"),
        _ => {}
    }
    text
}

/// Selections under which no per-document rule reads the whole document: every rule but M018,
/// only the rules that say an input could not be read (as `summary` and its kin load), and
/// every rule but M018 with a code at another severity.
fn selections(dir: &Path) -> Vec<Selection> {
    vec![
        Selection::new(&[off("M018")], Vec::new(), Vec::new(), dir),
        Selection::default().only(&super::UNREADABLE),
        Selection::new(
            &[off("M018")],
            vec![(code("E003"), crate::diagnostic::Severity::Warning)],
            Vec::new(),
            dir,
        ),
    ]
}

/// How `path` reads under `options`, its claims documents read whole (`true`) or a claim at a
/// time where they can be: what is shown of the outcome, then every claim read.
fn read(path: &Path, options: &Options, whole: bool) -> String {
    let (entries, _, _) = discover::discover_all(&[path.to_path_buf()], &options.walk);
    let entry: &Entry = &entries[0];
    let run: Vec<&Path> = entries.iter().map(Entry::path).collect();
    let hood = beside::Neighbourhood::new(&run, options.thresholds.json_limits());
    super::claims::read_whole(whole);
    let mut outcome = if line_file::reads_by_line(entry, None) {
        line_file::process_line_file(entry, options, &hood, None)
    } else {
        per_file::process_file(entry, options, (&run, &hood), None)
    };
    super::claims::read_whole(false);
    outcome.cap(options);
    let mut out = shown(&outcome);
    for c in &outcome.claims {
        for item in &c.claims {
            let _ = writeln!(out, "{:?} {:?}", item.id, item.read);
        }
    }
    out
}

/// How many documents of `text` (named `name`) the parser leaves their claims apart in.
fn read_apart(name: &str, text: &str, options: &Options) -> usize {
    let parsed = parse::parse_json_text(name, text, options);
    parsed
        .documents
        .iter()
        .filter(|d| d.apart.is_some())
        .count()
}

#[test]
fn claims_read_one_at_a_time_give_what_reading_them_whole_gives() {
    let pool = claims_pool();
    let dir = tempfile::tempdir().unwrap();
    let selections = selections(dir.path());
    let mut state = 0xc1a1_u64;
    let (mut apart, mut read_claims, mut invalid, mut unreadable) = (0, 0, 0, 0);
    for case in 0..400 {
        let count = 1 + usize::from(case % 5 == 4) + usize::from(case % 7 == 6);
        let texts: Vec<String> = (0..count)
            .map(|_| {
                let doc = drawn_document(&mut state, &pool);
                drawn_text(&mut state, &doc)
            })
            .collect();
        let lines = case % 6 == 5;
        let (name, text) = if lines {
            let compact: Vec<String> = texts
                .iter()
                .map(|t| t.lines().map(str::trim).collect::<Vec<_>>().join(""))
                .collect();
            (format!("case-{case}.jsonl"), compact.join("\n"))
        } else {
            (format!("case-{case}.json"), texts.join("\n"))
        };
        let path: PathBuf = dir.path().join(&name);
        // Now and then a byte order mark, which the loader takes off before the text is parsed.
        let bom: &[u8] = if case % 7 == 3 { b"\xEF\xBB\xBF" } else { b"" };
        std::fs::write(&path, [bom, text.as_bytes()].concat()).unwrap();
        let mut options = Options {
            lean: case % 2 == 0,
            samples_apart: case % 2 == 1,
            drop_claims: case % 3 == 0,
            selection: selections[case % selections.len()].clone(),
            lines_per_chunk: [1, 2, 256][below(&mut state, 3)],
            ..Options::default()
        };
        if case % 8 == 3 {
            options.thresholds.max_array_items = 1 + below(&mut state, 4);
        }
        if case % 11 == 7 {
            options.thresholds.max_depth = 6 + below(&mut state, 6);
        }
        if case % 9 == 2 {
            options.thresholds.max_findings_per_file = 1 + below(&mut state, 3);
        }
        let whole = read(&path, &options, true);
        let by_claim = read(&path, &options, false);
        assert_eq!(by_claim, whole, "case {case} ({name}):\n{text}");
        if !lines {
            apart += read_apart(&name, &text, &options);
        }
        read_claims += whole.lines().filter(|l| l.starts_with("Some(")).count();
        invalid += usize::from(whole.contains("E003"));
        unreadable += usize::from(whole.contains("not a readable claim"));
    }
    // The draws reach what they are for.
    assert!(apart > 180, "documents read apart: {apart}");
    assert!(read_claims > 450, "claims read: {read_claims}");
    assert!(invalid > 120, "cases with schema errors: {invalid}");
    assert!(
        unreadable > 15,
        "cases with unreadable claims: {unreadable}"
    );
}

/// Where a per-document rule reads the whole document (M018, on by default), or the results
/// are read whole as JSON, the claims are never left apart.
#[test]
fn claims_stay_whole_where_a_rule_reads_the_whole_document() {
    let text = std::fs::read_to_string(
        "testdata/rules/C001-mixed-precision/fail/fp8-against-nvfp4/claims.json",
    )
    .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let without_m018 = selections(dir.path()).remove(0);
    let lean = |selection: Selection| Options {
        lean: true,
        selection,
        ..Options::default()
    };
    assert_eq!(
        read_apart("claims.json", &text, &lean(without_m018.clone())),
        1
    );
    assert_eq!(
        read_apart("claims.json", &text, &lean(Selection::default())),
        0
    );
    let plain = Options {
        selection: without_m018,
        ..Options::default()
    };
    assert_eq!(read_apart("claims.json", &text, &plain), 0);
}
