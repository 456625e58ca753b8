//! Levels read straight from the text against the `Value` path: on many levels, valid and
//! not, the typed reading takes only what the schema validator accepts, every E003 is the
//! validator's, and a whole load (the per-result rules included) finds the same.

mod cases;

use std::path::PathBuf;

use serde::Deserialize as _;
use serde_json::Value;

use super::parse::{document_schema_errors, result_schema_errors};
use super::{Options, load};
use crate::diagnostic::Finding;
use crate::json::{Limits, parse_text_lean, parse_text_with, restore_samples};
use crate::model::{Level, RESULT_SCHEMA};
use crate::schema;

use cases::{FULL, levels};

/// A canonical document holding `levels` (JSON text of the array's items), its outcome `ok`.
fn document(levels: &[&str]) -> String {
    format!(
        r#"{{"schema": "{RESULT_SCHEMA}", "id": "r1", "measured_at": "2026-01-01T00:00:00Z",
  "outcome": "ok", "levels": [{}]}}"#,
        levels.join(",\n    ")
    )
}

/// The levels of `value` read as the loader reads them, their samples left out.
fn typed_of(value: &Value) -> Vec<Level> {
    let mut levels = Vec::<Level>::deserialize(&value["levels"]).unwrap();
    for l in &mut levels {
        l.samples = None;
    }
    levels
}

/// Asserts that the lean parse of `text` finds what the `Value` parse finds and gives the
/// validator's errors; whether its levels were read into the typed model.
fn differential(text: &str) -> bool {
    let limits = Limits::default();
    let plain = parse_text_with(text, false, &limits);
    let mut lean = parse_text_lean(text, false, &limits, RESULT_SCHEMA);
    assert_eq!(lean.failures, plain.failures, "{text}");
    assert_eq!(lean.nonstandard, plain.nonstandard, "{text}");
    assert_eq!(lean.duplicate_keys, plain.duplicate_keys, "{text}");
    assert_eq!(lean.wide_integers, plain.wide_integers, "{text}");
    assert_eq!(lean.documents.len(), plain.documents.len(), "{text}");
    let mut taken = false;
    for (doc, whole) in lean.documents.iter_mut().zip(&plain.documents) {
        let expected = schema::validate(schema::Kind::Result, &whole.value);
        let Some(typed) = doc.levels.clone() else {
            assert_eq!(document_schema_errors(doc, text), expected, "{text}");
            continue;
        };
        taken = true;
        // The validator accepts every level taken, but for sample numbers below 0, which
        // are checked as numbers either way.
        assert!(
            expected
                .iter()
                .all(|e| !e.pointer.starts_with("/levels/") || e.pointer.contains("/samples/")),
            "taken, yet the validator says {expected:?}:\n{text}"
        );
        let mut read = typed.levels.clone();
        for l in &mut read {
            l.samples = None;
        }
        assert_eq!(read, typed_of(&whole.value), "{text}");
        // One `null` per level stands in the document.
        assert_eq!(
            doc.value["levels"].as_array().map(Vec::len),
            Some(typed.levels.len())
        );
        let errors = document_schema_errors(doc, text);
        assert_eq!(errors, expected, "{text}");
        // Put back, the document is the one the `Value` parse gives.
        let mut restored = doc.value.clone();
        crate::json::restore_levels(&mut restored, &typed, &doc.samples, text);
        assert_eq!(
            result_schema_errors(&restored, &doc.samples),
            expected,
            "{text}"
        );
        restore_samples(&mut restored, &doc.samples, text);
        assert_eq!(restored, whole.value, "{text}");
    }
    taken
}

