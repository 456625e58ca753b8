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

use std::path::{Path, PathBuf};

use benchlint::adapters::{self, Reading, Source};
use benchlint::corpus::{LoadedResult, Options};
use benchlint::engine::{self, Checked};
use benchlint::json::{Document, parse_text};
use benchlint::model::{Provenance, ResultDoc};
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
        return vec![Document {
            value,
            start: 0,
            index: 0,
            samples: Vec::new(),
            levels: None,
        }];
    }
    if name.ends_with(".yaml") || name.ends_with(".yml") {
        return benchlint::yaml::parse(&text, &benchlint::yaml::Limits::default())
            .map(|docs| {
                docs.into_iter()
                    .map(|d| Document {
                        value: d.value,
                        start: d.start,
                        index: d.index,
                        samples: Vec::new(),
                        levels: None,
                    })
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
            if let Provenance::Recorded { pointer } = p {
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
            r.provenance.get("").map(|p| match p {
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

// ---------------------------------------------------------------- focused checks

fn only_result(path: &Path) -> LoadedResult {
    let mut checked = check(path);
    assert_eq!(checked.corpus.results.len(), 1, "{}", path.display());
    checked.corpus.results.remove(0)
}

fn recorded(r: &LoadedResult, canonical: &str) -> String {
    match r.provenance.get(canonical) {
        Some(Provenance::Recorded { pointer }) => pointer.clone(),
        other => panic!("{canonical}: {other:?}"),
    }
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-12 * b.abs().max(1.0)
}

#[test]
fn recognition_is_by_content_not_by_file_name() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("benchmarks.json");
    std::fs::copy(
        Path::new(FIXTURES).join("vllm/legacy-no-failed-field.json"),
        &target,
    )
    .unwrap();
    let r = only_result(&target);
    assert_eq!(r.origin.format, "vllm");
    // A GuideLLM report under a vLLM-looking name is still GuideLLM.
    let target = dir.path().join("vllm-10.0qps-Llama-20250101-000000.json");
    std::fs::copy(
        Path::new(FIXTURES).join("guidellm/v0.8.1-concurrent-sweep.json"),
        &target,
    )
    .unwrap();
    let checked = check(&target);
    assert!(!checked.corpus.results.is_empty());
    assert!(
        checked
            .corpus
            .results
            .iter()
            .all(|r| r.origin.format == "guidellm")
    );
}

#[test]
fn milliseconds_become_seconds_and_point_at_the_source_value() {
    let r = only_result(&Path::new(FIXTURES).join("vllm/legacy-no-failed-field.json"));
    let p50 = r
        .value
        .pointer("/levels/0/ttft_s/p50")
        .and_then(Value::as_f64)
        .unwrap();
    assert!(close(p50, 4_066.159_438_499_880_7 / 1000.0), "{p50}");
    assert_eq!(recorded(&r, "/levels/0/ttft_s/p50"), "/median_ttft_ms");
    // TPOT stays in milliseconds.
    let tpot = r
        .value
        .pointer("/levels/0/tpot_ms/p50")
        .and_then(Value::as_f64)
        .unwrap();
    assert!(close(tpot, 53.135_924_765_077_45), "{tpot}");
}

#[test]
fn vllm_failures_are_inferred_from_num_prompts_when_the_field_is_missing() {
    let r = only_result(&Path::new(FIXTURES).join("vllm/legacy-no-failed-field.json"));
    assert_eq!(r.value.pointer("/levels/0/requests"), Some(&json!(1015)));
    assert_eq!(r.value.pointer("/levels/0/failed"), Some(&json!(985)));
    // What did not complete failed: a derivation from the total, which is kept as the harness
    // wrote it.
    assert!(
        matches!(
            r.provenance.get("/levels/0/failed"),
            Some(Provenance::Derived { from, pointer }) if from == "num_prompts - completed" && pointer == "/num_prompts"
        ),
        "{:?}",
        r.provenance.get("/levels/0/failed")
    );
    assert_eq!(
        r.value.pointer("/levels/0/total_requests"),
        Some(&json!(2000))
    );
    assert_eq!(recorded(&r, "/levels/0/total_requests"), "/num_prompts");
    // An uncapped run at rate inf is an open-loop level: its 2,000 prompts are a request
    // count, not a concurrency.
    assert_eq!(
        r.value.pointer("/levels/0/request_rate"),
        Some(&json!("inf"))
    );
    assert_eq!(recorded(&r, "/levels/0/request_rate"), "/request_rate");
    assert_eq!(r.value.pointer("/levels/0/concurrency"), None);
}

#[test]
fn a_capped_run_at_rate_inf_is_a_closed_loop_level_at_the_cap_and_a_finite_rate_is_open_loop() {
    let text =
        std::fs::read_to_string(Path::new(FIXTURES).join("vllm/legacy-no-failed-field.json"))
            .unwrap();
    let dir = tempfile::tempdir().unwrap();
    for (rate, cap, key, value) in [
        (json!("inf"), json!(32), "/levels/0/concurrency", json!(32)),
        (
            json!(10.0),
            json!(null),
            "/levels/0/request_rate",
            json!(10.0),
        ),
        (
            json!(10.0),
            json!(64),
            "/levels/0/max_concurrency",
            json!(64),
        ),
    ] {
        let mut doc: Value = serde_json::from_str(&text).unwrap();
        doc["request_rate"] = rate.clone();
        doc["max_concurrency"] = cap.clone();
        let path = dir.path().join("run.json");
        std::fs::write(&path, doc.to_string()).unwrap();
        let r = only_result(&path);
        assert_eq!(r.value.pointer(key), Some(&value), "{rate} {cap}");
        if rate != json!("inf") {
            assert_eq!(
                r.value.pointer("/levels/0/concurrency"),
                None,
                "{rate} {cap}"
            );
        }
    }
}

#[test]
fn llmperf_numbers_written_as_strings_are_parsed() {
    let r = only_result(&Path::new(FIXTURES).join("llmperf/summary-with-errors-and-sampling.json"));
    assert_eq!(
        r.value.pointer("/workload/prompt_tokens/min"),
        Some(&json!(480.0))
    );
    assert_eq!(
        recorded(&r, "/workload/prompt_tokens/min"),
        "/results_number_input_tokens_min"
    );
    assert_eq!(r.value.pointer("/levels/0/failed"), Some(&json!(3)));
}

#[test]
fn the_client_api_and_tokenizer_are_read_where_the_format_records_them() {
    let r = only_result(&Path::new(FIXTURES).join("vllm/legacy-no-failed-field.json"));
    assert_eq!(r.value.pointer("/harness/backend"), Some(&json!("vllm")));
    assert_eq!(recorded(&r, "/harness/backend"), "/backend");
    assert_eq!(recorded(&r, "/workload/tokenizer"), "/tokenizer_id");
    // genai-perf: the endpoint type, not the Triton `backend` written with its default.
    let r = only_result(&Path::new(FIXTURES).join("genai-perf/nested-config-request-rate.json"));
    assert_eq!(r.value.pointer("/harness/backend"), Some(&json!("chat")));
    assert_eq!(
        recorded(&r, "/harness/backend"),
        "/input_config/endpoint/type"
    );
    assert_eq!(
        recorded(&r, "/workload/tokenizer"),
        "/input_config/tokenizer/name"
    );
}

#[test]
fn llmperf_tokenizer_is_the_harness_own_and_its_provenance_says_so() {
    let r = only_result(&Path::new(FIXTURES).join("llmperf/summary-with-errors-and-sampling.json"));
    assert_eq!(
        r.value.pointer("/workload/tokenizer"),
        Some(&json!("hf-internal-testing/llama-tokenizer"))
    );
    match r.provenance.get("/workload/tokenizer") {
        Some(Provenance::Derived { from, .. }) => assert!(from.contains("llmperf"), "{from}"),
        other => panic!("{other:?}"),
    }
    // A finding about it lands on the summary object, not on a key the file does not have.
    let loc = benchlint::corpus::translate(&r.origin, &r.provenance, "/workload/tokenizer");
    assert_eq!(loc.pointer, "");
}

#[test]
fn sglang_infinity_request_rate_is_kept_as_inf() {
    let path = Path::new(FIXTURES).join("sglang/late-2025-server-info.jsonl");
    let checked = check(&path);
    assert!(checked.findings.iter().any(|f| f.rule.code == "E005"));
    let inf = checked
        .corpus
        .results
        .iter()
        .find(|r| r.value.pointer("/levels/0/request_rate") == Some(&json!("inf")))
        .expect("a line with request_rate Infinity");
    assert_eq!(recorded(inf, "/levels/0/request_rate"), "/request_rate");
}

#[test]
fn a_guidellm_finding_points_into_the_benchmark_it_came_from() {
    let path = Path::new(FIXTURES).join("guidellm/v0.8.1-concurrent-sweep.json");
    let checked = check(&path);
    let r = &checked.corpus.results[1];
    assert_eq!(r.doc.id, format!("{}#0/benchmarks/1", path.display()));
    assert_eq!(
        recorded(r, "/levels/0/ttft_s/p95"),
        "/benchmarks/1/metrics/time_to_first_token_ms/successful/percentiles/p95"
    );
    // An absent item lands on the benchmark object.
    let loc = benchlint::corpus::translate(&r.origin, &r.provenance, "/engine/speculative");
    assert_eq!(loc.pointer, "/benchmarks/1");
}

/// Every key of the objects adapters read, replaced by each hostile value in turn: no
/// adapter may panic, and whatever it maps must still be a valid canonical result.
#[test]
fn hostile_values_never_panic_and_never_break_the_schema() {
    let hostile = [
        Value::Null,
        json!("NaN"),
        json!("Infinity"),
        json!(-1),
        json!(1e300),
        json!(12.5),
        json!("not a number"),
        json!([]),
        json!({}),
        json!(true),
    ];
    let mut roots = vec![PathBuf::from(FIXTURES)];
    if Path::new(REALWORLD).is_dir() {
        roots.push(PathBuf::from(REALWORLD));
    }
    let source = Source {
        path: "hostile.json",
        file_name: "hostile.json",
        doc_index: 0,
        doc_count: 1,
        folder: None,
        alone: false,
    };
    let mut problems = Vec::new();
    for path in roots.iter().flat_map(|r| files_under(r)) {
        for doc in &documents(&path) {
            let bases = [
                "",
                "/0",
                "/benchmarks/0",
                "/benchmarks/0/metrics",
                "/benchmarks/0/config/strategy",
                "/input_config",
                "/server_info",
            ];
            for base in bases {
                let Some(obj) = doc.value.pointer(base).and_then(Value::as_object) else {
                    continue;
                };
                for key in obj.keys() {
                    let pointer = format!("{base}/{}", benchlint::json::escape_pointer_token(key));
                    for h in &hostile {
                        let mut v = doc.value.clone();
                        *v.pointer_mut(&pointer).unwrap() = h.clone();
                        let Some((_, Reading::Results(mapped))) = adapters::read(&v, &source)
                        else {
                            continue;
                        };
                        for m in mapped {
                            // A level whose concurrency the file no longer gives is left
                            // without one: the loader reports such a result as E003.
                            let levels = m.value.get("levels").and_then(Value::as_array);
                            if levels
                                .is_some_and(|l| l.iter().any(|l| l.get("concurrency").is_none()))
                            {
                                continue;
                            }
                            let errors = schema::validate(schema::Kind::Result, &m.value);
                            let typed = serde_json::from_value::<ResultDoc>(m.value.clone());
                            if !errors.is_empty() || typed.is_err() {
                                problems.push(format!(
                                    "{} {pointer} = {h}: {errors:?} {:?}",
                                    path.display(),
                                    typed.err()
                                ));
                            }
                        }
                    }
                }
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn a_level_whose_concurrency_the_file_does_not_give_is_reported_not_invented() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("run.json");
    let mut doc: Value = serde_json::from_str(
        &std::fs::read_to_string(Path::new(FIXTURES).join("vllm/legacy-no-failed-field.json"))
            .unwrap(),
    )
    .unwrap();
    // Neither a rate nor a cap: the level has no load, and the prompt count is not one.
    doc["request_rate"] = json!(null);
    doc["max_concurrency"] = json!(null);
    std::fs::write(&path, doc.to_string()).unwrap();
    let checked = check(&path);
    assert!(checked.corpus.results.is_empty());
    let e003: Vec<_> = checked
        .findings
        .iter()
        .filter(|f| f.rule.code == "E003")
        .collect();
    assert_eq!(
        e003.len(),
        1,
        "{:?}",
        checked
            .findings
            .iter()
            .map(|f| &f.message)
            .collect::<Vec<_>>()
    );
    assert!(
        e003[0].message.contains("concurrency"),
        "{}",
        e003[0].message
    );
    assert_eq!(e003[0].primary.pointer, "");
}

/// Recognition is exclusive: no document of any fixture or real file is claimed by two
/// adapters, so the order of `ADAPTERS` never decides what a file is; and each is claimed by
/// one, except the outputs of benchmarks that measure no server under load (`llama-bench`),
/// which no adapter reads. Each document is offered under its own file name (some side files,
/// such as an MLPerf accuracy log, are told by their name).
#[test]
fn no_document_is_claimed_by_two_adapters() {
    let mut roots = vec![PathBuf::from(FIXTURES)];
    if Path::new(REALWORLD).is_dir() {
        roots.push(PathBuf::from(REALWORLD));
    }
    let mut problems = Vec::new();
    for path in roots.iter().flat_map(|r| files_under(r)) {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let out_of_scope = path.to_string_lossy().contains("/llama-bench/");
        for doc in &documents(&path) {
            let source = Source {
                path: "x.json",
                file_name: &name,
                doc_index: doc.index,
                doc_count: 1,
                folder: None,
                alone: false,
            };
            let claims: Vec<&str> = adapters::ADAPTERS
                .iter()
                .filter(|a| !matches!(a.read(&doc.value, &source), Reading::NotMine))
                .map(|a| a.name())
                .collect();
            if claims.len() > 1 || (claims.is_empty() && !out_of_scope) {
                problems.push(format!(
                    "{} document {}: claimed by {claims:?}",
                    path.display(),
                    doc.index
                ));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
