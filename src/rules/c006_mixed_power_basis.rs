//! `mixed-power-basis` (C006): wall power against device power.

use super::{CorpusCtx, Emitter, declare_rule};

declare_rule! {
    /// ## What it checks
    /// For every ratio claim whose two sides both label their power trace
    /// (`artifacts.power_trace.kind`): whether one was measured at the wall and the other on the
    /// device. A side whose power kind is not labelled is L005's finding, not this one's. The mismatch
    /// makes a cost claim retracted in the audit; for other metrics it is reported beside the verdict,
    /// since any per-watt figure derived from the comparison would mix the two bases.
    ///
    /// ## Why is this bad?
    /// Seed 004: "Our GB10 units draw about 46 watts at the wall with no engine loaded while the
    /// accelerator rail reports under 5 watts, so a device-power efficiency figure for these boxes
    /// would be wrong by an order of magnitude ... A wall number and a device number must never appear
    /// in the same comparison."
    ///
    /// ## Example
    /// ```json
    /// { "id": "gb10-vs-gb300-cost", "kind": "ratio", "metric": "cost_per_million_usd", "value": 0.8,
    ///   "subject":  { "results": ["gb10-x8-r1"], "concurrency": 32 },
    ///   "baseline": { "results": ["gb300-r1"], "concurrency": 32 } }
    /// ```
    /// The subject's power trace is `"kind": "wall"`, the baseline's `"kind": "device"`.
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
