//! `below-control-noise` (C009): difference smaller than a same-vs-same control shows.

use super::{CorpusCtx, Emitter, declare_rule};

declare_rule! {
    /// ## What it checks
    /// For every ratio claim that asserts a difference (further from 1 than the static noise floor),
    /// and for the matched-basis restatement of a claim: the A/B verdict over the launch means of the
    /// two sides (`research/stats.md` §8.2) judged against the noise floor δ = max(static floor,
    /// what same-vs-same controls show). A control is any configuration measured on two or more
    /// launches on the platform (device model) and model of a side, other than the sides' own
    /// configurations: the relative differences of its consecutive launch means at that side's level
    /// give δ_AA (the largest with one or two pairs, 2.77 × the RMS over √2 with three or more). The
    /// rule fires when the effect is a tie only because of the control: larger than the static floor
    /// but inside the control's spread.
    ///
    /// ## Why is this bad?
    /// Seed 000: "When a test script silently ran both arms of an A/B with the same setting, the two
    /// arms still differed by about 19%. A difference smaller than what a config shows against itself
    /// is not a finding." In seed 004, four GB10 pairs at 8 streams each give 4 × 140.8 = 563 tok/s
    /// against the eight-way cluster's 537.6 at the same 32 users and the same 20 tok/s per user:
    /// 1.05, "a tie inside the run-to-run variance ..., not a 2.2 times win"; a four-way group of the
    /// same model measured on two launches differs from itself by more.
    ///
    /// ## Example
    /// ```json
    /// { "id": "four-pairs-beat-the-cluster", "kind": "ratio", "metric": "aggregate_tok_s", "value": 1.05,
    ///   "subject":  { "results": ["gb10-x2-r1"], "concurrency": 8, "replicas": 4 },
    ///   "baseline": { "results": ["gb10-x8-r1", "gb10-x8-r2", "gb10-x8-r3"], "concurrency": 32 } }
    /// ```
    ///
    /// ## What to do instead
    /// Call it a tie. To claim a difference of this size, measure a same-vs-same control alongside
    /// (two or more launches of one configuration) and show an effect beyond its spread, with at
    /// least two launches per side.
    pub static RULE = {
        code: "C009",
        name: "below-control-noise",
        severity: Error,
        scope: Claim,
        source: "seeds/000 (same-vs-same controls: the two arms still differed by about 19%)",
        summary: "difference smaller than a same-vs-same control shows",
    }
}

pub fn check(ctx: &CorpusCtx<'_>, out: &mut Emitter<'_>) {
    crate::claims::emit_findings(ctx, out, &RULE);
}
