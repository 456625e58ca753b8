//! `claim-not-reproducible` (C013): the published value or CI does not follow from the runs.

use super::{CorpusCtx, Emitter, declare_rule};

declare_rule! {
    /// ## What it checks
    /// For every claim, the published value recomputed from the runs it names: a figure is the mean
    /// of the launch means of its side at the named level (else the peak), replicas multiplying the
    /// engine throughputs; a ratio is subject over baseline. The value must agree within
    /// `claim_tolerance` (2%) or the rounding of its published digits. A published `ci95` must be at
    /// least the launch-level 95% half-width the runs give (`research/stats.md` §8.1; a single run
    /// gives none), and a published `n` must not exceed the runs named.
    ///
    /// ## Why is this bad?
    /// Seed 004: "It is written for a technical reader who wants to check the arithmetic rather than
    /// trust the conclusion. Every number below carries its source file and its caveat." A published
    /// figure that its own runs do not give cannot be defended, and an interval narrower than the
    /// launch-level one (runs pooled across launches, or one launch's spread) claims a precision the
    /// runs do not have: with two launches the honest interval is 12.7 standard errors wide.
    ///
    /// ## Example
    /// ```json
    /// { "id": "x8-peak", "kind": "figure", "metric": "aggregate_tok_s", "value": 580.0, "ci95": 0.1,
    ///   "subject": { "results": ["gb10-x8-r1", "gb10-x8-r2"], "concurrency": 32 } }
    /// ```
    /// The runs give 537.6 with a launch-level half-width far wider than 0.1.
    ///
    /// ## What to do instead
    /// Publish the value the runs give (the mean of the launch means, with the launch-level interval),
    /// or point the claim at the runs it was computed from.
    pub static RULE = {
        code: "C013",
        name: "claim-not-reproducible",
        severity: Error,
        scope: Claim,
        source: "seeds/004 (make the numbers checkable: \"check the arithmetic rather than trust the conclusion\")",
        summary: "the published value or CI does not follow from the runs",
    }
}

pub fn check(ctx: &CorpusCtx<'_>, out: &mut Emitter<'_>) {
    crate::claims::emit_findings(ctx, out, &RULE);
}
