//! What a document that no adapter reads looks like, said in its one finding: a known format
//! that is not a serving benchmark is named for what it is (E004), a document that looks like a
//! result of a known harness or of benchlint is named as one that could not be read (an error:
//! a result that cannot be read never passes quietly), anything else is described by its shape
//! and first keys so the reader can tell which file it is.

use serde_json::Value;

/// Keys every llama-bench record carries (`llama-bench -o json` / `-o jsonl`).
const LLAMA_BENCH_KEYS: [&str; 4] = ["build_commit", "n_prompt", "n_gen", "avg_ts"];

/// A few words on what `doc` is, for a finding that says it was skipped.
pub fn describe(doc: &Value) -> String {
    if let Some(known) = known_format(doc) {
        return known.to_string();
    }
    match doc {
        Value::Object(map) if map.is_empty() => "an empty object".into(),
        Value::Object(map) => format!("an object with keys {}", first_keys(map.keys())),
        Value::Array(items) if items.is_empty() => "an empty array".into(),
        Value::Array(items) => {
            let objects: Vec<&serde_json::Map<String, Value>> =
                items.iter().filter_map(Value::as_object).collect();
            if objects.len() == items.len() {
                format!(
                    "an array of {} object{} with keys {}",
                    items.len(),
                    if items.len() == 1 { "" } else { "s" },
                    first_keys(objects[0].keys())
                )
            } else {
                format!("an array of {} values", items.len())
            }
        }
        Value::String(_) => "a lone string, not a document".into(),
        Value::Number(_) => "a lone number, not a document".into(),
        Value::Bool(_) => "a lone boolean, not a document".into(),
        Value::Null => "a lone null, not a document".into(),
    }
}

/// Formats people keep beside serving results that benchlint deliberately does not read.
fn known_format(doc: &Value) -> Option<&'static str> {
    let record = match doc {
        Value::Array(items) => items.first()?,
        other => other,
    };
    let map = record.as_object()?;
    if LLAMA_BENCH_KEYS.iter().all(|k| map.contains_key(*k)) {
        return Some(
            "llama-bench JSON: a microbenchmark of prompt processing and generation speed on one model, not a serving benchmark",
        );
    }
    if ["results", "versions", "config"]
        .iter()
        .all(|k| map.contains_key(*k))
        && map.get("results").is_some_and(Value::is_object)
    {
        return Some(
            "lm-evaluation-harness results: a quality evaluation, not a serving benchmark (name it as a quality gate in a result's artifacts to pair them)",
        );
    }
    if ["engine", "performance"]
        .iter()
        .all(|k| map.get(*k).is_some_and(Value::is_object))
        && (map.contains_key("request_info") || map.contains_key("world_info"))
    {
        return Some(TRTLLM_BENCH);
    }
    if [
        "elapsed_time",
        "num_requests",
        "total_num_tokens",
        "requests_per_second",
    ]
    .iter()
    .all(|k| map.contains_key(*k))
    {
        return Some(
            "vLLM offline throughput JSON (`benchmark_throughput`): a batch benchmark with no server and no latencies, not a serving benchmark",
        );
    }
    if map.contains_key("traceEvents") {
        return Some("a Chrome trace (traceEvents), not a result");
    }
    None
}

/// TensorRT-LLM's `trtllm-bench` reports, JSON or text.
const TRTLLM_BENCH: &str = "a trtllm-bench report: TensorRT-LLM's offline throughput / latency benchmark of an engine, not a serving benchmark";

/// What a text file no reader takes is, when it is the report of a benchmark that does not
/// measure a server under load (a `trtllm-bench` report saved from its console).
pub fn non_serving_text(text: &str) -> Option<&'static str> {
    let mut end = text.len().min(64 * 1024);
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let head = &text[..end];
    (head.contains("= PERFORMANCE OVERVIEW")
        && (head.contains("= ENGINE DETAILS") || head.contains("= REQUEST DETAILS")))
    .then_some(TRTLLM_BENCH)
}

