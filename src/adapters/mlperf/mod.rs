//! MLPerf Inference loadgen (`mlcommons/inference`, formats2.md "MLPerf Inference loadgen"):
//! the two logs loadgen writes into every run folder, read in place.
//!
//! - `mlperf_log_summary.txt` and `mlperf_log_detail.txt` are text ([`log`] reads them into
//!   values). Each is one result of one level. Both are recognised by content: the summary by
//!   its `MLPerf Results Summary` banner (or its `SUT name` and `Scenario` lines), the detail
//!   log by its `:::MLLOG` records.
//! - **One run, one result.** A run folder holds both logs of one run. When both are read
//!   in the same run of benchlint and describe the same test (same scenario, mode and verdict,
//!   and the summary's headline figure equal to the detail's at the summary's two decimals),
//!   the detail log is the result (it records the date, the loadgen version and every figure
//!   at full precision) and the summary is recognised as its companion. A summary read alone
//!   (named on its own, or beside a detail log of another test) is a result by itself: it has
//!   no date and rounds its figures, and says so through the checklist.
//! - **Levels.** Server (open loop: Poisson arrivals at the target QPS) is a level keyed by its
//!   `request_rate` = `target_qps`, with the scheduled rate as `achieved_request_rate`. Offline
//!   sends every sample at once in one query: a level at `request_rate` `"inf"` (like vLLM's
//!   infinite rate), with no concurrency, since the system under test decides how many it
//!   works on at a time. SingleStream keeps one query in flight (`concurrency` 1), MultiStream
//!   one query of `samples_per_query` samples (`concurrency` = samples per query).
//! - **Figures.** Tokens per second (Server: completed tokens per second; Offline: tokens per
//!   second) is the level's aggregate throughput; samples per second has no canonical field.
//!   The run's length is `duration_s`: in Offline the longest sample latency (loadgen's
//!   samples per second is the sample count over it); in Server, read from the detail log,
//!   (samples - 1) / completed samples per second, loadgen's own definition (derived).
//!   TTFT and TPOT percentiles (ns) become `ttft_s` and `tpot_ms`; sample latency percentiles
//!   become `e2e_s` except in Offline, where a sample's latency is its place in the one
//!   query's queue, not a request's time. `requests` is the detail log's query count times
//!   samples per query (the summary does not give it). Loadgen never counts failures: a
//!   failed sample stops the run.
//! - **The harness's verdict** and the parameters it judged the run against go to
//!   `harness.validity`: `Result is` / `result_validity`, each constraint check
//!   (`min_duration_met`, `min_queries_met`, `early_stopping_met`, `latency_constraints_met`;
//!   "Skipped" is left out), the effective minimums (`min_duration_s`, `min_queries`), the
//!   caps (`max_duration_s`, `max_queries`, 0 meaning none, as loadgen writes it) and, for
//!   Server, the TTFT and TPOT limits (`ttft_limit_s`, `tpot_limit_ms`).
//! - **Identity.** The logs record neither the model, the engine nor the hardware (a
//!   submission keeps them in its folder names and `systems/*.json`): those are absent and the
//!   checklist reports them. The harness is `mlperf-loadgen`, its version and git revision
//!   from `loadgen_version` (`4.1 @ 379ee5345a`), `dirty` from `loadgen_git_status_message`.
//! - **Power.** A power run keeps SPEC PTDaemon's sample log `spl.txt` beside its logs: the
//!   level's `power_w` is the mean of its Watts readings inside loadgen's `power_begin` /
//!   `power_end` window, of kind `wall`, and the log is the run's `artifacts.power_trace`
//!   ([`power`] says how the window is aligned and what happens without one). The PTD
//!   client's and server's records in `performance/power/` are companions.
//! - A run in `AccuracyOnly` mode (the `accuracy/` folder) measures accuracy, not
//!   performance: its logs are companions. So are the side files of a run or submission
//!   folder ([`companion`]).

mod companion;
mod keys;
pub mod log;
mod power;

use std::path::Path;

use serde_json::Value;

use super::map::{Builder, at, from_iso, number, ptr, text};
use super::{Adapter, Mapped, Reading, Source};

pub use companion::{is_empty_side_file, is_text_companion};
use keys::{DETAIL, Keys, SUMMARY};

/// The MLPerf loadgen adapter.
pub struct Mlperf;

/// What the loader makes of a loadgen log.
pub enum LogReading {
    /// The log, as a document for the adapters.
    Document(Value),
    /// The summary of a run whose detail log is read in this run too.
    Companion,
}

/// Reads `text` if it is a loadgen log: `None` when it is not. `in_run` says whether a file
/// is read in this run of benchlint (a summary beside its own detail log is then its
/// companion).
pub fn read_log(text: &str, path: &Path, in_run: &dyn Fn(&Path) -> bool) -> Option<LogReading> {
    let (kind, value, _) = log::read(text)?;
    if kind == log::LogKind::Summary {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().replace("summary", "detail"))
            .unwrap_or_default();
        let detail = path.with_file_name(name);
        if detail != path && in_run(&detail) && same_run(&value, &detail) {
            return Some(LogReading::Companion);
        }
    }
    Some(LogReading::Document(value))
}

