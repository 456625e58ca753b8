//! `ttft-tail-knee` (R010): a level whose first-token p95 is more than 5 times its median.

use super::support::at_streams;
use super::{Emitter, ResultCtx, declare_rule};
use crate::numbers::num;
use crate::text::Text;

declare_rule! {
    /// ## What it checks
    /// For every level that records `ttft_s.p50` and `ttft_s.p95`, that the p95 is at most
    /// `ttft_tail_ratio` (5) times the p50. A level past that is reported at its p95 with the
    /// ratio.
    ///
    /// Two data problems are reported instead of a ratio, because no ratio can be read from
    /// them: a p95 below the p50 (percentiles out of order: the summary is wrong), and a p50
    /// of 0 beside a positive p95 (a zero median first-token latency is not a measurement).
    /// A level with both at 0, or with a value that is not a finite number, is left to the
    /// rules for zero levels and non-standard numbers.
    ///
    /// ## Why is this bad?
    /// Seed 004: "flag any level whose 95th percentile exceeds five times its median. Our
    /// 48-stream rows are a worked example: the eight-unit group shows a 0.63 second median
    /// against a 14.0 second 95th percentile, and the pair shows 0.86 against 26.9. Those
    /// levels are past the knee and a single median would hide it completely." A tail that
    /// long means requests queued for a slot (the engine was past saturation) or the level
    /// held a stall; either way its throughput is not a steady-state figure.
    ///
    /// ## Example
    /// ```json
    /// { "concurrency": 48, "ttft_s": { "p50": 0.63, "p95": 14.0, "p99": 19.2 } }
    /// ```
    ///
    /// ## What to do instead
    /// Publish the p95 beside the median, treat the level as past the knee (capacity is the
    /// level below it), and look for the stall or the queue before quoting its throughput.
    /// A level inside the knee reads like:
    /// ```json
    /// { "concurrency": 32, "ttft_s": { "p50": 0.41, "p95": 1.12, "p99": 1.6 } }
    /// ```
    pub static RULE = {
        code: "R010",
        name: "ttft-tail-knee",
        severity: Warning,
        scope: Result,
        source: "seeds/004 (0.63 s median against a 14.0 s 95th percentile at 48 streams)",
        summary: "TTFT p95 more than 5 times p50",
    }
}

pub fn check(ctx: &ResultCtx<'_>, out: &mut Emitter<'_>) {
    let knee = ctx.thresholds.ttft_tail_ratio;
    for (i, level) in ctx.result.levels.as_slice().iter().enumerate() {
        let Some(ttft) = &level.ttft_s else {
            continue;
        };
        let (Some(p50), Some(p95)) = (ttft.p50, ttft.p95) else {
            continue;
        };
        if !(p50.is_finite() && p95.is_finite()) {
            continue;
        }
        let at = at_streams(level.key());
        if p95 < p50 {
            out.emit(
                format!("/levels/{i}/ttft_s/p95"),
                Text::own(format!("{at}: TTFT p95 {} s is below p50 {} s: the percentiles are out of order, so the summary is wrong", num(p95), num(p50))),
            )
            .label("below the median")
            .help("recompute the percentiles from the per-request first-token times (type 7, numpy's default)");
            continue;
        }
        if p50 <= 0.0 {
            // Dividing by a zero median is meaningless; say what is wrong with the data.
            if p95 > 0.0 {
                out.emit(
                    format!("/levels/{i}/ttft_s/p50"),
                    Text::own(format!("{at}: TTFT p50 is {} s beside a p95 of {} s: a zero median first-token latency is not a measurement", num(p50), num(p95))),
                )
                .label("zero median")
                .help("record the first-token time of each request as the client observed it");
            }
            continue;
        }
        let ratio = p95 / p50;
        if ratio <= knee {
            continue;
        }
        // Two decimals near the threshold, so a ratio just past 5 does not print as "5.0×".
        let shown = if ratio < 10.0 {
            format!("{ratio:.2}")
        } else {
            format!("{ratio:.1}")
        };
        out.emit(
            format!("/levels/{i}/ttft_s/p95"),
            Text::own(format!("{at}: TTFT p95 {} s is {shown}× p50 {} s, past the {knee}× knee", num(p95), num(p50))),
        )
        .label(Text::own(format!("{shown}× the median")))
        .help(
            "requests queued for a slot or the level held a stall: publish p95 beside the median, \
             take capacity from the level below, and find the stall before quoting this level's throughput",
        );
    }
}
