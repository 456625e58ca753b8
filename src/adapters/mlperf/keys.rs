//! Where each value the adapter reads sits in each of the two loadgen logs: the summary's
//! `key : value` names and the detail log's record keys.

/// Where each figure sits in one kind of log.
pub(super) struct Keys {
    pub(super) scenario: &'static [&'static str],
    pub(super) mode: &'static [&'static str],
    pub(super) verdict: &'static str,
    pub(super) invalid_reason: Option<&'static str>,
    /// (canonical field under `harness/validity`, source key)
    pub(super) checks: [(&'static str, &'static str); 4],
    /// (canonical field, source key, scale)
    pub(super) params: [(&'static str, &'static str, f64); 4],
    pub(super) limits: [(&'static str, &'static str, f64); 2],
    pub(super) target_qps: &'static str,
    pub(super) scheduled: &'static str,
    pub(super) samples_per_query: &'static str,
    pub(super) query_count: Option<&'static str>,
    pub(super) tokens_server: &'static str,
    pub(super) tokens_offline: &'static str,
    /// The longest sample latency: an Offline run's length.
    pub(super) max_latency: &'static str,
    /// Completed samples per second (Server).
    pub(super) completed: &'static str,
    /// (canonical, source key, scale)
    pub(super) latencies: [(&'static str, &'static str, f64); 7],
}

pub(super) const SUMMARY: Keys = Keys {
    scenario: &["Scenario"],
    mode: &["Mode"],
    verdict: "Result is",
    invalid_reason: None,
    checks: [
        ("min_duration_met", "Min duration satisfied"),
        ("min_queries_met", "Min queries satisfied"),
        ("early_stopping_met", "Early stopping satisfied"),
        (
            "latency_constraints_met",
            "Performance constraints satisfied",
        ),
    ],
    params: [
        ("min_duration_s", "min_duration (ms)", 0.001),
        ("max_duration_s", "max_duration (ms)", 0.001),
        ("min_queries", "min_query_count", 1.0),
        ("max_queries", "max_query_count", 1.0),
    ],
    limits: [
        ("ttft_limit_s", "ttft_latency (ns)", 1e-9),
        ("tpot_limit_ms", "tpot_latency (ns)", 1e-6),
    ],
    target_qps: "target_qps",
    scheduled: "Scheduled samples per second",
    samples_per_query: "samples_per_query",
    query_count: None,
    tokens_server: "Completed tokens per second",
    tokens_offline: "Tokens per second",
    max_latency: "Max latency (ns)",
    completed: "Completed samples per second",
    latencies: [
        (
            "ttft_s/p50",
            "50.00 percentile first token latency (ns)",
            1e-9,
        ),
        (
            "ttft_s/p95",
            "95.00 percentile first token latency (ns)",
            1e-9,
        ),
        (
            "ttft_s/p99",
            "99.00 percentile first token latency (ns)",
            1e-9,
        ),
        (
            "tpot_ms/p50",
            "50.00 percentile time to output token (ns)",
            1e-6,
        ),
        (
            "tpot_ms/p95",
            "95.00 percentile time to output token (ns)",
            1e-6,
        ),
        ("e2e_s/p50", "50.00 percentile latency (ns)", 1e-9),
        ("e2e_s/p95", "95.00 percentile latency (ns)", 1e-9),
    ],
};

pub(super) const DETAIL: Keys = Keys {
    scenario: &["effective_scenario", "requested_scenario"],
    mode: &["effective_test_mode", "requested_test_mode"],
    verdict: "result_validity",
    invalid_reason: Some("result_invalid_reason"),
    checks: [
        ("min_duration_met", "result_min_duration_met"),
        ("min_queries_met", "result_min_queries_met"),
        ("early_stopping_met", "early_stopping_met"),
        ("latency_constraints_met", "result_perf_constraints_met"),
    ],
    params: [
        ("min_duration_s", "effective_min_duration_ms", 0.001),
        ("max_duration_s", "effective_max_duration_ms", 0.001),
        ("min_queries", "effective_min_query_count", 1.0),
        ("max_queries", "effective_max_query_count", 1.0),
    ],
    limits: [
        ("ttft_limit_s", "requested_server_ttft_latency", 1e-9),
        ("tpot_limit_ms", "requested_server_tpot_latency", 1e-6),
    ],
    target_qps: "effective_target_qps",
    scheduled: "result_scheduled_samples_per_sec",
    samples_per_query: "effective_samples_per_query",
    query_count: Some("result_query_count"),
    tokens_server: "result_completed_tokens_per_second",
    tokens_offline: "result_tokens_per_second",
    max_latency: "result_max_latency_ns",
    completed: "result_completed_samples_per_sec",
    latencies: [
        (
            "ttft_s/p50",
            "result_first_token_50.00_percentile_latency_ns",
            1e-9,
        ),
        (
            "ttft_s/p95",
            "result_first_token_95.00_percentile_latency_ns",
            1e-9,
        ),
        (
            "ttft_s/p99",
            "result_first_token_99.00_percentile_latency_ns",
            1e-9,
        ),
        (
            "tpot_ms/p50",
            "result_time_per_output_token_50.00_percentile_ns",
            1e-6,
        ),
        (
            "tpot_ms/p95",
            "result_time_per_output_token_95.00_percentile_ns",
            1e-6,
        ),
        ("e2e_s/p50", "result_50.00_percentile_latency_ns", 1e-9),
        ("e2e_s/p95", "result_95.00_percentile_latency_ns", 1e-9),
    ],
};
