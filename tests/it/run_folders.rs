//! Formats whose meaning spans a folder, read a folder at a time: an inference-perf run folder
//! and a genai-bench experiment are one ladder each, an InferenceX run folder's server log and
//! launch command fill what its AIPerf result lacks. Against the real folders in
//! `../shared/realworld` (when present) and the fixtures in `testdata/adapters/`.
//!
//! For every folder: no loader finding (E001 to E004), each value read from another file of
//! the run points at something that file holds (a pointer into its document, the start of a
//! line of the log), and a snapshot of the results, their levels, and which files beside them
//! supplied what.

#![allow(
    clippy::format_push_string,
    clippy::case_sensitive_file_extension_comparisons,
    reason = "test-report building reads more plainly this way"
)]

mod companions;
mod genai_bench;
mod inference_perf;
mod server_log_and_import;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use benchlint::corpus::{LoadedResult, Options};
use benchlint::engine::{self, Checked};
use benchlint::json::parse_text;
use benchlint::model::Provenance;
use serde_json::Value;

const REALWORLD: &str = "../shared/realworld";
const FIXTURES: &str = "testdata/adapters";

/// The real run folders (relative to `REALWORLD`).
const REAL_FOLDERS: [&str; 7] = [
    "genai-bench/basetenlabs__training_benchmark",
    "inference-perf/kubernetes-sigs__demo-vllm-eagle",
    "inference-perf/jjk-g__gemma4-vllm",
    "inference-perf/jjk-g__llama3-8b",
    "inferencex",
    "inferencex-aiperf/ajith-sirra-amd__minimaxm2.5_tp2_conc4__amds_06",
    "inferencex-aiperf/ajith-sirra-amd__glm5.1_tp2_conc16__amds_08",
];

/// Fixture folders: every folder directly under these, and the folder itself for `inferencex`.
const FIXTURE_GROUPS: [&str; 3] = ["genai-bench", "inference-perf", "run-folder"];

fn check(path: &Path) -> Checked {
    engine::check(&[path.to_path_buf()], &Options::default())
}

fn rel(root: &Path, path: &str) -> String {
    let root = root.to_string_lossy();
    path.strip_prefix(root.as_ref()).map_or_else(
        || path.to_string(),
        |r| r.trim_start_matches('/').to_string(),
    )
}

/// The level's load key and counts, in a line.
fn level_line(level: &Value) -> String {
    let mut parts = Vec::new();
    for k in [
        "concurrency",
        "request_rate",
        "achieved_request_rate",
        "max_concurrency",
        "requests",
        "failed",
        "duration_s",
        "output_tokens",
    ] {
        if let Some(v) = level.get(k) {
            parts.push(format!("{k}={v}"));
        }
    }
    if let Some(a) = level.pointer("/throughput_tok_s/aggregate") {
        parts.push(format!("aggregate={a}"));
    }
    parts.join(" ")
}

/// Checks what the result says about other files against those files.
fn check_provenance(root: &Path, r: &LoadedResult, problems: &mut Vec<String>) {
    for (canonical, p) in r.provenance.iter() {
        match &*p {
            Provenance::Beside { path, pointer } => {
                let Ok(text) = std::fs::read_to_string(path) else {
                    problems.push(format!("{canonical}: {path} cannot be read"));
                    continue;
                };
                let holds = if path.ends_with(".yaml") || path.ends_with(".yml") {
                    benchlint::yaml::from_str(&text)
                        .ok()
                        .is_some_and(|v| v.pointer(pointer).is_some())
                } else {
                    parse_text(&text, false)
                        .documents
                        .first()
                        .is_some_and(|d| d.value.pointer(pointer).is_some())
                };
                if !holds {
                    problems.push(format!(
                        "{canonical}: {} holds nothing at {pointer}",
                        rel(root, path)
                    ));
                }
            }
            Provenance::ServerLog { path, offset } => {
                let bytes = std::fs::read(path).unwrap_or_default();
                if *offset >= bytes.len() || (*offset > 0 && bytes[offset - 1] != b'\n') {
                    problems.push(format!(
                        "{canonical}: offset {offset} is not the start of a line of {}",
                        rel(root, path)
                    ));
                }
            }
            _ => {}
        }
    }
}

