//! Sidecars matched by glob in the config file, and thresholds taken from the config.

use std::path::Path;

use serde_json::Value;

use super::{run_in, write};

// ---------------------------------------------------------------------------------------------
// Sidecars by glob

const RUN: &str = r#"{
  "schema": "benchlint/result/v1",
  "id": "run-1",
  "measured_at": "2026-09-23T14:05:12Z",
  "outcome": "ok",
  "platform": { "host": "spark-01" },
  "levels": [ { "concurrency": 8, "requests": 96, "failed": 0, "duration_s": 120.0, "output_tokens": 24576,
                "throughput_tok_s": { "aggregate": 204.8 }, "per_user_tok_s": { "median": 25.9 } } ]
}
"#;

fn findings_at(dir: &Path, args: &[&str]) -> Vec<(String, String, String)> {
    let mut all = vec!["check", "--format", "json"];
    all.extend_from_slice(args);
    let r = run_in(Some(dir), &all);
    assert_ne!(r.code, 2, "{}", r.stderr);
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            let s = |k: &str| d[k].as_str().unwrap().to_string();
            (s("code"), s("pointer"), s("message"))
        })
        .collect()
}

#[test]
fn sidecars_by_glob() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "old/gb10/run.json", RUN);
    let base = findings_at(dir.path(), &["old", "--select", "M001,M019"]);
    assert!(
        base.iter().any(|f| f.1 == "/platform/description"),
        "{base:?}"
    );
    // Inline values fill what the file does not record, and contradict what it does (M019).
    write(
        dir.path(),
        "benchlint.toml",
        "[[sidecar]]\nfiles = \"old/gb10/**\"\nvalues = { platform = { description = \"GB10 desk box\", host = \"spark-02\" } }\n",
    );
    let got = findings_at(dir.path(), &["old", "--select", "M001,M019"]);
    assert!(
        !got.iter().any(|f| f.1 == "/platform/description"),
        "{got:?}"
    );
    let conflict = got.iter().find(|f| f.0 == "M019").expect("a conflict");
    assert!(
        conflict.2.contains("benchlint.toml#sidecar-1"),
        "{conflict:?}"
    );
    // A sidecar file by path; the `<file>.meta.json` beside the file is merged first.
    write(
        dir.path(),
        "sidecars/gb10.json",
        r#"{"platform": {"description": "from the glob sidecar"}}"#,
    );
    write(
        dir.path(),
        "old/gb10/run.meta.json",
        r#"{"platform": {"description": "from the meta file"}}"#,
    );
    write(
        dir.path(),
        "benchlint.toml",
        "[[sidecar]]\nfiles = \"old/gb10/*.json\"\npath = \"sidecars/gb10.json\"\n",
    );
    let got = findings_at(dir.path(), &["old", "--select", "M001,M019"]);
    let conflict = got
        .iter()
        .find(|f| f.0 == "M019")
        .expect("the two sidecars disagree");
    assert!(
        conflict.2.contains("sidecars/gb10.json")
            && conflict
                .2
                .contains("the sidecar `old/gb10/run.meta.json` says"),
        "{conflict:?}"
    );
    // A glob that matches nothing is a warning.
    write(
        dir.path(),
        "benchlint.toml",
        "[[sidecar]]\nfiles = \"new/**\"\nvalues = { platform = { nodes = 1 } }\n",
    );
    let r = run_in(Some(dir.path()), &["check", "old", "--select", "M001"]);
    assert!(
        r.stderr
            .contains("files = \"new/**\" matches no file checked"),
        "{}",
        r.stderr
    );
}

#[test]
fn thresholds_from_the_config() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "r/run.json", RUN);
    let r009 = |dir: &Path| {
        findings_at(dir, &["r", "--select", "R009"])
            .iter()
            .map(|f| f.2.clone())
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert!(r009(dir.path()).contains("120 s"), "{}", r009(dir.path()));
    write(
        dir.path(),
        "benchlint.toml",
        "[thresholds]\nmin_window_s = 150\n",
    );
    assert!(r009(dir.path()).contains("150 s"), "{}", r009(dir.path()));
}
