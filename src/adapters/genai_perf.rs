//! NVIDIA genai-perf (`profile_export_genai_perf.json`) and its successor `AIPerf`
//! (`profile_export_aiperf.json`), formats.md §4.
//!
//! One export is one run at one concurrency or request rate (a sweep is one folder per
//! level): one result with one level. Every metric is an object with its own `unit` (`"ms"`,
//! `"sec"`, `"ns"`, `"tokens/sec"`) and statistics (`avg`, `p1`..`p99`, `min`, `max`,
//! `std`), so times are converted by the unit the file states, never by the metric's name.
//! Recognised by `input_config` beside metric objects with a `unit`; `AIPerf` is told from
//! genai-perf by its own keys (`benchmark_duration`, `was_cancelled`, `error_summary`,
//! `aiperf_version`, sectioned `input_config`, an `aiperf` command line).
//!
//! History handled:
//! - genai-perf, flat `input_config` (model list, `concurrency`, `request_rate`,
//!   `output_tokens_mean/stddev`, `random_seed`, `warmup_request_count`, `extra_inputs`) and
//!   the newer nested one (`model_names`, `perf_analyzer.stimulus`, `perf_analyzer.measurement`,
//!   `input.output_tokens`, `input.extra`); `output_token_throughput_per_request` (older) or
//!   `_per_user` (newer); neither a failure count nor a duration is recorded (§0.6);
//! - `AIPerf` up to 0.12 (the real January 2026 sample): `input_config` in sections
//!   (`endpoint.model_names`, `input.prompt.output_tokens`, `loadgen`), `benchmark_duration`,
//!   `error_request_count` / `error_summary`, `was_cancelled`, reasoning tokens (`total_osl` =
//!   content + reasoning, the figure its output throughput divides), `min_request_timestamp`
//!   (ns since the epoch, preferred for `measured_at` because it is unambiguous), DCGM GPU
//!   telemetry (`telemetry_data.endpoints.*.gpus.*`: GPU name and host → platform, the GPUs'
//!   mean power → the level's device power, [`super::gpu_telemetry`]);
//! - `AIPerf` 0.13 (`schema_version`, `aiperf_version`, `run_info`): `input_config` rebuilt
//!   around `models.items`, `endpoint.extra`, `datasets[].prompts.osl`, and `phases[]` (the
//!   warm-up phase with `exclude_from_results`, the profiling phase with its `concurrency` or
//!   rate and `requests`); the server's own token counts (`total_usage_completion_tokens`); a
//!   per-phase copy of the export under `phases/<name>/`, recognised because it lacks the
//!   run-level `telemetry_data` and `warmup_metrics` while the run had a warm-up phase: it
//!   repeats the run or holds the warm-up, so it is a companion;
//! - companions: genai-perf's raw `profile_export.json` (`experiments`), `inputs.json`
//!   (`data` of payloads), per-request `profile_export.jsonl` records, `AIPerf`'s sweep and
//!   multi-run aggregates (`aggregation_type`), `run_config.json`, `phase_manifest.json`, the
//!   `.aiperf_results_ready.json` marker, and `AIPerf`'s other outputs (`*_timeslices.json`,
//!   `server_metrics_export.json` / `.jsonl`, `gpu_telemetry_export.jsonl`).
//!
//! genai-perf records no date: `measured_at` is the epoch fallback; `AIPerf`'s `start_time`
//! is a local time without offset, read as UTC. A level is keyed by the configured concurrency;
//! in request-rate mode by the rate (the concurrency, if any, is its cap), never by the
//! request count. Tokens are counted by the client
//! tokenizer (§0.3) unless `AIPerf` was told to use the server's counts. Neither harness
//! measures a level's prefill or decode throughput (`AIPerf`'s prefill figures are each
//! request's prompt over its own TTFT), so only the aggregate is mapped. The API key `AIPerf`
//! writes into `input_config` is never copied.
//!
//! Derived from the export's own figures: the requests in flight on average,
//! `mean_in_flight`, by Little's law (the summed request latency over the benchmark duration;
//! below the concurrency when a multi-turn trace pauses between turns); the reasoning tokens
//! `AIPerf` counts apart (`total_reasoning_tokens`, part of `total_osl`) go to
//! `reasoning_tokens`, and `--scenario` to `labels.scenario`.

