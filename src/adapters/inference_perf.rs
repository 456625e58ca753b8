//! kubernetes-sigs inference-perf, formats2.md "inference-perf".
//!
//! A run writes one folder: `stage_N_lifecycle_metrics.json` per load stage,
//! `summary_lifecycle_metrics.json` over all stages, and the run's `config.yaml` beside them
//! or one folder up. Every lifecycle report has the same shape: `load_summary` (requests sent,
//! their schedule delay; newer versions add `send_duration`, `requested_rate`,
//! `achieved_rate`), `successes` (`count`, `latency` distributions in seconds, `throughput`,
//! `prompt_len`, `output_len`), `failures` (`count`, ...), and `benchmark_time_seconds` in
//! newer versions. Recognised by content: two or more of the `load_summary`, `successes` and
//! `failures` objects (a report that lacks one is read as far as it goes).
//!
//! - **Stages are levels.** The stage files of a folder are one ladder ([`super::ladder`]),
//!   one level per stage in stage order; a level is keyed by its request rate (the load is open
//!   loop): `requested_rate`, or the stage's `rate` in `config.yaml` (`load.stages[N]`) for the
//!   older files that do not record it, with the rate achieved (`achieved_rate`) as
//!   `achieved_request_rate`. A stage whose rate neither records is reported (E003), never
//!   given a request count as its load. A document is a stage
//!   when its file is named `stage_N_lifecycle_metrics.json` or when it records a
//!   `requested_rate` (summaries never do).
//! - **The summary** (any other name: `summary_lifecycle_metrics.json`, or the same report
//!   saved as `results.json`) pools every stage of its run, each at its own rate, so it is no
//!   level and is read as a companion: when the stage files beside it add up to it (requests
//!   sent and succeeded equal the sums over the stages) it repeats them, and reading it would
//!   count the run twice; without them it records no load a level could be keyed by (no rate:
//!   a request count is never a concurrency). One case makes it a result of its own, with one
//!   level: no stage files beside it add up to it and `config.yaml` defines exactly one stage,
//!   whose rate keys the level (a run written with per-stage reports off).
//! - **Durations.** `benchmark_time_seconds` is the window the throughputs divide by; older
//!   files do not record it, and the window is derived as `successes.count /
//!   throughput.requests_per_sec` (the same division the harness made). Output tokens are
//!   derived as `output_len.mean × successes.count` when that is a whole number. Both point
//!   at the figure they were computed from.
//! - **Per-user rate.** Not recorded; the median is derived from the median TPOT (1000 / p50
//!   ms, provenance "derived"), as DESIGN.md's conventions allow.
//! - **Latencies.** `time_to_first_token`, `time_per_output_token` (per request, so TPOT;
//!   `normalized_time_per_output_token` is latency over tokens and is not mapped) and
//!   `request_latency` are seconds; `median` is the p50.
//! - **`config.yaml`** (or, under another name, the YAML file beside the reports or one folder
//!   up whose content is an inference-perf configuration) supplies the model (`server.model_name`), the tokenizer the client
//!   counted with (`tokenizer.pretrained_model_name_or_path`), the engine type the client was
//!   set up for (`server.type`), the API (`api.type`, `harness.backend`), the load type
//!   (`load.type`, the label `load_type`: constant or Poisson arrivals), `server.ignore_eos`, the dataset
//!   (`data.type`), a fixed output length and the stage rates; those values point into the
//!   config file. Placeholders left in a shared config (`<your-hf-token>`) are not values.
//! - A stage where every request failed writes its throughputs as 0.0: the outcome is then
//!   `failed`, derived from the counts (the 600-of-600 committed run of formats2.md), and the
//!   zeros are not mapped (no measurement); R006 and R007 read the counts.
//!
//! inference-perf records no date: `measured_at` is the epoch fallback.

mod config;

use serde_json::Value;

use config::{apply_config, config_name, is_config, single_stage_rate};

use super::ladder::{LadderFormat, Role};
use super::map::{Builder, NONE_COMPLETED, at, count, number};
use super::{Adapter, Mapped, Reading, Source};
use crate::io::beside::Place;

/// The inference-perf adapter.
pub struct InferencePerf;

/// A lifecycle report: at least two of its three blocks (`load_summary`, `successes`,
/// `failures`). A report that lacks one (a stage whose successes block was not written, a
/// failed run's report without its load summary) is read as far as it goes.
fn is_report(v: &Value) -> bool {
    ["load_summary", "successes", "failures"]
        .iter()
        .filter(|k| v.get(**k).is_some_and(Value::is_object))
        .count()
        >= 2
        && v.get("schema").is_none()
}

