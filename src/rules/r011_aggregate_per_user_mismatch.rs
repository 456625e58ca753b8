//! `aggregate-per-user-mismatch` (R011): aggregate / streams is far from the per-user rate,
//! the arithmetic check seed 004 asks every reader to make.

use super::r002_token_count_mismatch::count_f64;
use super::served::completed_nothing;
use super::{Emitter, ResultCtx, declare_rule};
use crate::model::Level;

declare_rule! {
    /// ## What it checks
    /// For every level with a concurrency of at least 1, what each stream delivered (the
    /// aggregate divided by the streams: `throughput_tok_s.aggregate / concurrency`; when no
    /// aggregate is recorded, `output_tokens / duration_s / concurrency`, the convention's
    /// definition) against what each stream is expected to deliver. The division is done here:
    /// a per-stream figure the file might carry is not trusted. The relative difference,
    /// `(aggregate / streams − expected) / expected`, above `aggregate_per_user_tolerance` (25%)
    /// in either direction is reported at the aggregate (or at the per-user rate when the
    /// aggregate was derived).
    ///
    /// The expected rate starts from the per-user rate (`per_user_tok_s.median`, else `.mean`;
    /// a median derived from the median TPOT counts, and the message says so). The per-user
    /// rate is a decode rate: it leaves out what a stream spends not decoding, which the
    /// aggregate includes. Two such times are accounted for, so that only a stall is left:
    ///
    /// - **first-token latency.** When the level records its output tokens, completed requests
    ///   and median TTFT, the expected rate is `n / (ttft_p50 + n / per_user)`, with `n =
    ///   output_tokens / requests` the mean output per request: every request pays its prefill
    ///   (and its wait for a slot) before it decodes, and with prompts of tens of thousands of
    ///   tokens (agentic traces) that is most of the request. The median is used, so a stall
    ///   that hits some requests still shows; a level whose median first-token latency is itself
    ///   the problem is R010's and R009's finding.
    /// - **pauses between requests** (the think time of multi-turn traces, replayed gaps). When
    ///   the level records `mean_in_flight`, the requests actually in flight on average (AIPerf:
    ///   the summed request latency over the window), the aggregate is divided by it instead of
    ///   the streams: a stream that waits between turns is not stalled.
    ///
    /// Without TTFT or counts the expected rate is the per-user rate itself, as seed 004 does
    /// the arithmetic. A zero or non-finite aggregate or per-user rate is not divided by: zeros
    /// are R007's finding and non-finite numbers E005's; a level that completed no request is
    /// skipped (R006 and R007 report it), and so is a level where more than `max_failed_share`
    /// (5%) of the requests failed: its aggregate counts the survivors while the failed
    /// requests held streams too, which R024 reports.
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

/// What one stream (or one request in flight) should deliver, and how that was worked out.
struct Expected {
    /// Tokens per second per stream.
    rate: f64,
    /// The per-user rate it starts from, and which statistic that is.
    user: f64,
    which: &'static str,
    /// Whether the per-user rate was derived from the median TPOT.
    user_derived: bool,
    /// Mean output per request and median TTFT, when the TTFT was accounted for.
    ttft: Option<(f64, f64)>,
}

impl Expected {
    /// The expected rate of a level: the per-user rate, slowed by the first-token latency each
    /// request pays before it decodes (`n / (ttft + n / per_user)`) when the level records the
    /// mean output per request (`output_tokens / requests`) and its median TTFT.
    fn of(ctx: &ResultCtx<'_>, i: usize, level: &Level) -> Option<Self> {
        let per_user = level.per_user_tok_s.as_ref()?;
        let (which, user) = match (per_user.median, per_user.mean) {
            (Some(m), _) => ("median", m),
            (None, Some(m)) => ("mean", m),
            (None, None) => return None,
        };
        if !(user.is_finite() && user > 0.0) {
            return None;
        }
        let user_derived = ctx
            .provenance
            .is_derived(&format!("/levels/{i}/per_user_tok_s/{which}"));
        let per_request = match (level.output_tokens, level.requests) {
            (Some(t), Some(r)) if r > 0 && t > 0 => Some(count_f64(t) / count_f64(r)),
            _ => None,
        };
        let ttft = level
            .ttft_s
            .as_ref()
            .and_then(|t| t.p50)
            .filter(|t| t.is_finite() && *t >= 0.0);
        let (rate, ttft) = match (per_request, ttft) {
            (Some(n), Some(t)) => (n / (t + n / user), Some((n, t))),
            _ => (user, None),
        };
        Some(Expected {
            rate,
            user,
            which,
            user_derived,
            ttft,
        })
    }

    /// How the expected rate was worked out, for the message.
    fn describe(&self) -> String {
        let user = if self.user_derived {
            format!(
                "the per-user {} {} tok/s (1000 / the median TPOT)",
                self.which,
                rate(self.user)
            )
        } else {
            format!("the per-user {} {} tok/s", self.which, self.user)
        };
        match self.ttft {
            Some((n, t)) => format!(
                "{user}, after a median first-token latency of {t} s, gives {} tok/s for {n:.1} \
                 tokens per request",
                rate(self.rate)
            ),
            None => user,
        }
    }
}

/// Whether more of the level's requests failed than R024 allows: its aggregate counts the
/// survivors only (R024's finding), and the failed requests held streams too, so the
/// arithmetic here has nothing more to say.
fn too_many_failed(ctx: &ResultCtx<'_>, level: &Level) -> bool {
    match (level.failed, level.requests) {
        (Some(f), Some(r)) if f > 0 => {
            count_f64(f) / count_f64(f.saturating_add(r)) > ctx.thresholds.max_failed_share
        }
        _ => false,
    }
}

pub fn check(ctx: &ResultCtx<'_>, out: &mut Emitter<'_>) {
    let tolerance = ctx.thresholds.aggregate_per_user_tolerance;
    for (i, level) in ctx.result.levels.iter().enumerate() {
        if completed_nothing(level) || level.concurrency == 0 || too_many_failed(ctx, level) {
            continue;
        }
        // Requests in flight on average, when recorded (streams pause between turns), else the
        // streams kept in flight.
        let in_flight = level.mean_in_flight.filter(|m| m.is_finite() && *m > 0.0);
        let streams = in_flight.unwrap_or_else(|| count_f64(level.concurrency));
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
        let Some(expected) = Expected::of(ctx, i, level) else {
            continue;
        };
        if !(aggregate.is_finite() && aggregate > 0.0 && expected.rate > 0.0) {
            continue;
        }
        let per_stream = aggregate / streams;
        let diff = (per_stream - expected.rate) / expected.rate;
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
            format!("/levels/{i}/per_user_tok_s/{}", expected.which)
        } else {
            format!("/levels/{i}/throughput_tok_s/aggregate")
        };
        let n = level.concurrency;
        let over = match in_flight {
            Some(m) => format!(
                "over {} requests in flight on average ({n} stream{}) is {} tok/s per request in flight",
                rate(m),
                if n == 1 { "" } else { "s" },
                rate(per_stream)
            ),
            None => format!(
                "over {n} stream{} is {} tok/s per stream",
                if n == 1 { "" } else { "s" },
                rate(per_stream)
            ),
        };
        out.emit(
            pointer,
            format!(
                "aggregate {shown} tok/s{source} {over}, but {} ({sign}{:.1}%, tolerance {:.0}%): {meaning}",
                expected.describe(),
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
