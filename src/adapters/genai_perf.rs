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
//!   `server_metrics_export.json` / `.jsonl`, `gpu_telemetry_export.jsonl`); the per-request
//!   records feed the failed count of an export that records none ([`records`]);
//! - a run that served nothing: an export with its errors and no metric at all (`AIPerf` leaves
//!   out a metric with no record), told by `input_config` and `AIPerf`'s own run keys, is a
//!   failed result with 0 completed requests (derived); the export that lost its
//!   `input_config` is still read when three of those keys are there;
//! - the 0.10 exports (`schema_version` 1.3): `input_config.phases` as an object keyed by
//!   phase name, or entries that name themselves by `name` only, and the profiling phase found
//!   by elimination (the one phase not a warm-up); its `request_rate` / `rate` keys the level.
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

mod config;
mod recognise;
mod records;
mod timing;

use serde_json::Value;

use config::{Config, client, model};
use recognise::{is_aiperf, is_export, is_phase_export, phase};
use timing::{in_flight, measured_at};

use super::map::{Builder, NONE_COMPLETED, at, count, number, ptr, rate};
use super::{Adapter, Mapped, Reading, Source};

/// The genai-perf / `AIPerf` adapter.
pub struct GenaiPerf;

impl Adapter for GenaiPerf {
    fn name(&self) -> &'static str {
        "genai-perf"
    }

    fn read<'d, 's: 'd>(&self, doc: &'d Value, source: &Source<'s>) -> Reading<'d> {
        if is_export(doc) && !is_phase_export(doc) {
            Reading::results(vec![map_export(doc, source)])
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
    // Neither is recorded: the per-request records beside the export count the errors.
    let from_records = if failed.is_none() && is_aiperf(doc) {
        records::errors(source)
    } else {
        None
    };
    let failed = failed.or_else(|| from_records.map(|(n, _)| (n, String::new())));
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
    if !b.whole("/levels/0/requests", "/request_count/avg", 0)
        && failed.as_ref().is_some_and(|(n, _)| *n > 0)
        && completed.is_none()
    {
        // AIPerf writes no `request_count` when no request completed (a metric with no
        // record is left out): the errors it counted are every request of the run.
        b.derived(
            "/levels/0/requests",
            0,
            "no `request_count` beside the errors: no request completed",
            failed.as_ref().map_or("", |(_, s)| s.as_str()),
        );
    }
    match (&failed, from_records) {
        (Some((n, _)), Some((_, total))) => b.derived(
            "/levels/0/failed",
            *n,
            &format!(
                "the requests with an `error` among the {total} profiled records of `{}` beside the export",
                records::RECORDS
            ),
            "",
        ),
        (Some((n, src)), None) => b.put("/levels/0/failed", *n, src),
        (None, _) => {}
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
