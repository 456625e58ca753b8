//! The typed parse against the `Value` parse: on every input, hostile ones first, the same
//! findings, and the same document once the sample arrays are put back.

use serde_json::{Value, json};

use super::{Limits, ParsedText, parse_text_typed, parse_text_with, restore_samples};

const SCHEMA: &str = "benchlint/result/v1";

/// A canonical document whose first level's `ttft_s` samples are `samples` (as written).
fn result_with(samples: &str) -> String {
    format!(
        r#"{{
  "schema": "benchlint/result/v1",
  "id": "r1",
  "levels": [
    {{
      "concurrency": 4,
      "samples": {{
        "ttft_s": {samples},
        "output_tokens": [
          128,
          130
        ]
      }}
    }},
    {{ "concurrency": 8, "samples": {{ "tpot_ms": [12.5, 13.25] }} }}
  ]
}}"#
    )
}

/// Parses `text` both ways, asserts they agree, and returns the typed parse.
fn both(text: &str, lines: bool, limits: &Limits) -> ParsedText {
    let plain = parse_text_with(text, lines, limits);
    let mut typed = parse_text_typed(text, lines, limits, SCHEMA);
    assert_eq!(typed.failures, plain.failures, "{text}");
    assert_eq!(typed.failures_omitted, plain.failures_omitted);
    assert_eq!(typed.nonstandard, plain.nonstandard, "{text}");
    assert_eq!(typed.duplicate_keys, plain.duplicate_keys, "{text}");
    assert_eq!(typed.wide_integers, plain.wide_integers, "{text}");
    assert_eq!(typed.truncated_arrays, plain.truncated_arrays, "{text}");
    assert_eq!(typed.documents.len(), plain.documents.len());
    for (t, p) in typed.documents.iter_mut().zip(&plain.documents) {
        assert_eq!((t.start, t.index), (p.start, p.index));
        let mut restored = t.value.clone();
        restore_samples(&mut restored, &t.samples, text);
        assert_eq!(restored, p.value, "{text}");
    }
    typed
}

/// How many sample arrays were read straight into numbers, over all documents.
fn typed_arrays(p: &ParsedText) -> usize {
    p.documents.iter().map(|d| d.samples.len()).sum()
}

#[test]
fn clean_samples_are_read_into_numbers_and_left_as_empty_arrays() {
    let text = result_with("[0.52, 0.61,\n 0.63, 14.0]");
    let p = both(&text, false, &Limits::default());
    assert_eq!(typed_arrays(&p), 3);
    let d = &p.documents[0];
    assert_eq!(d.samples[0].values, [0.52, 0.61, 0.63, 14.0]);
    assert_eq!((d.samples[0].level, d.samples[0].metric), (0, "ttft_s"));
    assert_eq!(
        &text[d.samples[0].start..d.samples[0].end],
        "[0.52, 0.61,\n 0.63, 14.0]"
    );
    assert_eq!(d.samples[2].level, 1);
    assert_eq!(d.value["levels"][0]["samples"]["ttft_s"], json!([]));
    assert_eq!(d.value["levels"][1]["samples"]["tpot_ms"], json!([]));
    // Numbers below the schema's minimum are numbers: the loader checks the minimum on them.
    let p = both(
        &result_with("[1, -2, -0, -1.5e2]"),
        false,
        &Limits::default(),
    );
    assert_eq!(p.documents[0].samples[0].values, [1.0, -2.0, 0.0, -150.0]);
}

#[test]
fn hostile_samples_give_the_same_findings_and_stay_in_the_document() {
    for samples in [
        // Not numbers, or numbers the schema or the scan reports.
        "[1, \"sk-abcdefghijklmnopqrstuvwxyz0123\"]",
        "[1, null]",
        "[1, NaN, Infinity, -Infinity]",
        "[1e999]",
        "[123456789012345678901234]",
        "[1, [2, [3]]]",
        "[1, {\"a\": 1, \"a\": 2}]",
        "{\"a\": 1}",
        "null",
        // Broken.
        "[1, 2",
        "[1 2]",
        "[1,]",
    ] {
        let p = both(&result_with(samples), false, &Limits::default());
        for d in &p.documents {
            assert!(
                d.samples.iter().all(|s| s.metric != "ttft_s"),
                "{samples} was read as numbers"
            );
        }
    }
}

#[test]
fn a_key_written_twice_anywhere_leaves_every_array_to_the_parser() {
    for text in [
        result_with("[1, 2]").replace(
            "\"ttft_s\": [1, 2],",
            "\"ttft_s\": [3], \"ttft_s\": [1, 2],",
        ),
        result_with("[1, 2]").replace("\"id\": \"r1\",", "\"id\": \"r1\", \"id\": \"r2\","),
        result_with("[1, 2]").replace(
            "\"samples\": {",
            "\"samples\": {\"tpot_ms\": [1], \"tpot_ms\": [2], ",
        ),
        result_with("[1, 2]").replace("\"id\": \"r1\",", "\"levels\": [], "),
    ] {
        let p = both(&text, false, &Limits::default());
        assert_eq!(typed_arrays(&p), 0, "{text}");
        assert!(!p.duplicate_keys.is_empty());
    }
}

