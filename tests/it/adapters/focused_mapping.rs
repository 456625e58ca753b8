//! Focused checks of what an adapter maps: recognition by content, units and the pointers
//! back to the source value, inferred failures, closed and open loops, numbers written as
//! strings, the client API and tokenizer, an infinite request rate, a finding's benchmark.

use std::path::Path;

use benchlint::corpus::LoadedResult;
use benchlint::model::Provenance;
use serde_json::{Value, json};

use super::{FIXTURES, check};

// ---------------------------------------------------------------- focused checks

fn only_result(path: &Path) -> LoadedResult {
    let mut checked = check(path);
    assert_eq!(checked.corpus.results.len(), 1, "{}", path.display());
    checked.corpus.results.remove(0)
}

fn recorded(r: &LoadedResult, canonical: &str) -> String {
    match r.provenance.get(canonical).as_deref() {
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
            r.provenance.get("/levels/0/failed").as_deref(),
            Some(Provenance::Derived { from, pointer }) if from == "num_prompts - completed" && pointer == "/num_prompts"
        ),
        "{:?}",
        r.provenance.get("/levels/0/failed").as_deref()
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
    match r.provenance.get("/workload/tokenizer").as_deref() {
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