/// `N` of `stage_N_lifecycle_metrics.json`.
fn stage_index(name: &str) -> Option<u64> {
    name.strip_prefix("stage_")?
        .strip_suffix("_lifecycle_metrics.json")?
        .parse()
        .ok()
}

fn requested_rate(doc: &Value) -> Option<f64> {
    at(doc, "/load_summary/requested_rate")
        .and_then(number)
        .filter(|r| *r >= 0.0)
}

/// The ladder position of a stage: its index, else its requested rate.
fn position(name: &str, doc: &Value) -> Option<(String, f64)> {
    if !is_report(doc) {
        return None;
    }
    #[expect(clippy::cast_precision_loss, reason = "stage indexes are small")]
    let index = stage_index(name).map(|n| n as f64);
    index
        .or_else(|| requested_rate(doc))
        .map(|p| (String::new(), p))
}

const LADDER: LadderFormat = LadderFormat {
    key: "inference-perf",
    position,
    map: map_report,
};

impl Adapter for InferencePerf {
    fn name(&self) -> &'static str {
        "inference-perf"
    }

    fn read<'d, 's: 'd>(&self, doc: &'d Value, source: &Source<'s>) -> Reading<'d> {
        if is_config(doc) {
            return Reading::Companion;
        }
        if !is_report(doc) {
            return Reading::NotMine;
        }
        let stage = position(source.file_name, doc).is_some();
        let config = source.folder.and_then(|f| {
            [Place::Here, Place::Up].into_iter().find_map(|place| {
                let name = config_name(f, place)?;
                let v = f.yaml(place, &name)?;
                Some((f.display(place, &name), v))
            })
        });
        // A summary pools the stages of its run: it is a level only when the run had one stage
        // whose rate the config gives, and is not repeated by stage files beside it.
        // Copied without its stages, a summary is the one record of its run: read as the
        // result it describes (a run whose every request failed is then reported, not lost).
        if !stage
            && !source.alone
            && (summarises_stages_beside(doc, source)
                || config
                    .as_ref()
                    .and_then(|(_, c)| single_stage_rate(c))
                    .is_none())
        {
            return Reading::Companion;
        }
        let (mut mapped, stages) = match LADDER.role(doc, source) {
            Role::Member if !source.alone => return Reading::Companion,
            Role::Member | Role::Alone => {
                (map_report(doc, source), vec![source.file_name.to_string()])
            }
            Role::Anchor(levels) => (
                super::ladder::assemble(doc, source, &levels, map_report),
                levels.into_iter().map(|l| l.name).collect(),
            ),
        };
        if let Some((path, config)) = &config {
            let stages = if stage { stages } else { Vec::new() };
            apply_config(&mut mapped, config, path, &stages);
        }
        Reading::results(vec![mapped])
    }
}

/// Whether the stage files in the summary's folder add up to it: requests sent and
/// succeeded equal the sums over the stages.
fn summarises_stages_beside(doc: &Value, source: &Source<'_>) -> bool {
    let Some(folder) = source.folder else {
        return false;
    };
    let Some(totals) = folder.cached(Place::Here, "inference-perf-stage-totals", |f| {
        let mut sums: Option<(u64, u64)> = None;
        for name in f.names(Place::Here).iter() {
            if stage_index(name).is_none() {
                continue;
            }
            let Some(stage) = f.read_json(Place::Here, name) else {
                continue;
            };
            let (Some(sent), Some(ok)) = (
                at(&stage, "/load_summary/count").and_then(count),
                at(&stage, "/successes/count").and_then(count),
            ) else {
                continue;
            };
            let (s, o) = sums.unwrap_or((0, 0));
            sums = Some((s.saturating_add(sent), o.saturating_add(ok)));
        }
        sums
    }) else {
        return false;
    };
    let own = (
        at(doc, "/load_summary/count").and_then(count),
        at(doc, "/successes/count").and_then(count),
    );
    matches!((*totals, own), (Some((s, o)), (Some(a), Some(b))) if s == a && o == b)
}

