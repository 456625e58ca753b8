//! `tie-within-variance` (C011): a claimed win inside the run-to-run variance.

use super::{CorpusCtx, Emitter, declare_rule};

declare_rule! {
    /// ## What it checks
    /// For every ratio claim that asserts a difference, and for the matched-basis restatement of a
    /// claim: whether the A/B verdict over the launch means (`research/stats.md` §8.2) is a tie within
    /// the static noise floor (2% for throughput, 5% for tail latency; R2 or R3), or is underpowered
    /// (R5: the effect exceeds the floor but its 95% interval reaches inside it; the message says how
    /// many launches per side would settle it). A tie that only the controls' spread explains is
    /// C009's.
    ///
    /// ## Why is this bad?
    /// Seed 004: "That is a tie inside the run-to-run variance discussed in the next section, not a
    /// 2.2 times win." A difference inside the variance is no finding, and calling it a slight win
    /// misstates it: with two launches per side the interval of the effect is about 4.3 standard
    /// errors wide on each side (t with 2 degrees of freedom). `research/stats.md` §8.2: neither a tie
    /// nor an underpowered comparison may ever be reported as a win.
    ///
    /// ## Example
    /// ```json
    /// { "id": "tp8-beats-tp4", "kind": "ratio", "metric": "aggregate_tok_s", "value": 1.01,
    ///   "subject":  { "results": ["x8-r1", "x8-r2", "x8-r3"], "concurrency": 32 },
    ///   "baseline": { "results": ["x4-r1", "x4-r2", "x4-r3"], "concurrency": 32 } }
    /// ```
    /// (The published 1.01 is inside the 2% floor; a claimed 1.08 whose interval crosses it is the
    /// underpowered case.)
    ///
    /// ## What to do instead
    /// Call it a tie, or run more launches per side until the interval of the effect clears the noise
    /// floor, and publish the interval with the effect.
    pub static RULE = {
        code: "C011",
        name: "tie-within-variance",
        severity: Error,
        scope: Claim,
        source: "seeds/004 (\"a tie inside the run-to-run variance, not a 2.2 times win\")",
        summary: "a claimed win inside the run-to-run variance",
    }
}

pub fn check(ctx: &CorpusCtx<'_>, out: &mut Emitter<'_>) {
    crate::claims::emit_findings(ctx, out, &RULE);
}
