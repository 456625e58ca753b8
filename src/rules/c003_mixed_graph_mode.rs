//! `mixed-graph-mode` (C003): eager on one side only.

use super::{CorpusCtx, Emitter, declare_rule};

declare_rule! {
    /// ## What it checks
    /// For every ratio claim, whether both sides ran in the same graph mode (`engine.enforce_eager`).
    /// Eager on one side only is a mismatch on either basis (eager mode is a workaround, never a
    /// platform's best setting). A side that does not record its graph mode is reported with its own
    /// message (the ratio is unknowable); both sides silent is reported unless both ran the same
    /// engine image.
    ///
    /// ## Why is this bad?
    /// Seed 004: eager mode, CUDA graphs disabled, "is ... a flat tax on every step". On the
    /// four-card RTX PRO 6000 workstation it cost a factor of 2.4 on decode throughput, 22.6 tokens
    /// per second against 55. "A single unrecorded eager flag can therefore dominate any
    /// cross-platform ratio and leave no trace in the result file." The GB10 container inspection
    /// showed an explicit eager flag that none of the pair, four-way or eight-way result files
    /// mentioned.
    ///
    /// ## Example
    /// ```json
    /// { "id": "gb10-vs-gb300", "kind": "ratio", "metric": "decode_tok_s", "value": 0.5,
    ///   "subject":  { "results": ["gb10-x8-r1"], "concurrency": 1 },
    ///   "baseline": { "results": ["gb300-r1"], "concurrency": 1 } }
    /// ```
    /// The subject records `"enforce_eager": true`, the baseline `"enforce_eager": false`.
    ///
    /// ## What to do instead
    /// Run eager against graph mode on both platforms with the same image, record
    /// `engine.enforce_eager` on every result (read from the serve command, never retyped), and
    /// compare like with like.
    pub static RULE = {
        code: "C003",
        name: "mixed-graph-mode",
        severity: Error,
        scope: Claim,
        source: "seeds/004 (eager mode cost 2.4 times on decode, 22.6 against 55 tok/s)",
        summary: "eager on one side only",
    }
}

pub fn check(ctx: &CorpusCtx<'_>, out: &mut Emitter<'_>) {
    crate::claims::emit_findings(ctx, out, &RULE);
}
