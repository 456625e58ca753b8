//! `unbounded-request-rate` (R019): an open-loop run at an infinite request rate with no
//! concurrency cap.

use serde_json::Value;

use super::served::served_nothing;
use super::{Emitter, ResultCtx, declare_rule};
use crate::model::{Level, RequestRate};
use crate::numbers::num;

declare_rule! {
    /// ## What it checks
    /// An open-loop level whose request rate was infinite and whose client put no cap on
    /// requests in flight: `levels[].request_rate` is `"inf"`, and the level has neither a
    /// `concurrency` nor a `max_concurrency`.
    ///
    /// Canonical files written before levels carried their own rate may keep the harness's
    /// traffic settings in `workload.sampling` instead; when no level records a rate, the rule
    /// reads `workload.sampling.request_rate` (`"inf"`, `"Infinity"`, `"+inf"`, any case) and
    /// `workload.sampling.max_concurrency` (absent, `null`, or a string that is not a number,
    /// as vLLM's `--metadata` strings are) the same way.
    ///
    /// A finite rate, SGLang's `"trace"` replay, or any numeric cap is not reported; nor is a
    /// level that reports no latency (no `ttft_s`, `tpot_ms` or `e2e_s`), an offline-throughput
    /// figure such as MLPerf's Offline scenario, since nothing it records measures the queue.
    ///
    /// A run that completed no request has no latency figure to misread and is skipped: R006
    /// and R007 report it.
    ///
    /// ## Why is this bad?
    /// With an infinite rate and no cap, the client sends every prompt at once; the engine
    /// admits what its sequence cap allows and queues the rest, so first-token and end-to-end
    /// latency measure time in the queue, which grows with the number of prompts and not with
    /// anything the hardware does. research/formats.md §10 lists the real case: SGLang's offline
    /// rows (`"request_rate": Infinity, "max_concurrency": null`, 3000 prompts) report a median
    /// TTFT of 91 seconds.
    ///
    /// ## Example
    /// ```json
    /// { "levels": [ { "request_rate": "inf", "requests": 3000 } ] }
    /// ```
    ///
    /// ## What to do instead
    /// ```json
    /// { "levels": [ { "request_rate": "inf", "max_concurrency": 32, "requests": 3000 } ] }
    /// ```
    /// Cap the requests in flight (`--max-concurrency`) and ladder the cap, or use a finite
    /// rate; keep a flood run, if wanted, as a separate offline-throughput figure without
    /// latency.
    pub static RULE = {
        code: "R019",
        name: "unbounded-request-rate",
        severity: Warning,
        scope: Result,
        source: "research/formats.md §0, §10 (request_rate Infinity with max_concurrency null)",
        summary: "infinite request rate with no concurrency cap",
    }
}

/// Whether a recorded request rate means "infinite".
fn is_infinite_rate(rate: &Value) -> bool {
    match rate {
        Value::String(s) => matches!(
            s.trim().to_ascii_lowercase().as_str(),
            "inf" | "+inf" | "infinity" | "+infinity"
        ),
        Value::Number(n) => n.as_f64().is_some_and(f64::is_infinite),
        _ => false,
    }
}

/// Whether a recorded concurrency cap is a cap: a number, or a string holding one.
fn is_cap(cap: &Value) -> bool {
    match cap {
        Value::Number(_) => true,
        Value::String(s) => s.trim().parse::<f64>().is_ok_and(f64::is_finite),
        _ => false,
    }
}

pub fn check(ctx: &ResultCtx<'_>, out: &mut Emitter<'_>) {
    if served_nothing(ctx.result) {
        return;
    }
    let levels = ctx.result.levels.as_slice();
    if levels.iter().any(|l| l.request_rate.is_some()) {
        for (i, level) in levels.iter().enumerate() {
            let flood = level.request_rate == Some(RequestRate::Unbounded)
                && level.concurrency.is_none()
                && level.max_concurrency.is_none();
            let reports_latency =
                level.ttft_s.is_some() || level.tpot_ms.is_some() || level.e2e_s.is_some();
            if !reports_latency {
                continue;
            }
            if !flood {
                continue;
            }
            let evidence = flood_evidence(level.ttft_s.as_ref().and_then(|t| t.p50), level);
            out.emit(
                format!("/levels/{i}/request_rate"),
                format!(
                    "request rate \"inf\" with no max_concurrency: every request was sent at once, so latency \
                     figures measure the queue{evidence}"
                ),
            )
            .label("an open-loop flood")
            .help(HELP);
        }
        return;
    }
    let Some(rate) = ctx.get("/workload/sampling/request_rate") else {
        return;
    };
    if !is_infinite_rate(rate)
        || ctx
            .get("/workload/sampling/max_concurrency")
            .is_some_and(is_cap)
    {
        return;
    }
    // The worst median first-token latency, as evidence of queueing.
    let worst = levels
        .iter()
        .filter_map(|l| Some((l, l.ttft_s.as_ref()?.p50?)))
        .filter(|(_, t)| t.is_finite())
        .max_by(|a, b| a.1.total_cmp(&b.1));
    let evidence = worst.map_or_else(String::new, |(l, t)| flood_evidence(Some(t), l));
    let shown = match rate {
        Value::String(s) => format!("\"{s}\""),
        other => other.to_string(),
    };
    out.emit(
        "/workload/sampling/request_rate",
        format!(
            "request rate {shown} with no max_concurrency: every request was sent at once, so latency figures measure \
             the queue{evidence}"
        ),
    )
    .label("an open-loop flood")
    .help(HELP);
}

const HELP: &str = "cap the requests in flight (--max-concurrency) and ladder the cap, or use a finite request rate";

/// " (TTFT p50 91 s with 3000 requests sent)": the queueing a flood shows, where recorded.
fn flood_evidence(ttft_p50: Option<f64>, level: &Level) -> String {
    let Some(t) = ttft_p50.filter(|t| t.is_finite()) else {
        return String::new();
    };
    let sent = level.requests.map(|r| r + level.failed.unwrap_or(0));
    match sent {
        Some(n) => format!(
            " (TTFT p50 {} s with {} requests sent at once)",
            num(t),
            crate::numbers::count(n)
        ),
        None => format!(" (TTFT p50 {} s)", num(t)),
    }
}
