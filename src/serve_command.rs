//! Reading engine settings out of a recorded serve command.
//!
//! This module owns two things: splitting a one-line serve command into an argument vector
//! ([`split_command_line`]), and reading the settings benchlint cares about from that vector
//! ([`parse`]) for vLLM, SGLang and TensorRT-LLM. benchlint uses the result to derive
//! settings a result file does not record, and to report a recorded setting that disagrees
//! with the command (M015, `serve-command-mismatch`). It decides nothing about provenance or
//! findings; that is the rules' job.
//!
//! Conventions the callers rely on:
//!
//! - A flag the command omits is the engine's default, which benchlint cannot know, so its
//!   field stays `None`. `--enforce-eager` absent is `None`, never `Some(false)`.
//! - When a flag is repeated, the last one wins, as with argparse and click, and its
//!   `arg_index` is reported.
//! - Spelling follows each engine: vLLM folds `_` into `-` and has `--no-X` for its
//!   switches; SGLang and TensorRT-LLM accept only their own spelling (`--tp-size`,
//!   `--tp_size`). A flag the engine would have rejected lands in `unknown_flags` instead of
//!   being believed, since such a command cannot have run as written.
//! - Settings held in a config file named by the command (`--config`,
//!   `--extra_llm_api_options`) are invisible here.
//!
//! Mapping decisions that are not one-to-one:
//!
//! - `max_num_batched_tokens` for SGLang comes from `--chunked-prefill-size`, the per-step
//!   prefill token budget in practice; `-1` (chunking off) records nothing.
//!   `--max-prefill-tokens` is understood but not mapped: it only binds when smaller.
//! - `num_speculative_tokens` follows vLLM's meaning, draft tokens proposed per step. SGLang's
//!   `--speculative-num-draft-tokens` counts the verify window, one more than that, so the
//!   budget is `num_draft_tokens - 1`; with `--speculative-eagle-topk 1` SGLang forces the
//!   window to `num_steps + 1`, so the budget is `--speculative-num-steps`.
//! - Speculative `method` is ASCII-lowercased, so SGLang's `EAGLE3` equals vLLM's `eagle3`.
//! - vLLM `--enable-expert-parallel` has no size: EP size is TP x DP (vLLM's rule), taking
//!   an omitted TP or DP as 1 since those are fixed CLI defaults, not tuned ones;
//!   `--no-enable-expert-parallel` records 1. SGLang's legacy `--enable-ep-moe` records TP.
//! - SGLang `--disable-cuda-graph` or `--cuda-graph-backend-decode disabled` means eager.
//!   TensorRT-LLM `--disable_kv_cache_reuse` means prefix caching off.

#![allow(
    clippy::doc_markdown,
    reason = "engine names such as SGLang are prose here, not code to put in backticks"
)]

#[path = "serve_command/count.rs"]
mod count;
#[path = "serve_command/flags.rs"]
mod flags;
#[path = "serve_command/launcher.rs"]
mod launcher;
#[path = "serve_command/parser.rs"]
mod parser;
#[path = "serve_command/shell.rs"]
mod shell;
#[cfg(test)]
#[path = "serve_command/tests.rs"]
mod tests;

use launcher::{Launch, ModelArg, find_launcher};
use parser::Parser;

pub use shell::split_command_line;

/// A serving engine whose command line benchlint can read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EngineKind {
    /// vLLM (`vllm serve`, `python -m vllm.entrypoints.openai.api_server`).
    Vllm,
    /// SGLang (`python -m sglang.launch_server`, `sglang serve`).
    Sglang,
    /// TensorRT-LLM (`trtllm-serve`).
    TensorRtLlm,
}

impl EngineKind {
    /// The engine name as the canonical result format writes it.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            EngineKind::Vllm => "vllm",
            EngineKind::Sglang => "sglang",
            EngineKind::TensorRtLlm => "tensorrt-llm",
        }
    }
}

/// One setting found in the command: its value and the index of the argv element that holds the flag.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found<T> {
    /// The value the command sets.
    pub value: T,
    /// Index in the argument vector of the flag (or of the positional model argument).
    pub arg_index: usize,
}

/// Speculative decoding as the command configures it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Speculative {
    /// Whether the command turns speculative decoding on (`false` only for an explicit off,
    /// such as `--speculative-config null`).
    pub enabled: bool,
    /// Method, ASCII-lowercased (`eagle`, `eagle3`, `ngram`, `nextn`, ...).
    pub method: Option<String>,
    /// Draft tokens proposed per step, in vLLM's sense (see the module notes for SGLang).
    pub num_speculative_tokens: Option<u64>,
    /// Draft model, when the command names one.
    pub draft_model: Option<String>,
}