#[test]
fn only_documents_of_the_schema_asked_for() {
    for text in [
        result_with("[1, 2]").replace(SCHEMA, "benchlint/claims/v1"),
        result_with("[1, 2]").replace("\"schema\": \"benchlint/result/v1\",", ""),
        result_with("[1, 2]").replace(SCHEMA, "benchlint\\/result\\/v1"),
        format!("[{}]", result_with("[1, 2]")),
    ] {
        assert_eq!(
            typed_arrays(&both(&text, false, &Limits::default())),
            0,
            "{text}"
        );
    }
    // The schema may come last.
    let last = result_with("[1, 2]")
        .replace("\"schema\": \"benchlint/result/v1\",", "")
        .trim_end()
        .trim_end_matches('}')
        .to_string()
        + ", \"schema\": \"benchlint/result/v1\"}";
    assert_eq!(typed_arrays(&both(&last, false, &Limits::default())), 3);
}

#[test]
fn the_bounds_apply_as_before() {
    let long: Vec<String> = (0..50).map(|i| i.to_string()).collect();
    let text = result_with(&format!("[{}]", long.join(", ")));
    let cut = Limits {
        max_array_items: 10,
        ..Limits::default()
    };
    let p = both(&text, false, &cut);
    assert_eq!(p.truncated_arrays.len(), 1);
    assert_eq!(
        typed_arrays(&p),
        2,
        "the long array is cut by the parser's path"
    );
    // Spelled so that serde_json reads it: it stops at the bound too.
    let long: Vec<String> = (0..50).map(|i| format!("{i}e0")).collect();
    let p = both(&result_with(&format!("[{}]", long.join(", "))), false, &cut);
    assert_eq!((p.truncated_arrays.len(), typed_arrays(&p)), (1, 2));
    // Nested deeper than the bound: not parsed, as before.
    let shallow = Limits {
        max_depth: 4,
        ..Limits::default()
    };
    let p = both(&result_with("[1]"), false, &shallow);
    assert!(p.documents.is_empty() && p.failures.len() == 1);
    let exact = Limits {
        max_depth: 5,
        ..Limits::default()
    };
    assert_eq!(typed_arrays(&both(&result_with("[1]"), false, &exact)), 3);
    // Deep nesting beside the samples.
    let deep = result_with("[1]").replace(
        "\"id\": \"r1\",",
        &format!("\"deep\": {}{},", "[".repeat(100_000), "]".repeat(100_000)),
    );
    let p = both(&deep, false, &Limits::default());
    assert!(p.documents.is_empty() && p.failures.len() == 1);
}

#[test]
fn several_documents_and_json_lines() {
    let one: Value = serde_json::from_str(&result_with("[1, 2.5]")).unwrap();
    let line = one.to_string();
    let text = format!(
        "{line}\n{}\n{{\"broken\": \n{line}\n",
        line.replace("[1,2.5]", "[NaN,1]")
    );
    let p = both(&text, false, &Limits::default());
    assert_eq!(p.documents.len(), 3);
    assert_eq!(p.documents[0].samples.len(), 3);
    assert_eq!(
        p.documents[1].samples.len(),
        2,
        "the NaN array stays in the document"
    );
    let p = both(&text, true, &Limits::default());
    assert_eq!(p.documents.len(), 3);
    let pretty = format!("{}\n{}", result_with("[1]"), result_with("[2, 3]"));
    let p = both(&pretty, false, &Limits::default());
    assert_eq!(p.documents[1].samples[0].values, [2.0, 3.0]);
    // Truncated inside the samples, and garbage after an array.
    let text = result_with("[1, 2, 3]");
    let at = text.find("[1, 2").unwrap() + 4;
    both(&text[..at], false, &Limits::default());
    both(&result_with("[1, 2]x"), false, &Limits::default());
    both(&result_with("[1, 2]]"), false, &Limits::default());
}

#[test]
fn random_edits_of_a_result_parse_the_same_both_ways() {
    // Deterministic edits of a small result: bytes replaced, dropped or repeated, most of them
    // in and around its sample arrays.
    let base = format!(
        "{}\n{}",
        result_with("[0.5, 12, 0, 3.25,\n 7e1, 0.000001]"),
        result_with("[1, 2]")
    );
    let alphabet = b"[]{}\",:-.eE0123456789 \nNaIfy\\";
    let mut x: u64 = 0x2545_F491_4F6C_DD1D;
    let mut next = |n: usize| {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        usize::try_from(x % n as u64).unwrap_or(0)
    };
    let tiny = Limits {
        max_depth: 5,
        max_array_items: 3,
        ..Limits::default()
    };
    for _ in 0..3000 {
        let mut bytes = base.clone().into_bytes();
        for _ in 0..=next(4) {
            let at = next(bytes.len());
            match next(3) {
                0 => bytes[at] = alphabet[next(alphabet.len())],
                1 => {
                    bytes.remove(at);
                }
                _ => bytes.insert(at, bytes[at]),
            }
        }
        let Ok(text) = String::from_utf8(bytes) else {
            continue;
        };
        for lines in [false, true] {
            both(&text, lines, &Limits::default());
            both(&text, lines, &tiny);
        }
    }
}
