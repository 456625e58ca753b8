//! `failed-requests` (R006): a level with failed requests still reports averages.

use super::support::{at_streams, count_f64};
use super::{Emitter, ResultCtx, declare_rule};
use crate::model::Level;
use crate::numbers::count;
use crate::text::Text;

declare_rule! {
    /// ## What it checks
    /// For every level whose `failed` count is above 0, whether the level still reports
    /// summary figures: a throughput (`throughput_tok_s`), a per-user rate
    /// (`per_user_tok_s`), or latency percentiles (`ttft_s`, `tpot_ms`, `e2e_s`). If it does,
    /// the finding sits at `failed`, names the figures and, when `requests` (completed) is
    /// recorded, gives the failed share of all requests sent (`failed / (requests + failed)`).
    ///
    /// A level that records its failures and no figure has done the right thing and is not
    /// reported. A whole-run outcome of `failed` or `aborted` does not excuse the figures: if
    /// they are in the file, they can be quoted.
    ///
    /// ## Why is this bad?
    /// Seed 002, the `Failed` column: "Requests that errored. A non-zero count invalidates the
    /// level's averages — read it first." A failed request leaves the level early: it frees
    /// its slot, produces no tokens and no latency sample, so the survivors' averages describe
    /// a lighter load than the level claims, and time-outs cut off exactly the slow tail the
    /// percentiles are meant to show.
    ///
    /// ## Example
    /// ```json
    /// { "concurrency": 32, "requests": 61, "failed": 3,
    ///   "throughput_tok_s": { "aggregate": 341.2 }, "ttft_s": { "p50": 0.9, "p95": 3.1 } }
    /// ```
    ///
    /// ## What to do instead
    /// Find out why requests failed (time-outs, out-of-memory preemption, a sequence cap) and
    /// re-run the level; if it cannot pass, publish the level as failed, with its count and
    /// without averages.
    /// ```json
    /// { "concurrency": 32, "requests": 61, "failed": 3 }
    /// ```
    pub static RULE = {
        code: "R006",
        name: "failed-requests",
        severity: Error,
        scope: Result,
        source: "seeds/002 (a non-zero failed count invalidates the level's averages)",
        summary: "a level with failed requests reports averages",
    }
}

/// The summary figures a level reports, by the names a reader sees in the file (R006, R026).
pub(crate) fn reported_figures(level: &Level) -> Vec<&'static str> {
    let mut figures = Vec::new();
    if let Some(t) = &level.throughput_tok_s
        && (t.aggregate.is_some() || t.decode.is_some() || t.prefill.is_some())
    {
        figures.push("throughput");
    }
    if let Some(p) = &level.per_user_tok_s
        && (p.mean.is_some() || p.median.is_some() || p.p10.is_some())
    {
        figures.push("per-user rate");
    }
    if let Some(p) = &level.ttft_s
        && (p.p50.is_some() || p.p95.is_some() || p.p99.is_some())
    {
        figures.push("TTFT");
    }
    if let Some(p) = &level.tpot_ms
        && (p.p50.is_some() || p.p95.is_some())
    {
        figures.push("TPOT");
    }
    if let Some(p) = &level.e2e_s
        && (p.p50.is_some() || p.p95.is_some())
    {
        figures.push("e2e latency");
    }
    figures
}

pub fn check(ctx: &ResultCtx<'_>, out: &mut Emitter<'_>) {
    for (i, level) in ctx.result.levels.as_slice().iter().enumerate() {
        let failed = level.failed.unwrap_or(0);
        if failed == 0 {
            continue;
        }
        let figures = reported_figures(level);
        if figures.is_empty() {
            continue;
        }
        let at = at_streams(level.key());
        // The share needs the completed count; requests + failed > 0 because failed > 0.
        let share = match level.requests {
            Some(done) => {
                let sent = done.saturating_add(failed);
                format!(
                    "{} of {} requests failed ({:.1}%)",
                    count(failed),
                    count(sent),
                    count_f64(failed) / count_f64(sent) * 100.0
                )
            }
            None => format!(
                "{} request{} failed (completed requests not recorded, share unknown)",
                count(failed),
                if failed == 1 { "" } else { "s" }
            ),
        };
        out.emit(
            format!("/levels/{i}/failed"),
            Text::own(format!("{at}: {share}, yet the level reports {}", figures.join(", "))),
        )
        .label("read this first: it invalidates the level's averages")
        .help(
            "find why the requests failed and re-run the level; a level that cannot pass is published \
             with its failed count and without averages",
        );
    }
}
