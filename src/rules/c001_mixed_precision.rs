//! `mixed-precision` (C001): the two sides differ in precision (or kernel).

use super::{CorpusCtx, Emitter, declare_rule};

declare_rule! {
    /// ## What it checks
    /// For every ratio claim in a claims file (`benchlint/claims/v1`), whether the subject and the
    /// baseline served the same weight precision (`model.precision`) and whether the engine selected
    /// the same kernel (`model.kernel`), reading the first result of each side.
    ///
    /// A setting recorded on one side and not on the other is reported too, with its own message:
    /// the ratio cannot be known. A setting recorded on neither side is reported unless both sides
    /// served the same checkpoint (name and revision; for the kernel also the same engine image on
    /// the same device model), where the unknown is the same on both sides. A claim with
    /// `basis: deployment` (best against best) may differ in precision and kernel when both sides
    /// record them: that is the question it asks.
    ///
    /// The finding is placed on the claim's `value` in the claims file, with the two results as
    /// related locations.
    ///
    /// ## Why is this bad?
    /// Seed 004: the 8.6 times ratio between four H200 cards and the eight-unit GB10 cluster
    /// "combined four separate mismatches in one division: FP8 against NVFP4, ...". A four-bit weight
    /// format reads roughly half the bytes of an eight-bit one per token and decode is bandwidth
    /// bound, so the lower precision gets a speed advantage that belongs to the format. And
    /// four-bit does not mean four-bit: on sm_121 the published vLLM builds route NVFP4 MoE layers
    /// through a dequantising Marlin kernel; plain FP8 beat Marlin-routed NVFP4 by 32% on one unit
    /// (53.8 against 40.8 tok/s). "A quantisation label on a chart is not a specification."
    ///
    /// ## Example
    /// ```json
    /// { "id": "h200-vs-gb10", "kind": "ratio", "metric": "aggregate_tok_s", "value": 8.6,
    ///   "subject":  { "results": ["h200-x4-fp8-spec5-r1"] },
    ///   "baseline": { "results": ["gb10-x8-nvfp4-r1"], "concurrency": 32 } }
    /// ```
    /// The subject records `"precision": "fp8"`, the baseline `"precision": "nvfp4"`.
    ///
    /// ## What to do instead
    /// Publish two tracks, both labelled: a matched-configuration track (the same checkpoint and
    /// precision everywhere, in practice FP8) as `basis: hardware`, and a best-per-platform track as
    /// `basis: deployment`, with the precision and kernel recorded on every result.
    pub static RULE = {
        code: "C001",
        name: "mixed-precision",
        severity: Error,
        scope: Claim,
        source: "seeds/004 (FP8 against NVFP4 in the 8.6 times ratio; the Marlin kernel on sm_121)",
        summary: "the two sides differ in precision (or kernel)",
    }
}

pub fn check(ctx: &CorpusCtx<'_>, out: &mut Emitter<'_>) {
    crate::claims::emit_findings(ctx, out, &RULE);
}