/// Keys that, together, only a serving harness's result carries: `(harness, keys, how many
/// of them)`. A document with that many of a harness's keys (at its top, or in the first
/// object of an array) is a result of that harness, whatever else it holds.
const SIGNATURES: [(&str, &[&str], usize); 7] = [
    (
        "vLLM / SGLang benchmark_serving",
        &[
            "model_id",
            "completed",
            "duration",
            "request_throughput",
            "output_throughput",
            "mean_ttft_ms",
            "median_ttft_ms",
            "num_prompts",
        ],
        3,
    ),
    ("GuideLLM", &["benchmarks"], 1),
    (
        "genai-perf / AIPerf",
        &[
            "request_throughput",
            "time_to_first_token",
            "inter_token_latency",
            "request_latency",
            "input_config",
            "output_token_throughput",
            // AIPerf's own run keys, which an export of a run that served nothing still holds.
            "aiperf_version",
            "benchmark_id",
            "error_request_count",
            "error_summary",
        ],
        2,
    ),
    (
        "LLMPerf",
        &[
            "results_ttft_s_mean",
            "results_inter_token_latency_s_mean",
            "results_num_completed_requests",
            "results_end_to_end_latency_s_mean",
        ],
        1,
    ),
    (
        "inference-perf",
        &["load_summary", "successes", "failures"],
        2,
    ),
    (
        "genai-bench",
        &["aggregated_metrics", "individual_request_metrics"],
        1,
    ),
    (
        "InferenceX",
        &["tput_per_gpu", "conc", "isl", "osl", "hw"],
        3,
    ),
];

/// Keys of a canonical result, for a document that lost (or misspelt) its `schema`.
const CANONICAL_KEYS: [&str; 6] = [
    "levels",
    "measured_at",
    "outcome",
    "engine",
    "platform",
    "workload",
];

/// Whether `doc` looks like a result benchlint would read, though no adapter read it: what
/// it looks like, in a few words, for an error (a result that cannot be read must fail the
/// run, never be skipped with a warning). `None` for anything that does not.
pub fn looks_like_result(doc: &Value) -> Option<String> {
    // A result wrapped in arrays, however deep (up to a bound), is still a result: the first
    // record found under them is what it looks like.
    let mut record = doc;
    for _ in 0..8 {
        match record {
            Value::Array(items) => {
                record = items
                    .iter()
                    .find(|v| v.is_object())
                    .or_else(|| items.iter().find(|v| v.is_array()))?;
            }
            _ => break,
        }
    }
    let map = record.as_object()?;
    if known_format(doc).is_some() {
        return None;
    }
    // A `schema` key in any case, naming benchlint's result schema in any case.
    for (k, v) in map {
        let names_result = v
            .as_str()
            .is_some_and(|s| s.trim().eq_ignore_ascii_case(crate::model::RESULT_SCHEMA));
        if k.eq_ignore_ascii_case("schema") && (names_result || k != "schema") {
            return Some(format!(
                "a benchlint result written with `\"{k}\": {v}` (the key and value are `\"schema\": \"{}\"`, in lower case)",
                crate::model::RESULT_SCHEMA
            ));
        }
    }
    let canonical = CANONICAL_KEYS
        .iter()
        .filter(|k| map.contains_key(**k))
        .count();
    if !map.contains_key("schema")
        && map.get("levels").is_some_and(Value::is_array)
        && canonical >= 3
    {
        return Some(format!(
            "a benchlint result without its `schema` key (it has `levels` and {} other canonical keys)",
            canonical - 1
        ));
    }
    for (harness, keys, needed) in SIGNATURES {
        let held: Vec<&str> = keys
            .iter()
            .copied()
            .filter(|k| map.contains_key(*k))
            .collect();
        if held.len() >= needed {
            let shown: Vec<String> = held.iter().take(4).map(|k| format!("`{k}`")).collect();
            return Some(format!(
                "a {harness} result{} (it has {})",
                if doc.is_array() {
                    " inside an array"
                } else {
                    ""
                },
                shown.join(", ")
            ));
        }
    }
    // Wrapped, a record some adapter reads on its own is a result all the same.
    if !std::ptr::eq(record, doc) {
        let alone = super::Source {
            path: "",
            file_name: "",
            doc_index: 0,
            doc_count: 1,
            folder: None,
            alone: true,
        };
        if let Some((name, super::Reading::Results(_))) = super::read(record, &alone) {
            return Some(format!(
                "a {name} result inside an array (its first record is one {name} reads on its own)"
            ));
        }
    }
    None
}

