//! `validity-overridden` (R026): a harness's own verdict that rests on lowered minimums, or an
//! INVALID verdict whose figures are used anyway.

use super::r006_failed_requests::reported_figures;
use super::{Emitter, ResultCtx, declare_rule};
use crate::model::{HarnessValidity, Outcome, RequestRate, ResultDoc, Verdict};
use crate::numbers::num;

declare_rule! {
    /// ## What it checks
    /// Results whose harness gave its own verdict (`harness.validity`, written by the MLPerf
    /// loadgen adapter from `Result is : VALID|INVALID`):
    ///
    /// - **VALID on lowered minimums.** The verdict is `valid`, yet the minimums it was judged
    ///   against are below the harness's defaults: for MLPerf loadgen (`harness.name`
    ///   `mlperf-loadgen`), a `min_duration_s` under 600 s (`mlperf.conf`: every scenario,
    ///   `min_duration = 600000` ms), or a `min_queries` under the scenario's default (Server and
    ///   SingleStream 100, loadgen's own default in `test_settings.h`, which `mlperf.conf` keeps;
    ///   MultiStream 662, `mlperf.conf`). Offline's
    ///   minimum is a sample count that depends on the model (24,576 for llama2-70b), which the
    ///   logs do not name, so only its duration is judged. The scenario is read from the level:
    ///   a finite `request_rate` is Server, `"inf"` is Offline, `concurrency` 1 SingleStream,
    ///   more MultiStream. Each lowered minimum is one finding, at the parameter. The caps
    ///   (`max_duration_s`, `max_queries`) are not judged on their own: a cap below a default
    ///   minimum makes loadgen declare the run INVALID unless the minimum was lowered too, and
    ///   that is what is reported.
    /// - **INVALID, figures used.** The verdict is `invalid` and the result still stands as a
    ///   run that produced figures: its `outcome` is `ok` and a level reports a throughput, a
    ///   per-user rate or latencies. One finding, at the verdict, with the harness's reason when
    ///   it gave one.
    ///
    /// A result without a harness verdict is not judged.
    ///
    /// ## Why is this bad?
    /// A harness's verdict is only as good as the parameters it was judged against.
    /// research/formats2.md: a run was declared VALID with `min_duration` 0 ms and a maximum
    /// query count of 10, where the harness defaults are 600,000 ms and thousands of queries;
    /// the word VALID then certifies a run far shorter than the benchmark's rules allow
    /// (research/peers.md: the MLPerf submission checker re-derives `min_duration >= 600000`
    /// itself rather than trust the verdict). The other way round, a run loadgen declared
    /// INVALID (a latency bound missed, too few queries) did not measure what its scenario
    /// claims: a Server run that missed its TTFT bound reports a throughput no user at that
    /// latency would get.
    ///
    /// ## Example
    /// ```json
    /// { "harness": { "name": "mlperf-loadgen",
    ///                "validity": { "verdict": "valid", "min_duration_s": 0, "min_queries": 1 } },
    ///   "levels": [ { "request_rate": "inf", "throughput_tok_s": { "aggregate": 3220.41 } } ] }
    /// ```
    ///
    /// ## What to do instead
    /// Run with the harness's own minimums (leave `min_duration` and `min_query_count` to
    /// `mlperf.conf`) and publish only runs the harness declared VALID on them. Keep an INVALID
    /// run as a losing run (`outcome: "failed"`, with the harness's reason in `notes`), never as
    /// a figure.
    pub static RULE = {
        code: "R026",
        name: "validity-overridden",
        severity: Error,
        scope: Result,
        source: "research/peers.md (MLPerf loadgen: min_duration 600,000 ms); research/formats2.md (VALID with min_duration 0 ms)",
        summary: "a harness verdict of VALID on lowered minimums, or INVALID figures used",
    }
}

/// MLPerf loadgen's minimum run length for every scenario, seconds (`mlperf.conf`:
/// `*.*.min_duration = 600000` ms).
const LOADGEN_MIN_DURATION_S: f64 = 600.0;

/// The loadgen scenario a level describes, and its default minimum query count when the
/// scenario has one that does not depend on the model.
fn loadgen_scenario(doc: &ResultDoc) -> Option<(&'static str, Option<u64>)> {
    let level = doc.levels.first()?;
    match (level.request_rate, level.concurrency) {
        (Some(RequestRate::PerSecond(_)), _) => Some(("Server", Some(100))),
        (Some(RequestRate::Unbounded), _) => Some(("Offline", None)),
        (None, Some(1)) => Some(("SingleStream", Some(100))),
        (None, Some(_)) => Some(("MultiStream", Some(662))),
        (None, None) => None,
    }
}

