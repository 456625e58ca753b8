//! The files genai-perf and `AIPerf` write beside their exports that carry no result of their
//! own: recognised by content so they are companions, never unknown formats (E004).

use serde_json::Value;

/// Side files that carry no result of their own.
pub(crate) fn is_companion(v: &Value) -> bool {
    let Some(m) = v.as_object() else {
        return false;
    };
    // genai-perf's raw perf_analyzer export.
    let raw = m.contains_key("experiments")
        && (m.contains_key("service_kind") || m.contains_key("endpoint"));
    // inputs.json of both harnesses: {"data": [{"payload" | "payloads": [...]}]}.
    let inputs = m.get("data").and_then(Value::as_array).is_some_and(|d| {
        !d.is_empty()
            && d.iter()
                .all(|e| e.get("payload").is_some() || e.get("payloads").is_some())
    });
    // AIPerf's sweep and multi-run aggregates: the per-level exports beside them are the results.
    let aggregate =
        m.contains_key("aggregation_type") || v.pointer("/metadata/aggregation_type").is_some();
    // AIPerf's run_config.json and phase_manifest.json.
    let run_config =
        m.contains_key("benchmark_id") && (m.contains_key("cfg") || m.contains_key("resolved"));
    let manifest = m.get("phases").and_then(Value::as_array).is_some_and(|p| {
        !p.is_empty()
            && p.iter()
                .all(|x| x.get("phase_kind").is_some() || x.get("metrics_json").is_some())
    });
    // AIPerf's `.aiperf_results_ready.json` marker: {ready, was_cancelled, partial}.
    let marker = m.get("ready").is_some_and(Value::is_boolean) && m.contains_key("partial");
    // One line of AIPerf's per-request profile_export.jsonl.
    let record = v.pointer("/metadata/x_request_id").is_some()
        || v.pointer("/metadata/benchmark_phase").is_some();
    raw || inputs || aggregate || run_config || manifest || marker || record || aiperf_output(m)
}

/// `AIPerf`'s other outputs beside its export: the time-sliced export
/// (`*_timeslices.json`: `timeslices` of per-slice metrics), the server metrics export
/// (`server_metrics_export.json`: a `summary` of the scraped endpoints with `endpoints` or
/// `metrics`), the GPU telemetry export (`{summary, endpoints}`), and one line of
/// `server_metrics_export.jsonl` (a scrape: `endpoint_url`, `timestamp_ns`, `metrics`) or of
/// `gpu_telemetry_export.jsonl` (a sample: `timestamp_ns`, `gpu_uuid`, the DCGM URL or GPU
/// model).
fn aiperf_output(m: &serde_json::Map<String, Value>) -> bool {
    let timeslices = m
        .get("timeslices")
        .and_then(Value::as_array)
        .is_some_and(|t| {
            t.iter().all(|s| {
                s.get("timeslice_index").is_some() || s.get("start_ns").is_some() || !s.is_object()
            })
        });
    let summary = m.get("summary").is_some_and(|s| {
        s.get("endpoints_configured").is_some() || s.get("endpoints_successful").is_some()
    }) && (m.contains_key("endpoints") || m.contains_key("metrics"));
    let scrape = m.contains_key("endpoint_url")
        && m.contains_key("timestamp_ns")
        && m.contains_key("metrics");
    let gpu_sample = m.contains_key("timestamp_ns")
        && m.contains_key("gpu_uuid")
        && (m.contains_key("dcgm_url") || m.contains_key("gpu_model_name"));
    timeslices || summary || scrape || gpu_sample
}
