//! The format adapters against real harness files (`../shared/realworld`, when present) and
//! the fixtures in `testdata/adapters/` (shapes the real samples do not cover).
//!
//! For every file: no parse or unknown-format finding (E002 only in fixtures named
//! `broken`), at least one result unless the file is a harness companion, every mapped result
//! valid against the canonical schema, every provenance pointer present in the source
//! document, and a snapshot of what each result maps to and what the checklist says it lacks.
//! Snapshot numbers were checked by hand against the source files.

#![allow(
    clippy::format_push_string,
    clippy::collapsible_if,
    clippy::case_sensitive_file_extension_comparisons,
    reason = "test-report building reads more plainly this way"
)]

mod focused_mapping;
mod focused_robustness;

use std::path::{Path, PathBuf};

use benchlint::corpus::{LoadedResult, Options};
use benchlint::engine::{self, Checked};
use benchlint::json::{Document, parse_text};
use benchlint::model::Provenance;
use benchlint::rules::{Check, Emitter, RULES, ResultCtx};
use benchlint::schema;
use benchlint::thresholds::Thresholds;
use serde_json::{Value, json};

const REALWORLD: &str = "../shared/realworld";
const FIXTURES: &str = "testdata/adapters";

/// Files that are side files of a harness run and carry no result of their own (the end of
/// their path), besides fixtures whose name says `companion`.
const REAL_COMPANIONS: [&str; 26] = [
    // llmperf per-request records (an array), read beside the summary.
    "leaderboard__individual_anyscale_7b.json",
    "leaderboard__individual_groq_70b.json",
    // An MLCommons CM run folder's side files beside the loadgen logs.
    "MlPerfLogExample/cm-host-info.json",
    "MlPerfLogExample/cm-version-info.json",
    "MlPerfLogExample/cpu_info.json",
    "MlPerfLogExample/measurements.json",
    "MlPerfLogExample/mlperf_log_accuracy.json",
    "MlPerfLogExample/mlperf_log_trace.json",
    "MlPerfLogExample/os_info.json",
    "MlPerfLogExample/pip_freeze.json",
    "MlPerfLogExample/results.json",
    "MlPerfLogExample/system_meta.json",
    // vLLM sweep summary.json: repeats the run=N.json files of its folder.
    "__summary.json",
    // genai-bench: the experiment's metadata, consulted by every level file beside it.
    "/experiment_metadata.json",
    // inference-perf summaries: they pool every stage of a run (several loads), so they are no
    // level; none of these runs' configs defines a single stage.
    "summary_lifecycle_metrics.json",
    "inference-perf/jjk-g__gemma4-vllm/results.json",
    // inference-perf's run configuration, consulted by the reports beside or below it.
    "/config.yaml",
    // InferenceX sweep success counts.
    "run_stats.json",
    // AIPerf's other outputs in an aiperf_artifacts/ folder.
    "_timeslices.json",
    "/server_metrics_export.json",
    "/server_metrics_export.jsonl",
    "/gpu_telemetry_export.jsonl",
    "aiperf_artifacts/profile_export.jsonl",
    "errors-only-in-records/profile_export.jsonl",
    // An MLPerf power run's PTD client and server session records.
    "/performance/power/client.json",
    "/performance/power/server.json",
];

fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(read) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in read.filter_map(Result::ok) {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p
                .file_name()
                .is_some_and(|n| benchlint::corpus::is_candidate(&n.to_string_lossy()))
            {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// The documents of a file as the loader reads them: JSON (Lines), a YAML report, or an
/// MLPerf loadgen log.
fn documents(path: &Path) -> Vec<Document> {
    let text = std::fs::read_to_string(path).unwrap();
    let name = path
        .file_name()
        .unwrap()
        .to_string_lossy()
        .to_ascii_lowercase();
    if let Some((_, value, _)) = benchlint::adapters::mlperf::log::read(&text) {
        return vec![Document::of_value(value, 0, 0)];
    }
    if name.ends_with(".yaml") || name.ends_with(".yml") {
        return benchlint::yaml::parse(&text, &benchlint::yaml::Limits::default())
            .map(|docs| {
                docs.into_iter()
                    .map(|d| Document::of_value(d.value, d.start, d.index))
                    .collect()
            })
            .unwrap_or_default();
    }
    parse_text(&text, name.ends_with(".jsonl")).documents
}

fn check(path: &Path) -> Checked {
    engine::check(&[path.to_path_buf()], &Options::default())
}

/// `CODE canonical-pointer` of every publication-checklist finding (the M rules) on a result,
/// as the rule reports it (before the pointer is translated into the source file): what the
/// format does not record.
fn rule_findings(r: &LoadedResult) -> Vec<String> {
    let thresholds = Thresholds::default();
    let ctx = ResultCtx {
        result: &r.doc,
        value: &r.value,
        provenance: &r.provenance,
        serve: None,
        artifacts: &[],
        thresholds: &thresholds,
    };
    let mut out = Vec::new();
    for rule in RULES {
        if let (Check::Result(f), true) = (rule.check, rule.meta.code.starts_with('M')) {
            let mut emits = Vec::new();
            f(&ctx, &mut Emitter::new(rule.meta, &mut emits));
            out.extend(
                emits
                    .into_iter()
                    .map(|e| format!("{} {}", rule.meta.code, e.pointer)),
            );
        }
    }
    out.sort();
    out.dedup();
    out
}

/// The canonical result with per-request samples replaced by their lengths.
fn without_samples(value: &Value) -> Value {
    let mut v = value.clone();
    if let Some(levels) = v.get_mut("levels").and_then(Value::as_array_mut) {
        for level in levels {
            if let Some(samples) = level.get_mut("samples").and_then(Value::as_object_mut) {
                for s in samples.values_mut() {
                    *s = json!(format!("{} values", s.as_array().map_or(0, Vec::len)));
                }
            }
        }
    }
    v
}

/// Checks one file and returns its snapshot text.
fn audit_file(path: &Path, problems: &mut Vec<String>) -> String {
    let display = path.display().to_string();
    let checked = check(path);
    let name = path.file_name().unwrap().to_string_lossy().into_owned();
    let broken_fixture = name.contains("broken");
    // Outputs of benchmarks that measure no server under load: E004 by design, named so.
    let out_of_scope = display.contains("/llama-bench/");
    let companion =
        REAL_COMPANIONS.iter().any(|c| display.ends_with(c)) || name.contains("companion");
    for f in &checked.findings {
        let code = f.rule.code;
        // Checked on its own, out of its run, a companion is a companion of nothing and says
        // so (E004), or is read as the result it describes, which may lack what its run's
        // other files record (an inference-perf summary without its stages' rates: E003).
        let out_of_its_run = companion && matches!(code, "E003" | "E004");
        if (code == "E004" && !out_of_scope && !out_of_its_run)
            || (code == "E003" && !out_of_its_run)
            || (code == "E002" && !broken_fixture)
        {
            problems.push(format!("{display}: {code} {}", f.message));
        }
    }
    let results = &checked.corpus.results;
    if results.is_empty() && !companion && !out_of_scope {
        problems.push(format!("{display}: no result loaded"));
    }
    // A sweep's warm-up alone is the one run there is: read as a result (beside the sweep's
    // runs it is their companion, which the loader's tests check).
    // So is a summary of a run whose other files are not beside it (an inference-perf
    // `summary_lifecycle_metrics.json`, a vLLM sweep's `summary.json`): read as the result it
    // describes, so that a file is never a companion of nothing.
    let read_alone = display.ends_with("sweep-warmup-companion.json")
        || display.ends_with("summary_lifecycle_metrics.json")
        || display.ends_with("__summary.json");
    if !results.is_empty() && companion && !read_alone {
        problems.push(format!("{display}: a companion file produced results"));
    }

    let parsed = documents(path);
    let mut out = String::new();
    let loader: Vec<String> = checked
        .findings
        .iter()
        .filter(|f| f.rule.code.starts_with('E'))
        .map(|f| format!("{} {}", f.rule.code, f.primary.pointer.raw()))
        .collect();
    out.push_str(&format!(
        "file findings: {loader:?}\nresults: {}\n",
        results.len()
    ));
    for r in results {
        for e in schema::validate(schema::Kind::Result, &r.value) {
            problems.push(format!(
                "{display} {}: schema: {} {}",
                r.doc.id, e.pointer, e.message
            ));
        }
        let source = parsed
            .iter()
            .find(|d| d.start == r.origin.doc_start)
            .map(|d| &d.value);
        for (canonical, p) in r.provenance.iter() {
            if let Provenance::Recorded { pointer } = &*p {
                if source.and_then(|s| s.pointer(pointer)).is_none() {
                    problems.push(format!(
                        "{display} {}: {canonical} points at missing {pointer}",
                        r.doc.id
                    ));
                }
            }
        }
        let mut rest = without_samples(&r.value);
        let levels = rest
            .as_object_mut()
            .unwrap()
            .remove("levels")
            .unwrap_or(json!([]));
        for k in ["schema", "id", "outcome"] {
            rest.as_object_mut().unwrap().remove(k);
        }
        let n = levels.as_array().map_or(0, Vec::len);
        out.push_str(&format!(
            "\n== {} ({}, {}, {} level{})\n",
            r.doc.id,
            r.origin.format,
            r.doc.outcome.as_str(),
            n,
            if n == 1 { "" } else { "s" }
        ));
        out.push_str(&format!(
            "read from: {:?}\n",
            r.provenance.get("").as_deref().map(|p| match p {
                Provenance::Recorded { pointer } => pointer.clone(),
                other => format!("{other:?}"),
            })
        ));
        out.push_str(&format!(
            "levels[0]: {}\n",
            levels.get(0).unwrap_or(&Value::Null)
        ));
        out.push_str(&format!("rest: {rest}\n"));
        out.push_str(&format!("not recorded: {}\n", rule_findings(r).join(", ")));
    }
    out
}

fn snapshot_name(root: &Path, path: &Path, prefix: &str) -> String {
    let rel = path
        .strip_prefix(root)
        .unwrap_or(path)
        .to_string_lossy()
        .replace(['/', '\\'], "__");
    format!("{prefix}__{rel}")
}

fn audit_tree(root: &Path, prefix: &str) {
    let files = files_under(root);
    assert!(!files.is_empty(), "no files under {}", root.display());
    let mut problems = Vec::new();
    for path in &files {
        let text = audit_file(path, &mut problems);
        insta::with_settings!({ snapshot_path => "snapshots/adapters", prepend_module_to_snapshot => false }, {
            insta::assert_snapshot!(snapshot_name(root, path, prefix), text);
        });
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn realworld_files_are_read_in_place() {
    let root = Path::new(REALWORLD);
    if !root.is_dir() {
        println!("skipping: ../shared/realworld not found");
        return;
    }
    audit_tree(root, "realworld");
}

#[test]
fn fixture_files_are_read_in_place() {
    audit_tree(Path::new(FIXTURES), "fixture");
}
