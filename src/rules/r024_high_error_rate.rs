//! `high-error-rate` (R024): a level lost more than a small share of its requests and still
//! reports a throughput.

use super::support::{at_streams, count_f64};
use super::{Emitter, ResultCtx, declare_rule};
use crate::model::Level;
use crate::numbers::count;
use crate::numbers::num;

declare_rule! {
    /// ## What it checks
    /// Per level, the failed share of the requests sent, `failed / (requests + failed)`, when
    /// it is above `max_failed_share` (5%) and the level reports a throughput
    /// (`throughput_tok_s` aggregate, decode or prefill). The finding sits at `failed` and
    /// gives the share, the counts and the throughput. A level whose completed count
    /// (`requests`) is not recorded has no share and is left to R006; a level where no request
    /// completed has no survivors to speak of and is left to R006 and R007 (a zero throughput).
    ///
    /// R006 (`failed-requests`) reports any failure in a level that reports averages; this rule
    /// is the stronger statement for a high share, and both fire on such a level: R006 says the
    /// averages are suspect, R024 says the throughput measured a different load.
    ///
    /// ## Why is this bad?
    /// A failed request leaves the level early and produces no tokens: the throughput counts
    /// the survivors only, and they ran with fewer requests in flight than the level's
    /// concurrency claims, so the figure is that of a lighter load (and when failures come from
    /// the server giving up, of a server that is shedding work). research/formats.md §5 and
    /// §10: a real llmperf summary (`bedrock_70b`, 5 concurrent requests) has
    /// `results_error_rate` 0.327, 49 of 150 requests failed, and it still publishes 62.87
    /// tok/s as its throughput.
    ///
    /// ## Example
    /// ```json
    /// { "concurrency": 5, "requests": 101, "failed": 49,
    ///   "throughput_tok_s": { "aggregate": 62.87 } }
    /// ```
    ///
    /// ## What to do instead
    /// Find why the requests failed (rate limits, time-outs, preemption, a sequence cap), fix
    /// it and re-run the level. A level that cannot run clean is published as failed: with its
    /// counts and without a throughput.
    /// ```json
    /// { "concurrency": 5, "requests": 101, "failed": 49 }
    /// ```
    pub static RULE = {
        code: "R024",
        name: "high-error-rate",
        severity: Error,
        scope: Result,
        source: "research/formats.md §5, §10 (llmperf bedrock 70b: 32.7% errors with a headline throughput)",
        summary: "more than 5% of a level's requests failed, yet it reports a throughput",
    }
}

/// The throughput a level reports, by the label a reader sees: aggregate, else decode, else
/// prefill.
fn throughput(level: &Level) -> Option<(&'static str, f64)> {
    let t = level.throughput_tok_s.as_ref()?;
    [
        ("aggregate", t.aggregate),
        ("decode", t.decode),
        ("prefill", t.prefill),
    ]
    .into_iter()
    .find_map(|(name, v)| Some((name, v.filter(|v| v.is_finite())?)))
}

pub fn check(ctx: &ResultCtx<'_>, out: &mut Emitter<'_>) {
    let ceiling = ctx.thresholds.max_failed_share;
    for (i, level) in ctx.result.levels.as_slice().iter().enumerate() {
        let (Some(failed), Some(done)) = (
            level.failed.filter(|f| *f > 0),
            level.requests.filter(|d| *d > 0),
        ) else {
            continue;
        };
        let Some((label, tok_s)) = throughput(level) else {
            continue;
        };
        // failed > 0, so sent > 0.
        let sent = done.saturating_add(failed);
        let share = count_f64(failed) / count_f64(sent);
        if share <= ceiling {
            continue;
        }
        // One decimal, or two when one would show the share equal to the ceiling (7 of 139 is
        // 5.04%, not "5.0%, above 5%").
        let pct = share * 100.0;
        let shown = if format!("{pct:.1}") == format!("{:.1}", ceiling * 100.0) {
            format!("{pct:.2}%")
        } else {
            format!("{pct:.1}%")
        };
        out.emit(
            format!("/levels/{i}/failed"),
            format!(
                "{}: {} of {} requests failed ({shown}, above the {}% ceiling), yet the level reports \
                 {} tok/s {label}: that throughput counts only the {} that completed, which ran at a \
                 lighter load than the level claims",
                at_streams(level.key()),
                count(failed),
                count(sent),
                num(ceiling * 100.0),
                num(tok_s),
                count(done),
            ),
        )
        .label(format!("{shown} of the requests failed"))
        .help(
            "find why the requests failed and re-run the level; a level that cannot run clean is published \
             as failed, with its counts and without a throughput",
        );
    }
}
