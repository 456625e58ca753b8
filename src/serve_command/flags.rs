//! The flag tables: which spelling each engine accepts and what it sets.
//!
//! Spellings are the engines' own. vLLM folds `_` into `-` in flag names, so its entries
//! match either; SGLang (argparse) and TensorRT-LLM (click) match only their exact spelling,
//! because a flag the engine would have rejected means the command never ran as written.

#[path = "flags/unmapped.rs"]
mod unmapped;

use super::EngineKind;

use unmapped::{SWITCHES, VALUES};

/// Engine bit: vLLM.
pub(super) const V: u8 = 1;
/// Engine bit: SGLang.
pub(super) const S: u8 = 2;
/// Engine bit: TensorRT-LLM (`trtllm-serve`).
pub(super) const T: u8 = 4;

/// A string setting.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum StrField {
    Model,
    Revision,
    Quantization,
    Dtype,
    KvCacheDtype,
}

/// A count setting.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum NumField {
    MaxNumSeqs,
    MaxModelLen,
    MaxNumBatchedTokens,
    TensorParallel,
    PipelineParallel,
    ExpertParallel,
    DataParallel,
}

/// How a count is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum NumStyle {
    /// A plain integer.
    Plain,
    /// vLLM's `human_readable_int`: `32k` is 32 000, `32K` is 32 768.
    Human,
    /// As `Human`, and `auto` or `-1` let the engine choose (vLLM `--max-model-len`).
    HumanOrAuto,
    /// A plain integer, and `-1` switches the feature off (SGLang `--chunked-prefill-size`).
    PlainOrOff,
}

/// What a flag does.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Target {
    Str(StrField),
    Num(NumField, NumStyle),
    /// A switch that sets `enforce_eager` to the given value.
    Eager(bool),
    /// SGLang `--cuda-graph-backend-decode`: `disabled` means eager.
    EagerFromGraphBackend,
    /// A switch that sets `enable_prefix_caching` to the given value.
    PrefixCaching(bool),
    /// vLLM `--enable-expert-parallel`: the size follows from TP and DP.
    ExpertParallelSwitch,
    /// Legacy SGLang `--enable-ep-moe` / `--enable-deepep-moe`: EP size becomes TP size.
    ExpertParallelFromTp,
    /// vLLM `--speculative-config` (JSON).
    SpecConfig,
    /// Legacy vLLM `--speculative-model`.
    SpecLegacyModel,
    /// Legacy vLLM `--num-speculative-tokens`.
    SpecLegacyTokens,
    /// SGLang `--speculative-algorithm`.
    SpecAlgorithm,
    /// SGLang `--speculative-draft-model-path`.
    SpecDraftModel,
    /// SGLang `--speculative-num-draft-tokens`.
    SpecDraftTokens,
    /// SGLang `--speculative-num-steps`.
    SpecSteps,
    /// SGLang `--speculative-eagle-topk`.
    SpecTopk,
    /// Understood, takes a value, maps to nothing benchlint records.
    Value,
    /// Understood switch that maps to nothing benchlint records.
    Switch,
}

impl Target {
    /// Whether the flag consumes a value.
    pub(super) fn takes_value(self) -> bool {
        !matches!(
            self,
            Target::Eager(_)
                | Target::PrefixCaching(_)
                | Target::ExpertParallelSwitch
                | Target::ExpertParallelFromTp
                | Target::Switch
        )
    }
}

use NumField::{
    DataParallel as Dp, ExpertParallel as Ep, MaxModelLen, MaxNumBatchedTokens, MaxNumSeqs,
    PipelineParallel as Pp, TensorParallel as Tp,
};
use NumStyle::{Human, HumanOrAuto, Plain, PlainOrOff};
use StrField::{Dtype, KvCacheDtype, Model, Quantization, Revision};

