//! `single-launch-difference` (C010): a difference claimed from one launch per side.

use super::{CorpusCtx, Emitter, declare_rule};

declare_rule! {
    /// ## What it checks
    /// For every ratio claim that asserts a difference, and for the matched-basis restatement of a
    /// claim: whether a side rests on a single engine launch (`launch.id`; runs that record none count
    /// as one launch) while the effect exceeds the noise floor (`research/stats.md` §8.2, R4). A
    /// single-launch comparison may be trusted only when it finds no difference.
    ///
    /// ## Why is this bad?
    /// Seed 000: "The restart is the unit of replication. Two server instances of an identical config
    /// produced non-overlapping n=15 confidence intervals. For A/B decisions we run more than one
    /// restart per arm; a single-instance A/B is only trusted when it finds no difference." Seed 004:
    /// "the largest swing we have seen sits between launches, not within a session": the GB300 read
    /// 740.4 and 1,080.1 tok/s at 8 streams on one afternoon. The 2.2 times "four pairs beat the
    /// cluster" figure rested on one launch of the pair.
    ///
    /// ## Example
    /// ```json
    /// { "id": "four-pairs-beat-the-cluster", "kind": "ratio", "metric": "aggregate_tok_s", "value": 2.2,
    ///   "subject":  { "results": ["gb10-x2-r1"], "concurrency": 32, "replicas": 4 },
    ///   "baseline": { "results": ["gb10-x8-r1"], "concurrency": 32 } }
    /// ```
    /// Each side has one result from one launch.
    ///
    /// ## What to do instead
    /// Measure each side over at least two engine launches (three is better: with two per side the
    /// Welch interval has about 2 degrees of freedom), and publish the launch-level interval of the
    /// effect.
    pub static RULE = {
        code: "C010",
        name: "single-launch-difference",
        severity: Error,
        scope: Claim,
        source: "seeds/000 (the restart is the unit of replication)",
        summary: "a difference claimed from one launch per side",
    }
}

pub fn check(ctx: &CorpusCtx<'_>, out: &mut Emitter<'_>) {
    crate::claims::emit_findings(ctx, out, &RULE);
}