/// Where each key of a loadgen log's value is written (for placing findings).
pub fn log_places(text: &str) -> Option<log::Index> {
    log::read(text).map(|(_, _, index)| index)
}

/// Whether the detail log at `detail` records the same test as `summary`.
fn same_run(summary: &Value, detail: &Path) -> bool {
    let Ok((text, _)) = crate::io::read_text(detail, 256 * 1024 * 1024) else {
        return false;
    };
    let Some((log::LogKind::Detail, d, _)) = log::read(&text) else {
        return false;
    };
    let word = |v: &Value, k: &str| v.get(k).and_then(Value::as_str).map(str::to_string);
    let pairs = [
        ("Scenario", "effective_scenario"),
        ("Mode", "effective_test_mode"),
        ("Result is", "result_validity"),
    ];
    if pairs
        .iter()
        .any(|(s, k)| word(summary, s).is_some_and(|a| word(&d, k).is_some_and(|b| a != b)))
    {
        return false;
    }
    let figure = |v: &Value, keys: &[&str]| keys.iter().find_map(|k| v.get(*k).and_then(number));
    let s = figure(
        summary,
        &[
            "Completed samples per second",
            "Samples per second",
            "Scheduled samples per second",
        ],
    );
    let f = figure(
        &d,
        &[
            "result_completed_samples_per_sec",
            "result_samples_per_second",
            "result_scheduled_samples_per_sec",
        ],
    );
    match (s, f) {
        // The summary prints two decimals.
        (Some(s), Some(f)) => (s - f).abs() <= 0.005 + 1e-9 * f.abs(),
        _ => word(summary, "Scenario").is_some(),
    }
}

fn is_summary(doc: &Value) -> bool {
    doc.get("SUT name").is_some() && doc.get("Scenario").is_some() && doc.get("Mode").is_some()
}

fn is_detail(doc: &Value) -> bool {
    (doc.get("effective_scenario").is_some() || doc.get("requested_scenario").is_some())
        && (doc.get("loadgen_version").is_some() || doc.get("result_validity").is_some())
}

impl Adapter for Mlperf {
    fn name(&self) -> &'static str {
        "mlperf"
    }

    fn read<'d, 's: 'd>(&self, doc: &'d Value, source: &Source<'s>) -> Reading<'d> {
        if doc.is_array() {
            return super::items::read_array(
                Box::new(companion::ArrayTally::default()),
                doc,
                source,
            );
        }
        let keys = if is_summary(doc) {
            &SUMMARY
        } else if is_detail(doc) {
            &DETAIL
        } else if companion::is_json_companion(doc, source.file_name) {
            return Reading::Companion;
        } else {
            return Reading::NotMine;
        };
        let first = |names: &'static [&'static str]| {
            names
                .iter()
                .find_map(|k| doc.get(*k).and_then(Value::as_str).map(|v| (*k, v.trim())))
        };
        if first(keys.mode).is_some_and(|(_, m)| m.eq_ignore_ascii_case("AccuracyOnly")) {
            return Reading::Companion;
        }
        Reading::results(vec![map(doc, source, keys, first(keys.scenario))])
    }

    fn items_tally(&self) -> Option<Box<dyn super::Tally>> {
        Some(Box::new(companion::ArrayTally::default()))
    }
}

fn src(key: &str) -> String {
    ptr("", &[key])
}

fn map(doc: &Value, source: &Source<'_>, keys: &Keys, scenario: Option<(&str, &str)>) -> Mapped {
    let mut b = Builder::new(doc, source, "");
    b.put("/harness/name", "mlperf-loadgen", "");
    if let Some(stamp) = at(doc, "/test_datetime")
        .and_then(Value::as_str)
        .and_then(from_iso)
    {
        b.measured_at(stamp, "/test_datetime");
    }
    if let Some(version) = at(doc, "/loadgen_version").and_then(text) {
        let (release, revision) = version
            .split_once('@')
            .map_or((version.as_str(), None), |(r, s)| (r, Some(s)));
        b.put("/harness/version", release.trim(), "/loadgen_version");
        if let Some(rev) = revision.map(str::trim).filter(|r| !r.is_empty()) {
            b.put("/harness/revision", rev, "/loadgen_version");
        }
    }
    if let Some(status) = at(doc, "/loadgen_git_status_message").and_then(Value::as_str) {
        b.put(
            "/harness/dirty",
            !status.trim().is_empty(),
            "/loadgen_git_status_message",
        );
    }
    let scenario_name = scenario.map(|(_, s)| s.to_ascii_lowercase());
    let scenario_src = scenario.map_or_else(String::new, |(k, _)| src(k));
    level(&mut b, keys, scenario_name.as_deref(), &scenario_src);
    validity(&mut b, keys, scenario_name.as_deref());
    figures(&mut b, keys, scenario_name.as_deref());
    power::map(&mut b, source.folder, is_summary(doc));
    b.finish()
}

