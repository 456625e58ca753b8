//! `missing-quality-gate` (C014): a throughput claim without a paired quality gate.

use super::{CorpusCtx, Emitter, declare_rule};

declare_rule! {
    /// ## What it checks
    /// For every claim of a speed (the `_tok_s` metrics and the cost derived from throughput): whether
    /// every result on its sides pairs a quality gate (`artifacts.quality_gate`). A gate that failed is
    /// R021's finding. A warning: listed beside the audit's verdict, never the verdict itself.
    ///
    /// ## Why is this bad?
    /// Seed 004: "If a speed number cannot be published without a paired accuracy number from the
    /// same endpoint, then no configuration can win by being quietly broken." "A configuration that is
    /// fast because it is lossy is not fast, it is broken." The audited corpus held a four-prompt
    /// correctness check and nothing else, so no precision comparison (FP8 against NVFP4) said what
    /// the faster format cost in quality.
    ///
    /// ## Example
    /// ```json
    /// { "id": "h200-vs-gb10", "kind": "ratio", "metric": "aggregate_tok_s", "value": 8.6,
    ///   "subject":  { "results": ["h200-x4-fp8-spec5-r1"] },
    ///   "baseline": { "results": ["gb10-x8-nvfp4-r1"], "concurrency": 32 } }
    /// ```
    /// The subject result has no `artifacts.quality_gate`.
    ///
    /// ## What to do instead
    /// Attach a quality gate to every throughput run from the same endpoint (a mechanical gate that
    /// blocks the run on failure, a fixed-subset evaluation per model, precision, platform and image),
    /// and name its file in `artifacts.quality_gate`.
    pub static RULE = {
        code: "C014",
        name: "missing-quality-gate",
        severity: Warning,
        scope: Claim,
        source: "seeds/004 (a quality gate attached to every throughput row)",
        summary: "a throughput claim without a paired quality gate",
    }
}

pub fn check(ctx: &CorpusCtx<'_>, out: &mut Emitter<'_>) {
    crate::claims::emit_findings(ctx, out, &RULE);
}
