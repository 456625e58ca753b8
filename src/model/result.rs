//! Typed serde structs for one canonical result (`benchlint/result/v1`).
//!
//! Field names follow vLLM's engine arguments where one exists; units are in the key names.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::RequestRate;

/// `measured_at` of a result whose file records no date (adapters write the Unix epoch).
pub const UNDATED_PREFIX: &str = "1970-01-01T00:00:00";

/// One result: one ladder run by one harness against one engine launch.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ResultDoc {
    /// Always `benchlint/result/v1`.
    pub schema: String,
    /// Unique, stable id in the corpus; claims refer to it.
    pub id: String,
    /// RFC 3339 time of the measurement; rule adoption dates compare against it.
    pub measured_at: String,
    /// Whether the run produced a result (`ok`) or lost (`does-not-fit`, `failed`, `aborted`).
    pub outcome: Outcome,
    /// The harness that wrote the file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub harness: Option<Harness>,
    /// The engine launch (one start of the serving engine) this run belongs to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub launch: Option<Launch>,
    /// Index (from 1) of this ladder inside its launch.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub repeat: Option<u64>,
    /// The hardware the engine ran on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub platform: Option<Platform>,
    /// The serving engine and its settings.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub engine: Option<Engine>,
    /// The served model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<Model>,
    /// What the harness sent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub workload: Option<Workload>,
    /// One entry per concurrency level.
    #[serde(default)]
    pub levels: Vec<Level>,
    /// Files paired with this result (power trace, quality gate).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub artifacts: Option<Artifacts>,
    /// Cost figures and the basis they rest on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost: Option<Cost>,
    /// Free-form labels the harness recorded (vLLM `--metadata` pairs and `--label`, a scenario
    /// name), key to text. Part of the configuration fingerprint: two deployments a harness
    /// labels differently are two configurations, whatever else they record.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub labels: Option<BTreeMap<String, String>>,
    /// Free text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notes: Option<String>,
}

/// How a run ended. Losing runs are results too (seed 004).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Outcome {
    /// The run completed and produced figures.
    #[default]
    Ok,
    /// The model did not load on this platform.
    DoesNotFit,
    /// The run failed.
    Failed,
    /// The run was stopped before it finished.
    Aborted,
}

impl Outcome {
    /// The value as written in the file.
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Ok => "ok",
            Outcome::DoesNotFit => "does-not-fit",
            Outcome::Failed => "failed",
            Outcome::Aborted => "aborted",
        }
    }
}

/// The benchmark harness.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Harness {
    /// Harness name (`vllm-bench-serve`, `guidellm`, a team's own).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Harness version.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    /// Git revision (sha) of the harness.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub revision: Option<String>,
    /// Whether the harness checkout had uncommitted changes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dirty: Option<bool>,
    /// The client API the harness spoke (`vllm`, `openai-chat`, `openai_http`, `chat`): the
    /// request format, in the harness's own word, not the engine that served it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub backend: Option<String>,
    /// The harness's own verdict on the run and the parameters it judged it against.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub validity: Option<HarnessValidity>,
}

/// A harness's own verdict (MLPerf loadgen's `Result is : VALID`) and the minimums, caps and
/// limits behind it: a verdict is only as good as its parameters.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct HarnessValidity {
    /// Valid (every check the harness makes passed) or invalid.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verdict: Option<Verdict>,
    /// Why the harness declared the run invalid, in its words.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub invalid_reason: Option<String>,
    /// The run lasted at least `min_duration_s`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_duration_met: Option<bool>,
    /// The run issued at least `min_queries`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_queries_met: Option<bool>,
    /// The early-stopping criterion was met.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub early_stopping_met: Option<bool>,
    /// The latency constraints were met.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub latency_constraints_met: Option<bool>,
    /// Minimum run duration held to, seconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_duration_s: Option<f64>,
    /// Cap on run duration, seconds (0: none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_duration_s: Option<f64>,
    /// Minimum query count held to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_queries: Option<u64>,
    /// Cap on queries issued (0: none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_queries: Option<u64>,
    /// Time-to-first-token limit of the latency constraint, seconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ttft_limit_s: Option<f64>,
    /// Time-per-output-token limit of the latency constraint, milliseconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tpot_limit_ms: Option<f64>,
}

/// A harness's verdict on a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// Every check the harness makes passed.
    Valid,
    /// At least one failed.
    Invalid,
}

