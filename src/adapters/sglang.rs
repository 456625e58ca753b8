//! `SGLang`'s `python -m sglang.bench_serving` (formats.md §2).
//!
//! Each run appends one JSON object as a line to the output file, so a file is JSON Lines
//! that often mixes configurations (§2.1); every line is one result with one level.
//! Recognised by its keys: `completed` and `duration` with `total_output_tokens_retokenized`
//! (every version writes it) or `server_info`, and no `model_id` (vLLM's key); a line that
//! lost some of them by two of `SGLang`'s own keys beside a count, a window or a throughput.
//!
//! History handled:
//! - late 2024 (18 keys): no `num_prompts`, no model, no p99, `request_rate` a bare `Infinity`
//!   (read by the tolerant parser as the string `"Infinity"`, written here as `"inf"`);
//! - mid 2025: `mean/median/std/p99` of TTFT, TPOT, ITL, E2E, `concurrency` (achieved, not a
//!   cap), `accept_length` (speculative decoding's mean accept length, else null);
//! - late 2025: `tag`, `server_info` (the server's own `/get_server_info`: server args and
//!   `version`; under `decode[0]` for disaggregated serving), read into engine, model and
//!   speculative settings;
//! - `--output-details` arrays (`input_lens`, `output_lens`, `ttfts`, `errors`): samples.
//!
//! `backend` is the client's request function, as in vLLM's client (§0.4): `harness.backend`.
//! The client's tokenizer (`--tokenizer`, else the model id) is not written by any version;
//! `server_info.tokenizer_path` is the server's tokenizer, not the one the client counted
//! with, so `workload.tokenizer` is left out.
//!
//! No date is recorded (the file name has only MMDD): `measured_at` is the epoch fallback.
//! The level's load is `request_rate` and `max_concurrency` ([`super::map::Builder::load`]);
//! `num_prompts` and `completed` are request counts, never a concurrency. Failures are the
//! non-empty `errors` (without `--output-details` they are not recorded at all, §0.6).
//! Tokens (§2.3): `total_output_tokens_retokenized` is the client's count of the delivered
//! text (`output_tokens`, `client-tokenizer`); `total_output_tokens` is the server's count, or
//! the requested lengths where the server reported none, so it is `server_output_tokens`, the
//! figure R002 cross-checks. The headline `output_throughput` is `SGLang`'s (server count).
//! The random dataset draws each output length between `random_output_len ×
//! random_range_ratio` and `random_output_len`: the cap is `max_output_tokens`, the shortest
//! length `workload.sampling.output_tokens_min` (when the ratio is under 1).

use serde_json::Value;

use super::map::{Builder, NONE_COMPLETED, at, count, ptr};
use super::vllm::detailed;
use super::{Adapter, Mapped, Reading, Source};

/// The `SGLang` `bench_serving` adapter.
pub struct Sglang;

/// Keys only `SGLang`'s client writes (vLLM's client, which it forked, writes `model_id` and
/// `*_e2el_ms` instead, and no dataset arguments).
const OWN_MARKS: [&str; 8] = [
    "total_output_tokens_retokenized",
    "server_info",
    "mean_e2e_latency_ms",
    "median_e2e_latency_ms",
    "random_input_len",
    "random_output_len",
    "random_range_ratio",
    "sharegpt_output_len",
];

/// A line: `completed` and `duration` with `total_output_tokens_retokenized` or
/// `server_info`; or, a line that lost some of those, two of `SGLang`'s own keys beside a
/// count, a window or a throughput (what every line of every version carries), so that a line
/// without its counts is an `SGLang` line with findings, not an unknown format.
fn is_line(v: &Value) -> bool {
    v.as_object().is_some_and(|m| {
        let marks = OWN_MARKS.iter().filter(|k| m.contains_key(**k)).count();
        let whole = m.contains_key("completed")
            && m.contains_key("duration")
            && (m.contains_key("total_output_tokens_retokenized") || m.contains_key("server_info"));
        let served = [
            "completed",
            "duration",
            "output_throughput",
            "request_throughput",
        ]
        .iter()
        .any(|k| m.contains_key(*k));
        (whole || (marks >= 2 && served))
            && !m.contains_key("model_id")
            && !m.contains_key("schema")
    })
}

