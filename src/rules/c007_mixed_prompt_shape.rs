//! `mixed-prompt-shape` (C007): different prompt length shapes.

use super::{CorpusCtx, Emitter, declare_rule};

declare_rule! {
    /// ## What it checks
    /// For every ratio claim: whether the two sides sent the same request shape. The prompt length
    /// (`workload.prompt_tokens`, the mean else the midpoint of min and max) differs when the longer
    /// exceeds the shorter by more than `prompt_shape_tolerance` (25%), or when one side is
    /// prefill-heavy (at least `prefill_heavy_min_prompt_tokens`, 2,000 tokens) and the other is not;
    /// the output cap (`workload.max_output_tokens`) differs by the same tolerance. Shapes not recorded
    /// are left to L002 and M013.
    ///
    /// ## Why is this bad?
    /// Seed 004: decode is memory-bandwidth bound and prefill is compute bound, so "a decode-only
    /// suite ... rewards whichever platform has the most memory bandwidth per byte of active model".
    /// On the RTX PRO 6000 workstation long padded prompts took aggregate throughput to about 330
    /// tok/s with first-token latencies of 11 to 106 seconds, many times below the 40-token run.
    /// The staged comparison of a 0.223 s against a 1.506 s first-token latency at 32 streams was
    /// "valid only for a 41-token prompt".
    ///
    /// ## Example
    /// ```json
    /// { "id": "ttft-gap", "kind": "ratio", "metric": "ttft_p50_s", "value": 6.75,
    ///   "subject":  { "results": ["rtx-prefill-3k-r1"], "concurrency": 32 },
    ///   "baseline": { "results": ["gb300-decode-41-r1"], "concurrency": 32 } }
    /// ```
    /// The subject's prompts average 3,000 tokens, the baseline's 41.
    ///
    /// ## What to do instead
    /// Compare one shape at a time, and report the decode-heavy and the prefill-heavy shape (2,000 to
    /// 4,000 unique prompt tokens, short output) side by side, each with its prompt length in the same
    /// sentence.
    pub static RULE = {
        code: "C007",
        name: "mixed-prompt-shape",
        severity: Error,
        scope: Claim,
        source: "seeds/004 (TTFT 0.223 against 1.506 s, valid only for a 41-token prompt)",
        summary: "different prompt length shapes",
    }
}

pub fn check(ctx: &CorpusCtx<'_>, out: &mut Emitter<'_>) {
    crate::claims::emit_findings(ctx, out, &RULE);
}