use serde_json::Value;

use super::map::{
    Builder, NONE_COMPLETED, at, count, from_epoch_seconds, from_iso, number, ptr, rate,
};
use super::{Adapter, Mapped, Reading, Source};

/// The genai-perf / `AIPerf` adapter.
pub struct GenaiPerf;

/// Metrics every genai-perf / `AIPerf` export has at least one of.
const CORE_METRICS: [&str; 5] = [
    "request_throughput",
    "request_latency",
    "time_to_first_token",
    "request_count",
    "output_token_throughput",
];

fn is_export(v: &Value) -> bool {
    v.as_object().is_some_and(|m| {
        m.get("input_config").is_some_and(Value::is_object)
            && CORE_METRICS
                .iter()
                .any(|k| m.get(*k).and_then(|x| x.get("unit")).is_some())
            && !m.contains_key("schema")
    })
}

fn is_aiperf(v: &Value) -> bool {
    let keys = [
        "aiperf_version",
        "benchmark_duration",
        "was_cancelled",
        "error_summary",
        "telemetry_data",
    ];
    keys.iter().any(|k| v.get(*k).is_some())
        || [
            "/input_config/loadgen",
            "/input_config/phases",
            "/input_config/endpoint/model_names",
        ]
        .iter()
        .any(|p| v.pointer(p).is_some())
        || v.pointer("/input_config/cli_command")
            .and_then(Value::as_str)
            .is_some_and(|c| c.trim_start().starts_with("aiperf"))
}

/// Index of the `input_config.phases[]` entry of `kind` (`AIPerf` 0.13).
fn phase(doc: &Value, kind: &str) -> Option<usize> {
    doc.pointer("/input_config/phases")?
        .as_array()?
        .iter()
        .position(|p| p.get("kind").and_then(Value::as_str) == Some(kind))
}

/// An `AIPerf` 0.13 per-phase export (`phases/<name>/profile_export_aiperf.json`): the run's
/// export carries `warmup_metrics` whenever the run had a warm-up phase (and its telemetry);
/// the per-phase copies carry neither.
fn is_phase_export(v: &Value) -> bool {
    v.get("schema_version").is_some()
        && v.get("telemetry_data").is_none()
        && v.get("warmup_metrics").is_none()
        && phase(v, "warmup").is_some()
}

impl Adapter for GenaiPerf {
    fn name(&self) -> &'static str {
        "genai-perf"
    }

    fn read(&self, doc: &Value, source: &Source<'_>) -> Reading {
        if is_export(doc) && !is_phase_export(doc) {
            Reading::Results(vec![map_export(doc, source)])
        } else if is_phase_export(doc) || super::genai_perf_companions::is_companion(doc) {
            Reading::Companion
        } else {
            Reading::NotMine
        }
    }
}

/// Seconds per unit of a time metric, by the unit the file states.
fn seconds_per(unit: &str) -> Option<f64> {
    match unit.trim().to_ascii_lowercase().as_str() {
        "s" | "sec" | "secs" | "second" | "seconds" => Some(1.0),
        "ms" | "msec" | "milliseconds" => Some(1e-3),
        "us" | "µs" | "usec" | "microseconds" => Some(1e-6),
        "ns" | "nsec" | "nanoseconds" => Some(1e-9),
        _ => None,
    }
}

/// Copies statistic `stat` of metric `name` into `canonical`. A time metric is converted to
/// `target_s` seconds per canonical unit (`1.0` for a `_s` key, `0.001` for a `_ms` key) by
/// the metric's own `unit`; `None` copies the value as it is.
fn stat(
    b: &mut Builder<'_>,
    name: &str,
    stat: &str,
    canonical: &str,
    target_s: Option<f64>,
) -> bool {
    let unit = at(b.doc(), &ptr("", &[name, "unit"]))
        .and_then(Value::as_str)
        .unwrap_or("");
    let scale = match target_s {
        Some(t) => match seconds_per(unit) {
            Some(s) => s / t,
            None => return false,
        },
        None => 1.0,
    };
    b.real(canonical, &ptr("", &[name, stat]), scale)
}

