//! `aggregate-per-user-mismatch` (R011): aggregate / streams is far from the per-user rate,
//! the arithmetic check seed 004 asks every reader to make.

use super::r012_non_monotonic_ladder::streams;
use super::served::completed_nothing;
use super::support::count_f64;
use super::{Emitter, ResultCtx, declare_rule};
use crate::model::{Level, LevelKey};
use crate::numbers::num;
use crate::text::Text;

declare_rule! {
    /// ## What it checks
    /// For every level whose requests in flight are known (its concurrency, or the mean in
    /// flight the harness measured; an open-loop level without that is skipped), what each
    /// stream delivered (the aggregate divided by the streams: `throughput_tok_s.aggregate /
    /// concurrency`; when no aggregate is recorded, `output_tokens / duration_s /
    /// concurrency`, the convention's definition) against what each stream is expected to
    /// deliver. The division is done here:
    /// a per-stream figure the file might carry is not trusted. The relative difference,
    /// `(aggregate / streams − expected) / expected`, above `aggregate_per_user_tolerance` (25%)
    /// in either direction is reported at the aggregate (or at the per-user rate when the
    /// aggregate was derived).
    ///
    /// The expected rate starts from the per-user rate (`per_user_tok_s.median`, else `.mean`;
    /// a median derived from the median TPOT counts). The per-user
    /// rate is a decode rate: it leaves out what a stream spends not decoding, which the
    /// aggregate includes. Two such times are accounted for, so that only a stall is left:
    ///
    /// - **prefill.** When the level records its output tokens, completed requests and median
    ///   TTFT, and the workload its prompt length, the expected rate is `n / (prefill + n /
    ///   per_user)`, with `n = output_tokens / requests` the mean output per request: every
    ///   request waits for its prompt to be processed before it decodes, and with prompts of
    ///   tens of thousands of tokens (agentic traces) that is most of the request. The prefill
    ///   is the median TTFT, up to what the requests in flight take to prefill their prompts at
    ///   `min_prefill_tok_s` (500 tok/s, slower than any serving engine prefills): a first
    ///   token that comes later than that was waiting, and a wait is what this rule is for.
    ///   Seed 004's GLM level (a 6.1 s median TTFT on 41-token prompts at 16 streams) is
    ///   credited 1.3 s of prefill and still reported; an agentic level with 90,000-token
    ///   prompts and a 51 s median TTFT at 16 streams is credited all of it. The median is
    ///   used, so a stall that hits some requests still shows.
    /// - **pauses between requests** (the think time of multi-turn traces, replayed gaps). When
    ///   the level records `mean_in_flight`, the requests actually in flight on average (AIPerf:
    ///   the summed request latency over the window), the aggregate is divided by it instead of
    ///   the streams: a stream that waits between turns is not stalled.
    ///
    /// - **prefill without a TTFT.** When the level records no median TTFT but the prompt
    ///   length and the output per request are known, a shortfall is reported only if even the
    ///   longest prefill the prompts could take (the requests in flight prefilling their
    ///   prompts at `min_prefill_tok_s`) leaves the aggregate beyond the tolerance: rows that
    ///   summarise agentic traces with 100,000-token prompts and no TTFT are not stalls.
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

/// What one stream (or one request in flight) should deliver, and how that was worked out.
struct Expected {
    /// Tokens per second per stream.
    rate: f64,
    /// The per-user rate it starts from, and which statistic that is.
    user: f64,
    which: &'static str,
    /// The first-token latency accounted for, when it was.
    ttft: Option<Ttft>,
}

/// The part of a level's median first-token latency taken as prefill.
struct Ttft {
    /// Mean output per request, tokens.
    per_request: f64,
    /// The median TTFT, seconds.
    median: f64,
    /// What of it is prefill, seconds: the median, or less when the prompts in flight prefill
    /// faster than that at `min_prefill_tok_s`.
    prefill: f64,
    /// The typical prompt, tokens, and the requests in flight that bound the prefill.
    prompt: f64,
    in_flight: f64,
}

impl Expected {
    /// The expected rate of a level: the per-user rate, slowed by the prefill each request
    /// waits for before it decodes (`n / (prefill + n / per_user)`) when the level records the
    /// mean output per request (`output_tokens / requests`), its median TTFT and the workload its
    /// prompt length. The prefill is the median TTFT, up to what the requests in flight take to
    /// prefill their prompts at `min_prefill_tok_s`: a longer wait is a stall.
    fn of(ctx: &ResultCtx<'_>, level: &Level, in_flight: f64) -> Option<Self> {
        let per_user = level.per_user_tok_s.as_ref()?;
        let (which, user) = match (per_user.median, per_user.mean) {
            (Some(m), _) => ("median", m),
            (None, Some(m)) => ("mean", m),
            (None, None) => return None,
        };
        if !(user.is_finite() && user > 0.0) {
            return None;
        }
        let per_request = match (level.output_tokens, level.requests) {
            (Some(t), Some(r)) if r > 0 && t > 0 => Some(count_f64(t) / count_f64(r)),
            _ => None,
        };
        let median = level
            .ttft_s
            .as_ref()
            .and_then(|t| t.p50)
            .filter(|t| t.is_finite() && *t >= 0.0);
        let prompt = ctx
            .result
            .typical_prompt_tokens()
            .filter(|p| p.is_finite() && *p > 0.0);
        let floor = ctx.thresholds.min_prefill_tok_s;
        let ttft = match (per_request, median, prompt) {
            (Some(n), Some(t), Some(p)) if floor > 0.0 => Some(Ttft {
                per_request: n,
                median: t,
                prefill: t.min(in_flight * p / floor),
                prompt: p,
                in_flight,
            }),
            _ => None,
        };
        let rate = match &ttft {
            Some(t) => t.per_request / (t.prefill + t.per_request / user),
            None => user,
        };
        Some(Expected {
            rate,
            user,
            which,
            ttft,
        })
    }

    /// How the expected rate was worked out, for the message. A per-user rate derived from the
    /// median TPOT reads like a recorded one (the finding points at the TPOT), so a file and its
    /// `benchlint import` read the same.
    fn describe(&self, floor: f64) -> String {
        let Some(t) = &self.ttft else {
            return format!("the per-user {} is {} tok/s", self.which, num(self.user));
        };
        let prefill = if t.prefill < t.median {
            format!(
                "after the {} s of its {} s median first-token latency that prefill explains \
                 ({} prompts of {} tokens at {floor} tok/s; the rest is waiting)",
                num(t.prefill),
                num(t.median),
                num(t.in_flight),
                num(t.prompt)
            )
        } else {
            format!("after a median first-token latency of {} s", num(t.median))
        };
        format!(
            "the per-user {} {} tok/s, {prefill}, gives {} tok/s for {} tokens per request",
            self.which,
            num(self.user),
            num(self.rate),
            num(t.per_request)
        )
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

/// Without a recorded first-token latency the prefill cannot be accounted for, so a shortfall
/// is reported only when even the longest prefill the prompts could take (the requests in
/// flight prefilling their prompts at `min_prefill_tok_s`) leaves it beyond the tolerance. A
/// level whose prompt length or output per request is unknown keeps the plain comparison.
/// Agentic traces with prompts of 100,000 tokens are the case: the aggregate includes prefill
/// the per-user decode rate leaves out, and that is not a stall.
fn prefill_could_explain(
    ctx: &ResultCtx<'_>,
    level: &Level,
    in_flight: f64,
    user: f64,
    per_stream: f64,
) -> bool {
    if level.ttft_s.as_ref().and_then(|t| t.p50).is_some() {
        return false;
    }
    let floor = ctx.thresholds.min_prefill_tok_s;
    let prompt = ctx
        .result
        .typical_prompt_tokens()
        .filter(|p| p.is_finite() && *p > 0.0);
    let per_request = match (level.output_tokens, level.requests) {
        (Some(t), Some(r)) if r > 0 && t > 0 => Some(count_f64(t) / count_f64(r)),
        _ => None,
    };
    let (Some(p), Some(n)) = (prompt, per_request) else {
        return false;
    };
    if floor <= 0.0 {
        return false;
    }
    let slowest = n / (in_flight * p / floor + n / user);
    per_stream >= slowest * (1.0 - ctx.thresholds.aggregate_per_user_tolerance)
}

pub fn check(ctx: &ResultCtx<'_>, out: &mut Emitter<'_>) {
    let tolerance = ctx.thresholds.aggregate_per_user_tolerance;
    for (i, level) in ctx.result.levels.as_slice().iter().enumerate() {
        if completed_nothing(level) || too_many_failed(ctx, level) {
            continue;
        }
        // Requests in flight on average when the harness measured it (streams pause between
        // turns, or an open-loop level), else the streams kept in flight.
        let measured = level.mean_in_flight.filter(|m| m.is_finite() && *m > 0.0);
        let Some(streams) = measured.or_else(|| level.in_flight()).filter(|s| *s > 0.0) else {
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
        let Some(expected) = Expected::of(ctx, level, streams) else {
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
        if diff < 0.0 && prefill_could_explain(ctx, level, streams, expected.user, per_stream) {
            continue;
        }
        let sign = if diff < 0.0 { '−' } else { '+' };
        let shown = num(aggregate);
        let source = if derived {
            " (output_tokens / duration_s)"
        } else {
            ""
        };
        let meaning = if diff < 0.0 {
            "the level held a stall or stragglers (or the two figures count different tokens), so the \
             aggregate is not a steady-state number"
        } else {
            "the streams delivered less than the aggregate claims, so one of the two is miscounted"
        };
        let pointer = if derived {
            format!("/levels/{i}/per_user_tok_s/{}", expected.which)
        } else {
            format!("/levels/{i}/throughput_tok_s/aggregate")
        };
        let over = match (measured, level.streams()) {
            (Some(m), Some(n)) => format!(
                "over {} requests in flight on average ({}) is {} tok/s per request in flight",
                num(m),
                streams_words(n),
                num(per_stream)
            ),
            _ => format!(
                "over {} is {} tok/s per stream",
                in_flight_words(level, streams),
                num(per_stream)
            ),
        };
        out.emit(
            pointer,
            Text::own(format!(
                "aggregate {shown} tok/s{source} {over}, but {} ({sign}{}%, tolerance {:.0}%): {meaning}",
                expected.describe(ctx.thresholds.min_prefill_tok_s),
                crate::numbers::bounded(diff.abs() * 100.0, 1),
                tolerance * 100.0
            )),
        )
        .label(Text::own(format!("{} tok/s per stream", num(per_stream))))
        .help(
            "re-measure the level in a steady-state window and look at its first-token tail; \
             publish the aggregate beside the per-user rate only when the two agree",
        );
    }
}

/// "8 streams", "1 stream", "a mean of 6.4 requests in flight".
fn in_flight_words(level: &Level, in_flight: f64) -> String {
    match level.streams() {
        Some(n) => streams_words(n),
        None => format!("a mean of {} requests in flight", num(in_flight)),
    }
}

/// "8 streams", "1 stream".
fn streams_words(n: u64) -> String {
    streams(LevelKey::Streams(n))
}
