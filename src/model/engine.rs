//! What served the model: the engine, its serve command and speculative decoding, and the model.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

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
