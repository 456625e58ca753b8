//! `cost-without-basis` (L004): a cost figure without its hourly cost and stated basis, or one
//! that does not follow from the measured peak.

use super::r012_non_monotonic_ladder::streams;
use super::r017_summary_mismatch_raw::agrees;
use super::r020_output_shortfall::count_f64;
use super::{Emitter, ResultCtx, declare_rule};
use crate::model::LevelKey;
use crate::numbers::num;
use crate::text::Text;

declare_rule! {
    /// ## What it checks
    /// A result with a cost figure (`cost.per_million_output_usd`) is checked three ways, each
    /// its own finding:
    ///
    /// - the hourly cost it rests on is recorded (`cost.hourly_usd`, else
    ///   `platform.hourly_cost_usd`) and positive: a zero hourly cost is a placeholder;
    /// - the basis is stated (`cost.basis`, not blank);
    /// - the figure follows from the peak: `hourly / (peak × 3600) × 1,000,000`, where the peak is
    ///   the highest `throughput_tok_s.aggregate` of any level (or, when no level records an
    ///   aggregate, the highest `output_tokens / duration_s`). It agrees when within
    ///   `cost_tolerance` (5%) of the recomputed value, plus half a unit in the last digit
    ///   published (a figure rounded to cents may be off by half a cent). A figure with nothing to recompute it from (no aggregate, no tokens and
    ///   duration) is reported as unsupported.
    ///
    /// ## Why is this bad?
    /// Seed 002 states the basis on the card rather than implying it: "output tokens only, at
    /// the measured peak sustained for the whole hour. It excludes prompt tokens, idle time and
    /// redundancy — all of which make real-world cost higher." And "Leave the hourly cost blank
    /// and no cost figure is produced. A number derived from a guessed rate is worse than no
    /// number, because it gets quoted." Seed 004 asks for "prices with a stated basis".
    ///
    /// ## Example
    /// ```json
    /// { "cost": { "per_million_output_usd": 5.93 },
    ///   "levels": [ { "concurrency": 24, "throughput_tok_s": { "aggregate": 329.8 } } ] }
    /// ```
    ///
    /// ## What to do instead
    /// ```json
    /// { "cost": { "hourly_usd": 1.84, "per_million_output_usd": 1.55,
    ///   "basis": "output tokens only, at the measured peak (329.8 tok/s) sustained for the whole hour" } }
    /// ```
    pub static RULE = {
        code: "L004",
        name: "cost-without-basis",
        severity: Error,
        scope: Result,
        source: "seeds/002 (cost basis: output tokens only, at the measured peak sustained for the whole hour)",
        summary: "a cost figure without hourly cost and stated basis, or not following from the peak",
    }
}

/// The measured peak: (tok/s, the level it was measured at, what it is).
fn peak(ctx: &ResultCtx<'_>) -> Option<(f64, LevelKey, &'static str)> {
    let levels = ctx.result.levels.as_slice();
    let best = |v: Vec<(f64, LevelKey)>| {
        v.into_iter()
            .filter(|(t, _)| t.is_finite() && *t > 0.0)
            .max_by(|a, b| a.0.total_cmp(&b.0))
    };
    let aggregates = levels
        .iter()
        .filter_map(|l| Some((l.throughput_tok_s.as_ref()?.aggregate?, l.key())))
        .collect();
    if let Some((t, c)) = best(aggregates) {
        return Some((t, c, "aggregate"));
    }
    let derived = levels
        .iter()
        .filter_map(|l| {
            let d = l.duration_s.filter(|d| d.is_finite() && *d > 0.0)?;
            Some((count_f64(l.output_tokens?) / d, l.key()))
        })
        .collect();
    best(derived).map(|(t, c)| (t, c, "output_tokens / duration_s"))
}

pub fn check(ctx: &ResultCtx<'_>, out: &mut Emitter<'_>) {
    let Some(cost) = ctx.result.cost.as_ref() else {
        return;
    };
    let Some(published) = cost.per_million_output_usd.filter(|v| v.is_finite()) else {
        return;
    };
    let shown = num(published);
    let platform_hourly = ctx.result.platform.as_ref().and_then(|p| p.hourly_cost_usd);
    let hourly = cost
        .hourly_usd
        .or(platform_hourly)
        .filter(|h| h.is_finite() && *h > 0.0);
    if hourly.is_none() {
        out.emit(
            "/cost/per_million_output_usd",
            Text::own(format!("cost ${shown} per million output tokens is published without a positive hourly cost")),
        )
        .label("from what hourly cost?")
        .help("record `cost.hourly_usd` (or `platform.hourly_cost_usd`); without an hourly cost, publish no cost figure");
    }
    if cost.basis.as_deref().is_none_or(|b| b.trim().is_empty()) {
        out.emit(
            "/cost/basis",
            Text::own(format!("cost ${shown} per million output tokens has no stated basis (`cost.basis` is not recorded)")),
        )
        .label("no stated basis")
        .help("state the basis, e.g. \"output tokens only, at the measured peak sustained for the whole hour\"");
    }
    let Some(hourly) = hourly else {
        return;
    };
    let Some((tok_s, c, what)) = peak(ctx) else {
        out.emit(
            "/cost/per_million_output_usd",
            Text::own(format!("cost ${shown} per million output tokens cannot be recomputed: no level reports an aggregate throughput")),
        )
        .label("no peak to derive it from")
        .help("a cost per token needs the measured peak it rests on: record the aggregate throughput of each level");
        return;
    };
    let at = streams(c);
    let expected = hourly / (tok_s * 3600.0) * 1_000_000.0;
    if agrees(published, expected, ctx.thresholds.cost_tolerance) {
        return;
    }
    out.emit(
        "/cost/per_million_output_usd",
        Text::own(format!(
            "cost ${shown} per million output tokens does not follow from the peak: ${}/h at {} tok/s ({what} at {at}) \
             sustained for the hour gives ${}",
            num(hourly),
            num(tok_s),
            crate::numbers::fixed(expected, 2),
        )),
    )
    .label(Text::own(format!("the peak gives ${}", crate::numbers::fixed(expected, 2))))
    .help("recompute the cost at the measured peak (hourly / (peak tok/s × 3600) × 1e6), or state the basis it was computed on");
}
