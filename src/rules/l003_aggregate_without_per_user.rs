//! `aggregate-without-per-user` (L003): an aggregate throughput without the per-user rate
//! beside it.

use super::r012_non_monotonic_ladder::streams;
use super::served::completed_nothing;
use super::{Emitter, ResultCtx, declare_rule};
use crate::numbers::num;
use crate::text::Text;

declare_rule! {
    /// ## What it checks
    /// Each level that reports an aggregate throughput (`throughput_tok_s.aggregate`) without a
    /// per-user rate (`per_user_tok_s.mean` or `.median`). A `p10` alone is a tail, not the
    /// rate a typical user feels, so it does not count. Per-request samples without a summary do
    /// not count either: the figure a reader quotes is the summary, and it is missing.
    ///
    /// A level that records its median time per output token has a per-user rate: benchlint
    /// derives `per_user_tok_s.median = 1000 / tpot_ms.p50` (provenance "derived", DESIGN.md
    /// conventions), so vLLM, `SGLang` and `GuideLLM` files, which write the TPOT and no
    /// per-user figure, are not reported. A level that completed no request has no aggregate to
    /// interpret and is skipped (R006 and R007 report it).
    ///
    /// ## Why is this bad?
    /// The same aggregate can be many users served slowly or few served fast. Seed 004: "publish
    /// the per-user rate next to every aggregate figure, because the aggregate alone cannot be
    /// interpreted." Its "2.2 times" win of four pairs over the eight-unit cluster came from
    /// 128 users at 10.5 tokens per second each; serving the same 32 users, the pairs' 563
    /// tok/s against the cluster's 537.6 is a ratio of 1.05, a tie.
    ///
    /// ## Example
    /// ```json
    /// { "concurrency": 32, "throughput_tok_s": { "aggregate": 537.6 } }
    /// ```
    ///
    /// ## What to do instead
    /// ```json
    /// { "concurrency": 32, "throughput_tok_s": { "aggregate": 537.6 },
    ///   "per_user_tok_s": { "mean": 17.4, "median": 17.6, "p10": 15.9 } }
    /// ```
    pub static RULE = {
        code: "L003",
        name: "aggregate-without-per-user",
        severity: Error,
        scope: Result,
        source: "seeds/004 (publish the per-user rate next to every aggregate figure)",
        summary: "an aggregate without the per-user rate beside it",
    }
}

pub fn check(ctx: &ResultCtx<'_>, out: &mut Emitter<'_>) {
    for (i, level) in ctx.result.levels.as_slice().iter().enumerate() {
        if completed_nothing(level) {
            continue;
        }
        let Some(aggregate) = level.throughput_tok_s.as_ref().and_then(|t| t.aggregate) else {
            continue;
        };
        if level
            .per_user_tok_s
            .as_ref()
            .and_then(crate::model::PerUser::central)
            .is_some()
        {
            continue;
        }
        let at = streams(level.key());
        out.emit(
            format!("/levels/{i}/throughput_tok_s/aggregate"),
            Text::own(format!("aggregate {} tok/s at {at} is reported without the per-user rate beside it", num(aggregate))),
        )
        .label("no per-user rate for this aggregate")
        .help(
            "record `per_user_tok_s` (mean, median, p10 of each request's own rate), or at least the median time \
             per output token it can be derived from: the aggregate alone cannot be interpreted",
        );
    }
}
