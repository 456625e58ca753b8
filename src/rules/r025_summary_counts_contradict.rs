//! `summary-counts-contradict` (R025): a level's own summary fields disagree with each other.

use super::r017_summary_mismatch_raw::agrees;
use super::support::{at_streams, count_f64};
use super::{Emitter, ResultCtx, declare_rule};
use crate::model::Level;
use crate::numbers::count;
use crate::numbers::num;
use crate::text::Text;

declare_rule! {
    /// ## What it checks
    /// Per level, three pieces of arithmetic the file's own summary fields must satisfy:
    ///
    /// - **Counts.** The harness's own total of requests sent (`total_requests`: vLLM
    ///   `num_prompts`, llmperf `results_num_requests_started`, genai-bench `num_requests`,
    ///   inference-perf `load_summary.count`) equals the completed plus the failed
    ///   (`requests + failed`). When `failed` is not recorded, more completed than sent is still
    ///   a contradiction.
    /// - **Error rate.** The harness's own error rate (`error_rate`, a fraction: genai-bench
    ///   `error_rate`, llmperf `results_error_rate`) matches `failed` over the requests sent
    ///   (`total_requests`, else `requests + failed`). They disagree when the rate implies a
    ///   failure count at least one whole request away from `failed` and differs from the
    ///   share by more than 0.005 (a rate rounded to two decimals agrees).
    /// - **Throughput.** The aggregate throughput (`throughput_tok_s.aggregate`) equals
    ///   `output_tokens / duration_s` (DESIGN.md conventions: a level's aggregate is its output
    ///   tokens over its measured window) within `throughput_arithmetic_tolerance` (2%) plus
    ///   the rounding of the reported digits. GuideLLM (`harness.name` `guidellm`) is left out
    ///   of this check: its `output_tokens_per_second` is the mean of a rate sampled over time,
    ///   a different statistic from its token total over its duration (a real 0.5 report gives
    ///   25.86 against 27.02 tok/s, both honest), so the two do not contradict each other.
    ///
    /// Only values the file records are compared: a value benchlint derived (an older vLLM file's
    /// `failed` computed as `num_prompts - completed`, a window derived from a request rate)
    /// agrees by construction and proves nothing, so a comparison that needs it is skipped.
    /// Each disagreement is its own finding, placed on the figure that does not follow.
    ///
    /// ## Why is this bad?
    /// Seed 004 is written "for a technical reader who wants to check the arithmetic rather than
    /// trust the conclusion", and asks that the numbers be checkable. A file whose summary
    /// fields contradict each other fails that check before any comparison is made: at least one
    /// of the figures is wrong, and the file does not say which. research/formats2.md: public
    /// genai-bench files write `error_rate: 0` beside `num_error_requests: 8` and an error-code
    /// map of `{"500": 8}`; a reader who trusts the rate publishes a clean level that lost eight
    /// requests.
    ///
    /// ## Example
    /// ```json
    /// { "concurrency": 16, "total_requests": 64, "requests": 56, "failed": 8,
    ///   "error_rate": 0 }
    /// ```
    ///
    /// ## What to do instead
    /// Trust the counts, not the derived summary: find why the harness wrote a figure that does
    /// not follow from its own counts (a rate computed before retries were counted, a throughput
    /// over another window), fix the report, and publish figures that add up. When the harness
    /// cannot be fixed, say in `notes` which field is wrong.
    pub static RULE = {
        code: "R025",
        name: "summary-counts-contradict",
        severity: Error,
        scope: Result,
        source: "seeds/004 (numbers a reader can check); research/formats2.md (genai-bench error_rate 0 beside 8 errors)",
        summary: "the file's own summary fields disagree with each other",
    }
}

/// A share written for a message: "12.5%".
fn percent(share: f64) -> String {
    format!("{}%", crate::numbers::bounded(share * 100.0, 1))
}

/// Harnesses whose aggregate throughput is a mean rate over time, not tokens over the window.
const RATE_AVERAGED: [&str; 1] = ["guidellm"];

pub fn check(ctx: &ResultCtx<'_>, out: &mut Emitter<'_>) {
    let rate_averaged = ctx
        .result
        .harness
        .as_ref()
        .and_then(|h| h.name.as_deref())
        .is_some_and(|n| RATE_AVERAGED.contains(&n));
    // Most results have no provenance recorded at all (a canonical file as written): then
    // nothing in them was derived, and no pointer needs to be written to ask.
    let nothing_derived = ctx.provenance.iter().next().is_none();
    for (i, level) in ctx.result.levels.as_slice().iter().enumerate() {
        // A value the file itself holds (recorded, or supplied by a sidecar), never one
        // benchlint derived.
        let own = |field: &str| {
            nothing_derived || !ctx.provenance.is_derived(&format!("/levels/{i}/{field}"))
        };
        let total = level.total_requests.filter(|_| own("total_requests"));
        let done = level.requests.filter(|_| own("requests"));
        let failed = level.failed.filter(|_| own("failed"));
        counts(out, i, level, total, done, failed);
        if let Some(rate) = level
            .error_rate
            .filter(|r| r.is_finite() && own("error_rate"))
        {
            error_rate(out, i, level, rate, total, done, failed);
        }
        if !rate_averaged {
            throughput(ctx, out, i, level, &own);
        }
    }
}

