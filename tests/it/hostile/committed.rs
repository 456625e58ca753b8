//! Hostile input committed under `testdata/hostile/`: each case's exact diagnostic, and every
//! committed fixture through every output format.

use std::path::PathBuf;

use serde_json::Value;

use super::{assert_input_errors, check, code, hostile, results};
use crate::support::watchdog::{LIMIT, bin, run};

// ---------------------------------------------------------------------------------------------
// Committed fixtures.

#[test]
fn truncated_document() {
    let (_, ds) = check(&[&hostile("truncated.json")]);
    assert_input_errors(
        &ds,
        &[(
            "E002",
            "EOF while parsing a list (the document is truncated)",
        )],
    );
}

#[test]
fn binary_data() {
    let (_, ds) = check(&[&hostile("binary.json")]);
    assert_input_errors(
        &ds,
        &[(
            "E001",
            "could not be read: file holds NUL bytes: binary data, not JSON text",
        )],
    );
}

#[test]
fn utf16_with_and_without_a_byte_order_mark() {
    let (_, ds) = check(&[&hostile("utf16.json")]);
    assert_input_errors(
        &ds,
        &[("E001", "file is UTF-16; benchlint reads UTF-8 only")],
    );
    let (_, ds) = check(&[&hostile("utf16-no-bom.json")]);
    assert_input_errors(
        &ds,
        &[("E001", "file looks like UTF-16 without a byte order mark")],
    );
}

#[test]
fn utf8_byte_order_mark_is_reported_and_the_file_read() {
    let (r, ds) = check(&[&hostile("bom.json")]);
    assert_input_errors(
        &ds,
        &[(
            "E005",
            "byte order mark, which JSON forbids; the mark was ignored and the rest of the file read",
        )],
    );
    assert_eq!(results(&r), 1);
}

#[test]
fn nan_and_infinity() {
    let (_, ds) = check(&[&hostile("nan.json")]);
    assert_input_errors(
        &ds,
        &[
            (
                "E005",
                "bare `NaN` is not JSON; read as the string \"NaN\" (1 more in this document)",
            ),
            (
                "E003",
                "schema violation at `/levels/0/duration_s`: value is not of type \"number\"",
            ),
            (
                "E003",
                "schema violation at `/levels/0/gpu_mem_gib`: value is not of type \"number\"",
            ),
        ],
    );
}

#[test]
fn a_number_beyond_the_largest_double() {
    let (_, ds) = check(&[&hostile("big-exponent.json")]);
    assert_input_errors(
        &ds,
        &[(
            "E002",
            "number out of range: it is beyond the largest finite double (about 1.8e308), such as `1e999`",
        )],
    );
    let d = ds.iter().find(|d| code(d) == "E002").unwrap();
    assert_eq!(
        (d["line"].as_u64(), d["column"].as_u64()),
        (Some(8), Some(43)),
        "{d}"
    );
}

#[test]
fn an_integer_beyond_64_bits() {
    let (_, ds) = check(&[&hostile("wide-integer.json")]);
    // Read as the nearest double (E005); the typed model then refuses a fraction-less float
    // that large for a count (E003).
    assert_input_errors(
        &ds,
        &[
            (
                "E005",
                "integer beyond the 64-bit range; it is read as the nearest double, which loses its last digits",
            ),
            (
                "E003",
                "could not be read as `benchlint/result/v1`: invalid type: floating point `1.2345678901234568e+29`, expected u64",
            ),
        ],
    );
}

#[test]
fn duplicate_keys_are_reported_and_the_last_is_read() {
    let (r, ds) = check(&[&hostile("duplicate-keys.json")]);
    assert_input_errors(
        &ds,
        &[(
            "E005",
            "the key \"concurrency\" appears more than once in the same object; benchlint reads the last value",
        )],
    );
    assert_eq!(results(&r), 1);
}

#[test]
fn an_empty_json_lines_line_is_skipped() {
    let (r, ds) = check(&[&hostile("empty-line.jsonl")]);
    assert_input_errors(&ds, &[]);
    assert_eq!(results(&r), 2);
}

#[test]
fn an_error_offset_inside_a_multibyte_character() {
    // Regression: the snippet's span ended inside `é` and the human report panicked.
    for format in ["human", "json", "sarif", "github", "concise"] {
        let mut cmd = bin();
        cmd.args(["check", "--isolated", "--format", format])
            .arg(hostile("multibyte-error.json"));
        let r = run(cmd, LIMIT);
        r.assert_ran(format);
        assert!(r.out().contains("expected value"), "{format}: {}", r.out());
    }
    let (_, ds) = check(&[&hostile("multibyte-error.json")]);
    assert_input_errors(&ds, &[("E002", "expected value")]);
}

/// Places of the canonical schema that take any value (free-form maps), so a wrong type there
/// is no violation.
const FREE_FORM: [&str; 4] = [
    "/platform/load_snapshot/",
    "/platform/fabric/collectives/",
    "/workload/sampling/top_",
    "/workload/sampling/repetition_penalty",
];

#[test]
fn wrong_types_in_every_field_give_e003_at_each_pointer() {
    let path = hostile("wrong-types.json");
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let mut leaves = Vec::new();
    let mut stack = vec![(String::new(), &doc)];
    while let Some((pointer, v)) = stack.pop() {
        match v {
            Value::Object(m) => stack.extend(m.iter().map(|(k, c)| {
                (
                    format!("{pointer}/{}", benchlint::json::escape_pointer_token(k)),
                    c,
                )
            })),
            Value::Array(a) => stack.extend(
                a.iter()
                    .enumerate()
                    .map(|(i, c)| (format!("{pointer}/{i}"), c)),
            ),
            _ if pointer == "/schema" => {}
            _ => leaves.push(pointer),
        }
    }
    assert!(
        leaves.len() > 500,
        "the fixture covers the schema ({} leaves)",
        leaves.len()
    );
    let (_, ds) = check(&[&path]);
    assert!(
        ds.iter().all(|d| code(d) == "E003"),
        "only E003: {:?}",
        ds.iter().map(code).collect::<Vec<_>>()
    );
    let at: std::collections::BTreeSet<&str> =
        ds.iter().map(|d| d["pointer"].as_str().unwrap()).collect();
    let missing: Vec<&String> = leaves
        .iter()
        .filter(|l| !at.contains(l.as_str()) && !FREE_FORM.iter().any(|f| l.starts_with(f)))
        .collect();
    assert!(
        missing.is_empty(),
        "wrong types without an E003 at their pointer: {missing:?}"
    );
    let stray: Vec<&&str> = at
        .iter()
        .filter(|p| !leaves.iter().any(|l| l == *p))
        .collect();
    assert!(
        stray.is_empty(),
        "E003 at pointers that are not leaves: {stray:?}"
    );
}

// ---------------------------------------------------------------------------------------------
// The reader's functions on every committed fixture, in-process.

#[test]
fn every_committed_fixture_through_every_format() {
    let mut files: Vec<PathBuf> = std::fs::read_dir("testdata/hostile")
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .collect();
    files.sort();
    for format in [
        "human",
        "concise",
        "json",
        "json-lines",
        "sarif",
        "github",
        "junit",
    ] {
        let mut cmd = bin();
        cmd.args(["check", "--isolated", "--format", format])
            .args(&files);
        let r = run(cmd, LIMIT);
        r.assert_ran(format);
        assert_eq!(r.code, Some(1), "{format}");
    }
}
