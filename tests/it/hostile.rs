//! Hostile input: every case runs the binary as a child under a watchdog (killed and failed
//! after a minute), and asserts the exact diagnostic (code and a message fragment), no panic
//! and an exit code of 0 or 1. Small cases are committed under `testdata/hostile/`; large
//! ones, and the file-system oddities git cannot hold, are generated into a temporary folder.

mod committed;
mod file_system;
mod generated;
mod mutated;

use crate::support::watchdog;

use std::path::{Path, PathBuf};

use serde_json::Value;
use watchdog::{LIMIT, Run, bin, run};

/// `check --isolated --format json ARGS` under the watchdog: the run and its diagnostics.
fn check(args: &[&Path]) -> (Run, Vec<Value>) {
    check_with(args, &[])
}

fn check_with(args: &[&Path], flags: &[&str]) -> (Run, Vec<Value>) {
    let mut cmd = bin();
    cmd.args(["check", "--format", "json"])
        .args(flags)
        .args(args);
    if !flags.contains(&"--config") && !flags.contains(&"--isolated") {
        cmd.arg("--isolated");
    }
    let r = run(cmd, LIMIT);
    r.assert_ran(&format!("check {args:?}"));
    let report: Value = serde_json::from_slice(&r.stdout)
        .unwrap_or_else(|e| panic!("check {args:?} printed no JSON ({e}):\n{}", r.out()));
    let diagnostics = report["diagnostics"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    (r, diagnostics)
}

fn code(d: &Value) -> &str {
    d["code"].as_str().unwrap_or_default()
}

fn message(d: &Value) -> &str {
    d["message"].as_str().unwrap_or_default()
}

/// The diagnostics of input-error rules (E...), as (code, message).
fn input_errors(ds: &[Value]) -> Vec<(String, String)> {
    ds.iter()
        .filter(|d| code(d).starts_with('E'))
        .map(|d| (code(d).to_string(), message(d).to_string()))
        .collect()
}

/// Asserts exactly the input errors `want` (code, fragment), in any order, and no other.
#[track_caller]
fn assert_input_errors(ds: &[Value], want: &[(&str, &str)]) {
    let got = input_errors(ds);
    for (c, fragment) in want {
        assert!(
            got.iter().any(|(gc, gm)| gc == c && gm.contains(fragment)),
            "no {c} with {fragment:?} in {got:#?}"
        );
    }
    assert_eq!(got.len(), want.len(), "unexpected input errors: {got:#?}");
}

fn hostile(name: &str) -> PathBuf {
    Path::new("testdata/hostile").join(name)
}

fn results(r: &Run) -> u64 {
    let v: Value = serde_json::from_slice(&r.stdout).unwrap();
    v["summary"]["results"].as_u64().unwrap()
}

const MINIMAL: &str = r#"{"schema": "benchlint/result/v1", "id": "generated", "measured_at": "2026-09-23T14:05:12Z", "outcome": "ok""#;

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}