fn map_export(doc: &Value, source: &Source<'_>) -> Mapped {
    let mut b = Builder::new(doc, source, "");
    b.put(
        "/harness/name",
        if is_aiperf(doc) {
            "aiperf"
        } else {
            "genai-perf"
        },
        "",
    );
    b.string("/harness/version", "/aiperf_version");
    measured_at(&mut b, doc);
    model(&mut b, doc);
    client(&mut b);

    let completed = at(doc, "/request_count/avg").and_then(count);
    let failed = at(doc, "/error_request_count/avg")
        .and_then(count)
        .map(|n| (n, "/error_request_count/avg".to_string()))
        .or_else(|| {
            // An empty error summary is a recorded zero.
            let errors = at(doc, "/error_summary")?.as_array()?;
            let n = errors
                .iter()
                .map(|e| e.get("count").and_then(count).unwrap_or(1))
                .sum();
            Some((n, "/error_summary".to_string()))
        });
    if at(doc, "/was_cancelled").and_then(Value::as_bool) == Some(true) {
        b.put("/outcome", "aborted", "/was_cancelled");
    } else if let Some((n, _)) = &failed
        && *n > 0
        && completed.unwrap_or(0) == 0
    {
        b.derived("/outcome", "failed", NONE_COMPLETED, "/levels/0/requests");
    }

    let config = Config::read(doc);
    // Request-rate mode is an open-loop level (the concurrency, if any, its cap); otherwise
    // the configured concurrency. The request count is never a concurrency.
    let cap_src = config.concurrency.as_ref().map_or("", |(_, s)| s.as_str());
    let keyed_by_rate = config
        .request_rate
        .as_ref()
        .is_some_and(|src| at(doc, src).and_then(rate).is_some())
        && b.load(config.request_rate.as_deref().unwrap_or(""), cap_src);
    if !keyed_by_rate && !cap_src.is_empty() {
        b.whole("/levels/0/concurrency", cap_src, 1);
    }
    b.whole("/levels/0/requests", "/request_count/avg", 0);
    if let Some((n, src)) = &failed {
        b.put("/levels/0/failed", *n, src);
    }
    stat(
        &mut b,
        "benchmark_duration",
        "avg",
        "/levels/0/duration_s",
        Some(1.0),
    );
    let _ = b.whole("/levels/0/output_tokens", "/total_osl/avg", 0)
        || b.whole("/levels/0/output_tokens", "/total_output_tokens/avg", 0);
    if completed.unwrap_or(0) > 0 {
        stat(
            &mut b,
            "output_token_throughput",
            "avg",
            "/levels/0/throughput_tok_s/aggregate",
            None,
        );
        let per_user = if doc.get("output_token_throughput_per_user").is_some() {
            "output_token_throughput_per_user"
        } else {
            "output_token_throughput_per_request"
        };
        stat(
            &mut b,
            per_user,
            "avg",
            "/levels/0/per_user_tok_s/mean",
            None,
        );
        stat(
            &mut b,
            per_user,
            "p50",
            "/levels/0/per_user_tok_s/median",
            None,
        );
        stat(
            &mut b,
            per_user,
            "p10",
            "/levels/0/per_user_tok_s/p10",
            None,
        );
        for q in ["p50", "p95", "p99"] {
            stat(
                &mut b,
                "time_to_first_token",
                q,
                &format!("/levels/0/ttft_s/{q}"),
                Some(1.0),
            );
        }
        for q in ["p50", "p95"] {
            // Both harnesses' inter_token_latency is per request (latency - TTFT) /
            // (tokens - 1), i.e. TPOT; the gaps between chunks are `inter_chunk_latency`.
            stat(
                &mut b,
                "inter_token_latency",
                q,
                &format!("/levels/0/tpot_ms/{q}"),
                Some(1e-3),
            );
            stat(
                &mut b,
                "request_latency",
                q,
                &format!("/levels/0/e2e_s/{q}"),
                Some(1.0),
            );
        }
        stat(
            &mut b,
            "input_sequence_length",
            "min",
            "/workload/prompt_tokens/min",
            None,
        );
        stat(
            &mut b,
            "input_sequence_length",
            "max",
            "/workload/prompt_tokens/max",
            None,
        );
        stat(
            &mut b,
            "input_sequence_length",
            "avg",
            "/workload/prompt_tokens/mean",
            None,
        );
    }
    // Reasoning tokens were generated: thinking was on. `total_osl` (the output tokens) counts
    // them with the answer; the count apart lets R015 check that the throughput does too.
    if at(doc, "/total_reasoning_tokens/avg")
        .and_then(number)
        .is_some_and(|n| n > 0.0)
    {
        b.put("/model/thinking", true, "/total_reasoning_tokens/avg");
        b.whole(
            "/levels/0/reasoning_tokens",
            "/total_reasoning_tokens/avg",
            0,
        );
    }
    if completed.unwrap_or(0) > 0 {
        in_flight(&mut b, doc);
    }
    // The scenario an AIPerf run was built from (`--scenario`) names its workload.
    b.string("/labels/scenario", "/input_config/scenario");
    config.apply(&mut b);
    super::gpu_telemetry::map(&mut b, doc, completed.unwrap_or(0) > 0);
    b.finish()
}

