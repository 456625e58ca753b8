//! `output-shortfall` (R020): fixed-length outputs were asked for and not delivered.

use super::r012_non_monotonic_ladder::streams;
use super::{Emitter, ResultCtx, declare_rule};
use crate::model::Level;
use crate::stats::mean;

declare_rule! {
    /// ## What it checks
    /// Per level, when a fixed output length was asked for: the mean output per request is
    /// below `min_output_fraction` (90%) of that length. A fixed length was asked for when
    /// `workload.ignore_eos` is `true` (the length is `workload.max_output_tokens`), or when
    /// `workload.sampling.min_tokens` is set (vLLM's sampling parameter: no request may stop
    /// earlier; the length is the smaller of it and `max_output_tokens`).
    ///
    /// The mean per request is taken from `samples.output_tokens` when they cover every
    /// completed request (they hold whole requests), else from `output_tokens / requests`. A
    /// level with no completed request, or neither figure, is skipped.
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
        summary: "mean output below 90% of a fixed length that was asked for",
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

/// Mean output tokens per request and how many requests it covers.
fn mean_output(level: &Level) -> Option<(f64, u64)> {
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
    let Some(workload) = ctx.result.workload.as_ref() else {
        return;
    };
    let Some(cap) = workload.max_output_tokens.filter(|&c| c > 0) else {
        return;
    };
    let min_tokens = ctx
        .get("/workload/sampling/min_tokens")
        .and_then(serde_json::Value::as_f64)
        .filter(|m| m.is_finite() && *m > 0.0);
    let (asked, why) = if workload.ignore_eos == Some(true) {
        (count_f64(cap), "ignore_eos true".to_string())
    } else if let Some(m) = min_tokens {
        (m.min(count_f64(cap)), format!("min_tokens {m}"))
    } else {
        return;
    };
    let floor = ctx.thresholds.min_output_fraction * asked;
    for (i, level) in ctx.result.levels.iter().enumerate() {
        let Some((per_request, n)) = mean_output(level) else {
            continue;
        };
        if !per_request.is_finite() || per_request >= floor {
            continue;
        }
        out.emit(
            format!("/levels/{i}/output_tokens"),
            format!(
                "mean output {:.1} tokens per request over {n} requests at {} is {:.1}% of the {asked} tokens asked for \
                 ({why}); the floor is {:.0}%",
                per_request,
                streams(level.key()),
                per_request / asked * 100.0,
                ctx.thresholds.min_output_fraction * 100.0,
            ),
        )
        .label(format!("{per_request:.1} tokens per request"))
        .help(
            "check that the engine honoured ignore_eos / min_tokens on the request path the harness used, and re-run; \
             a shorter output is a different workload",
        );
    }
}
