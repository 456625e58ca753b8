//! File names escaped in every output, never made into another file's name, and each finding
//! named by its own pointer, the canonical one where a harness file has no key for the value.

use std::collections::BTreeSet;
use std::path::Path;
use std::time::Duration;

use serde_json::{Value, json};

use super::{REALWORLD, check_in};
use crate::support::watchdog::{bin, run};

#[test]
fn a_file_name_is_escaped_never_made_into_another() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let bad = r#"{"schema": "benchlint/result/v1", "id": "x", "outcome": "ok", "levels": []}"#;
    // `a\b.json` beside a clean `a/b.json`: the annotation must not land on the clean one.
    std::fs::create_dir(dir.join("a")).unwrap();
    std::fs::write(dir.join("a").join("b.json"), "{}").unwrap();
    // The three names of the report, and names drawn (fixed seed) from the characters a
    // workflow command or a URI treats specially.
    let mut names: Vec<String> = ["a\\b.json", "t\tab.json", "x::y.json"]
        .map(String::from)
        .to_vec();
    let alphabet: Vec<char> = "ab\\\t:,%# ;=&?".chars().collect();
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    for _ in 0..12 {
        let mut name = String::new();
        for _ in 0..6 {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            let k = usize::try_from(seed >> 33).unwrap() % alphabet.len();
            name.push(alphabet[k]);
        }
        name.push_str(".json");
        names.push(name);
    }
    names.sort();
    names.dedup();
    for name in &names {
        std::fs::write(dir.join(name), bad).unwrap();
    }
    let r = check_in(
        dir,
        &[
            ".",
            "--isolated",
            "--format",
            "github",
            "--project-root",
            ".",
        ],
    );
    let unescape = |s: &str| {
        s.replace("%3A", ":")
            .replace("%2C", ",")
            .replace("%0D", "\r")
            .replace("%0A", "\n")
            .replace("%25", "%")
    };
    let mut named = BTreeSet::new();
    for line in r.out().lines() {
        let Some(at) = line.find(" file=") else {
            continue;
        };
        let rest = &line[at + 6..];
        let file = unescape(&rest[..rest.find(',').unwrap_or(rest.len())]);
        assert!(dir.join(&file).is_file(), "file={file:?} names no file");
        named.insert(file);
    }
    for name in &names {
        assert!(named.contains(name), "{name:?} annotated: {named:?}");
    }
    let r = check_in(
        dir,
        &[
            ".",
            "--isolated",
            "--format",
            "sarif",
            "--project-root",
            ".",
        ],
    );
    let log: Value = serde_json::from_str(&r.out()).unwrap();
    let decode = |s: &str| {
        let bytes = s.as_bytes();
        let mut out = Vec::new();
        let mut i = 0;
        while i < bytes.len() {
            if bytes[i] == b'%' {
                out.push(u8::from_str_radix(&s[i + 1..i + 3], 16).unwrap());
                i += 3;
            } else {
                out.push(bytes[i]);
                i += 1;
            }
        }
        String::from_utf8(out).unwrap()
    };
    let mut uris = BTreeSet::new();
    for res in log["runs"][0]["results"].as_array().unwrap() {
        let uri = res["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
            .as_str()
            .unwrap();
        let file = decode(uri);
        assert!(dir.join(&file).is_file(), "{uri} names no file");
        uris.insert(file);
    }
    for name in &names {
        assert!(uris.contains(name), "{name:?} in SARIF: {uris:?}");
    }
}