/// Which files beside the result supplied values, and how many.
fn supplied(root: &Path, r: &LoadedResult) -> Vec<String> {
    let mut by: BTreeMap<String, usize> = BTreeMap::new();
    for (_, p) in r.provenance.iter() {
        let key = match &*p {
            Provenance::Beside { path, .. } => format!("recorded in {}", rel(root, path)),
            Provenance::ServerLog { path, .. } => format!("server log {}", rel(root, path)),
            Provenance::LaunchCommand { path } => format!("launch command {}", rel(root, path)),
            _ => continue,
        };
        *by.entry(key).or_default() += 1;
    }
    by.into_iter().map(|(k, n)| format!("{k}: {n}")).collect()
}

fn audit_folder(root: &Path, problems: &mut Vec<String>) -> String {
    let checked = check(root);
    let mut out = String::new();
    let mut loader: Vec<String> = Vec::new();
    let mut conflicts: Vec<String> = Vec::new();
    for f in &checked.findings {
        let code = f.rule.code;
        let at = rel(root, f.primary.path.raw());
        if matches!(code, "E001" | "E002" | "E003" | "E004") {
            problems.push(format!("{}: {code} {at}: {}", root.display(), f.message));
            loader.push(format!("{code} {at}"));
        }
        if matches!(code, "M015" | "M019") {
            conflicts.push(format!(
                "{code} {at}: {}",
                f.message
                    .raw()
                    .replace(&root.to_string_lossy().into_owned(), "<folder>")
            ));
        }
    }
    conflicts.sort();
    out.push_str(&format!(
        "files: {}\nloader findings: {loader:?}\nresults: {}\n",
        checked.corpus.files,
        checked.corpus.results.len()
    ));
    for r in &checked.corpus.results {
        check_provenance(root, r, problems);
        let levels = r.value["levels"].as_array().cloned().unwrap_or_default();
        out.push_str(&format!(
            "\n== {} ({}, {}, {} level{})\n",
            rel(root, &r.doc.id),
            r.origin.format,
            r.doc.outcome.as_str(),
            levels.len(),
            if levels.len() == 1 { "" } else { "s" }
        ));
        for (i, l) in levels.iter().enumerate() {
            out.push_str(&format!("  level {i}: {}\n", level_line(l)));
        }
        out.push_str(&format!(
            "engine: {}\n",
            r.value.get("engine").unwrap_or(&Value::Null)
        ));
        out.push_str(&format!(
            "model: {}\n",
            r.value.get("model").unwrap_or(&Value::Null)
        ));
        for s in supplied(root, r) {
            out.push_str(&format!("from beside: {s}\n"));
        }
    }
    for c in conflicts {
        out.push_str(&format!("\n{c}"));
    }
    out
}

fn audit(folders: &[PathBuf], prefix: &str, base: &Path) {
    let mut problems = Vec::new();
    for folder in folders {
        let text = audit_folder(folder, &mut problems);
        let name = folder
            .strip_prefix(base)
            .unwrap_or(folder)
            .to_string_lossy()
            .replace(['/', '\\'], "__");
        insta::with_settings!({ snapshot_path => "snapshots/run_folders", prepend_module_to_snapshot => false }, {
            insta::assert_snapshot!(format!("{prefix}__{name}"), text);
        });
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn real_run_folders_are_read_as_one_run() {
    let base = Path::new(REALWORLD);
    if !base.is_dir() {
        println!("skipping: ../shared/realworld not found");
        return;
    }
    let folders: Vec<PathBuf> = REAL_FOLDERS.iter().map(|f| base.join(f)).collect();
    audit(&folders, "realworld", base);
}

#[test]
fn fixture_run_folders_are_read_as_one_run() {
    let base = Path::new(FIXTURES);
    let mut folders = vec![base.join("inferencex")];
    for group in FIXTURE_GROUPS {
        let mut found: Vec<PathBuf> = std::fs::read_dir(base.join(group))
            .unwrap()
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.is_dir())
            .collect();
        found.sort();
        folders.extend(found);
    }
    audit(&folders, "fixture", base);
}

// ---------------------------------------------------------------- focused checks

fn findings<'a>(checked: &'a Checked, code: &str) -> Vec<&'a benchlint::diagnostic::Finding> {
    checked
        .findings
        .iter()
        .filter(|f| f.rule.code == code)
        .collect()
}
