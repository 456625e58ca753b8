//! `mixed-speculation` (C002): speculation on one side only, or different budgets.

use super::{CorpusCtx, Emitter, declare_rule};

declare_rule! {
    /// ## What it checks
    /// For every ratio claim, whether speculative decoding is configured the same on both sides
    /// (`engine.speculative`): on against off, or on with a different method or budget
    /// (`num_speculative_tokens`), is a mismatch. A side that does not record whether speculation was
    /// on is reported with its own message: with an unknown budget on a side, the ratio cannot be
    /// known. Both sides silent is reported unless both ran the same engine image (the same default
    /// on both sides). A `basis: deployment` claim may differ when both sides record their setting.
    ///
    /// ## Why is this bad?
    /// Seed 004: the 8.6 times ratio compared "five-token speculative decoding against none".
    /// Speculation is close to free throughput when acceptance is good, largest at one stream and
    /// shrinking as the batch grows, so the budget moves the ratio as much as the hardware does. In
    /// the GB10 against GB300 comparison neither side recorded its speculative configuration: "the
    /// two unrecorded settings push in opposite directions ... We do not know the net, which means
    /// we do not know the ratio."
    ///
    /// ## Example
    /// ```json
    /// { "id": "h200-vs-gb10", "kind": "ratio", "metric": "aggregate_tok_s", "value": 8.6,
    ///   "subject":  { "results": ["h200-x4-fp8-spec5-r1"] },
    ///   "baseline": { "results": ["gb10-x8-nvfp4-r1"], "concurrency": 32 } }
    /// ```
    /// The subject records `"speculative": { "enabled": true, "num_speculative_tokens": 5 }`; the
    /// baseline records nothing.
    ///
    /// ## What to do instead
    /// Run the comparison four ways: speculation off on both sides, on on both sides, and each side
    /// at its preferred setting. Publish off against off as the hardware comparison and best against
    /// best as the deployment comparison, and record `engine.speculative` on every result.
    pub static RULE = {
        code: "C002",
        name: "mixed-speculation",
        severity: Error,
        scope: Claim,
        source: "seeds/004 (five-token speculation against none in the 8.6 times ratio)",
        summary: "speculation on one side only, or different budgets",
    }
}

pub fn check(ctx: &CorpusCtx<'_>, out: &mut Emitter<'_>) {
    crate::claims::emit_findings(ctx, out, &RULE);
}
