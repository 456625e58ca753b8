//! `mixed-power-basis` (C006): wall power against device power.

use super::{CorpusCtx, Emitter, declare_rule};

declare_rule! {
    /// ## What it checks
    /// For every ratio claim whose two sides both say where their power was measured: whether
    /// one was measured at the wall and the other on the device. A side's power kind is the
    /// `power_w.kind` of the level the claim takes it at, else the kind of its power trace
    /// (`artifacts.power_trace.kind`). A side whose power kind is not labelled is L005's finding,
    /// not this one's. The mismatch is decisive for a tokens-per-watt claim (`tok_s_per_w`) and
    /// a cost claim: the audit retracts them and says why. For other metrics it is reported
    /// beside the verdict, since any per-watt figure derived from the comparison would mix the
    /// two bases.
    ///
    /// ## Why is this bad?
    /// Seed 004: "Our GB10 units draw about 46 watts at the wall with no engine loaded while the
    /// accelerator rail reports under 5 watts, so a device-power efficiency figure for these boxes
    /// would be wrong by an order of magnitude ... A wall number and a device number must never appear
    /// in the same comparison."
    ///
    /// ## Example
    /// ```json
    /// { "id": "gb10-vs-gb300-per-watt", "kind": "ratio", "metric": "tok_s_per_w", "value": 1.9,
    ///   "subject":  { "results": ["gb10-x8-r1"], "concurrency": 32 },
    ///   "baseline": { "results": ["gb300-r1"], "concurrency": 32 } }
    /// ```
    /// The subject's level at 32 streams has `"power_w": { "mean": 412.0, "kind": "wall" }`, the
    /// baseline's `"power_w": { "mean": 1180.0, "kind": "device" }`.
    ///
    /// ## What to do instead
    /// Measure every platform at the wall (a metered outlet, or out-of-band management), label the
    /// kind on every trace, and never put a wall number and a device number in one comparison.
    pub static RULE = {
        code: "C006",
        name: "mixed-power-basis",
        severity: Error,
        scope: Claim,
        source: "seeds/004 (46 W at the wall against under 5 W on the GB10 rail)",
        summary: "wall power against device power",
    }
}

pub fn check(ctx: &CorpusCtx<'_>, out: &mut Emitter<'_>) {
    crate::claims::emit_findings(ctx, out, &RULE);
}
