//! Free-form metadata: the keys that name a canonical field unambiguously ([`known_keys`]) and
//! the labels kept for the configuration fingerprint ([`labels`]).

use serde_json::Value;

use super::builder::Builder;
use super::read::{count, flag, number, text};
use super::{at, ptr};
use crate::json::escape_pointer_token;

/// How a free-form metadata value is read.
#[derive(Clone, Copy)]
enum Kind {
    /// A whole number, at least 1.
    Count,
    /// A whole number, at least 0.
    Whole,
    /// A non-negative number.
    Real,
    /// A boolean (`"true"`, `"False"`, ...).
    Bool,
    /// A name.
    Name,
}

/// Free-form keys that name a canonical field unambiguously: vLLM `--metadata KEY=VALUE`
/// pairs and the serve/bench override keys of `vllm bench sweep serve` (formats.md §1.2,
/// §1.5, §0.5), llmperf's user metadata (§5). Values there are strings, hence [`Kind`].
/// Ambiguous keys (`framework`, `model`, `model_size`) are not read: `framework` is the
/// provider in the llmperf leaderboard and an engine nickname (`sgl`) elsewhere.
const KNOWN_KEYS: &[(&str, &str, Kind)] = &[
    ("max_num_seqs", "/engine/max_num_seqs", Kind::Count),
    ("max_model_len", "/engine/max_model_len", Kind::Count),
    (
        "max_num_batched_tokens",
        "/engine/max_num_batched_tokens",
        Kind::Count,
    ),
    (
        "tensor_parallel_size",
        "/engine/tensor_parallel_size",
        Kind::Count,
    ),
    ("tp", "/engine/tensor_parallel_size", Kind::Count),
    ("tp_size", "/engine/tensor_parallel_size", Kind::Count),
    (
        "pipeline_parallel_size",
        "/engine/pipeline_parallel_size",
        Kind::Count,
    ),
    ("pp", "/engine/pipeline_parallel_size", Kind::Count),
    ("pp_size", "/engine/pipeline_parallel_size", Kind::Count),
    (
        "data_parallel_size",
        "/engine/data_parallel_size",
        Kind::Count,
    ),
    ("dp", "/engine/data_parallel_size", Kind::Count),
    ("dp_size", "/engine/data_parallel_size", Kind::Count),
    ("kv_cache_dtype", "/engine/kv_cache_dtype", Kind::Name),
    ("enforce_eager", "/engine/enforce_eager", Kind::Bool),
    (
        "enable_prefix_caching",
        "/engine/enable_prefix_caching",
        Kind::Bool,
    ),
    ("engine", "/engine/name", Kind::Name),
    ("engine_version", "/engine/version", Kind::Name),
    ("quantization", "/model/precision", Kind::Name),
    ("precision", "/model/precision", Kind::Name),
    ("temperature", "/workload/temperature", Kind::Real),
    ("seed", "/workload/seed", Kind::Whole),
    ("ignore_eos", "/workload/ignore_eos", Kind::Bool),
    ("dataset_name", "/workload/dataset", Kind::Name),
    ("dataset", "/workload/dataset", Kind::Name),
    (
        "random_output_len",
        "/workload/max_output_tokens",
        Kind::Count,
    ),
    ("output_len", "/workload/max_output_tokens", Kind::Count),
    ("gpu", "/platform/description", Kind::Name),
    ("hardware", "/platform/description", Kind::Name),
];

/// Reads the [`KNOWN_KEYS`] among the keys of the object at `base` into `b` (a field already
/// filled keeps its value; `"None"` and `"null"` strings are not values).
pub(crate) fn known_keys(b: &mut Builder<'_>, base: &str) {
    let Some(obj) = at(b.doc(), base).and_then(Value::as_object) else {
        return;
    };
    for (key, v) in obj {
        let norm = key.trim().to_ascii_lowercase().replace('-', "_");
        let Some((_, canonical, kind)) = KNOWN_KEYS.iter().find(|(k, _, _)| *k == norm) else {
            continue;
        };
        if b.has(canonical)
            || v.as_str()
                .is_some_and(|s| matches!(s.trim().to_ascii_lowercase().as_str(), "none" | "null"))
        {
            continue;
        }
        let src = ptr(base, &[key]);
        let value = match kind {
            Kind::Count => count(v).filter(|n| *n >= 1).map(Value::from),
            Kind::Whole => count(v).map(Value::from),
            Kind::Real => number(v).filter(|f| *f >= 0.0).map(Value::from),
            Kind::Bool => flag(v).map(Value::from),
            Kind::Name => text(v).map(Value::from),
        };
        if let Some(value) = value {
            b.put(canonical, value, &src);
        }
    }
}

/// Copies every free-form label among the keys of the object at `base` into `labels`: a
/// non-empty string under a key that `own` does not claim for the harness (vLLM merges each
/// `--metadata KEY=VALUE` pair into its result as a string, §0.5). Labels are part of the
/// configuration fingerprint, so two deployments the user labelled apart stay apart; a pair
/// that also names a canonical field ([`known_keys`]) is kept as a label too, as written.
pub(crate) fn labels(b: &mut Builder<'_>, base: &str, own: impl Fn(&str) -> bool) {
    let Some(obj) = at(b.doc(), base).and_then(Value::as_object) else {
        return;
    };
    for (key, v) in obj {
        if own(key) || key.trim().is_empty() {
            continue;
        }
        if let Value::String(text) = v
            && !text.trim().is_empty()
        {
            let canonical = format!("/labels/{}", escape_pointer_token(key));
            b.put(&canonical, text.trim(), &ptr(base, &[key]));
        }
    }
}
