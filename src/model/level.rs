//! One load level of a ladder: its figures, its power and its per-request samples.

use serde::{Deserialize, Serialize};

use super::{PowerKind, RequestRate};

/// One level of a ladder: a closed-loop concurrency or an open-loop request rate.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Level {
    /// Streams kept in flight (closed loop).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub concurrency: Option<u64>,
    /// Requests sent per second (open loop).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub request_rate: Option<RequestRate>,
    /// Requests per second actually sent, where the harness measured it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub achieved_request_rate: Option<f64>,
    /// Cap on requests in flight of an open-loop level.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_concurrency: Option<u64>,
    /// Measured mean number of requests in flight.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mean_in_flight: Option<f64>,
    /// Requests completed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub requests: Option<u64>,
    /// Requests that failed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failed: Option<u64>,
    /// Requests the harness reports sending in the level, its own total (`num_prompts`,
    /// `num_requests`, `load_summary.count`): kept for the cross-check against `requests` and
    /// `failed` (R025).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub total_requests: Option<u64>,
    /// Share of requests that failed as the harness reports it, a fraction from 0 to 1: kept
    /// for the cross-check against the counts (R025).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error_rate: Option<f64>,
    /// Measured window, seconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub duration_s: Option<f64>,
    /// Output tokens delivered, counted as `token_count_source` says.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output_tokens: Option<u64>,
    /// The server's own output token counter, for the cross-check.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub server_output_tokens: Option<u64>,
    /// Reasoning (thinking) tokens among `output_tokens`, where the harness counts them apart.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reasoning_tokens: Option<u64>,
    /// Throughput, each figure labelled, tokens per second.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub throughput_tok_s: Option<Throughput>,
    /// Per-user (per-request) decode rate, tokens per second.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub per_user_tok_s: Option<PerUser>,
    /// Time to first token, seconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ttft_s: Option<Percentiles3>,
    /// Time per output token, milliseconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tpot_ms: Option<Percentiles2>,
    /// End-to-end request time, seconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub e2e_s: Option<Percentiles2>,
    /// Accelerator memory in use, GiB.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gpu_mem_gib: Option<f64>,
    /// Mean power drawn during the level, and where it was measured.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub power_w: Option<LevelPower>,
    /// Per-request values behind the summaries (boxed: a level kept for the group rules has
    /// none, and then costs one pointer rather than four empty arrays).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub samples: Option<Box<Samples>>,
}

/// Mean power of a level.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct LevelPower {
    /// Mean power over the measured window, watts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mean: Option<f64>,
    /// Wall or device power.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<PowerKind>,
}

/// Throughput figures, tokens per second.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Throughput {
    /// Generation (decode) throughput.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decode: Option<f64>,
    /// Prompt processing (prefill) throughput.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prefill: Option<f64>,
    /// Output tokens over the measured window, all requests together.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub aggregate: Option<f64>,
}

/// Per-user rate, tokens per second.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct PerUser {
    /// Mean of each request's own rate.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mean: Option<f64>,
    /// Median of each request's own rate.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub median: Option<f64>,
    /// 10th percentile of each request's own rate.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub p10: Option<f64>,
}

impl PerUser {
    /// The central per-user figure: the median, else the mean.
    pub fn central(&self) -> Option<f64> {
        self.median.or(self.mean)
    }
}

/// p50, p95 and p99.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Percentiles3 {
    /// Median.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub p50: Option<f64>,
    /// 95th percentile.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub p95: Option<f64>,
    /// 99th percentile.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub p99: Option<f64>,
}

/// p50 and p95.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Percentiles2 {
    /// Median.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub p50: Option<f64>,
    /// 95th percentile.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub p95: Option<f64>,
}

/// Per-request values.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Samples {
    /// Time to first token of each request, seconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ttft_s: Option<Vec<f64>>,
    /// Time per output token of each request, milliseconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tpot_ms: Option<Vec<f64>>,
    /// Decode rate of each request, tokens per second.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub per_user_tok_s: Option<Vec<f64>>,
    /// Output tokens of each request.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output_tokens: Option<Vec<f64>>,
}