/// One lifecycle report as a one-level result.
fn map_report(doc: &Value, source: &Source<'_>) -> Mapped {
    let mut b = Builder::new(doc, source, "");
    b.put("/harness/name", "inference-perf", "");
    let succeeded = at(doc, "/successes/count").and_then(count);
    let failed = at(doc, "/failures/count").and_then(count);
    if succeeded == Some(0) && failed.is_some_and(|f| f > 0) {
        b.derived("/outcome", "failed", NONE_COMPLETED, "/levels/0/requests");
    }
    // Open loop: the level is keyed by the rate it asked for, with the rate it achieved.
    if requested_rate(doc).is_some_and(|r| r > 0.0) {
        b.real(
            "/levels/0/request_rate",
            "/load_summary/requested_rate",
            1.0,
        );
    } else if source.alone
        && let (Some(sent), Some(seconds)) = (
            at(doc, "/load_summary/count").and_then(count),
            at(doc, "/benchmark_time_seconds").and_then(number),
        )
        && sent > 0
        && seconds > 0.0
    {
        // A summary copied without its config and stages records no rate: the rate it
        // offered is the requests it sent over the run's time (derived), so the run is read
        // as the open-loop level it was.
        #[expect(clippy::cast_precision_loss, reason = "request counts are small")]
        let rate = sent as f64 / seconds;
        b.derived(
            "/levels/0/request_rate",
            (rate * 1000.0).round() / 1000.0,
            "the requests sent (`/load_summary/count`) over `/benchmark_time_seconds`",
            "/benchmark_time_seconds",
        );
    }
    b.real(
        "/levels/0/achieved_request_rate",
        "/load_summary/achieved_rate",
        1.0,
    );
    b.whole("/levels/0/requests", "/successes/count", 0);
    b.whole("/levels/0/failed", "/failures/count", 0);
    // The requests sent, beside the successes and failures that should add up to it (R025).
    b.whole("/levels/0/total_requests", "/load_summary/count", 0);
    duration(&mut b, succeeded);
    output_tokens(&mut b, succeeded);
    // With no success the harness writes 0.0 throughputs: not a measurement (map.rs).
    if succeeded.is_some_and(|n| n > 0) {
        b.real(
            "/levels/0/throughput_tok_s/aggregate",
            "/successes/throughput/output_tokens_per_sec",
            1.0,
        );
        let l = "/successes/latency";
        for (q, key) in [("p50", "median"), ("p95", "p95"), ("p99", "p99")] {
            b.real(
                &format!("/levels/0/ttft_s/{q}"),
                &format!("{l}/time_to_first_token/{key}"),
                1.0,
            );
        }
        for (q, key) in [("p50", "median"), ("p95", "p95")] {
            b.real(
                &format!("/levels/0/tpot_ms/{q}"),
                &format!("{l}/time_per_output_token/{key}"),
                1e3,
            );
            b.real(
                &format!("/levels/0/e2e_s/{q}"),
                &format!("{l}/request_latency/{key}"),
                1.0,
            );
        }
        b.per_user_from_tpot(0);
        for (field, key) in [("min", "min"), ("max", "max"), ("mean", "mean")] {
            b.real(
                &format!("/workload/prompt_tokens/{field}"),
                &format!("/successes/prompt_len/{key}"),
                1.0,
            );
        }
    }
    b.finish()
}

/// `benchmark_time_seconds`, else the window the harness divided by: successes over requests
/// per second.
fn duration(b: &mut Builder<'_>, succeeded: Option<u64>) {
    if b.real("/levels/0/duration_s", "/benchmark_time_seconds", 1.0) {
        return;
    }
    let rps = at(b.doc(), "/successes/throughput/requests_per_sec")
        .and_then(number)
        .filter(|r| *r > 0.0);
    if let (Some(n), Some(rps)) = (succeeded.filter(|n| *n > 0), rps) {
        #[expect(clippy::cast_precision_loss, reason = "request counts are small")]
        let window = n as f64 / rps;
        b.put(
            "/levels/0/duration_s",
            window,
            "/successes/throughput/requests_per_sec",
        );
    }
}

/// Output tokens: the mean output length times the successes, when that is a whole number.
fn output_tokens(b: &mut Builder<'_>, succeeded: Option<u64>) {
    let mean = at(b.doc(), "/successes/output_len/mean").and_then(number);
    let (Some(n), Some(mean)) = (succeeded, mean) else {
        return;
    };
    #[expect(clippy::cast_precision_loss, reason = "request counts are small")]
    let total = mean * n as f64;
    let whole = total.round();
    if (total - whole).abs() > 1e-6 * whole.max(1.0) || !(0.0..9.0e15).contains(&whole) {
        return;
    }
    #[expect(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        reason = "checked whole, non-negative and in range"
    )]
    let tokens = whole as u64;
    b.put(
        "/levels/0/output_tokens",
        tokens,
        "/successes/output_len/mean",
    );
}
