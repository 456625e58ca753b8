//! `constant-total-concurrency` (C005): same total streams over different device counts.

use super::{CorpusCtx, Emitter, declare_rule};

declare_rule! {
    /// ## What it checks
    /// For every ratio claim of an engine throughput (decode, aggregate, prefill) or a cost: whether
    /// the two sides put the same total number of streams in flight (`concurrency` × `replicas`) over
    /// different device counts (`platform.nodes` × `platform.devices_per_node` × `replicas`). Streams
    /// per device then differ, and so does the depth of the batching curve each side is sampled at.
    /// The audit restates such a claim on a matched per-user floor.
    ///
    /// ## Why is this bad?
    /// Seed 004: "Thirty-two streams across two units is 16 streams per unit. Thirty-two streams
    /// across eight units is 4 streams per unit. A pair is being pushed four times harder per box than
    /// the cluster." Divided by unit count, the pair, four-way and eight-way groups gave 150, 107 and
    /// 67 tok/s per unit, "a smooth, convincing, entirely manufactured curve of diminishing returns".
    /// At a matched per-user speed a GB10 contributes about 70 tok/s of prose decode whether it sits
    /// in a pair or in an eight-way group.
    ///
    /// ## Example
    /// ```json
    /// { "id": "per-unit-decline", "kind": "ratio", "metric": "aggregate_tok_s", "value": 1.79,
    ///   "statement": "Eight units give only 1.8 times a pair's throughput at 32 streams",
    ///   "subject":  { "results": ["gb10-x8-r1"], "concurrency": 32 },
    ///   "baseline": { "results": ["gb10-x2-r1"], "concurrency": 32 } }
    /// ```
    ///
    /// ## What to do instead
    /// "When the number of devices is a variable, total concurrency cannot be the constant." Hold
    /// streams per device constant, or better the delivered per-user rate, and let each configuration
    /// find its own stream count.
    pub static RULE = {
        code: "C005",
        name: "constant-total-concurrency",
        severity: Error,
        scope: Claim,
        source: "seeds/004 (32 streams over 2, 4 and 8 units: 150 → 107 → 67 tok/s per unit)",
        summary: "same total streams over different device counts",
    }
}

pub fn check(ctx: &CorpusCtx<'_>, out: &mut Emitter<'_>) {
    crate::claims::emit_findings(ctx, out, &RULE);
}
