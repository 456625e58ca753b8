//! Checking real harness files (`../shared/realworld`) and scratch copies of them: the real
//! file or a printed reason to skip, findings by code, a command's JSON, sidecars.

#![allow(dead_code, reason = "each test file uses a part")]

use std::path::{Path, PathBuf};
use std::process::Command;

use benchlint::corpus::Options;
use benchlint::diagnostic::Finding;
use benchlint::engine;
use serde_json::{Value, json};

pub const REALWORLD: &str = "../shared/realworld";

/// The real file at `rel`, or `None` (with the reason printed) when the corpus is absent.
pub fn real(rel: &str) -> Option<PathBuf> {
    let path = Path::new(REALWORLD).join(rel);
    if path.exists() {
        Some(path)
    } else {
        println!("skipping the real-file part: {} not found", path.display());
        None
    }
}

/// Every finding of checking `paths` together.
pub fn findings(paths: &[&Path]) -> Vec<Finding> {
    let paths: Vec<PathBuf> = paths.iter().map(|p| p.to_path_buf()).collect();
    engine::check(&paths, &Options::default()).findings
}

/// The findings of rule `code`.
pub fn with_code<'a>(all: &'a [Finding], code: &str) -> Vec<&'a Finding> {
    all.iter().filter(|f| f.rule.code == code).collect()
}

/// The rule codes found, sorted, once each.
pub fn codes(all: &[Finding]) -> Vec<&'static str> {
    let mut c: Vec<&str> = all.iter().map(|f| f.rule.code).collect();
    c.sort_unstable();
    c.dedup();
    c
}

/// `benchlint ARGS PATHS --format json`, parsed.
pub fn json_of(args: &[&str], paths: &[&Path]) -> Value {
    let out = Command::new(env!("CARGO_BIN_EXE_benchlint"))
        .args(args)
        .args(paths)
        .args(["--format", "json"])
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stdout)))
}

/// Copies `file` into `dir/rel`, making the folders.
pub fn copy_to(file: &Path, dir: &Path, rel: &str) -> PathBuf {
    let to = dir.join(rel);
    std::fs::create_dir_all(to.parent().unwrap()).unwrap();
    std::fs::copy(file, &to).unwrap();
    to
}

/// Writes `value` as the sidecar of `file` (`<name>.meta.json` beside it).
pub fn sidecar(file: &Path, value: &Value) {
    let name = file.file_name().unwrap().to_string_lossy().into_owned();
    std::fs::write(
        file.with_file_name(format!("{name}.meta.json")),
        value.to_string(),
    )
    .unwrap();
}

/// What a team knows about the nerdalert runs: the identity the file does not record.
pub fn l40s_identity() -> Value {
    json!({ "engine": { "name": "vllm" }, "platform": { "device": { "model": "NVIDIA L40S" } },
            "model": { "precision": "bf16" } })
}
