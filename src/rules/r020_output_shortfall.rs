//! `output-shortfall` (R020): fixed-length outputs were asked for and not delivered, or the
//! outputs fell far short of the cap.

use super::r012_non_monotonic_ladder::streams;
use super::served::served_nothing;
use super::{Emitter, ResultCtx, declare_rule};
use crate::model::{Level, PromptSource};
use crate::numbers::{count, num};
use crate::stats::mean;

declare_rule! {
    /// ## What it checks
    /// Per level, the mean output per request against what was asked for, in two bands:
    ///
    /// - **a fixed length.** When `workload.ignore_eos` is `true` (the length is
    ///   `workload.max_output_tokens`), or when `workload.sampling.min_tokens` is set (vLLM's
    ///   sampling parameter: no request may stop earlier; the length is the smaller of it and
    ///   `max_output_tokens`), the mean must reach `min_output_fraction` (90%) of the length.
    /// - **far below the cap.** Otherwise the mean must reach `min_output_cap_fraction` (60%)
    ///   of `max_output_tokens`, whatever `ignore_eos` says, with one exception: real text
    ///   (`workload.prompts` `fixed` or `dataset`) with `ignore_eos: false` recorded, where the
    ///   file itself says the outputs end where the model stops and the cap is only a ceiling.
    ///   Everywhere else (`ignore_eos` not recorded; random-token or unrecorded prompts, whose
    ///   cap is the only output length the workload names) a mean under three fifths of the cap
    ///   means the cap does not describe the workload that was measured, and a reader who takes
    ///   it for the output length (a "1,000 in / 500 out" label) reads another workload. The
    ///   message says which `ignore_eos` the file records, since a harness that meant to ignore
    ///   EOS and was not obeyed looks exactly like this.
    ///
    /// When the harness drew each request's length from a range (`SGLang`'s random dataset with
    /// a range ratio under 1: `workload.sampling.output_tokens_min` is the shortest length,
    /// the cap the longest), the length asked for on average is the middle of the range, and
    /// both bands are taken against it.
    ///
    /// The mean per request is taken from `samples.output_tokens` when they cover every
    /// completed request (they hold whole requests), else from `output_tokens / requests`. A
    /// level with no completed request, or neither figure, is skipped; so is a run that
    /// completed no request (R006 and R007 report it).
    ///
    /// ## Why is this bad?
    /// A run that asked for 500 tokens per request and got 270 measured a different workload
    /// from the one its label names: decode-heavy becomes prefill-heavier, the per-request
    /// overhead weighs more, and two engines that stop at different points are no longer
    /// compared on the same work. research/formats.md §1.2: a real vLLM file asked for
    /// `output_len` 500 with `IGNORE_EOS=true` in the job, got 80,945 tokens for 300 requests
    /// (about 270 each), and its log shows `ignore_eos=False`. research/peers.md: MLPerf's
    /// output-length guard accepts 0.9 to 1.1 times the expected tokens per sample; the 90% floor
    /// comes from there.
    ///
    /// ## Example
    /// ```json
    /// { "workload": { "max_output_tokens": 500, "ignore_eos": true },
    ///   "levels": [ { "concurrency": 32, "requests": 300, "output_tokens": 80945 } ] }
    /// ```
    ///
    /// ## What to do instead
    /// Check that the engine honoured `ignore_eos` (or `min_tokens`) for the request path the
    /// harness used, re-run, and publish the delivered mean beside the requested length.
    pub static RULE = {
        code: "R020",
        name: "output-shortfall",
        severity: Warning,
        scope: Result,
        source: "research/peers.md (MLPerf output-length guard, ignore_eos); research/formats.md §1.2",
        summary: "mean output below 90% of a fixed length asked for, or below 60% of the cap",
    }
}

/// `n` as a float, for arithmetic on token counts (R017, R020, L004).
#[expect(
    clippy::cast_precision_loss,
    reason = "counts are far below 2^52, where u64 to f64 is exact"
)]
pub(crate) fn count_f64(n: u64) -> f64 {
    n as f64
}

/// Whether `samples` are the values behind a level's summaries: not empty, and one per
/// completed request when `requests` is recorded (fewer is a subsample) (R017, R020).
pub(crate) fn covers_every_request(level: &Level, samples: &[f64]) -> bool {
    !samples.is_empty()
        && level
            .requests
            .is_none_or(|r| usize::try_from(r) == Ok(samples.len()))
}

