//! Telling a genai-perf / `AIPerf` export from everything else in its folder: the metrics and
//! run keys that make one, `AIPerf`'s own keys, and the phases of `input_config` that tell a
//! per-phase copy from the run's export.

use serde_json::Value;

use crate::adapters::map::ptr;

/// Metrics every genai-perf / `AIPerf` export has at least one of.
const CORE_METRICS: [&str; 5] = [
    "request_throughput",
    "request_latency",
    "time_to_first_token",
    "request_count",
    "output_token_throughput",
];

/// Keys only an `AIPerf` run export carries at its top level, whatever the run served: an
/// export of a run that completed nothing (a dead server's "connection refused") has no
/// metric at all, only its configuration, its error summary and these.
const AIPERF_RUN_KEYS: [&str; 5] = [
    "error_summary",
    "was_cancelled",
    "aiperf_version",
    "error_request_count",
    "benchmark_id",
];

pub(super) fn is_export(v: &Value) -> bool {
    v.as_object().is_some_and(|m| {
        let own = AIPERF_RUN_KEYS
            .iter()
            .filter(|k| m.contains_key(**k))
            .count();
        // An export that lost its `input_config` is still one when AIPerf's own run keys say so.
        (m.get("input_config").is_some_and(Value::is_object) || own >= 3)
            && (CORE_METRICS
                .iter()
                .any(|k| m.get(*k).and_then(|x| x.get("unit")).is_some())
                || AIPERF_RUN_KEYS.iter().any(|k| m.contains_key(*k)))
            && !m.contains_key("schema")
            && !m.contains_key("aggregation_type")
    })
}

pub(super) fn is_aiperf(v: &Value) -> bool {
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

/// The pointer of the `input_config.phases` entry of `kind` (`profiling`, `warmup`): in 0.13
/// an array whose entries name their `kind`; in the 0.10 exports (`schema_version` 1.3) an
/// entry may name itself by `name` or `phase` only, or `phases` may be an object keyed by the
/// phase's name. Unknown shapes find nothing (the load then comes from the older keys).
pub(super) fn phase(doc: &Value, kind: &str) -> Option<String> {
    let names = |v: &Value| {
        ["kind", "name", "phase", "phase_type"]
            .iter()
            .filter_map(|k| v.get(*k).and_then(Value::as_str))
            .any(|n| n.eq_ignore_ascii_case(kind))
    };
    match doc.pointer("/input_config/phases")? {
        Value::Array(items) => {
            // `kind` first: a 0.13 entry's `name` is free text and may differ from its kind.
            let by_kind = items
                .iter()
                .position(|p| p.get("kind").and_then(Value::as_str) == Some(kind));
            by_kind
                .or_else(|| {
                    items
                        .iter()
                        .position(|p| p.get("kind").is_none() && names(p))
                })
                .or_else(|| {
                    // The profiling phase by elimination: the one phase that is not a
                    // warm-up and is not excluded from the results.
                    let warm = |p: &Value| {
                        ["kind", "name", "phase", "phase_type"].iter().any(|k| {
                            p.get(*k)
                                .and_then(Value::as_str)
                                .is_some_and(|n| n.to_ascii_lowercase().contains("warm"))
                        }) || p.get("exclude_from_results").and_then(Value::as_bool) == Some(true)
                    };
                    let measured: Vec<usize> = (0..items.len())
                        .filter(|i| items[*i].is_object() && !warm(&items[*i]))
                        .collect();
                    match (kind, measured.as_slice()) {
                        ("profiling", [one]) => Some(*one),
                        _ => None,
                    }
                })
                .map(|i| format!("/input_config/phases/{i}"))
        }
        Value::Object(map) => map
            .iter()
            .find(|(k, v)| k.eq_ignore_ascii_case(kind) && v.is_object())
            .map(|(k, _)| ptr("/input_config/phases", &[k])),
        _ => None,
    }
}

/// An `AIPerf` 0.13 per-phase export (`phases/<name>/profile_export_aiperf.json`): the run's
/// export carries `warmup_metrics` whenever the run had a warm-up phase (and its telemetry);
/// the per-phase copies carry neither.
///
/// A copy repeats figures: an export without any completed-request count is the run's own
/// (a run that served nothing has neither telemetry nor warm-up metrics either), read as the
/// failed result it is rather than skipped as a copy.
pub(super) fn is_phase_export(v: &Value) -> bool {
    v.get("schema_version").is_some()
        && v.get("telemetry_data").is_none()
        && v.get("warmup_metrics").is_none()
        && v.get("request_count").is_some()
        && phase(v, "warmup").is_some()
}