/// The level's load key: a rate (Server, Offline) or streams (SingleStream, MultiStream).
fn level(b: &mut Builder<'_>, keys: &Keys, scenario: Option<&str>, scenario_src: &str) {
    match scenario {
        Some("server") => {
            let _ = b.real("/levels/0/request_rate", &src(keys.target_qps), 1.0);
            b.real("/levels/0/achieved_request_rate", &src(keys.scheduled), 1.0);
        }
        Some("offline") => b.put("/levels/0/request_rate", "inf", scenario_src),
        Some("singlestream") => b.put("/levels/0/concurrency", 1, scenario_src),
        Some("multistream") => {
            let _ = b.whole("/levels/0/concurrency", &src(keys.samples_per_query), 1);
        }
        _ => {}
    }
}

/// The harness's verdict, its checks and the parameters it judged the run against.
fn validity(b: &mut Builder<'_>, keys: &Keys, scenario: Option<&str>) {
    let doc = b.doc();
    let verdict_src = src(keys.verdict);
    match at(doc, &verdict_src).and_then(Value::as_str).map(str::trim) {
        Some("VALID") => b.put("/harness/validity/verdict", "valid", &verdict_src),
        Some("INVALID") => b.put("/harness/validity/verdict", "invalid", &verdict_src),
        _ => {}
    }
    if let Some(reason) = keys.invalid_reason {
        b.string("/harness/validity/invalid_reason", &src(reason));
    }
    for (field, key) in keys.checks {
        let s = src(key);
        let met = match at(doc, &s) {
            Some(Value::Bool(v)) => Some(*v),
            Some(Value::String(w)) if w.eq_ignore_ascii_case("yes") => Some(true),
            Some(Value::String(w)) if w.eq_ignore_ascii_case("no") => Some(false),
            // "Skipped" (min queries when loadgen does not enforce them): no answer.
            _ => None,
        };
        if let Some(met) = met {
            b.put(&format!("/harness/validity/{field}"), met, &s);
        }
    }
    for (field, key, scale) in keys.params {
        let canonical = format!("/harness/validity/{field}");
        // Query counts are whole numbers; durations are scaled to seconds.
        if field.ends_with("_queries") {
            b.whole(&canonical, &src(key), 0);
        } else {
            b.real(&canonical, &src(key), scale);
        }
    }
    if scenario == Some("server") {
        for (field, key, scale) in keys.limits {
            b.real(&format!("/harness/validity/{field}"), &src(key), scale);
        }
    }
}

/// Throughput, request count and latency percentiles.
fn figures(b: &mut Builder<'_>, keys: &Keys, scenario: Option<&str>) {
    let doc = b.doc();
    let tokens = if scenario == Some("offline") {
        keys.tokens_offline
    } else {
        keys.tokens_server
    };
    b.real("/levels/0/throughput_tok_s/aggregate", &src(tokens), 1.0);
    if scenario == Some("offline") {
        // Loadgen's Offline samples per second is the sample count over the longest sample
        // latency: the run lasted that long.
        b.real("/levels/0/duration_s", &src(keys.max_latency), 1e-9);
    }
    if let Some(queries_key) = keys.query_count {
        let queries = at(doc, &src(queries_key)).and_then(Value::as_u64);
        let per_query = at(doc, &src(keys.samples_per_query)).and_then(Value::as_u64);
        if let (Some(q), Some(s)) = (queries, per_query) {
            if s == 1 {
                b.put("/levels/0/requests", q, &src(queries_key));
            } else {
                let how = format!("{queries_key} × {}", keys.samples_per_query);
                b.derived(
                    "/levels/0/requests",
                    q.saturating_mul(s),
                    &how,
                    &src(queries_key),
                );
            }
            // Loadgen's Server figure is (samples - 1) over the time the last sample
            // completed: that time is the run's length.
            let completed = at(doc, &src(keys.completed)).and_then(number);
            if let (Some(rate), true, Some("server")) = (completed, q > 1, scenario) {
                #[expect(clippy::cast_precision_loss, reason = "a query count, far below 2^52")]
                let seconds = (q.saturating_mul(s) - 1) as f64 / rate;
                if seconds.is_finite() && seconds > 0.0 {
                    let how = format!("({queries_key} - 1) / {}", keys.completed);
                    b.derived("/levels/0/duration_s", seconds, &how, &src(keys.completed));
                }
            }
        }
    }
    for (canonical, key, scale) in keys.latencies {
        // An Offline sample's latency is its place in the one query's queue.
        if scenario == Some("offline") && canonical.starts_with("e2e_s") {
            continue;
        }
        b.real(&format!("/levels/0/{canonical}"), &src(key), scale);
    }
}