pub fn check(ctx: &ResultCtx<'_>, out: &mut Emitter<'_>) {
    let Some(harness) = ctx.result.harness.as_ref() else {
        return;
    };
    let Some(validity) = harness.validity.as_ref() else {
        return;
    };
    match validity.verdict {
        Some(Verdict::Valid) if harness.name.as_deref() == Some("mlperf-loadgen") => {
            lowered_minimums(ctx, validity, out);
        }
        Some(Verdict::Invalid) => invalid_used(ctx, validity, out),
        _ => {}
    }
}

/// A VALID verdict judged against minimums below loadgen's defaults.
fn lowered_minimums(ctx: &ResultCtx<'_>, validity: &HarnessValidity, out: &mut Emitter<'_>) {
    let scenario = loadgen_scenario(ctx.result);
    let run = scenario.map_or_else(|| "run".to_string(), |(s, _)| format!("{s} run"));
    if let Some(d) = validity
        .min_duration_s
        .filter(|d| d.is_finite() && *d < LOADGEN_MIN_DURATION_S)
    {
        out.emit(
            "/harness/validity/min_duration_s",
            format!(
                "the harness declared the {run} VALID against a minimum duration of {} s, lowered from loadgen's \
                 default of {} s: VALID here certifies a run shorter than the benchmark allows",
                num(d),
                num(LOADGEN_MIN_DURATION_S),
            ),
        )
        .label("lowered minimum")
        .help(
            "re-run with loadgen's own min_duration (leave it to mlperf.conf) and publish the verdict it gives",
        );
    }
    if let (Some(q), Some((_, Some(default)))) = (validity.min_queries, scenario)
        && q < default
    {
        out.emit(
            "/harness/validity/min_queries",
            format!(
                "the harness declared the {run} VALID against a minimum of {} quer{}, lowered from \
                 loadgen's default of {}: too few queries for the percentiles the verdict rests on",
                crate::numbers::count(q),
                if q == 1 { "y" } else { "ies" },
                crate::numbers::count(default),
            ),
        )
        .label("lowered minimum")
        .help(
            "re-run with loadgen's own min_query_count (leave it to mlperf.conf) and publish the verdict it gives",
        );
    }
}

/// An INVALID verdict on a result that still stands as a measured run.
fn invalid_used(ctx: &ResultCtx<'_>, validity: &HarnessValidity, out: &mut Emitter<'_>) {
    if ctx.result.outcome != Outcome::Ok {
        return;
    }
    let mut figures: Vec<&str> = Vec::new();
    for level in ctx.result.levels.as_slice().iter() {
        for f in reported_figures(level) {
            if !figures.contains(&f) {
                figures.push(f);
            }
        }
    }
    if figures.is_empty() {
        return;
    }
    let why = validity
        .invalid_reason
        .as_deref()
        .map(str::trim)
        .filter(|r| !r.is_empty())
        .map(|r| format!(" ({r})"))
        .or_else(|| failed_checks(validity).map(|c| format!(" ({c} not met)")))
        .unwrap_or_default();
    out.emit(
        "/harness/validity/verdict",
        format!(
            "the harness declared this run INVALID{why}, yet the result stands as a measured run (outcome ok) \
             reporting {}: its figures are not a result of the benchmark",
            figures.join(", "),
        ),
    )
    .label("the harness's own verdict")
    .help(
        "keep the run as a losing run (outcome failed, the harness's reason in notes) and publish only runs \
         the harness declared VALID",
    );
}

/// The checks the harness reports as failed, in words.
fn failed_checks(v: &HarnessValidity) -> Option<String> {
    let names: Vec<&str> = [
        (v.min_duration_met, "minimum duration"),
        (v.min_queries_met, "minimum queries"),
        (v.early_stopping_met, "early stopping"),
        (v.latency_constraints_met, "latency constraints"),
    ]
    .into_iter()
    .filter(|(met, _)| *met == Some(false))
    .map(|(_, name)| name)
    .collect();
    (!names.is_empty()).then(|| names.join(", "))
}
