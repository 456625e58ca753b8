//! `speculation-on-random-tokens` (R018): speculative decoding measured on random-token
//! prompts.

use super::served::served_nothing;
use super::{Emitter, ResultCtx, declare_rule};
use crate::diagnostic::Location;
use crate::model::PromptSource;

declare_rule! {
    /// ## What it checks
    /// A result with speculative decoding on (`engine.speculative.enabled: true`) whose prompts
    /// are random token ids (`workload.prompts: "random-tokens"`). Speculation that is off or
    /// not recorded is not this rule's business (M005 reports the unrecorded case), and neither
    /// are `fixed` or `dataset` prompts.
    ///
    /// A run that completed no request measured no speedup and is skipped: R006 and R007 report
    /// it.
    ///
    /// ## Why is this bad?
    /// A speculative speedup depends on how often the draft's guesses are accepted, and that
    /// depends on the text being predictable. Seed 004, borrowing from the published literature
    /// and MLPerf's restriction of speculative decoding to a single scenario: "never measure a
    /// speculative speedup on random-token prompts. Acceptance rates depend on the text being
    /// predictable. Synthetic filler will give a number that no real workload reproduces."
    ///
    /// ## Example
    /// ```json
    /// { "engine": { "speculative": { "enabled": true, "method": "eagle3" } },
    ///   "workload": { "prompts": "random-tokens" } }
    /// ```
    ///
    /// ## What to do instead
    /// ```json
    /// { "engine": { "speculative": { "enabled": true, "method": "eagle3" } },
    ///   "workload": { "prompts": "dataset", "dataset": "prose-41tok-v3", "kind": "prose" } }
    /// ```
    /// Measure speculation on real text, code and prose both (S007).
    pub static RULE = {
        code: "R018",
        name: "speculation-on-random-tokens",
        severity: Error,
        scope: Result,
        source: "seeds/004 (never measure a speculative speedup on random-token prompts)",
        summary: "speculative decoding measured on random-token prompts",
    }
}

pub fn check(ctx: &ResultCtx<'_>, out: &mut Emitter<'_>) {
    if served_nothing(ctx.result) {
        return;
    }
    if ctx.result.speculation_on() != Some(true) {
        return;
    }
    let prompts = ctx.result.workload.as_ref().and_then(|w| w.prompts);
    if prompts != Some(PromptSource::RandomTokens) {
        return;
    }
    let method = ctx
        .result
        .engine
        .as_ref()
        .and_then(|e| e.speculative.as_ref())
        .and_then(|s| s.method.as_deref())
        .map_or_else(String::new, |m| format!(" ({m})"));
    out.emit(
        "/workload/prompts",
        format!(
            "speculative decoding{method} was measured on random-token prompts: its acceptance rate, and so its speedup, \
             says nothing about real text"
        ),
    )
    .label("synthetic filler")
    .help("measure speculation on real code and prose prompts (a fixed set or a dataset)")
    .related(Location::new(String::new(), "/engine/speculative/enabled"));
}
