//! `GuideLLM` (`neuralmagic/guidellm`, now `vllm-project/guidellm`) reports, formats.md §3.
//!
//! One report holds every point of a sweep in `benchmarks[]` (synchronous, throughput,
//! `concurrent` streams, `constant` / `poisson` rates): one result per benchmark, with one
//! level, id `<path>#<doc>/benchmarks/<i>`, read from `/benchmarks/<i>`. Recognised by a
//! `benchmarks` array whose elements are `generative_benchmark`s (or carry `GuideLLM`'s
//! `metrics`).
//!
//! History handled (§3.2):
//! - ≤ 0.3 (the "v0.2" report): benchmarks only; each has `args.strategy`, `run_stats`,
//!   `worker.backend_model`, `request_loader.data` (a `prompt_tokens=..,output_tokens=..`
//!   string or a dataset), `request_totals` beside `metrics`; percentiles may lack `p50`
//!   (the summary's `median` is used);
//! - 0.4 to 0.6: `args` (flat CLI arguments) and, from 0.5, `metadata` (`version` 1,
//!   `guidellm_version`); each benchmark has `config` (`strategy`, `backend.model`,
//!   `warmup`, `prefer_response_metrics`, ...), `metrics.request_totals`, sampled
//!   `requests` whose `request_args` is the HTTP body as a JSON string;
//! - ≥ 0.7 (`metadata.version` 2): `config` is the scenario (`metadata.labels`, `spec`
//!   with `backend`, `data`, `seed`, ...); benchmarks keep the 0.5 shape.
//!
//! Every metric is split into successful / errored / incomplete / total: latencies and
//! tokens are read from `successful`, failures are the `errored` count (`incomplete` requests
//! were cut off at the end of the window, not failed). The sampled request lists are never
//! counted (they hold warm-up requests and are reservoir samples, §3.2); only the settings
//! every sampled request was sent with (`max_tokens`, `ignore_eos`, `temperature`) are read
//! from them. `measured_at` is the benchmark's `start_time` (Unix seconds). A level is keyed
//! by its concurrency for `synchronous` (1) and `concurrent` (`streams`), by an unbounded rate
//! for `throughput` (a closed loop at `max_concurrency` when capped), and by the strategy's
//! `rate` for `constant`, `poisson` and the other rate strategies (the cap as
//! `max_concurrency`); the requests a level sent are never its concurrency. The measured window excludes warm-up and cool-down,
//! which the report records (`warmup_duration`, `duration`). A rate-keyed level also records
//! the rate it achieved (`metrics.requests_per_second`, of all requests, else the successful
//! ones) as `achieved_request_rate` (R027).
//!
//! A benchmark that lacks what the others record (no metrics, a strategy of an unknown kind)
//! spoils only itself: the report is read when one benchmark is `GuideLLM`'s, and every
//! benchmark is read as far as it goes.
//!
//! A report saved as YAML (`save_file` with a `.yaml` path: PyYAML's `yaml.dump`, keys
//! sorted, an object met twice written once with an anchor and then as aliases, tuples
//! tagged `!!python/tuple`) is read by the YAML reader (`crate::yaml`, aliases expanded under
//! its bound, tags ignored) into the same value and mapped here unchanged; every source
//! pointer then names the same key, and findings are placed on the YAML's own lines (a
//! member at its key, a benchmark at its first key, an absent field at the nearest object
//! written out).

mod workload;

use serde_json::Value;

use super::map::{
    Builder, NONE_COMPLETED, at, count, from_epoch_seconds, known_keys, labels, number, ptr,
};
use super::{Adapter, Mapped, Mapping, Reading, Source};

use workload::{data_spec, request_settings, warmup};

/// The `GuideLLM` adapter.
pub struct Guidellm;

fn is_benchmark(b: &Value) -> bool {
    b.get("type_").and_then(Value::as_str) == Some("generative_benchmark")
        || b.get("metrics").is_some_and(|m| {
            m.get("requests_per_second").is_some() || m.get("time_to_first_token_ms").is_some()
        })
}

fn is_report(v: &Value) -> bool {
    v.as_object().is_some_and(|m| {
        !m.contains_key("schema")
            && m.get("benchmarks")
                .and_then(Value::as_array)
                // One benchmark that lacks what the others record spoils only itself.
                .is_some_and(|b| b.iter().any(is_benchmark) && b.iter().all(Value::is_object))
    })
}