#[test]
fn the_typed_reading_takes_only_what_the_validator_accepts() {
    let cases = levels();
    let mut taken = Vec::new();
    for level in &cases {
        if differential(&document(&[level])) {
            taken.push(level.as_str());
        }
        // Beside a valid level, in either order.
        differential(&document(&[FULL, level]));
        differential(&document(&[level, r#"{"request_rate": "inf"}"#]));
    }
    // What every valid result writes is taken, not left to the slow path.
    for expected in [
        FULL,
        r#"{"concurrency": 4, "request_rate": "inf"}"#,
        r#"{"request_rate": 0.5}"#,
        r#"{"request_rate": "in\u0066"}"#,
        r#"{"concurrency": 4, "duration_s": -0}"#,
        r#"{"concurrency": 4, "error_rate": 1.0}"#,
        r#"{"concurrency": 4, "power_w": {"kind": "w\u0061ll"}}"#,
        r#"{"concurrency": 4, "gpu_mem_gib": 1e308}"#,
        r#"{"concurrency": 4, "samples": {"ttft_s": [-1, 1]}}"#,
    ] {
        assert!(taken.contains(&expected), "not taken: {expected}");
    }
    // And what the schema counts as an integer but the model reads only once made whole is
    // left to the slow path, as are nulls and unknown keys.
    for left in [
        r#"{"concurrency": 4, "requests": 32.0}"#,
        r#"{"concurrency": 4, "requests": null}"#,
        r#"{"concurrency": 4, "ttft_s": {"p50": null}}"#,
        r#"{"concurrency": 1, "note": "x"}"#,
    ] {
        assert!(!taken.contains(&left), "taken: {left}");
    }
    assert!(
        taken.len() > 150,
        "{} taken of {}",
        taken.len(),
        cases.len()
    );
}

#[test]
fn no_levels_minimum_and_the_rest_of_the_document_are_the_validators() {
    // The outcome asks for a level: the count is checked on the `null`s, and the error is
    // the validator's.
    let mut without_levels = document(&[]);
    assert!(differential(&without_levels));
    let errors = schema::validate(
        schema::Kind::Result,
        &serde_json::from_str(&without_levels).unwrap(),
    );
    assert_eq!(errors.len(), 1, "{errors:?}");
    without_levels = without_levels.replace("\"ok\"", "\"failed\"");
    assert!(differential(&without_levels));
    // Valid levels, an error elsewhere: the whole document is asked again.
    let text = document(&[FULL, FULL]).replace("2026-01-01T00:00:00Z", "yesterday");
    assert!(differential(&text));
    let text = document(&[FULL]).replace("\"id\": \"r1\",", "\"id\": 5, \"extra\": 1,");
    assert!(differential(&text));
    // Levels not an array, written twice, or cut at the bound: left to the parser.
    assert!(!differential(
        &document(&[FULL])
            .replace("\"levels\": [", "\"levels\": {\"a\": [")
            .replace("]}", "]}}")
    ));
    let twice = document(&[FULL]).replace("\"levels\":", "\"levels\": [], \"levels\":");
    assert!(!differential(&twice));
    let limits = Limits {
        max_array_items: 2,
        ..Limits::default()
    };
    let text = document(&[FULL, FULL, FULL]);
    let lean = parse_text_lean(&text, false, &limits, RESULT_SCHEMA);
    assert!(lean.documents[0].levels.is_none());
    let lean = parse_text_lean(&document(&[FULL]), false, &limits, RESULT_SCHEMA);
    assert!(
        lean.documents[0].levels.is_some(),
        "a cut sample array is not in the levels"
    );
    // A truncated document and JSON Lines: the same failures either way.
    assert!(!differential(&document(&[FULL])[..300]));
    let lines = format!(
        "{}\n{}\n",
        document(&[FULL]).replace('\n', " "),
        document(&["{\"concurrency\": -1}"]).replace('\n', " ")
    );
    differential(&lines);
}

/// What a whole load finds: each finding's code, place and message, in order.
fn load_findings(dir: &std::path::Path, lean: bool) -> Vec<String> {
    let options = Options {
        lean,
        ..Options::default()
    };
    let corpus = load(&[dir.to_path_buf()], &options);
    assert!(
        corpus.internal_errors.is_empty(),
        "{:?}",
        corpus.internal_errors
    );
    let show = |f: &Finding| {
        format!(
            "{} {} {} {:?} {}",
            f.rule.code,
            f.primary.path.raw(),
            f.primary.pointer.raw(),
            f.primary.offset,
            f.message.raw()
        )
    };
    let mut out: Vec<String> = corpus.findings.iter().map(show).collect();
    for r in &corpus.results {
        let mut levels = r.doc.levels.clone().into_vec();
        for l in &mut levels {
            l.samples = None;
        }
        out.push(format!("{} {levels:?}", r.origin.path.raw()));
    }
    out
}

#[test]
fn a_whole_load_finds_the_same_on_both_paths() {
    let complete: Value = serde_json::from_str(include_str!(
        "../../testdata/clean/replicated-corpus/complete.json"
    ))
    .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, text: &str| {
        std::fs::write(dir.path().join(name), text).unwrap();
    };
    let full: Vec<String> = complete["levels"]
        .as_array()
        .unwrap()
        .iter()
        .map(Value::to_string)
        .collect();
    let with_levels = |levels: &[String]| {
        let mut v = complete.clone();
        v["levels"] = Value::Array(
            levels
                .iter()
                .map(|l| serde_json::from_str(l).unwrap())
                .collect(),
        );
        serde_json::to_string_pretty(&v).unwrap()
    };
    write("complete.json", &with_levels(&full));
    // Per-user rates derived from the median TPOT, findings on the levels (R017 from the
    // samples, counts that disagree), a placeholder and a secret outside the levels.
    let mut derived = full.clone();
    derived[0] = r#"{"concurrency": 1, "requests": 25, "failed": 3, "total_requests": 30, "duration_s": 120.0, "output_tokens": 5631, "tpot_ms": {"p50": 20.94}, "ttft_s": {"p50": 9.0}, "samples": {"ttft_s": [0.1, 0.2, 0.3]}}"#.into();
    derived[1] = r#"{"request_rate": "inf", "max_concurrency": 8, "tpot_ms": {"p50": 25}, "throughput_tok_s": {"aggregate": 1.5}}"#.into();
    let mut off: Value = serde_json::from_str(&full[2]).unwrap();
    off["ttft_s"]["p50"] = 9.0.into();
    derived[2] = off.to_string();
    let mut secret: Value = serde_json::from_str(&with_levels(&derived)).unwrap();
    secret["labels"] = serde_json::json!({"token": "sk-abcdefghijklmnopqrstuvwxyz0123456789"});
    secret["harness"]["name"] = "TBD".into();
    write("secret.json", &serde_json::to_string(&secret).unwrap());
    // Each case of the differential as the first level of a complete result.
    for (i, level) in levels().iter().enumerate().step_by(3) {
        if serde_json::from_str::<Value>(level).is_err() {
            continue;
        }
        let mut these = full.clone();
        these[0].clone_from(level);
        write(&format!("case-{i:03}.json"), &with_levels(&these));
    }
    // Over the bound of levels, and a sidecar that tries to write levels.
    let mut many = full.clone();
    many.extend(std::iter::repeat_n(full[5].clone(), 1_000));
    write("many.json", &with_levels(&many));
    write("sided.json", &with_levels(&full));
    write(
        "sided.meta.json",
        r#"{"levels": [{"concurrency": 1}], "notes": "from the sidecar"}"#,
    );
    let lean = load_findings(dir.path(), true);
    let whole = load_findings(dir.path(), false);
    assert_eq!(lean.len(), whole.len());
    for (l, w) in lean.iter().zip(&whole) {
        assert_eq!(l, w);
    }
    for code in ["E003 ", "E001 ", "M016 ", "M018 ", "R017 ", "R025 "] {
        assert!(lean.iter().any(|f| f.starts_with(code)), "no {code}");
    }
    let _: PathBuf = dir.path().to_path_buf();
}