impl Adapter for Sglang {
    fn name(&self) -> &'static str {
        "sglang"
    }

    fn read<'d, 's: 'd>(&self, doc: &'d Value, source: &Source<'s>) -> Reading<'d> {
        if is_line(doc) {
            Reading::results(vec![map_line(doc, source)])
        } else {
            Reading::NotMine
        }
    }
}

fn map_line(doc: &Value, source: &Source<'_>) -> Mapped {
    let mut b = Builder::new(doc, source, "");
    b.put("/harness/name", "sglang-bench-serving", "");
    // The client's request function (`sglang`, `sglang-oai`, `vllm`, `trt`, ...), not the engine.
    b.string("/harness/backend", "/backend");

    let completed = doc.get("completed").and_then(count);
    let num_prompts = doc.get("num_prompts").and_then(count);
    let failed_errors = doc.get("errors").and_then(Value::as_array).map(|e| {
        e.iter()
            .filter(|x| x.as_str().is_some_and(|s| !s.is_empty()))
            .count() as u64
    });
    let failed = match (num_prompts, completed, failed_errors) {
        (_, _, Some(f)) => Some((f, "/errors")),
        (Some(n), Some(c), None) if n >= c => Some((n - c, "/num_prompts")),
        _ => None,
    };
    if completed == Some(0) && failed.is_some_and(|(f, _)| f > 0) {
        b.derived("/outcome", "failed", NONE_COMPLETED, "/levels/0/requests");
    }

    b.load("/request_rate", "/max_concurrency");
    // Mid-2025 lines record the achieved mean of requests in flight as `concurrency`.
    b.real("/levels/0/mean_in_flight", "/concurrency", 1.0);
    b.whole("/levels/0/requests", "/completed", 0);
    if let Some((f, src)) = failed {
        b.put("/levels/0/failed", f, src);
    }
    b.real("/levels/0/duration_s", "/duration", 1.0);
    if b.whole(
        "/levels/0/output_tokens",
        "/total_output_tokens_retokenized",
        0,
    ) {
        b.put(
            "/workload/token_count_source",
            "client-tokenizer",
            "/total_output_tokens_retokenized",
        );
        b.whole("/levels/0/server_output_tokens", "/total_output_tokens", 0);
    } else {
        b.whole("/levels/0/output_tokens", "/total_output_tokens", 0);
    }
    // With no completed request the 0.0 is not a measurement (R006, R007 read the counts).
    if completed != Some(0) {
        b.real(
            "/levels/0/throughput_tok_s/aggregate",
            "/output_throughput",
            1.0,
        );
    }
    if completed.is_some_and(|c| c > 0) {
        let sets: [(&str, &str, &[&str], f64); 3] = [
            ("ttft_ms", "/levels/0/ttft_s", &["p50", "p95", "p99"], 0.001),
            ("tpot_ms", "/levels/0/tpot_ms", &["p50", "p95"], 1.0),
            ("e2e_latency_ms", "/levels/0/e2e_s", &["p50", "p95"], 0.001),
        ];
        for (metric, canonical, quantiles, scale) in sets {
            for q in quantiles {
                let mut srcs = vec![ptr("", &[&format!("{q}_{metric}")])];
                if *q == "p50" {
                    srcs.push(ptr("", &[&format!("median_{metric}")]));
                }
                b.first(&format!("{canonical}/{q}"), &srcs, scale);
            }
        }
    }
    detailed(&mut b, "", "/total_input_tokens", completed);

    workload(&mut b, doc);
    server_info(&mut b, doc);
    b.finish()
}

/// Dataset, prompt kind and the requested output length (§2.2, §2.4).
fn workload(b: &mut Builder<'_>, doc: &Value) {
    let Some(name) = doc.get("dataset_name").and_then(Value::as_str) else {
        return;
    };
    b.put("/workload/dataset", name, "/dataset_name");
    // `random` / `random-ids` prompts are random token ids; the others are dataset text.
    let random = name.starts_with("random");
    b.put(
        "/workload/prompts",
        if random { "random-tokens" } else { "dataset" },
        "/dataset_name",
    );
    if random {
        b.whole("/workload/max_output_tokens", "/random_output_len", 1);
        output_range(b, doc);
    } else if name == "sharegpt" {
        b.whole("/workload/max_output_tokens", "/sharegpt_output_len", 1);
    }
}

