//! The corpus report (`benchlint audit` without `--claims`): Markdown and JSON snapshots on
//! testdata/corpora/demo; the same counts as `check`; the checklist coverage states (recorded,
//! derived, sidecar, not usable, missing, not asked) on files written here; the replication
//! standing of configurations that are replicated, short of runs, unresolved, pre-rule and not
//! identified; the section order with a claims file; text from file names escaped; the real
//! files of `../shared/realworld` (when present); and the HTML page rendered in headless
//! Chromium (when installed).

mod corpora;
mod coverage;
mod html_and_pieces;
mod names_and_sections;
mod replication;

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

const DEMO: &str = "testdata/corpora/demo";
const REPLICATED: &str = "testdata/clean/replicated-corpus";
const REALWORLD: &str = "../shared/realworld";

fn bin() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_benchlint"));
    c.env("NO_COLOR", "1");
    c
}

/// `benchlint ARGS`: exit code and stdout.
fn run(args: &[&str]) -> (Option<i32>, String) {
    let out = bin().args(args).output().unwrap();
    assert!(
        out.status.code() != Some(2),
        "exit 2: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    (
        out.status.code(),
        String::from_utf8(out.stdout).expect("UTF-8 output"),
    )
}

/// The corpus report of `path` as JSON, checked against the bundled schema.
fn report_json(path: &str) -> Value {
    let (_, text) = run(&["audit", path, "--format", "json"]);
    let v: Value = serde_json::from_str(&text).unwrap();
    let errors = benchlint::schema::validate(benchlint::schema::Kind::Audit, &v);
    assert!(errors.is_empty(), "{errors:?}");
    v
}

/// The version, which moves with every release, as `X.Y.Z`.
fn redact(text: &str) -> String {
    text.replace(env!("CARGO_PKG_VERSION"), "X.Y.Z")
}

fn snapshot(name: &str, text: &str) {
    insta::with_settings!({ snapshot_path => "snapshots/corpus_report", prepend_module_to_snapshot => false }, {
        insta::assert_snapshot!(name, redact(text));
    });
}

/// The state of `field` for the file whose path ends with `file`.
fn state(report: &Value, file: &str, field: &str) -> String {
    let checklist = &report["corpus"]["checklist"];
    let i = checklist["items"]
        .as_array()
        .unwrap()
        .iter()
        .position(|item| item["field"] == field)
        .unwrap_or_else(|| panic!("no checklist field {field}"));
    let row = checklist["files"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["path"].as_str().unwrap().ends_with(file))
        .unwrap_or_else(|| panic!("no coverage row for {file}"));
    row["states"][i].as_str().unwrap().to_string()
}

/// The replication of the ladder whose label contains `label`.
fn replication<'v>(report: &'v Value, label: &str) -> &'v Value {
    &report["ladders"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["label"].as_str().unwrap().contains(label))
        .unwrap_or_else(|| panic!("no configuration labelled {label}"))["replication"]
}

/// Writes `doc` as `name` into `dir`.
fn write(dir: &Path, name: &str, doc: &Value) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, serde_json::to_string_pretty(doc).unwrap()).unwrap();
    p
}

fn complete() -> Value {
    serde_json::from_str(&std::fs::read_to_string(format!("{REPLICATED}/complete.json")).unwrap())
        .unwrap()
}

fn remove(doc: &mut Value, pointer: &str) {
    let (parent, key) = pointer.rsplit_once('/').unwrap();
    doc.pointer_mut(parent)
        .unwrap()
        .as_object_mut()
        .unwrap()
        .remove(key)
        .unwrap();
}