impl Adapter for Guidellm {
    fn name(&self) -> &'static str {
        "guidellm"
    }

    fn read<'d, 's: 'd>(&self, doc: &'d Value, source: &Source<'s>) -> Reading<'d> {
        if !is_report(doc) {
            return Reading::NotMine;
        }
        let n = doc["benchmarks"].as_array().map_or(0, Vec::len);
        let source = *source;
        Reading::Results(Mapping::each(n, move |i| map_benchmark(doc, &source, i)))
    }

    fn lets_go(&self, doc: &Value, _source: &Source<'_>) -> bool {
        is_report(doc)
    }

    /// A benchmark reads nothing of the report but itself and what the report holds for all
    /// (`args`, `config`, `metadata`): its requests go with it once its result is made.
    fn read_letting_go<'d, 's: 'd>(&self, doc: &'d mut Value, source: &Source<'s>) -> Reading<'d> {
        if !is_report(doc) {
            return Reading::NotMine;
        }
        let n = doc["benchmarks"].as_array().map_or(0, Vec::len);
        let source = *source;
        Reading::Results(Mapping::each(n, move |i| {
            let mapped = map_benchmark(doc, &source, i);
            if let Some(benchmark) = doc.get_mut("benchmarks").and_then(|b| b.get_mut(i)) {
                *benchmark = Value::Null;
            }
            mapped
        }))
    }
}

/// A distribution summary's percentile, `median` standing in for a missing `p50`.
fn quantile(doc: &Value, summary: &str, q: &str) -> Vec<String> {
    let mut srcs = vec![ptr(summary, &["percentiles", q])];
    if q == "p50" {
        srcs.push(ptr(summary, &["median"]));
    }
    srcs.retain(|s| at(doc, s).is_some());
    srcs
}

fn map_benchmark(doc: &Value, source: &Source<'_>, i: usize) -> Mapped {
    let base = format!("/benchmarks/{i}");
    let p = |tokens: &[&str]| ptr(&base, tokens);
    let metric = |name: &str| ptr(&base, &["metrics", name, "successful"]);
    let mut b = Builder::new(doc, source, &base);
    let legacy = at(doc, &p(&["args"])).is_some() && at(doc, &p(&["config"])).is_none();

    for src in [
        p(&["start_time"]),
        p(&["run_stats", "start_time"]),
        p(&["scheduler_metrics", "start_time"]),
    ] {
        if let Some(ts) = at(doc, &src).and_then(number).and_then(from_epoch_seconds) {
            b.measured_at(ts, &src);
            break;
        }
    }
    b.put("/harness/name", "guidellm", "");
    b.string("/harness/version", "/metadata/guidellm_version");
    let _ = b.string("/model/name", &p(&["config", "backend", "model"]))
        || b.string("/model/name", &p(&["worker", "backend_model"]))
        || b.string("/model/name", "/config/spec/backend/model")
        || b.string("/model/name", "/args/model");
    // The client API (`openai_http`), not the engine: the benchmark's backend (`kind` from
    // 0.7), the scenario's, the CLI argument (0.4 to 0.6), the worker (up to 0.3).
    let _ = b.string("/harness/backend", &p(&["config", "backend", "kind"]))
        || b.string("/harness/backend", "/config/spec/backend/kind")
        || b.string("/harness/backend", "/args/backend")
        || b.string("/harness/backend", &p(&["worker", "backend_type"]));
    // The processor (tokenizer) the prompts were built and counted with, where it was given:
    // the scenario's tokenizer (an object with `model` in 0.8), the CLI argument, the request
    // loader (up to 0.3). A processor not given (null) is left out: the report does not say
    // what was used instead.
    let _ = b.string("/workload/tokenizer", "/config/spec/tokenizer/model")
        || b.string("/workload/tokenizer", "/config/spec/tokenizer")
        || b.string("/workload/tokenizer", "/config/spec/processor")
        || b.string("/workload/tokenizer", "/args/processor")
        || b.string("/workload/tokenizer", &p(&["request_loader", "processor"]));
    // Whether the backend streamed (0.8 writes `stream`; TTFT is only timed when it did, R028).
    b.boolean("/workload/streaming", &p(&["config", "backend", "stream"]));

    // Request counts of the measured window.
    let totals = if legacy {
        p(&["request_totals"])
    } else {
        p(&["metrics", "request_totals"])
    };
    let successful = at(doc, &ptr(&totals, &["successful"])).and_then(count);
    let errored = at(doc, &ptr(&totals, &["errored"])).and_then(count);
    if successful == Some(0) && errored.is_some_and(|e| e > 0) {
        b.derived("/outcome", "failed", NONE_COMPLETED, "/levels/0/requests");
    }

    let strategy = if legacy {
        p(&["args", "strategy"])
    } else {
        p(&["config", "strategy"])
    };
    strategy_level(&mut b, &strategy);
    achieved_rate(&mut b, &base, successful);
    b.whole("/levels/0/requests", &ptr(&totals, &["successful"]), 0);
    b.whole("/levels/0/failed", &ptr(&totals, &["errored"]), 0);
    b.real("/levels/0/duration_s", &p(&["duration"]), 1.0);
    if let Some(sum) = at(doc, &ptr(&metric("output_token_count"), &["total_sum"]))
        .and_then(number)
        .filter(|f| *f >= 0.0)
    {
        // A sum of whole token counts, written as a float.
        #[expect(
            clippy::cast_possible_truncation,
            clippy::cast_sign_loss,
            reason = "non-negative and far below 2^63"
        )]
        let tokens = sum.round() as u64;
        b.put(
            "/levels/0/output_tokens",
            tokens,
            &ptr(&metric("output_token_count"), &["total_sum"]),
        );
    }
    if successful.is_some_and(|s| s > 0) {
        b.real(
            "/levels/0/throughput_tok_s/aggregate",
            &ptr(&metric("output_tokens_per_second"), &["mean"]),
            1.0,
        );
        let sets: [(&str, &str, &[&str], f64); 3] = [
            (
                "time_to_first_token_ms",
                "/levels/0/ttft_s",
                &["p50", "p95", "p99"],
                0.001,
            ),
            (
                "time_per_output_token_ms",
                "/levels/0/tpot_ms",
                &["p50", "p95"],
                1.0,
            ),
            ("request_latency", "/levels/0/e2e_s", &["p50", "p95"], 1.0),
        ];
        for (name, canonical, quantiles, scale) in sets {
            for q in quantiles {
                b.first(
                    &format!("{canonical}/{q}"),
                    &quantile(doc, &metric(name), q),
                    scale,
                );
            }
        }
        let prompt = metric("prompt_token_count");
        b.real("/workload/prompt_tokens/min", &ptr(&prompt, &["min"]), 1.0);
        b.real("/workload/prompt_tokens/max", &ptr(&prompt, &["max"]), 1.0);
        b.real(
            "/workload/prompt_tokens/mean",
            &ptr(&prompt, &["mean"]),
            1.0,
        );
    }

    request_settings(&mut b, &base);
    data_spec(&mut b, &base, legacy);
    warmup(&mut b, &base, legacy);
    let _ = b.whole("/workload/seed", "/config/spec/seed/value", 0)
        || b.whole(
            "/workload/seed",
            &p(&["config", "requests", "random_seed"]),
            0,
        )
        || b.whole("/workload/seed", "/args/random_seed", 0)
        || b.whole("/workload/seed", &p(&["args", "profile", "random_seed"]), 0);
    // Usage counts from the server's responses, preferred when it reports them (§3.3).
    let prefer = p(&["config", "prefer_response_metrics"]);
    if at(doc, &prefer).and_then(Value::as_bool) == Some(true) {
        b.put("/workload/token_count_source", "server-usage", &prefer);
    }
    known_keys(&mut b, "/config/metadata/labels");
    // The scenario's labels name what the report does not record (a deployment, a variant).
    labels(&mut b, "/config/metadata/labels", |_| false);
    b.finish()
}