/// Requests sent against completed plus failed.
fn counts(
    out: &mut Emitter<'_>,
    i: usize,
    level: &Level,
    total: Option<u64>,
    done: Option<u64>,
    failed: Option<u64>,
) {
    let (Some(total), Some(done)) = (total, done) else {
        return;
    };
    let at = at_streams(level.key());
    let message = match failed {
        Some(failed) if done.saturating_add(failed) != total => format!(
            "{at}: the file counts {} requests sent, but {} completed and {} failed, {} in all",
            count(total),
            count(done),
            count(failed),
            count(done.saturating_add(failed))
        ),
        None if done > total => {
            format!(
                "{at}: the file counts {} requests completed of only {} sent",
                count(done),
                count(total)
            )
        }
        _ => return,
    };
    out.emit(format!("/levels/{i}/total_requests"), Text::own(message))
        .label("does not add up")
        .help(
            "find which count the harness got wrong (a request counted twice, one that neither \
             completed nor failed) and publish counts that add up",
        );
}

/// The harness's error rate against its own counts.
fn error_rate(
    out: &mut Emitter<'_>,
    i: usize,
    level: &Level,
    rate: f64,
    total: Option<u64>,
    done: Option<u64>,
    failed: Option<u64>,
) {
    let Some(failed) = failed else {
        return;
    };
    let Some(sent) = total.or_else(|| done.map(|d| d.saturating_add(failed))) else {
        return;
    };
    if sent == 0 {
        return;
    }
    let share = count_f64(failed) / count_f64(sent);
    let implied = rate * count_f64(sent);
    if (implied - count_f64(failed)).abs() < 1.0 || (rate - share).abs() <= 0.005 {
        return;
    }
    out.emit(
        format!("/levels/{i}/error_rate"),
        Text::own(format!(
            "{}: the file reports an error rate of {}, but {} of {} requests failed ({}): the rate \
             says {}",
            at_streams(level.key()),
            if rate <= 0.0 {
                "0".to_string()
            } else {
                format!("{} ({})", num(rate), percent(rate))
            },
            count(failed),
            count(sent),
            percent(share),
            if implied < 0.5 {
                "none failed".to_string()
            } else {
                format!("about {} failed", num(implied.round()))
            },
        )),
    )
    .label(Text::own(format!(
        "{} of {} failed",
        count(failed),
        count(sent)
    )))
    .help(
        "read the failure count, not the rate: the level lost requests the rate does not show; \
         R006 and R024 judge the level on its counts",
    );
}

/// The aggregate throughput against output tokens over the window.
fn throughput(
    ctx: &ResultCtx<'_>,
    out: &mut Emitter<'_>,
    i: usize,
    level: &Level,
    own: &dyn Fn(&str) -> bool,
) {
    let aggregate = level
        .throughput_tok_s
        .as_ref()
        .and_then(|t| t.aggregate)
        .filter(|a| a.is_finite() && own("throughput_tok_s/aggregate"));
    let tokens = level.output_tokens.filter(|_| own("output_tokens"));
    let window = level
        .duration_s
        .filter(|d| d.is_finite() && *d > 0.0 && own("duration_s"));
    let (Some(aggregate), Some(tokens), Some(window)) = (aggregate, tokens, window) else {
        return;
    };
    let computed = count_f64(tokens) / window;
    let tolerance = ctx.thresholds.throughput_arithmetic_tolerance;
    if agrees(aggregate, computed, tolerance) {
        return;
    }
    let off = if computed > 0.0 {
        format!(
            "{:.1}% {}",
            (aggregate - computed).abs() / computed * 100.0,
            if aggregate > computed {
                "above"
            } else {
                "below"
            }
        )
    } else {
        "while no token was delivered".to_string()
    };
    out.emit(
        format!("/levels/{i}/throughput_tok_s/aggregate"),
        Text::own(format!(
            "{}: the file reports {} tok/s aggregate, but its own {} output tokens over its {} s window \
             make {} tok/s ({off}; the tolerance is {}%)",
            at_streams(level.key()),
            num(aggregate),
            count(tokens),
            num(window),
            num(computed),
            num(tolerance * 100.0),
        )),
    )
    .label("not output_tokens / duration_s")
    .help(
        "find which window or token count the harness divided by and publish the aggregate as \
         output tokens over the measured window",
    );
}
