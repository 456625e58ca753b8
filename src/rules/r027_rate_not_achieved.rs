//! `rate-not-achieved` (R027): an open-loop level sent requests well below the rate it asked
//! for.

use super::support::at_streams;
use super::{Emitter, ResultCtx, declare_rule};
use crate::model::RequestRate;
use crate::numbers::num;

declare_rule! {
    /// ## What it checks
    /// Per open-loop level (keyed by a finite `request_rate`, requests per second) that records
    /// the rate the harness actually achieved (`achieved_request_rate`: inference-perf's
    /// `load_summary.achieved_rate`, MLPerf loadgen's scheduled samples per second,
    /// `GuideLLM`'s `metrics.requests_per_second` of a constant or Poisson level): whether it
    /// is below `min_achieved_rate_fraction` (90%) of the rate asked for. The finding sits at
    /// `achieved_request_rate` and names the cap on requests in flight when the level had one
    /// (`max_concurrency`), since a cap can hold the rate back too. An unbounded rate (`"inf"`)
    /// asks for no particular rate and is R019's concern.
    ///
    /// ## Why is this bad?
    /// The request rate is the load an open-loop level claims to describe (seed 004 asks what
    /// load a configuration serves at a given service level). When the client or the server
    /// saturates, the harness cannot send at the asked rate: the level then measured a lower
    /// load than its label, and a ladder whose top rungs all achieved the same rate repeats one
    /// load under several labels. The inference-perf KubeCon demo (vLLM with EAGLE3, a linear
    /// sweep) asked for 86.81 and 103.98 requests per second in its last two stages and
    /// achieved about 73 in both: plotted by requested rate, its curve shows a knee the server
    /// never reached.
    ///
    /// ## Example
    /// ```json
    /// { "request_rate": 103.98, "achieved_request_rate": 73.1,
    ///   "throughput_tok_s": { "aggregate": 9350.2 } }
    /// ```
    ///
    /// ## What to do instead
    /// Key the level by the rate it achieved, or drop the levels past saturation and say where
    /// it set in; if the client was the bottleneck (too few workers, a cap on connections),
    /// give it more and re-run.
    pub static RULE = {
        code: "R027",
        name: "rate-not-achieved",
        severity: Warning,
        scope: Result,
        source: "seeds/004 (the load a level claims); inference-perf KubeCon demo (103.98 QPS asked, about 73 achieved)",
        summary: "an open-loop level achieved less than 90% of the request rate it asked for",
    }
}

pub fn check(ctx: &ResultCtx<'_>, out: &mut Emitter<'_>) {
    let floor = ctx.thresholds.min_achieved_rate_fraction;
    for (i, level) in ctx.result.levels.as_slice().iter().enumerate() {
        let Some(RequestRate::PerSecond(asked)) = level.request_rate else {
            continue;
        };
        let Some(achieved) = level.achieved_request_rate else {
            continue;
        };
        if !(asked.is_finite() && asked > 0.0 && achieved.is_finite()) || achieved >= floor * asked
        {
            continue;
        }
        let cap = level
            .max_concurrency
            .map(|c| {
                format!("; the level capped requests in flight at {c}, which may have held it back")
            })
            .unwrap_or_default();
        out.emit(
            format!("/levels/{i}/achieved_request_rate"),
            format!(
                "{}: the harness sent {} requests per second, {}% of the {} it asked for (the floor is {}%){cap}: \
                 the level measured a lower load than its label",
                at_streams(level.key()),
                num(achieved),
                crate::numbers::bounded(achieved / asked * 100.0, 1),
                // The rate asked for names the level: shown as the level's label shows it.
                RequestRate::PerSecond(asked),
                num(floor * 100.0),
            ),
        )
        .label(format!("{}% of the asked rate", crate::numbers::bounded(achieved / asked * 100.0, 1)))
        .help(
            "key the level by the rate it achieved, or drop the levels past saturation and say where it set in; \
             if the client was the bottleneck, give it more workers and re-run",
        );
    }
}