/// Requests in flight on average over the window, by Little's law: the requests' summed
/// latency over the benchmark's duration (`request_latency.sum`, else `avg × count`). Below the
/// configured concurrency when streams pause between requests, as the multi-turn traces of
/// agentic workloads do (R011 divides the aggregate by it). Derived, not recorded.
fn in_flight(b: &mut Builder<'_>, doc: &Value) {
    let seconds = |unit_of: &str, v: f64| {
        let unit = at(doc, &ptr("", &[unit_of, "unit"]))
            .and_then(Value::as_str)
            .unwrap_or("");
        seconds_per(unit).map(|s| v * s)
    };
    let latency_sum = at(doc, "/request_latency/sum")
        .and_then(number)
        .or_else(|| {
            let avg = at(doc, "/request_latency/avg").and_then(number)?;
            let n = at(doc, "/request_count/avg").and_then(number)?;
            Some(avg * n)
        });
    let total = latency_sum.and_then(|v| seconds("request_latency", v));
    let window = at(doc, "/benchmark_duration/avg")
        .and_then(number)
        .and_then(|v| seconds("benchmark_duration", v));
    if let (Some(total), Some(window)) = (total, window)
        && total > 0.0
        && window > 0.0
        && (total / window).is_finite()
    {
        b.derived(
            "/levels/0/mean_in_flight",
            total / window,
            "the requests' summed latency over the benchmark duration (Little's law)",
            "/levels/0/duration_s",
        );
    }
}

/// `AIPerf`'s first request time (ns since the epoch), else its `start_time`.
fn measured_at(b: &mut Builder<'_>, doc: &Value) {
    let ns = at(doc, "/min_request_timestamp/avg")
        .and_then(number)
        .filter(|_| at(doc, "/min_request_timestamp/unit").and_then(Value::as_str) == Some("ns"));
    if let Some(ts) = ns.and_then(|n| from_epoch_seconds(n / 1e9)) {
        b.measured_at(ts, "/min_request_timestamp/avg");
    } else if let Some(ts) = at(doc, "/start_time")
        .and_then(Value::as_str)
        .and_then(from_iso)
    {
        b.measured_at(ts, "/start_time");
    }
}