/// Mean output tokens per request and how many requests it covers (R020, R028).
pub(crate) fn mean_output(level: &Level) -> Option<(f64, u64)> {
    let samples = level
        .samples
        .as_ref()
        .and_then(|s| s.output_tokens.as_ref());
    if let Some(v) = samples.filter(|v| covers_every_request(level, v)) {
        return Some((mean(v)?, u64::try_from(v.len()).ok()?));
    }
    let requests = level.requests.filter(|&r| r > 0)?;
    Some((
        count_f64(level.output_tokens?) / count_f64(requests),
        requests,
    ))
}

pub fn check(ctx: &ResultCtx<'_>, out: &mut Emitter<'_>) {
    if served_nothing(ctx.result) {
        return;
    }
    let Some(workload) = ctx.result.workload.as_ref() else {
        return;
    };
    let Some(cap) = workload.max_output_tokens.filter(|&c| c > 0) else {
        return;
    };
    // Lengths drawn from a range (SGLang's random dataset): the middle of the range is asked
    // for on average, not the cap.
    let range_min = ctx
        .get("/workload/sampling/output_tokens_min")
        .and_then(serde_json::Value::as_f64)
        .filter(|m| m.is_finite() && *m >= 0.0 && *m < count_f64(cap));
    let min_tokens = ctx
        .get("/workload/sampling/min_tokens")
        .and_then(serde_json::Value::as_f64)
        .filter(|m| m.is_finite() && *m > 0.0);
    // A fixed length asked for, held to the 90% band; else the cap, held to the 60% band.
    let (asked, why, fraction, fixed) = if workload.ignore_eos == Some(true) {
        (
            count_f64(cap),
            "ignore_eos true".to_string(),
            ctx.thresholds.min_output_fraction,
            true,
        )
    } else if let Some(m) = min_tokens {
        (
            m.min(count_f64(cap)),
            format!("min_tokens {m}"),
            ctx.thresholds.min_output_fraction,
            true,
        )
    } else {
        // Real text with EOS honoured ends where the model stops: the cap is a ceiling there.
        let real_text = matches!(
            workload.prompts,
            Some(PromptSource::Fixed | PromptSource::Dataset)
        );
        if real_text && workload.ignore_eos == Some(false) {
            return;
        }
        let eos = match workload.ignore_eos {
            Some(_) => "ignore_eos false: EOS was honoured",
            None => "ignore_eos not recorded",
        };
        (
            count_f64(cap),
            eos.to_string(),
            ctx.thresholds.min_output_cap_fraction,
            false,
        )
    };
    let (asked, why) = match range_min {
        Some(low) => (
            f64::midpoint(low, asked),
            format!(
                "{why}; lengths drawn from {} to {} tokens",
                num(low),
                count(cap)
            ),
        ),
        None => (asked, why),
    };
    let floor = fraction * asked;
    for (i, level) in ctx.result.levels.as_slice().iter().enumerate() {
        let Some((per_request, n)) = mean_output(level) else {
            continue;
        };
        if !per_request.is_finite() || per_request >= floor {
            continue;
        }
        let message = if fixed {
            format!(
                "mean output {} tokens per request over {} requests at {} is {}% of the {} tokens asked for \
                 ({why}); the floor is {:.0}%",
                num(per_request),
                count(n),
                streams(level.key()),
                crate::numbers::bounded(per_request / asked * 100.0, 1),
                num(asked),
                fraction * 100.0,
            )
        } else {
            format!(
                "mean output {} tokens per request over {} requests at {} is {}% of the {}-token cap \
                 ({why}), under {:.0}% of it: the outputs stopped far short of the cap, so the run measured a \
                 shorter-output workload than its cap describes",
                num(per_request),
                count(n),
                streams(level.key()),
                crate::numbers::bounded(per_request / asked * 100.0, 1),
                num(asked),
                fraction * 100.0,
            )
        };
        out.emit(format!("/levels/{i}/output_tokens"), message)
            .label(format!("{} tokens per request", num(per_request)))
            .help(if fixed {
                "check that the engine honoured ignore_eos / min_tokens on the request path the harness used, and re-run; \
                 a shorter output is a different workload"
            } else {
                "if a fixed output length was meant, check that the engine honoured ignore_eos on the request path the \
                 harness used and re-run; otherwise publish the delivered mean as the output length, not the cap"
            });
    }
}