/// Concurrency and traffic of one strategy (`type_` synchronous, concurrent, throughput,
/// constant, poisson, ...).
fn strategy_level(b: &mut Builder<'_>, strategy: &str) {
    let doc = b.doc();
    let kind_src = ptr(strategy, &["type_"]);
    let kind = at(doc, &kind_src).and_then(Value::as_str).unwrap_or("");
    let cap = ptr(strategy, &["max_concurrency"]);
    match kind {
        "synchronous" => b.put("/levels/0/concurrency", 1, &kind_src),
        "concurrent" => {
            let _ = b.whole("/levels/0/concurrency", &ptr(strategy, &["streams"]), 1)
                || b.whole("/levels/0/concurrency", &cap, 1);
        }
        // As fast as the server takes them: an unbounded rate, capped only by max_concurrency
        // (a closed loop at the cap when there is one).
        "throughput" => {
            b.put("/levels/0/request_rate", "inf", &kind_src);
            if b.whole("/levels/0/max_concurrency", &cap, 1) {
                b.whole("/levels/0/concurrency", &cap, 1);
            }
        }
        // constant, poisson, ...: open loop at the strategy's rate.
        _ => {
            b.load(&ptr(strategy, &["rate"]), &cap);
        }
    }
}

/// The rate an open-loop level achieved: `metrics.requests_per_second` (requests finished per
/// second over the measured window), of every request (`total`) where written, else of the
/// successful ones. Only for a level keyed by a finite request rate (constant, Poisson, ...)
/// that completed requests: R027 compares it with the rate asked for.
fn achieved_rate(b: &mut Builder<'_>, base: &str, successful: Option<u64>) {
    let keyed_by_rate = b
        .value("/levels/0/request_rate")
        .is_some_and(Value::is_number);
    if !keyed_by_rate || successful.is_none_or(|n| n == 0) {
        return;
    }
    let rps = ptr(base, &["metrics", "requests_per_second"]);
    let _ = b.real(
        "/levels/0/achieved_request_rate",
        &ptr(&rps, &["total", "mean"]),
        1.0,
    ) || b.real(
        "/levels/0/achieved_request_rate",
        &ptr(&rps, &["successful", "mean"]),
        1.0,
    );
}
