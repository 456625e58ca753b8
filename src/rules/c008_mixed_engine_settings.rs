//! `mixed-engine-settings` (C008): KV cache dtype, prefix caching or engine version differ.

use super::{CorpusCtx, Emitter, declare_rule};

declare_rule! {
    /// ## What it checks
    /// For every ratio claim: whether the two sides recorded different KV cache dtypes
    /// (`engine.kv_cache_dtype`), different prefix-caching settings (`engine.enable_prefix_caching`)
    /// or different engines (`engine.name` and `engine.version`). Only settings recorded on both sides
    /// are compared (M007 and M002 report absent ones). A warning: it never changes the audit's
    /// verdict, and is listed beside it.
    ///
    /// ## Why is this bad?
    /// Seed 004's correction is procedural: "Record the speculative configuration, the graph mode, the
    /// key-value cache dtype, the sequence cap, the batched-token cap and the prefix-cache setting in
    /// the result file itself." An FP8 KV cache halves the cache's bytes per token against FP16, prefix
    /// caching turns repeated prompts into cache hits, and an engine upgrade changes schedulers and
    /// kernels (the Marlin route for NVFP4 on sm_121 is a property of the build). Part of a difference
    /// between two sides that differ in these belongs to the settings, not the hardware.
    ///
    /// ## Example
    /// ```json
    /// { "id": "gb10-vs-h200", "kind": "ratio", "metric": "decode_tok_s", "value": 0.3,
    ///   "subject":  { "results": ["gb10-x8-r1"], "concurrency": 32 },
    ///   "baseline": { "results": ["h200-x4-r1"], "concurrency": 32 } }
    /// ```
    /// The subject records `"kv_cache_dtype": "fp8"` and vLLM 0.11.2, the baseline `"auto"` and vLLM
    /// 0.10.1.
    ///
    /// ## What to do instead
    /// Match the KV cache dtype, the prefix-caching setting and the engine version across the sides,
    /// or state each difference beside the published figure.
    pub static RULE = {
        code: "C008",
        name: "mixed-engine-settings",
        severity: Warning,
        scope: Claim,
        source: "seeds/004 (record the KV cache dtype, the prefix-cache setting and the engine)",
        summary: "KV cache dtype, prefix caching or engine version differ",
    }
}

pub fn check(ctx: &CorpusCtx<'_>, out: &mut Emitter<'_>) {
    crate::claims::emit_findings(ctx, out, &RULE);
}