fn first_keys<'a>(keys: impl Iterator<Item = &'a String>) -> String {
    let keys: Vec<&String> = keys.collect();
    let mut shown: Vec<String> = keys.iter().take(4).map(|k| format!("`{k}`")).collect();
    if keys.len() > 4 {
        shown.push("…".into());
    }
    shown.join(", ")
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn llama_bench_is_named_for_what_it_is() {
        let record = json!({"build_commit": "a1b2", "model_type": "llama 8B Q4_0",
            "n_prompt": 512, "n_gen": 0, "avg_ts": 5120.3, "stddev_ts": 12.0});
        assert!(describe(&json!([record.clone()])).starts_with("llama-bench JSON"));
        assert!(describe(&record).contains("not a serving benchmark"));
    }

    #[test]
    fn result_shaped_documents_are_told_from_other_json() {
        let vllm = json!({"model_id": "m", "completed": 10, "duration": 60.0, "run_number": -1});
        assert!(looks_like_result(&vllm).unwrap().contains("vLLM"));
        assert!(
            looks_like_result(&json!([vllm]))
                .unwrap()
                .contains("inside an array")
        );
        assert!(looks_like_result(&json!([[vllm]])).is_some());
        // A row of a run that served nothing holds too few keys for a signature, yet the
        // InferenceX adapter reads it on its own: wrapped, it is a result all the same.
        let sparse: Value = serde_json::from_str(include_str!(
            "../../testdata/adapters/inferencex/sparse-row/kimik2.5_tp8_conc32_b200-dgxc_03/agg_kimik2.5_tp8_conc32_b200-dgxc_03.json"
        ))
        .unwrap();
        assert!(
            looks_like_result(&json!([sparse]))
                .unwrap()
                .contains("reads on its own")
        );
        let upper = json!({"Schema": "Benchlint/Result/V1", "levels": []});
        assert!(looks_like_result(&upper).unwrap().contains("lower case"));
        let bare = json!({"levels": [], "outcome": "ok", "engine": {}, "measured_at": "x"});
        assert!(
            looks_like_result(&bare)
                .unwrap()
                .contains("without its `schema`")
        );
        assert!(looks_like_result(&json!({"benchmarks": [{"x": 1}], "extra": 1})).is_some());
        assert_eq!(
            looks_like_result(&json!({"tokens_per_second": 812.4})),
            None
        );
        assert_eq!(
            looks_like_result(
                &json!({"build_commit": "a", "n_prompt": 1, "n_gen": 0, "avg_ts": 1.0})
            ),
            None
        );
        let trt = json!({"engine": {"model": "m"}, "performance": {"x": 1}, "request_info": {}});
        assert!(describe(&trt).starts_with("a trtllm-bench report"));
        assert_eq!(looks_like_result(&trt), None);
    }

    #[test]
    fn trtllm_bench_console_reports_are_named() {
        let text = "===========================================================\n= ENGINE DETAILS\n=====\nModel: m\n= PERFORMANCE OVERVIEW\nRequest Throughput (req/sec): 12.0\n";
        assert!(non_serving_text(text).is_some());
        assert_eq!(non_serving_text("= PERFORMANCE OVERVIEW only\n"), None);
    }

    #[test]
    fn anything_else_by_its_shape() {
        assert_eq!(
            describe(&json!({"a": 1, "b": 2, "c": 3, "d": 4, "e": 5})),
            "an object with keys `a`, `b`, `c`, `d`, …"
        );
        assert_eq!(
            describe(&json!([{"x": 1}, {"x": 2}])),
            "an array of 2 objects with keys `x`"
        );
        assert_eq!(describe(&json!(3)), "a lone number, not a document");
    }
}