/// Flags that set something benchlint records.
const MAPPED: &[(&str, u8, Target)] = &[
    ("--model", V | S, Target::Str(Model)),
    ("--model-path", S, Target::Str(Model)),
    ("--revision", V | S | T, Target::Str(Revision)),
    ("--quantization", V | S, Target::Str(Quantization)),
    ("-q", V, Target::Str(Quantization)),
    ("--dtype", V | S, Target::Str(Dtype)),
    ("--kv-cache-dtype", V | S, Target::Str(KvCacheDtype)),
    ("--max-num-seqs", V, Target::Num(MaxNumSeqs, Plain)),
    ("--max-running-requests", S, Target::Num(MaxNumSeqs, Plain)),
    ("--max_batch_size", T, Target::Num(MaxNumSeqs, Plain)),
    ("--max-model-len", V, Target::Num(MaxModelLen, HumanOrAuto)),
    ("--context-length", S, Target::Num(MaxModelLen, Plain)),
    ("--max_seq_len", T, Target::Num(MaxModelLen, Plain)),
    (
        "--max-num-batched-tokens",
        V,
        Target::Num(MaxNumBatchedTokens, Human),
    ),
    (
        "--chunked-prefill-size",
        S,
        Target::Num(MaxNumBatchedTokens, PlainOrOff),
    ),
    (
        "--max_num_tokens",
        T,
        Target::Num(MaxNumBatchedTokens, Plain),
    ),
    ("--tensor-parallel-size", V | S, Target::Num(Tp, Plain)),
    ("-tp", V, Target::Num(Tp, Plain)),
    ("--tp-size", S, Target::Num(Tp, Plain)),
    // SGLang reaches `--tp` and `--dp` through argparse prefix matching; TRT declares `--tp`.
    ("--tp", S | T, Target::Num(Tp, Plain)),
    ("--tp_size", T, Target::Num(Tp, Plain)),
    ("--tensor_parallel_size", T, Target::Num(Tp, Plain)),
    ("--pipeline-parallel-size", V | S, Target::Num(Pp, Plain)),
    ("-pp", V, Target::Num(Pp, Plain)),
    ("--pp-size", S, Target::Num(Pp, Plain)),
    // Not SGLang: `--pp` is an ambiguous prefix there (`--pp-size`, `--pp-max-micro-...`).
    ("--pp", T, Target::Num(Pp, Plain)),
    ("--pp_size", T, Target::Num(Pp, Plain)),
    ("--pipeline_parallel_size", T, Target::Num(Pp, Plain)),
    ("--data-parallel-size", V | S, Target::Num(Dp, Plain)),
    ("-dp", V, Target::Num(Dp, Plain)),
    ("--dp-size", S, Target::Num(Dp, Plain)),
    ("--dp", S, Target::Num(Dp, Plain)),
    ("--ep-size", S, Target::Num(Ep, Plain)),
    ("--expert-parallel-size", S, Target::Num(Ep, Plain)),
    ("--ep", S | T, Target::Num(Ep, Plain)),
    ("--ep_size", T, Target::Num(Ep, Plain)),
    ("--moe_expert_parallel_size", T, Target::Num(Ep, Plain)),
    ("--enable-expert-parallel", V, Target::ExpertParallelSwitch),
    ("-ep", V, Target::ExpertParallelSwitch),
    ("--enable-ep-moe", S, Target::ExpertParallelFromTp),
    ("--enable-deepep-moe", S, Target::ExpertParallelFromTp),
    ("--enforce-eager", V, Target::Eager(true)),
    ("--disable-cuda-graph", S, Target::Eager(true)),
    (
        "--cuda-graph-backend-decode",
        S,
        Target::EagerFromGraphBackend,
    ),
    ("--enable-prefix-caching", V, Target::PrefixCaching(true)),
    ("--disable-radix-cache", S, Target::PrefixCaching(false)),
    ("--disable_kv_cache_reuse", T, Target::PrefixCaching(false)),
    ("--speculative-config", V, Target::SpecConfig),
    ("--speculative-model", V, Target::SpecLegacyModel),
    ("--num-speculative-tokens", V, Target::SpecLegacyTokens),
    ("--speculative-algorithm", S, Target::SpecAlgorithm),
    ("--speculative-draft-model-path", S, Target::SpecDraftModel),
    ("--speculative-draft-model", S, Target::SpecDraftModel),
    ("--speculative-num-draft-tokens", S, Target::SpecDraftTokens),
    ("--speculative-num-steps", S, Target::SpecSteps),
    ("--speculative-eagle-topk", S, Target::SpecTopk),
];

/// Finds what a flag name (the part before any `=`) does for `engine` (`None`: any engine,
/// any spelling). The flag is `true` when it was vLLM's `--no-` form of a switch.
pub(super) fn lookup(name: &str, engine: Option<EngineKind>) -> Option<(Target, bool)> {
    if let Some(target) = find(name, engine) {
        return Some((target, false));
    }
    // vLLM generates `--no-X` for its boolean options (argparse.BooleanOptionalAction).
    if !matches!(engine, None | Some(EngineKind::Vllm)) {
        return None;
    }
    let rest = name
        .strip_prefix("--no-")
        .or_else(|| name.strip_prefix("--no_"))?;
    MAPPED
        .iter()
        .copied()
        .chain(SWITCHES.iter().map(|&(n, m)| (n, m, Target::Switch)))
        .find(|&(n, mask, target)| {
            mask & V != 0
                && !target.takes_value()
                && n.strip_prefix("--")
                    .is_some_and(|body| folded_eq(body, rest))
        })
        .map(|(_, _, target)| (target, true))
}

fn find(name: &str, engine: Option<EngineKind>) -> Option<Target> {
    let (bit, fold) = match engine {
        Some(EngineKind::Vllm) => (V, true),
        Some(EngineKind::Sglang) => (S, false),
        Some(EngineKind::TensorRtLlm) => (T, false),
        None => (V | S | T, true),
    };
    let matches =
        |n: &str, mask: u8| mask & bit != 0 && if fold { folded_eq(n, name) } else { n == name };
    MAPPED
        .iter()
        .find(|&&(n, mask, _)| matches(n, mask))
        .map(|&(_, _, target)| target)
        .or_else(|| {
            VALUES
                .iter()
                .any(|&(n, mask)| matches(n, mask))
                .then_some(Target::Value)
        })
        .or_else(|| {
            SWITCHES
                .iter()
                .any(|&(n, mask)| matches(n, mask))
                .then_some(Target::Switch)
        })
}

/// Equality with `_` and `-` treated as the same character (vLLM's name folding).
pub(super) fn folded_eq(a: &str, b: &str) -> bool {
    let fold = |c: u8| if c == b'_' { b'-' } else { c };
    a.len() == b.len() && a.bytes().zip(b.bytes()).all(|(x, y)| fold(x) == fold(y))
}
