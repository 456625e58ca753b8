//! When a genai-perf / `AIPerf` run was measured, and how many requests were in flight over its
//! window (derived by Little's law).

use serde_json::Value;

use super::seconds_per;
use crate::adapters::map::{Builder, at, from_epoch_seconds, from_iso, number, ptr};

/// Requests in flight on average over the window, by Little's law: the requests' summed
/// latency over the benchmark's duration (`request_latency.sum`, else `avg × count`). Below the
/// configured concurrency when streams pause between requests, as the multi-turn traces of
/// agentic workloads do (R011 divides the aggregate by it). Derived, not recorded.
pub(super) fn in_flight(b: &mut Builder<'_>, doc: &Value) {
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
pub(super) fn measured_at(b: &mut Builder<'_>, doc: &Value) {
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