/// The settings a serve command names. `None` means the command does not name it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ServeSettings {
    /// The engine the command launches, when recognised.
    pub engine: Option<EngineKind>,
    /// Model name or path (positional, `--model`, SGLang `--model-path`).
    pub model: Option<Found<String>>,
    /// Checkpoint revision (`--revision`).
    pub revision: Option<Found<String>>,
    /// Quantization method (`--quantization`, vLLM `-q`).
    pub quantization: Option<Found<String>>,
    /// Weight dtype (`--dtype`), as written (`auto` stays `auto`).
    pub dtype: Option<Found<String>>,
    /// Speculative decoding configuration.
    pub speculative: Option<Found<Speculative>>,
    /// Eager execution: vLLM `--enforce-eager`/`--no-enforce-eager`, SGLang `--disable-cuda-graph`.
    pub enforce_eager: Option<Found<bool>>,
    /// KV cache dtype (`--kv-cache-dtype`), as written.
    pub kv_cache_dtype: Option<Found<String>>,
    /// Sequence cap: vLLM `--max-num-seqs`, SGLang `--max-running-requests`, TRT `--max_batch_size`.
    pub max_num_seqs: Option<Found<u64>>,
    /// Model length: vLLM `--max-model-len`, SGLang `--context-length`, TRT `--max_seq_len`.
    pub max_model_len: Option<Found<u64>>,
    /// Batched tokens per step: vLLM `--max-num-batched-tokens`, SGLang
    /// `--chunked-prefill-size`, TRT `--max_num_tokens`.
    pub max_num_batched_tokens: Option<Found<u64>>,
    /// Prefix caching: vLLM `--[no-]enable-prefix-caching`, SGLang `--disable-radix-cache`,
    /// TRT `--disable_kv_cache_reuse`.
    pub enable_prefix_caching: Option<Found<bool>>,
    /// Tensor parallel size.
    pub tensor_parallel_size: Option<Found<u64>>,
    /// Pipeline parallel size.
    pub pipeline_parallel_size: Option<Found<u64>>,
    /// Expert parallel size (derived for vLLM, see the module notes).
    pub expert_parallel_size: Option<Found<u64>>,
    /// Data parallel size.
    pub data_parallel_size: Option<Found<u64>>,
    /// Flags not understood, or whose value was not understood; sorted, deduplicated.
    pub unknown_flags: Vec<String>,
}

/// Reads the settings a serve command names.
///
/// The launcher (`vllm serve`, `python -m sglang.launch_server`, `trtllm-serve`, ...) is
/// looked for anywhere in `argv`, so `env`, `VAR=x` or wrapper prefixes do not hide it;
/// arguments before it belong to the wrapper and are ignored. Without a launcher every
/// argument is read with all engines' flags and `engine` stays `None`.
///
/// Total on any input and linear in its size, apart from sorting `unknown_flags`.
#[must_use]
pub fn parse(argv: &[String]) -> ServeSettings {
    let launch = find_launcher(argv).unwrap_or(Launch {
        engine: None,
        start: 0,
        model: ModelArg::None,
    });
    let mut p = Parser::new(launch.engine);
    let mut i = launch.start;
    if launch.model == ModelArg::Immediate
        && let Some(arg) = argv.get(i)
        && !looks_like_flag(arg)
    {
        p.out.model = Some(Found {
            value: arg.clone(),
            arg_index: i,
        });
        i += 1;
    }
    let mut options_ended = false;
    let mut positional_model_seen = false;
    while let Some(arg) = argv.get(i) {
        if options_ended || !looks_like_flag(arg) {
            // Only click (TensorRT-LLM) takes the model as a positional anywhere.
            if launch.model == ModelArg::Anywhere && !positional_model_seen {
                positional_model_seen = true;
                p.out.model = Some(Found {
                    value: arg.clone(),
                    arg_index: i,
                });
            }
            i += 1;
        } else if arg == "--" {
            options_ended = true;
            i += 1;
        } else {
            i = p.flag(argv, i);
        }
    }
    p.finish()
}

/// An option, as opposed to a value: argparse reads `-1` and `-.5` as values.
fn looks_like_flag(arg: &str) -> bool {
    let Some(rest) = arg.strip_prefix('-') else {
        return false;
    };
    let number = match rest.split_once('.') {
        Some((int, frac)) => int.bytes().all(|b| b.is_ascii_digit()) && is_digits(frac),
        None => is_digits(rest),
    };
    !rest.is_empty() && !number
}

fn is_digits(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}
