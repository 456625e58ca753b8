//! `mismatched-service-level` (C012): the sides are compared at different per-user rates.

use super::{CorpusCtx, Emitter, declare_rule};

declare_rule! {
    /// ## What it checks
    /// For every ratio claim of an engine throughput (decode, aggregate, prefill) or a cost: whether
    /// the per-user rates of the two sides at the levels they are taken at (`per_user_tok_s`, the
    /// median else the mean, the mean of the launch means) differ by more than
    /// `service_level_tolerance` (15%, the larger over the smaller). The audit restates such a claim
    /// on a matched per-user floor (`--floor`, 20 tok/s by default; `service_floor_tok_s` in
    /// `benchlint check`): each side at its highest concurrency whose per-user rate clears the floor
    /// at every level up to it, replicas multiplying the aggregate.
    ///
    /// ## Why is this bad?
    /// Seed 004: "The 2.2 figure came from running each pair at 32 streams, which is 128 users in
    /// total, each receiving 10.5 tokens per second. Users at 10.5 tokens per second are not being
    /// served the same product as users at 20.1 tokens per second." At a matched 20 tok/s floor four
    /// pairs give 4 × 140.8 = 563 tok/s against the cluster's 537.6: 1.05. Raise the floor to about 30
    /// and the ordering shifts again: four pairs 4 × 98.9 = 396, the cluster 341.2, two four-unit
    /// groups 2 × 220.3 = 441. "Nobody buys throughput. They buy a number of users at a speed those
    /// users will accept."
    ///
    /// ## Example
    /// ```json
    /// { "id": "four-pairs-beat-the-cluster", "kind": "ratio", "metric": "aggregate_tok_s", "value": 2.2,
    ///   "basis": "deployment",
    ///   "subject":  { "results": ["gb10-x2-r1"], "concurrency": 32, "replicas": 4 },
    ///   "baseline": { "results": ["gb10-x8-r1"], "concurrency": 32 } }
    /// ```
    ///
    /// ## What to do instead
    /// Define the service level first and compare the work each side does while meeting it
    /// (`benchlint capacity --floor 20`); publish the per-user rate beside every aggregate, and a
    /// curve over floors rather than one number.
    pub static RULE = {
        code: "C012",
        name: "mismatched-service-level",
        severity: Error,
        scope: Claim,
        source: "seeds/004 (users at 10.5 tok/s against users at 20.1 tok/s)",
        summary: "the sides are compared at different per-user rates",
    }
}

pub fn check(ctx: &CorpusCtx<'_>, out: &mut Emitter<'_>) {
    crate::claims::emit_findings(ctx, out, &RULE);
}
