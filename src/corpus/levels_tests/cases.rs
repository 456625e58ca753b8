//! The levels the differential runs on: values written in every way a file may write one,
//! each on every scalar field and object, whole objects replaced, and levels that are not
//! objects.

/// Values written in every way a file may write one (as JSON text).
const VALUES: [&str; 38] = [
    "0",
    "-0.5",
    "-2.5e0",
    "1",
    "2",
    "7",
    "-1",
    "-0",
    "0.0",
    "-0.0",
    "0.5",
    "1.5",
    "32.0",
    "1e2",
    "1E400",
    "1e-400",
    "1.0",
    "18446744073709551615",
    "18446744073709551616",
    "-9223372036854775809",
    "1e308",
    "-1e308",
    "null",
    "true",
    "\"x\"",
    "\"inf\"",
    "\"Infinity\"",
    "\"1\"",
    "\"\"",
    "\"TBD\"",
    "[]",
    "{}",
    "[1]",
    "{\"a\": 1}",
    "\"wall\"",
    "\"device\"",
    "\"w\\u0061ll\"",
    "\"in\\u0066\"",
];

/// The level's scalar fields.
const SCALARS: [&str; 14] = [
    "concurrency",
    "request_rate",
    "achieved_request_rate",
    "max_concurrency",
    "mean_in_flight",
    "requests",
    "failed",
    "total_requests",
    "error_rate",
    "duration_s",
    "output_tokens",
    "server_output_tokens",
    "reasoning_tokens",
    "gpu_mem_gib",
];

/// The level's objects and their fields.
const OBJECTS: [(&str, &[&str]); 7] = [
    ("throughput_tok_s", &["decode", "prefill", "aggregate"]),
    ("per_user_tok_s", &["mean", "median", "p10"]),
    ("ttft_s", &["p50", "p95", "p99"]),
    ("tpot_ms", &["p50", "p95"]),
    ("e2e_s", &["p50", "p95"]),
    ("power_w", &["mean", "kind"]),
    (
        "samples",
        &["ttft_s", "tpot_ms", "per_user_tok_s", "output_tokens"],
    ),
];

/// A full level as the bench corpora and careful teams write them.
pub(super) const FULL: &str = r#"{"concurrency": 4, "requests": 25, "failed": 0, "total_requests": 25,
 "error_rate": 0, "duration_s": 120.0, "output_tokens": 5631, "server_output_tokens": 5631,
 "reasoning_tokens": 0, "mean_in_flight": 3.9, "gpu_mem_gib": 104.6,
 "throughput_tok_s": {"decode": 47.89, "prefill": 424.4, "aggregate": 46.92},
 "per_user_tok_s": {"mean": 47.67, "median": 47.76, "p10": 46.45},
 "ttft_s": {"p50": 0.0987, "p95": 0.1107, "p99": 0.113}, "tpot_ms": {"p50": 20.94, "p95": 21.65},
 "e2e_s": {"p50": 4.829, "p95": 5.379}, "power_w": {"mean": 700, "kind": "device"},
 "samples": {"ttft_s": [0.0873, 0.0937], "tpot_ms": [21.27, 21.56], "per_user_tok_s": [47.01, 46.37],
   "output_tokens": [234, 221]}}"#;

/// Every level the differential runs on: each field with each value, on a level keyed by a
/// concurrency and (for the load fields) alone, whole objects replaced, unknown keys, and
/// levels that are not objects.
pub(super) fn levels() -> Vec<String> {
    let mut out = vec![
        FULL.to_string(),
        "{}".into(),
        "null".into(),
        "[]".into(),
        "[4]".into(),
        "\"x\"".into(),
        "4".into(),
        r#"{"concurrency": 1, "note": "x"}"#.into(),
        r#"{"max_concurrency": 4}"#.into(),
        r#"{"concurrency": 2, "request_rate": 4.5, "max_concurrency": 8}"#.into(),
        r#"{"concurrency": 2, "concurrency": 3}"#.into(),
        r#"{"concurrency": 2, "tpot_ms": {"p50": 20}}"#.into(),
        r#"{"concurrency": 2, "tpot_ms": {"p50": 0}, "per_user_tok_s": {}}"#.into(),
        r#"{"concurrency": 2, "tpot_ms": {"p50": 25}, "per_user_tok_s": {"p10": 30}}"#.into(),
        r#"{"concurrency": 2, "tpot_ms": {"p50": 25}, "samples": {"per_user_tok_s": [1, 2]}}"#
            .into(),
        r#"{"concurrency": 2, "samples": {"ttft_s": [0.1, -0.5, 2], "tpot_ms": [-0.0]}}"#.into(),
        r#"{"concurrency": 2, "samples": {"ttft_s": [0.1, null]}}"#.into(),
        r#"{"concurrency": 2, "samples": {"ttft_s": [0.1, "x"], "extra": []}}"#.into(),
        r#"{"concurrency": 2, "power_w": {"kind": "WALL"}}"#.into(),
        r#"{"concurrency": NaN}"#.into(),
        r#"{"concurrency": 2, "duration_s": Infinity}"#.into(),
        r#"{"concurrency": 2,}"#.into(),
    ];
    for field in SCALARS {
        for v in VALUES {
            out.push(format!(r#"{{"concurrency": 4, "{field}": {v}}}"#));
            if matches!(field, "concurrency" | "request_rate") {
                out.push(format!(r#"{{"{field}": {v}}}"#));
            }
        }
    }
    for (object, fields) in OBJECTS {
        out.push(format!(
            r#"{{"concurrency": 4, "{object}": {{"unknown": 1}}}}"#
        ));
        for v in VALUES {
            out.push(format!(r#"{{"concurrency": 4, "{object}": {v}}}"#));
            for field in fields {
                out.push(format!(
                    r#"{{"concurrency": 4, "{object}": {{"{field}": {v}}}}}"#
                ));
                if object == "samples" {
                    out.push(format!(
                        r#"{{"concurrency": 4, "{object}": {{"{field}": [{v}, 1]}}}}"#
                    ));
                }
            }
        }
    }
    out
}
