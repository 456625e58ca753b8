//! `mixed-sequence-cap` (C004): peaks compared across different max_num_seqs.

use super::{CorpusCtx, Emitter, declare_rule};

declare_rule! {
    /// ## What it checks
    /// For every ratio claim where at least one side is taken at its peak (no `concurrency` named, or
    /// the named level is that side's level with the highest mean aggregate): whether the two sides
    /// ran under the same engine sequence cap (`engine.max_num_seqs`). A cap recorded on one side only
    /// is reported with its own message. The audit restates such a claim on a matched per-user
    /// floor, where each side finds its own stream count.
    ///
    /// ## Why is this bad?
    /// Seed 004: "Our GB10 engines were capped at 32 sequences, the GB300 at 64, and the production
    /// H200 service at 96 or more. A 'peak aggregate' column that mixes those caps is comparing engine
    /// configuration, not hardware." The 8.6 times ratio set "an engine sequence cap of at least 96
    /// against a cap of 32". The GB300 gained 30% going from 32 to 48 streams: any peak quoted at 32
    /// understated it, by an amount nobody knew until the ladder was extended.
    ///
    /// ## Example
    /// ```json
    /// { "id": "h200-vs-gb10", "kind": "ratio", "metric": "aggregate_tok_s", "value": 8.6,
    ///   "subject":  { "results": ["h200-x4-fp8-spec5-r1"] },
    ///   "baseline": { "results": ["gb10-x8-nvfp4-r1"] } }
    /// ```
    /// `max_num_seqs` is 96 on the subject and 32 on the baseline; both are taken at their peaks.
    ///
    /// ## What to do instead
    /// Ladder every configuration to saturation under the same cap, or compare at a matched service
    /// level: each side at its highest concurrency whose per-user rate clears the floor
    /// (`benchlint capacity --floor 20`).
    pub static RULE = {
        code: "C004",
        name: "mixed-sequence-cap",
        severity: Error,
        scope: Claim,
        source: "seeds/004 (sequence caps of 32, 64 and 96 or more in one peak column)",
        summary: "peaks compared across different max_num_seqs",
    }
}

pub fn check(ctx: &CorpusCtx<'_>, out: &mut Emitter<'_>) {
    crate::claims::emit_findings(ctx, out, &RULE);
}