/// The model, when `input_config` names exactly one (a list in every version).
fn model(b: &mut Builder<'_>, doc: &Value) {
    let lists = [
        ("/input_config/models/items", "/name"),
        ("/input_config/endpoint/model_names", ""),
        ("/input_config/model_names", ""),
        ("/input_config/model", ""),
    ];
    for (src, leaf) in lists {
        match at(doc, src) {
            Some(Value::Array(names)) if names.len() == 1 => {
                b.string("/model/name", &format!("{src}/0{leaf}"));
                return;
            }
            Some(Value::String(_)) => {
                b.string("/model/name", src);
                return;
            }
            _ => {}
        }
    }
}

/// Streaming, the client API and the client's tokenizer (§4.1, §4.2). The API is the endpoint type the
/// requests were built for (`chat`, `completions`; `endpoint.type` in the sectioned configs,
/// `endpoint_type` in the flat one), else the service kind (`openai`, `triton`). genai-perf's
/// `backend` is not read: it names a Triton backend and is written with its default
/// (`tensorrtllm`) even when the service kind is `openai` and it played no part (the real
/// sample). The tokenizer is a string in the flat config and `tokenizer.name` in the newer
/// ones; the real `AIPerf` sample has none (not given: the default is the model's own, which
/// is not written, so nothing is filled in).
fn client(b: &mut Builder<'_>) {
    // Whether responses were streamed: the time to first token is only timed when they were
    // (R028).
    let _ = b.boolean("/workload/streaming", "/input_config/endpoint/streaming")
        || b.boolean("/workload/streaming", "/input_config/streaming");
    let _ = b.string("/harness/backend", "/input_config/endpoint/type")
        || b.string("/harness/backend", "/input_config/endpoint_type")
        || b.string("/harness/backend", "/input_config/endpoint/service_kind")
        || b.string("/harness/backend", "/input_config/service_kind");
    let _ = b.string("/workload/tokenizer", "/input_config/tokenizer/name")
        || b.string("/workload/tokenizer", "/input_config/tokenizer");
}

/// Where each setting sits in `input_config`, by version (pointers into the document).
#[derive(Default)]
struct Config {
    concurrency: Option<(u64, String)>,
    request_rate: Option<String>,
    output_mean: Option<String>,
    output_stddev: Option<String>,
    seed: Option<String>,
    warmup: Option<String>,
    warmup_excluded: Option<String>,
    extra: Option<String>,
    server_token_count: Option<String>,
}

impl Config {
    fn read(doc: &Value) -> Self {
        let first = |srcs: &[String]| srcs.iter().find(|s| at(doc, s).is_some()).cloned();
        let owned = |srcs: &[&str]| srcs.iter().map(|s| (*s).to_string()).collect::<Vec<_>>();
        // AIPerf 0.13: the profiling and warm-up phases.
        let profiling = phase(doc, "profiling").map(|i| format!("/input_config/phases/{i}"));
        let warmup_phase = phase(doc, "warmup").map(|i| format!("/input_config/phases/{i}"));
        let in_phase = |leaf: &str| {
            profiling
                .iter()
                .map(|p| format!("{p}/{leaf}"))
                .collect::<Vec<_>>()
        };

        let mut concurrency_srcs = in_phase("concurrency");
        concurrency_srcs.extend(owned(&[
            "/input_config/loadgen/concurrency",
            "/input_config/concurrency",
            "/input_config/perf_analyzer/stimulus/concurrency",
        ]));
        let concurrency = concurrency_srcs.into_iter().find_map(|s| {
            at(doc, &s)
                .and_then(count)
                .filter(|n| *n >= 1)
                .map(|n| (n, s))
        });
        let mut request_rate = in_phase("rate");
        request_rate.extend(in_phase("request_rate"));
        request_rate.extend(owned(&[
            "/input_config/loadgen/request_rate",
            "/input_config/request_rate",
            "/input_config/perf_analyzer/stimulus/request_rate",
        ]));
        let mut warmup: Vec<String> = warmup_phase
            .iter()
            .map(|p| format!("{p}/requests"))
            .collect();
        warmup.extend(owned(&[
            "/input_config/loadgen/warmup_request_count",
            "/input_config/warmup_request_count",
            "/input_config/perf_analyzer/warmup_request_count",
            "/input_config/input/request_count/warmup",
        ]));
        Config {
            concurrency,
            request_rate: first(&request_rate),
            output_mean: first(&owned(&[
                "/input_config/datasets/0/prompts/osl/mean",
                "/input_config/input/prompt/output_tokens/mean",
                "/input_config/input/output_tokens/mean",
                "/input_config/output_tokens_mean",
            ])),
            output_stddev: first(&owned(&[
                "/input_config/datasets/0/prompts/osl/stddev",
                "/input_config/input/prompt/output_tokens/stddev",
                "/input_config/input/output_tokens/stddev",
                "/input_config/output_tokens_stddev",
            ])),
            seed: first(&owned(&[
                "/input_config/datasets/0/random_seed",
                "/input_config/input/random_seed",
                "/input_config/random_seed",
                "/run_info/random_seed",
            ])),
            warmup: first(&warmup),
            warmup_excluded: warmup_phase
                .map(|p| format!("{p}/exclude_from_results"))
                .filter(|s| at(doc, s).is_some()),
            extra: first(&owned(&[
                "/input_config/endpoint/extra",
                "/input_config/input/extra",
                "/input_config/extra_inputs",
            ])),
            server_token_count: first(&owned(&[
                "/input_config/endpoint/use_server_token_count",
                "/input_config/use_server_token_count",
            ])),
        }
    }

