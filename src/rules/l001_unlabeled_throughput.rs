//! `unlabeled-throughput` (L001): a level's throughput without prefill, decode or aggregate.

use super::r012_non_monotonic_ladder::streams;
use super::{Emitter, ResultCtx, declare_rule};
use crate::text::Text;

declare_rule! {
    /// ## What it checks
    /// A level that has a `throughput_tok_s` object holding none of `decode`, `prefill` and
    /// `aggregate`. In the canonical format every throughput figure sits under the key of its
    /// phase, so the only unlabelled throughput a canonical file can carry is this one: the
    /// place for a throughput with no phase named. It is what an adapter writes when a harness
    /// reports a bare "throughput" it cannot attribute, and what a hand-written file looks like
    /// when the figure was dropped for lack of a label.
    ///
    /// A level with no `throughput_tok_s` at all is not reported: it claims no throughput (its
    /// aggregate follows from `output_tokens / duration_s` when both are recorded, and L003
    /// and R007 look at levels from other angles).
    ///
    /// ## Why is this bad?
    /// Prefill and decode run at rates an order of magnitude apart. Seed 000: "On one of our
    /// deployments prompt processing ran at about 1,520 tok/s and generation at about 27 tok/s.
    /// A number without its label is not a measurement." An unlabelled 1,520 read as a decode
    /// rate is a fifty-fold overstatement.
    ///
    /// ## Example
    /// ```json
    /// { "concurrency": 1, "throughput_tok_s": {} }
    /// ```
    ///
    /// ## What to do instead
    /// ```json
    /// { "concurrency": 1, "throughput_tok_s": { "prefill": 1520.0, "decode": 27.0 } }
    /// ```
    pub static RULE = {
        code: "L001",
        name: "unlabeled-throughput",
        severity: Error,
        scope: Result,
        source: "seeds/000 (a number without its label is not a measurement)",
        summary: "a throughput without prefill, decode or aggregate",
    }
}

pub fn check(ctx: &ResultCtx<'_>, out: &mut Emitter<'_>) {
    for (i, level) in ctx.result.levels.as_slice().iter().enumerate() {
        let Some(t) = level.throughput_tok_s.as_ref() else {
            continue;
        };
        if t.decode.is_some() || t.prefill.is_some() || t.aggregate.is_some() {
            continue;
        }
        out.emit(
            format!("/levels/{i}/throughput_tok_s"),
            Text::own(format!(
                "the throughput of the level at {} names no phase: no decode, prefill or aggregate figure",
                streams(level.key())
            )),
        )
        .label("no labelled figure here")
        .help("record each figure under its phase: `decode`, `prefill` or `aggregate` (output tokens over the measured window)");
    }
}