/// One start of the serving engine: the unit of replication.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Launch {
    /// Id shared by every run against the same engine start.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// RFC 3339 time the engine started.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub started_at: Option<String>,
}

/// The hardware.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Platform {
    /// Host name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub host: Option<String>,
    /// Hardware description in words.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Number of nodes (machines) that took part.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nodes: Option<u64>,
    /// Accelerators per node that took part.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub devices_per_node: Option<u64>,
    /// The accelerator model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub device: Option<Device>,
    /// The host also serves other traffic.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shared_host: Option<bool>,
    /// Concurrent load sampled before, during and after the run (shared hosts).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub load_snapshot: Option<LoadSnapshot>,
    /// A timestamped pre-run parity check across nodes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parity_check: Option<ParityCheck>,
    /// Nominal accelerator clock, MHz.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nominal_clock_mhz: Option<f64>,
    /// Clock of each device measured under load, MHz.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clocks_under_load_mhz: Option<Vec<f64>>,
    /// Interconnect and collective-library settings (multi-node runs).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fabric: Option<Fabric>,
    /// Hourly cost of the platform, USD.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hourly_cost_usd: Option<f64>,
}

impl Platform {
    /// Devices in total: nodes × devices per node, when both are known.
    pub fn total_devices(&self) -> Option<u64> {
        self.nodes.unwrap_or(1).checked_mul(self.devices_per_node?)
    }
}

/// An accelerator model.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Device {
    /// Model name, for example `NVIDIA H200 NVL`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// Memory per device, GiB.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub memory_gib: Option<f64>,
}

/// Load on a shared host around the run.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct LoadSnapshot {
    /// Sampled before the run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub before: Option<Value>,
    /// Sampled during the run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub during: Option<Value>,
    /// Sampled after the run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub after: Option<Value>,
}

/// A pre-run check that the nodes agree.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ParityCheck {
    /// RFC 3339 time of the check.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at: Option<String>,
    /// Whether it passed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub passed: Option<bool>,
}

/// Interconnect and collectives.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Fabric {
    /// Interconnect, for example `200G RoCE`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub interconnect: Option<String>,
    /// Collective-library settings that were tuned (`NCCL_*` and the like).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub collectives: Option<BTreeMap<String, Value>>,
}

/// The serving engine.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Engine {
    /// Engine name (`vllm`, `sglang`, `tensorrt-llm`, `llama.cpp`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Engine version.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    /// Container image reference (a tag is not a digest).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub image: Option<String>,
    /// Container image digest, `sha256:` and 64 hex digits.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub image_digest: Option<String>,
    /// The complete serve command line.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub serve_command: Option<ServeCommand>,
    /// Where the serve command was read from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub serve_command_source: Option<ServeCommandSource>,
    /// Environment variables that shape the run, secrets redacted (written by `capture`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub environment: Option<BTreeMap<String, String>>,
    /// Speculative decoding configuration (an explicit `enabled: false` is an answer).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub speculative: Option<Speculative>,
    /// Whether eager execution was forced (no graph capture).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub enforce_eager: Option<bool>,
    /// KV cache dtype.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kv_cache_dtype: Option<String>,
    /// Engine cap on sequences in flight.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_num_seqs: Option<u64>,
    /// Maximum model length, tokens.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_model_len: Option<u64>,
    /// Maximum batched tokens per step.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_num_batched_tokens: Option<u64>,
    /// Whether prefix caching was enabled.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub enable_prefix_caching: Option<bool>,
    /// Tensor parallel size.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tensor_parallel_size: Option<u64>,
    /// Pipeline parallel size.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pipeline_parallel_size: Option<u64>,
    /// Expert parallel size.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expert_parallel_size: Option<u64>,
    /// Data parallel size.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub data_parallel_size: Option<u64>,
}

/// A serve command: an argv array, or one shell line.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum ServeCommand {
    /// Argument vector, one element per argument.
    Argv(Vec<String>),
    /// One command line, split like a POSIX shell would.
    Line(String),
}

impl ServeCommand {
    /// The command as an argument vector.
    pub fn argv(&self) -> Vec<String> {
        match self {
            ServeCommand::Argv(v) => v.clone(),
            ServeCommand::Line(s) => crate::serve_command::split_command_line(s),
        }
    }