    fn apply(&self, b: &mut Builder<'_>) {
        let doc = b.doc();
        // The requested output length is a cap only when it does not vary (stddev 0 or none).
        if let Some(mean) = &self.output_mean {
            let fixed = self
                .output_stddev
                .as_ref()
                .is_none_or(|s| at(doc, s).and_then(number) == Some(0.0));
            if fixed {
                b.whole("/workload/max_output_tokens", mean, 1);
            }
        }
        if let Some(src) = &self.seed {
            b.whole("/workload/seed", src, 0);
        }
        if let Some(src) = &self.warmup
            && b.whole("/workload/warmup_requests", src, 0)
        {
            if let Some(flag) = &self.warmup_excluded {
                b.boolean("/workload/warmup_excluded", flag);
            } else if at(doc, src).and_then(count).is_some_and(|n| n > 0) {
                // Both harnesses run the warm-up requests as a phase of their own, outside
                // the profiled window.
                b.put("/workload/warmup_excluded", true, src);
            }
        }
        if let Some(extra) = &self.extra {
            extra_inputs(b, extra);
        }
        let server = self
            .server_token_count
            .as_ref()
            .filter(|s| at(doc, s).and_then(Value::as_bool) == Some(true));
        if let Some(src) = server {
            b.put("/workload/token_count_source", "server-usage", src);
        } else {
            b.put(
                "/workload/token_count_source",
                "client-tokenizer",
                "/input_config",
            );
            // AIPerf 0.13 also sums the server's usage counts: the figure R002 cross-checks.
            b.whole(
                "/levels/0/server_output_tokens",
                "/total_usage_completion_tokens/avg",
                0,
            );
        }
    }
}

/// `--extra-inputs` sent with every request: temperature, `ignore_eos`, `max_tokens`, and the
/// other sampling parameters as sent.
fn extra_inputs(b: &mut Builder<'_>, base: &str) {
    let Some(obj) = at(b.doc(), base).and_then(Value::as_object) else {
        return;
    };
    for (k, v) in obj {
        let src = ptr(base, &[k]);
        match k.as_str() {
            "temperature" => {
                b.real("/workload/temperature", &src, 1.0);
            }
            "ignore_eos" => {
                b.boolean("/workload/ignore_eos", &src);
            }
            "max_tokens" | "max_completion_tokens" if !b.has("/workload/max_output_tokens") => {
                b.whole("/workload/max_output_tokens", &src, 1);
            }
            "top_p" | "top_k" | "min_p" | "repetition_penalty" | "presence_penalty"
            | "frequency_penalty" | "seed" | "min_tokens"
                if !v.is_null() =>
            {
                b.put(&ptr("/workload/sampling", &[k]), v.clone(), &src);
            }
            _ => {}
        }
    }
}