#[test]
fn a_missing_field_is_named_by_its_own_pointer_everywhere() {
    // A copy, so that the baseline sits beside the corpus it records.
    let tmp = tempfile::tempdir().unwrap();
    let here = tmp.path();
    std::fs::create_dir(here.join("corpus")).unwrap();
    std::fs::copy(
        "testdata/adapters/vllm/bench-serve-save-detailed.json",
        here.join("corpus/r.json"),
    )
    .unwrap();
    let file = "corpus/r.json";
    let r = check_in(here, &[file, "--isolated", "--format", "json"]);
    let v: Value = serde_json::from_str(&r.out()).unwrap();
    let missing: Vec<&Value> = v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["message"].as_str().unwrap().starts_with("not recorded: "))
        .collect();
    assert!(missing.len() > 3);
    for d in &missing {
        let pointer = d["pointer"].as_str().unwrap();
        let message = d["message"].as_str().unwrap();
        assert!(pointer.len() > 1, "{d}");
        assert!(message.contains(&format!("(`{pointer}`)")), "{d}");
    }
    // The baseline records each field, so fixing one while another goes missing is new.
    let baseline = here.join("baseline.json");
    let b = "baseline.json";
    let r = check_in(
        here,
        &[file, "--isolated", "--baseline", b, "--update-baseline"],
    );
    assert_eq!(r.code, Some(0), "{}", r.err());
    let written: Value =
        serde_json::from_str(&std::fs::read_to_string(&baseline).unwrap()).unwrap();
    assert_eq!(written["version"], 2);
    let entries = written["findings"]
        .as_object()
        .unwrap()
        .values()
        .next()
        .unwrap();
    for (code, pointers) in entries.as_object().unwrap() {
        for p in pointers.as_array().unwrap() {
            let p = p.as_str().unwrap();
            let shared = pointers
                .as_array()
                .unwrap()
                .iter()
                .filter(|q| q.as_str() == Some(p))
                .count();
            assert_eq!(shared, 1, "{code} {p}: one entry per field");
        }
    }
    // A version 1 baseline still suppresses what it did, and says how it is read.
    let mut old = written.clone();
    old["version"] = json!(1);
    let file_key = old["findings"]
        .as_object()
        .unwrap()
        .keys()
        .next()
        .unwrap()
        .clone();
    let mut by_code = serde_json::Map::new();
    let json_all = check_in(here, &[file, "--isolated", "--format", "json"]);
    let all: Value = serde_json::from_str(&json_all.out()).unwrap();
    // Version 1 keyed a missing field by the place it is shown on: for a harness's file, "".
    for d in all["diagnostics"].as_array().unwrap() {
        let code = d["code"].as_str().unwrap();
        let shown = if d["message"].as_str().unwrap().starts_with("not recorded: ") {
            String::new()
        } else {
            d["pointer"].as_str().unwrap().to_string()
        };
        by_code
            .entry(code.to_string())
            .or_insert_with(|| json!([]))
            .as_array_mut()
            .unwrap()
            .push(json!(shown));
    }
    old["findings"] = json!({ file_key: by_code });
    let old_path = here.join("old.json");
    std::fs::write(&old_path, old.to_string()).unwrap();
    let r = check_in(
        here,
        &[
            file,
            "--isolated",
            "--baseline",
            old_path.to_str().unwrap(),
            "--format",
            "json",
        ],
    );
    assert!(r.err().contains("version 1 form"), "{}", r.err());
    let after: Value = serde_json::from_str(&r.out()).unwrap();
    let left = after["diagnostics"].as_array().unwrap().len();
    assert!(
        left < all["diagnostics"].as_array().unwrap().len(),
        "{left} left"
    );
    // A version from the future is refused with a clear message and exit 2.
    old["version"] = json!(9);
    std::fs::write(&old_path, old.to_string()).unwrap();
    let mut c = bin();
    c.current_dir(here).args([
        "check",
        file,
        "--isolated",
        "--baseline",
        old_path.to_str().unwrap(),
    ]);
    let r = run(c, Duration::from_secs(120));
    assert_eq!(r.code, Some(2));
    assert!(r.err().contains("has version 9"), "{}", r.err());
}

/// The diagnostics of `check ARGS --format json`.
fn json_diagnostics(args: &[&str]) -> Vec<Value> {
    let mut all = vec!["--format", "json", "--isolated"];
    all.extend_from_slice(args);
    let r = check_in(Path::new("."), &all);
    let out: Value = serde_json::from_str(&r.out()).unwrap();
    out["diagnostics"].as_array().unwrap().clone()
}

#[test]
fn a_value_a_harness_file_has_no_key_for_is_named_by_its_canonical_pointer() {
    // vLLM writes nothing about warm-up: R005's finding is shown on the object, but named by
    // the value it is about, as a missing field's finding is, not by the object's `""`.
    let vllm = json_diagnostics(&["testdata/adapters/vllm/bench-serve-save-detailed.json"]);
    let r005: Vec<(&str, &Value)> = vllm
        .iter()
        .filter(|d| d["code"] == "R005")
        .map(|d| (d["pointer"].as_str().unwrap(), &d["line"]))
        .collect();
    assert_eq!(r005, [("/workload/warmup_excluded", &json!(1))]);
    // The human output still shows it on the object, at its first line.
    let r = check_in(
        Path::new("."),
        &[
            "testdata/adapters/vllm/bench-serve-save-detailed.json",
            "--isolated",
        ],
    );
    let out = r.out();
    let shown = out
        .split("R005(warmup-included)")
        .nth(1)
        .and_then(|rest| rest.lines().find(|l| l.contains("╭─[")))
        .unwrap_or_else(|| panic!("{out}"));
    assert!(
        shown.ends_with("bench-serve-save-detailed.json:1:1]"),
        "{shown}"
    );

    let Ok(real) = std::fs::canonicalize(REALWORLD) else {
        println!("skipped the real corpus: {REALWORLD} is absent");
        return;
    };
    // Only a finding about a whole document (one that could not be read) or the whole corpus
    // has no pointer of its own.
    let unnamed: Vec<String> = json_diagnostics(&[real.to_str().unwrap()])
        .iter()
        .filter(|d| d["pointer"] == "")
        .filter(|d| d["corpus"] != true && !d["code"].as_str().unwrap().starts_with('E'))
        .map(|d| format!("{} {} {}", d["code"], d["path"], d["message"]))
        .collect();
    assert!(unnamed.is_empty(), "{unnamed:#?}");
}
