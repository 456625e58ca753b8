//! What was sent: the workload, its prompts, its measurement window and how tokens were counted.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// What the harness sent.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Workload {
    /// Workload name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Kind of text: code, prose, mixed, other.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<WorkloadKind>,
    /// How prompts were chosen.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompts: Option<PromptSource>,
    /// Dataset name or path.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dataset: Option<String>,
    /// Prompt length, tokens.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prompt_tokens: Option<PromptTokens>,
    /// Output cap per request, tokens.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_output_tokens: Option<u64>,
    /// Whether end-of-sequence was ignored (fixed-length outputs).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ignore_eos: Option<bool>,
    /// Sampling temperature.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub temperature: Option<f64>,
    /// Random seed: any JSON integer (harnesses draw 64-bit unsigned seeds, above `i64::MAX`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<serde_json::Number>,
    /// Other sampling parameters.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sampling: Option<super::SmallMap<Value>>,
    /// Warm-up requests sent before measuring.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub warmup_requests: Option<u64>,
    /// Whether warm-up requests were excluded from every figure.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub warmup_excluded: Option<bool>,
    /// Order in which levels were measured.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level_order: Option<LevelOrder>,
    /// The measurement window.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub window: Option<Window>,
    /// Whether the harness asked for streamed responses: a time to first token is only
    /// measured when it did (R028).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub streaming: Option<bool>,
    /// The tokenizer the client harness built prompts and counted tokens with (a Hugging Face
    /// id or a path).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tokenizer: Option<String>,
    /// How output tokens were counted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub token_count_source: Option<TokenCountSource>,
}

/// Kind of text a workload sends.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum WorkloadKind {
    /// Source code.
    Code,
    /// Natural-language prose.
    Prose,
    /// Both.
    Mixed,
    /// Anything else.
    Other,
}

/// How prompts were chosen.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PromptSource {
    /// A fixed prompt set.
    Fixed,
    /// Drawn from a dataset.
    Dataset,
    /// Random token ids (synthetic filler).
    RandomTokens,
}

/// Prompt length summary, tokens.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct PromptTokens {
    /// Shortest prompt.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min: Option<f64>,
    /// Longest prompt.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max: Option<f64>,
    /// Mean prompt length.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mean: Option<f64>,
}

impl PromptTokens {
    /// A representative length: the mean, else the midpoint of min and max.
    pub fn typical(&self) -> Option<f64> {
        self.mean.or(match (self.min, self.max) {
            (Some(a), Some(b)) => Some(f64::midpoint(a, b)),
            (a, b) => a.or(b),
        })
    }
}

/// Order in which levels were measured.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum LevelOrder {
    /// Lowest concurrency first.
    Ascending,
    /// Highest concurrency first.
    Descending,
    /// Shuffled.
    Random,
}

/// The measurement window of each level.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Window {
    /// Steady state (ramp excluded) or a burst of requests.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mode: Option<WindowMode>,
    /// Ramp excluded before measuring, seconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ramp_s: Option<f64>,
    /// Length of the measured window, seconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub measure_s: Option<f64>,
}

/// Window mode.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum WindowMode {
    /// A steady-state window after a ramp.
    Steady,
    /// A burst of requests measured start to finish.
    Burst,
}

/// How output tokens were counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TokenCountSource {
    /// The usage the server reported for each request.
    ServerUsage,
    /// Streamed chunks (with speculation those are steps, not tokens).
    StreamChunks,
    /// A tokenizer run by the client.
    ClientTokenizer,
}
