//! `missing-engine-limits` (M007): KV cache dtype, sequence cap, model length, batched
//! tokens and prefix caching.

use super::{Emitter, ResultCtx, declare_rule};

declare_rule! {
    /// ## What it checks
    /// That the engine's limits are recorded: `engine.kv_cache_dtype`, `engine.max_num_seqs`,
    /// `engine.max_model_len`, `engine.max_num_batched_tokens` and
    /// `engine.enable_prefix_caching`. Each absent one is its own finding. A flag the serve
    /// command omits means "engine default", which is not a recorded value.
    ///
    /// ## Why is this bad?
    /// Seed 004: "Our GB10 engines were capped at 32 sequences, the GB300 at 64, and the
    /// production H200 service at 96 or more. A 'peak aggregate' column that mixes those caps
    /// is comparing engine configuration, not hardware." The GB300 gained 30% going from 32 to
    /// 48 streams once the cap allowed it.
    ///
    /// ## Example
    /// ```json
    /// { "engine": { "max_num_seqs": 32 } }
    /// ```
    ///
    /// ## What to do instead
    /// ```json
    /// { "engine": { "kv_cache_dtype": "fp8", "max_num_seqs": 32, "max_model_len": 8192,
    ///   "max_num_batched_tokens": 8192, "enable_prefix_caching": false } }
    /// ```
    ///
    /// A file a harness wrote (vLLM `bench serve`, SGLang, GuideLLM, AIPerf, ...) stays as the
    /// harness wrote it: put these keys in its sidecar instead, `run.meta.json` beside
    /// `run.json` (or `run.json.meta.json`). `benchlint sidecar run.json` writes one listing
    /// exactly the keys the file lacks, each `null` to replace, with what benchlint can work
    /// out already filled in; `check` then reads the values from it.
    ///
    /// `benchlint capture --pid PID` (or `--container-inspect FILE`) writes a sidecar with the
    /// serve command and environment read from the running engine: the settings the command
    /// names then count as recorded.
    pub static RULE = {
        code: "M007",
        name: "missing-engine-limits",
        severity: Error,
        scope: Result,
        source: "seeds/004 (publication checklist)",
        summary: "engine limits not recorded",
    }
}

const ITEMS: [(&str, &str, &str); 5] = [
    (
        "/engine/kv_cache_dtype",
        "the KV cache dtype",
        "--kv-cache-dtype",
    ),
    (
        "/engine/max_num_seqs",
        "the engine sequence cap",
        "--max-num-seqs / --max-running-requests",
    ),
    (
        "/engine/max_model_len",
        "the maximum model length",
        "--max-model-len / --context-length",
    ),
    (
        "/engine/max_num_batched_tokens",
        "the batched-token cap",
        "--max-num-batched-tokens",
    ),
    (
        "/engine/enable_prefix_caching",
        "whether prefix caching was on",
        "--enable-prefix-caching",
    ),
];

pub fn check(ctx: &ResultCtx<'_>, out: &mut Emitter<'_>) {
    for (pointer, what, flag) in ITEMS {
        if !ctx.has(pointer) {
            let field = pointer.rsplit('/').next().unwrap_or_default();
            out.missing(
                pointer,
                what,
                format!("add `engine.{field}` with the value in force ({flag}); an omitted flag is the engine's default, which the file must still state"),
            );
        }
    }
}