    /// Whether the command holds nothing.
    pub fn is_empty(&self) -> bool {
        match self {
            ServeCommand::Argv(v) => v.iter().all(|a| a.trim().is_empty()),
            ServeCommand::Line(s) => s.trim().is_empty(),
        }
    }
}

/// Where a serve command was read from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ServeCommandSource {
    /// Read from the running process (`/proc/PID/cmdline`).
    Process,
    /// Read from `docker inspect` output.
    ContainerInspect,
    /// Read from a file the launcher wrote beside the results with the command as it ran
    /// it (`vllm_command.txt`): verbatim.
    LaunchCommand,
    /// Copied from the script that launched the engine.
    LauncherScript,
    /// Typed by a person.
    Typed,
}

impl ServeCommandSource {
    /// Read from the running process, the container, or the launcher's own record of the
    /// command it ran: the command is verbatim.
    pub fn is_verbatim(self) -> bool {
        matches!(
            self,
            ServeCommandSource::Process
                | ServeCommandSource::ContainerInspect
                | ServeCommandSource::LaunchCommand
        )
    }

    /// The value as written in the file.
    pub fn as_str(self) -> &'static str {
        match self {
            ServeCommandSource::Process => "process",
            ServeCommandSource::ContainerInspect => "container-inspect",
            ServeCommandSource::LaunchCommand => "launch-command",
            ServeCommandSource::LauncherScript => "launcher-script",
            ServeCommandSource::Typed => "typed",
        }
    }
}

/// Speculative decoding settings.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Speculative {
    /// Whether speculative decoding was on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub enabled: Option<bool>,
    /// Method (`eagle`, `ngram`, `mtp`, ...).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub method: Option<String>,
    /// Draft tokens proposed per step (the speculative budget).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub num_speculative_tokens: Option<u64>,
    /// Draft model, when one is used.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub draft_model: Option<String>,
}

/// The served model.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Model {
    /// Model name or path.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Exact checkpoint revision.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub revision: Option<String>,
    /// Weight precision (`bf16`, `fp8`, `nvfp4`, ...).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub precision: Option<String>,
    /// The kernel the engine reported selecting (`marlin`, `cutlass`, ...).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kernel: Option<String>,
    /// Whether thinking (reasoning) was on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub thinking: Option<bool>,
}

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
    pub sampling: Option<BTreeMap<String, Value>>,
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
    /// Per-request values behind the summaries.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub samples: Option<Samples>,
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

/// Files paired with a result.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Artifacts {
    /// The power trace.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub power_trace: Option<PowerTrace>,
    /// The quality-gate result.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub quality_gate: Option<QualityGate>,
}

/// A power trace file.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct PowerTrace {
    /// Path relative to the result file's folder.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// Wall power or device power.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<PowerKind>,
}

/// Where power was measured.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PowerKind {
    /// At the wall outlet.
    Wall,
    /// The accelerator's own rail.
    Device,
}

/// A quality-gate result paired with the throughput run.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct QualityGate {
    /// Path relative to the result file's folder.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// Whether the gate passed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub passed: Option<bool>,
    /// Score.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score: Option<f64>,
}

/// Cost figures.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Cost {
    /// Hourly hardware cost, USD.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hourly_usd: Option<f64>,
    /// Cost per million output tokens, USD.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub per_million_output_usd: Option<f64>,
    /// The stated basis of the cost figure.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub basis: Option<String>,
}

impl ResultDoc {
    /// Whether speculative decoding was on, when that is known.
    pub fn speculation_on(&self) -> Option<bool> {
        self.engine.as_ref()?.speculative.as_ref()?.enabled
    }

    /// The date part (`YYYY-MM-DD`) of `measured_at`, when it has one. The Unix epoch is what
    /// adapters write for a file that records no date: it is not a date, and a rule adoption
    /// date is then applied strictly rather than labelling the result as measured before it.
    pub fn measured_date(&self) -> Option<&str> {
        if self.measured_at.starts_with(UNDATED_PREFIX) {
            return None;
        }
        let d = self.measured_at.get(..10)?;
        let b = d.as_bytes();
        let shape_ok = b.len() == 10
            && b[4] == b'-'
            && b[7] == b'-'
            && b.iter()
                .enumerate()
                .all(|(i, c)| i == 4 || i == 7 || c.is_ascii_digit());
        shape_ok.then_some(d)
    }
}
