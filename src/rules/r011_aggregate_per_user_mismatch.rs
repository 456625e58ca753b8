//! `aggregate-per-user-mismatch` (R011): aggregate / streams is far from the per-user rate,
//! the arithmetic check seed 004 asks every reader to make.

use super::r002_token_count_mismatch::count_f64;
use super::r012_non_monotonic_ladder::streams;
use super::{Emitter, ResultCtx, declare_rule};
use crate::model::{Level, LevelKey};

declare_rule! {
    /// ## What it checks
    /// For every level with a concurrency of at least 1, the aggregate divided by the streams
    /// (`throughput_tok_s.aggregate / concurrency`; when no aggregate is recorded,
    /// `output_tokens / duration_s / concurrency`, the convention's definition) against the
    /// per-user rate (`per_user_tok_s.median`, else `.mean`). The division is done here: a
    /// per-stream figure the file might carry is not trusted. The relative difference,
    /// `(aggregate / streams − per-user) / per-user`, above `aggregate_per_user_tolerance`
    /// (25%) in either direction is reported at the aggregate (or at the per-user rate when
    /// the aggregate was derived).
    ///
    /// A zero or non-finite aggregate or per-user rate is not divided by: zeros are R007's
    /// finding and non-finite numbers E005's.
    ///
    /// ## Why is this bad?
    /// Seed 004: "Take the aggregate figure, divide by the stream count, and see whether the
    /// per-user rate you get matches the per-user rate we published. [...] the two differ
    /// because the aggregate includes first-token latency and stragglers inside the wall
    /// clock. That difference is itself diagnostic: when it is large, the level contained a
    /// stall and the aggregate is not a steady-state number." Its GLM ladder swung 66% at 16
    /// streams (247.4 against 148.8 tok/s) between two runs because of such stalls. Aggregate
    /// 537.6 tok/s over 32 streams is 16.8 tok/s per stream against a per-user 20.1: inside
    /// the tolerance, a steady level.
    ///
    /// ## Example
    /// ```json
    /// { "concurrency": 16, "throughput_tok_s": { "aggregate": 148.8 },
    ///   "per_user_tok_s": { "median": 15.4 } }
    /// ```
    ///
    /// ## What to do instead
    /// Re-measure the level in a steady-state window (R009) and look at its first-token tail
    /// (R010); publish the aggregate only when it agrees with the streams:
    /// ```json
    /// { "concurrency": 16, "throughput_tok_s": { "aggregate": 247.4 },
    ///   "per_user_tok_s": { "median": 16.3 } }
    /// ```
    pub static RULE = {
        code: "R011",
        name: "aggregate-per-user-mismatch",
        severity: Warning,
        scope: Result,
        source: "seeds/004 (divide the aggregate by the streams; a large difference is a stall)",
        summary: "aggregate / streams differs from the per-user rate by more than 25%",
    }
}

/// Two decimals for small rates, one for the rest, as the seed writes them.
fn rate(x: f64) -> String {
    if x.abs() < 10.0 {
        format!("{x:.2}")
    } else {
        format!("{x:.1}")
    }
}

pub fn check(ctx: &ResultCtx<'_>, out: &mut Emitter<'_>) {
    let tolerance = ctx.thresholds.aggregate_per_user_tolerance;
    for (i, level) in ctx.result.levels.iter().enumerate() {
        // Closed loop: the streams kept in flight; open loop: the mean the harness measured.
        let Some(streams) = level.in_flight().filter(|s| *s > 0.0) else {
            continue;
        };
        // The aggregate as recorded, else derived from the level's own counts.
        let recorded = level.throughput_tok_s.as_ref().and_then(|t| t.aggregate);
        let (aggregate, derived) = if let Some(a) = recorded {
            (a, false)
        } else {
            let (Some(tokens), Some(d)) = (level.output_tokens, level.duration_s) else {
                continue;
            };
            if !(d.is_finite() && d > 0.0) {
                continue;
            }
            (count_f64(tokens) / d, true)
        };
        let Some(per_user) = &level.per_user_tok_s else {
            continue;
        };
        let (which, user) = match (per_user.median, per_user.mean) {
            (Some(m), _) => ("median", m),
            (None, Some(m)) => ("mean", m),
            (None, None) => continue,
        };
        if !(aggregate.is_finite() && aggregate > 0.0 && user.is_finite() && user > 0.0) {
            continue;
        }
        let per_stream = aggregate / streams;
        let diff = (per_stream - user) / user;
        if diff.abs() <= tolerance {
            continue;
        }
        let sign = if diff < 0.0 { '−' } else { '+' };
        // A recorded aggregate is shown as the file writes it; a derived one is rounded.
        let (shown, source) = if derived {
            (rate(aggregate), " (output_tokens / duration_s)")
        } else {
            (aggregate.to_string(), "")
        };
        let meaning = if diff < 0.0 {
            "the level held a stall or stragglers, so the aggregate is not a steady-state number"
        } else {
            "the streams delivered less than the aggregate claims, so one of the two is miscounted"
        };
        let pointer = if derived {
            format!("/levels/{i}/per_user_tok_s/{which}")
        } else {
            format!("/levels/{i}/throughput_tok_s/aggregate")
        };
        out.emit(
            pointer,
            format!(
                "aggregate {shown} tok/s{source} over {} is {} tok/s per stream, but the per-user {which} \
                 is {user} tok/s ({sign}{:.1}%, tolerance {:.0}%): {meaning}",
                in_flight_words(level, streams),
                rate(per_stream),
                diff.abs() * 100.0,
                tolerance * 100.0
            ),
        )
        .label(format!("{} tok/s per stream", rate(per_stream)))
        .help(
            "re-measure the level in a steady-state window and look at its first-token tail; \
             publish the aggregate beside the per-user rate only when the two agree",
        );
    }
}

/// "8 streams", "1 stream", "a mean of 6.4 requests in flight".
fn in_flight_words(level: &Level, in_flight: f64) -> String {
    match level.streams() {
        Some(n) => streams(LevelKey::Streams(n)),
        None => format!("a mean of {} requests in flight", rate(in_flight)),
    }
}
