//! The CLI commands built on the claims analysis: `capacity` and `compare`, on the audit
//! corpus and on rate-driven ladders.

use std::path::PathBuf;
use std::process::Command;

use serde_json::{Value, json};

fn benchlint(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_benchlint"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

const CORPUS: &str = "testdata/corpora/gb10-audit";

#[test]
fn capacity_prints_the_service_level_rows() {
    let (code, out, err) = benchlint(&["capacity", CORPUS, "--floor", "20", "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    let doc: Value = serde_json::from_str(&out).unwrap();
    let pair = doc["configurations"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["label"].as_str().unwrap().contains("2 × NVIDIA GB10"))
        .unwrap();
    assert_eq!(pair["capacity"], json!(8));
    assert_eq!(pair["aggregate_tok_s"], json!(140.8));
    assert_eq!(pair["single_instance"], json!(true));
    let (code, out, _) = benchlint(&["capacity", CORPUS, "--floor", "20", "--replicas", "4"]);
    assert_eq!(code, 0);
    assert!(out.contains("563.2"), "{out}");
    let (code, _, err) = benchlint(&["capacity", CORPUS, "--floor", "-3"]);
    assert_eq!(code, 2, "{err}");
}

#[test]
fn compare_prints_the_verdict_the_floor_and_the_mismatches() {
    let (code, out, err) = benchlint(&[
        "compare",
        "gb10-x8-qwen38-nvfp4-prose-2026-09-23-r1",
        "gb10-x2-qwen38-nvfp4-prose-2026-09-23-r1",
        CORPUS,
    ]);
    assert_eq!(code, 1, "{err}");
    assert!(out.contains("aggregate_tok_s at 32 streams"), "{out}");
    assert!(out.contains("5 runs over 3 launches"), "{out}");
    assert!(
        out.contains("verdict: not decidable: single launch"),
        "{out}"
    );
    assert!(out.contains("same-vs-same control"), "{out}");
    assert!(out.contains("C005") && out.contains("C012"), "{out}");
    let (code, out, err) = benchlint(&[
        "compare",
        "140f787ab830",
        "2228f73646aa",
        CORPUS,
        "--concurrency",
        "1",
        "--metric",
        "per_user_tok_s",
        "--format",
        "json",
    ]);
    assert!(code == 0 || code == 1, "{err}");
    let doc: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(doc["concurrency"], json!(1));
    assert_eq!(doc["b"]["launches"], json!(2));
    assert!(doc["verdict"].as_str().unwrap().len() > 3);
    let (code, _, err) = benchlint(&["compare", "nope", "140f", CORPUS]);
    assert_eq!(code, 2);
    assert!(
        err.contains("neither a result id nor a configuration fingerprint"),
        "{err}"
    );
}

#[test]
fn the_done_when_corpus_exists() {
    assert!(PathBuf::from(CORPUS).join("claims.json").is_file());
}

/// The audit corpus with every level turned into an open-loop level at `concurrency / 4`
/// requests per second: the same ladders, driven by a rate.
fn rate_driven_copy() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let mut stack = vec![PathBuf::from(CORPUS)];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
                continue;
            }
            let target = dir.path().join(p.strip_prefix(CORPUS).unwrap());
            std::fs::create_dir_all(target.parent().unwrap()).unwrap();
            let text = std::fs::read_to_string(&p).unwrap_or_default();
            match serde_json::from_str::<Value>(&text) {
                Ok(mut v) if v["schema"] == json!("benchlint/result/v1") => {
                    for level in v["levels"].as_array_mut().unwrap() {
                        let c = level["concurrency"].as_u64().unwrap();
                        let m = level.as_object_mut().unwrap();
                        m.remove("concurrency");
                        #[allow(clippy::cast_precision_loss)]
                        m.insert("request_rate".into(), json!(c as f64 / 4.0));
                    }
                    std::fs::write(&target, v.to_string()).unwrap();
                }
                _ => {
                    std::fs::copy(&p, &target).unwrap();
                }
            }
        }
    }
    dir
}

#[test]
fn compare_and_capacity_work_on_rate_driven_ladders() {
    let dir = rate_driven_copy();
    let root = dir.path().to_str().unwrap();
    let (code, out, err) = benchlint(&[
        "compare",
        "gb10-x8-qwen38-nvfp4-prose-2026-09-23-r1",
        "gb10-x2-qwen38-nvfp4-prose-2026-09-23-r1",
        root,
    ]);
    assert!(code == 0 || code == 1, "{err}");
    // The highest shared level is 32 streams' counterpart: 8 req/s, never a concurrency.
    assert!(out.contains("aggregate_tok_s at 8 req/s"), "{out}");
    assert!(!out.contains("streams"), "{out}");
    let (_, out, err) = benchlint(&[
        "compare",
        "140f787ab830",
        "2228f73646aa",
        root,
        "--request-rate",
        "0.25",
        "--format",
        "json",
    ]);
    let doc: Value = serde_json::from_str(&out).unwrap_or_else(|_| panic!("{out}{err}"));
    assert_eq!(doc["request_rate"], json!(0.25));
    assert_eq!(doc["concurrency"], json!(null));
    let (code, _, err) = benchlint(&[
        "compare",
        "140f787ab830",
        "2228f73646aa",
        root,
        "--request-rate",
        "fast",
    ]);
    assert_eq!(code, 2, "{err}");
    let (code, out, err) = benchlint(&["capacity", root, "--floor", "20", "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    let doc: Value = serde_json::from_str(&out).unwrap();
    let rows = doc
        .as_array()
        .or_else(|| doc["configurations"].as_array())
        .unwrap();
    let pair = rows
        .iter()
        .find(|c| c["label"].as_str().unwrap().contains("2 × NVIDIA GB10"))
        .unwrap();
    // 8 streams cleared the floor; as a rate ladder that level is 2 req/s.
    assert_eq!(pair["capacity_request_rate"], json!(2.0), "{pair}");
    assert_eq!(pair["capacity"], json!(null), "{pair}");
}