/// The random dataset draws each request's output length uniformly between
/// `int(random_output_len × random_range_ratio)` and `random_output_len` (§2.2): with a ratio
/// under 1 the cap is the longest length asked for, not the length, and the smallest goes to
/// `workload.sampling.output_tokens_min` (R020 compares the delivered mean with the middle of
/// the range).
fn output_range(b: &mut Builder<'_>, doc: &Value) {
    let (Some(len), Some(ratio)) = (
        doc.get("random_output_len").and_then(count),
        doc.get("random_range_ratio").and_then(super::map::number),
    ) else {
        return;
    };
    if !(0.0..1.0).contains(&ratio) || len == 0 {
        return;
    }
    #[expect(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        clippy::cast_precision_loss,
        reason = "a length far below 2^52 times a ratio in [0, 1)"
    )]
    let low = (len as f64 * ratio) as u64;
    b.put(
        "/workload/sampling/output_tokens_min",
        low,
        "/random_range_ratio",
    );
}

/// `server_info` (late 2025): `SGLang`'s server arguments and version (§2.2). Its keys are
/// `SGLang`'s `ServerArgs` names.
fn server_info(b: &mut Builder<'_>, doc: &Value) {
    let base = match at(doc, "/server_info") {
        Some(Value::Object(m)) if m.get("decode").is_some_and(Value::is_array) => {
            "/server_info/decode/0"
        }
        Some(Value::Object(_)) => "/server_info",
        _ => {
            // Without server_info, a recorded accept length still says speculation was on.
            if at(doc, "/accept_length")
                .and_then(super::map::number)
                .is_some()
            {
                b.put("/engine/speculative/enabled", true, "/accept_length");
            }
            return;
        }
    };
    let p = |k: &str| ptr(base, &[k]);
    b.put("/engine/name", "sglang", base);
    b.string("/engine/version", &p("version"));
    b.string("/model/name", &p("model_path"));
    b.whole("/engine/tensor_parallel_size", &p("tp_size"), 1);
    b.whole("/engine/pipeline_parallel_size", &p("pp_size"), 1);
    b.whole("/engine/data_parallel_size", &p("dp_size"), 1);
    b.whole("/engine/expert_parallel_size", &p("ep_size"), 1);
    b.string("/engine/kv_cache_dtype", &p("kv_cache_dtype"));
    b.whole("/engine/max_num_seqs", &p("max_running_requests"), 1);
    b.whole("/engine/max_model_len", &p("context_length"), 1);
    let doc = b.doc();
    if let Some(off) = at(doc, &p("disable_radix_cache")).and_then(Value::as_bool) {
        b.put(
            "/engine/enable_prefix_caching",
            !off,
            &p("disable_radix_cache"),
        );
    }
    b.boolean("/engine/enforce_eager", &p("disable_cuda_graph"));
    // Precision: the quantization method, else a dtype other than "auto".
    if !b.string("/model/precision", &p("quantization"))
        && let Some(dtype) = at(doc, &p("dtype"))
            .and_then(Value::as_str)
            .filter(|d| *d != "auto")
    {
        b.put("/model/precision", dtype, &p("dtype"));
    }
    // The key is always there; null means no speculative decoding.
    if let Some(algo) = doc.pointer(&p("speculative_algorithm")) {
        let src = p("speculative_algorithm");
        match algo.as_str().filter(|s| !s.is_empty()) {
            Some(name) => {
                b.put("/engine/speculative/enabled", true, &src);
                b.put(
                    "/engine/speculative/method",
                    name.to_ascii_lowercase(),
                    &src,
                );
                b.whole(
                    "/engine/speculative/num_speculative_tokens",
                    &p("speculative_num_steps"),
                    0,
                );
                b.string(
                    "/engine/speculative/draft_model",
                    &p("speculative_draft_model_path"),
                );
            }
            None if algo.is_null() => b.put("/engine/speculative/enabled", false, &src),
            None => {}
        }
    }
}
