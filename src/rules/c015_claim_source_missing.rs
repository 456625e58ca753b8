//! `claim-source-missing` (C015): a claim points at result ids that are not in the corpus.

use super::{CorpusCtx, Emitter, declare_rule};

declare_rule! {
    /// ## What it checks
    /// For every claim, whether each result id its subject and baseline name is the id of a result in
    /// the corpus (any outcome). The finding is placed on the first missing id in the claims file.
    /// The audit calls such a claim not decidable.
    ///
    /// ## Why is this bad?
    /// Seed 004: "Every figure on this page names the result file it came from, and those files carry
    /// the container image, the checkpoint, the engine arguments and the fabric settings." A claim
    /// whose runs are not in the corpus cannot be checked, and "a run whose configuration lives in
    /// somebody's shell history cannot be defended at all".
    ///
    /// ## Example
    /// ```json
    /// { "id": "x8-peak", "kind": "figure", "metric": "aggregate_tok_s", "value": 537.6,
    ///   "subject": { "results": ["gb10-x8-2026-09-23-r9"], "concurrency": 32 } }
    /// ```
    /// No result in the corpus has the id `gb10-x8-2026-09-23-r9`.
    ///
    /// ## What to do instead
    /// Add the result files to the corpus (or pass their folder to the command), or correct the ids
    /// the claim names; ids are stable and unique for this reason.
    pub static RULE = {
        code: "C015",
        name: "claim-source-missing",
        severity: Error,
        scope: Claim,
        source: "seeds/004 (every figure names the result file it came from)",
        summary: "a claim points at result ids that are not in the corpus",
    }
}

pub fn check(ctx: &CorpusCtx<'_>, out: &mut Emitter<'_>) {
    crate::claims::emit_findings(ctx, out, &RULE);
}
