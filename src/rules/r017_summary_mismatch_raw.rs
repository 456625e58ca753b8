//! `summary-mismatch-raw` (R017): a reported summary disagrees with the file's own samples.

use crate::numbers::count;
use serde_json::Value;

use super::r012_non_monotonic_ladder::streams;
use super::r020_output_shortfall::{count_f64, covers_every_request};
use super::{Emitter, ResultCtx, declare_rule};
use crate::model::{Level, Percentiles2};
use crate::numbers::num;
use crate::stats::{mean, quantile_type7_sorted, selected_finite};

declare_rule! {
    /// ## What it checks
    /// Per level, recomputes from `levels[].samples` and compares with the reported figure:
    /// `ttft_s` p50/p95/p99, `tpot_ms` p50/p95 and `per_user_tok_s` median/p10 (type-7
    /// quantiles, numpy's default, as vLLM, SGLang and genai-perf report), the `per_user_tok_s`
    /// mean, and the sum of `samples.output_tokens` against the level's `output_tokens`. A
    /// figure disagrees when it is further from the recomputed value than `summary_tolerance`
    /// (1%) of it plus half a unit in the last digit the file reports (`0.113` may be rounded).
    ///
    /// Samples count only when they are the values behind the summary: an empty array, or one
    /// whose length differs from the level's `requests` (a subsample, as GuideLLM keeps), is
    /// skipped. The token sum is not compared in a `steady` window, where the level total counts
    /// only tokens inside the window while samples hold whole requests. Without samples, a
    /// reported percentile below a lower one (p95 under p50, p10 over the median) is still
    /// reported: no set of samples can produce it.
    ///
    /// ## Why is this bad?
    /// Seed 004 makes its numbers checkable: a reader can redo the arithmetic. A summary that
    /// does not follow from the file's own samples came from something else (other requests,
    /// warm-up included, another quantile rule) or was copied wrong, and can hide what the
    /// samples show, such as 48-stream rows with "a 0.63 second median against a 14.0 second
    /// 95th percentile".
    ///
    /// ## Example
    /// ```json
    /// { "concurrency": 48, "requests": 5, "ttft_s": { "p50": 0.63, "p95": 0.95 },
    ///   "samples": { "ttft_s": [0.52, 0.61, 0.63, 0.7, 14.0] } }
    /// ```
    ///
    /// ## What to do instead
    /// Compute every summary from the same per-request values the file keeps, with numpy's
    /// default quantile, after warm-up is dropped, and write them at the same time.
    pub static RULE = {
        code: "R017",
        name: "summary-mismatch-raw",
        severity: Error,
        scope: Result,
        source: "seeds/004 (checkable arithmetic)",
        summary: "reported summary disagrees with the file's own samples",
    }
}

/// Half a unit in the last decimal digit of `reported` as written (shortest round-trip form):
/// the rounding a reported figure may carry (R017, L004).
fn rounding_allowance(reported: f64) -> f64 {
    if !reported.is_finite() {
        return 0.0;
    }
    let text = reported.abs().to_string();
    let decimals = text
        .split_once('.')
        .map_or(0, |(_, frac)| frac.len().min(17));
    0.5 * 10f64.powi(-i32::try_from(decimals).unwrap_or(17))
}

/// Whether `reported` is within `tolerance` (relative to `recomputed`) plus its rounding.
pub(crate) fn agrees(reported: f64, recomputed: f64, tolerance: f64) -> bool {
    (reported - recomputed).abs() <= tolerance * recomputed.abs() + rounding_allowance(reported)
}

/// How a summary is recomputed from its samples.
#[derive(Clone, Copy)]
enum Stat {
    /// The type-7 quantile at this probability.
    Quantile(f64),
    /// The arithmetic mean.
    Mean,
}

/// Summaries checked against samples: (metric, statistic, how). The metric names both the
/// summary object and its samples array.
const FIGURES: [(&str, &str, Stat); 8] = [
    ("ttft_s", "p50", Stat::Quantile(0.5)),
    ("ttft_s", "p95", Stat::Quantile(0.95)),
    ("ttft_s", "p99", Stat::Quantile(0.99)),
    ("tpot_ms", "p50", Stat::Quantile(0.5)),
    ("tpot_ms", "p95", Stat::Quantile(0.95)),
    ("per_user_tok_s", "mean", Stat::Mean),
    ("per_user_tok_s", "median", Stat::Quantile(0.5)),
    ("per_user_tok_s", "p10", Stat::Quantile(0.1)),
];

/// The samples array of `metric` in `level`, if recorded.
fn samples_of<'l>(level: &'l Level, metric: &str) -> Option<&'l Vec<f64>> {
    let s = level.samples.as_ref()?;
    match metric {
        "ttft_s" => s.ttft_s.as_ref(),
        "tpot_ms" => s.tpot_ms.as_ref(),
        "per_user_tok_s" => s.per_user_tok_s.as_ref(),
        "output_tokens" => s.output_tokens.as_ref(),
        _ => None,
    }
}

/// The summary `stat` of `metric` the level reports (`/levels/{i}/{metric}/{stat}`), read from
/// the typed level: the same number the canonical JSON holds there, as the typed result is
/// read from that JSON, without a lookup by pointer for each figure of each level.
fn reported(level: &Level, metric: &str, stat: &str) -> Option<f64> {
    let percentiles2 = |p: Option<&Percentiles2>| {
        let p = p?;
        match stat {
            "p50" => p.p50,
            "p95" => p.p95,
            _ => None,
        }
    };
    match metric {
        "ttft_s" => {
            let p = level.ttft_s.as_ref()?;
            match stat {
                "p50" => p.p50,
                "p95" => p.p95,
                "p99" => p.p99,
                _ => None,
            }
        }
        "tpot_ms" => percentiles2(level.tpot_ms.as_ref()),
        "e2e_s" => percentiles2(level.e2e_s.as_ref()),
        "per_user_tok_s" => {
            let p = level.per_user_tok_s.as_ref()?;
            match stat {
                "mean" => p.mean,
                "median" => p.median,
                "p10" => p.p10,
                _ => None,
            }
        }
        _ => None,
    }
}

/// The probabilities of the quantiles of `metric` in [`FIGURES`].
fn quantiles_of(metric: &str) -> Vec<f64> {
    FIGURES
        .iter()
        .filter_map(|(m, _, how)| match how {
            Stat::Quantile(q) if *m == metric => Some(*q),
            _ => None,
        })
        .collect()
}

/// Pairs of reported percentiles that must not decrease: (metric, lower, higher).
const ORDERED: [(&str, &str, &str); 5] = [
    ("ttft_s", "p50", "p95"),
    ("ttft_s", "p95", "p99"),
    ("tpot_ms", "p50", "p95"),
    ("e2e_s", "p50", "p95"),
    ("per_user_tok_s", "p10", "median"),
];

pub fn check(ctx: &ResultCtx<'_>, out: &mut Emitter<'_>) {
    let tolerance = ctx.thresholds.summary_tolerance;
    let steady = ctx.get("/workload/window/mode").and_then(Value::as_str) == Some("steady");
    for (i, level) in ctx.result.levels.as_slice().iter().enumerate() {
        let usable = |v: &&Vec<f64>| covers_every_request(level, v);
        let mut checked_from_samples: Vec<&str> = Vec::new();
        // Each metric's samples are arranged once for all of its quantiles.
        let mut sorted: Option<(&str, Vec<f64>)> = None;
        for (metric, stat, how) in FIGURES {
            let Some(samples) = samples_of(level, metric).filter(usable) else {
                continue;
            };
            checked_from_samples.push(metric);
            let reported = reported(level, metric, stat);
            let recomputed = match how {
                Stat::Quantile(q) => {
                    if sorted.as_ref().is_none_or(|(m, _)| *m != metric) {
                        sorted = Some((metric, selected_finite(samples, &quantiles_of(metric))));
                    }
                    sorted
                        .as_ref()
                        .and_then(|(_, values)| quantile_type7_sorted(values, q))
                }
                Stat::Mean => mean(samples),
            };
            let (Some(reported), Some(recomputed)) = (reported, recomputed) else {
                continue;
            };
            if agrees(reported, recomputed, tolerance) {
                continue;
            }
            out.emit(
                format!("/levels/{i}/{metric}/{stat}"),
                format!(
                    "reported {metric} {stat} {} at {}, but the level's {} samples give {}",
                    num(reported),
                    streams(level.key()),
                    count(samples.len()),
                    num(recomputed)
                ),
            )
            .label(format!("the samples give {}", num(recomputed)))
            .help(
                "compute every summary from the per-request samples the file keeps \
                 (type-7 quantiles, numpy's default), after warm-up is dropped",
            );
        }
        let tokens = samples_of(level, "output_tokens").filter(usable);
        if let (Some(samples), Some(total), false) = (tokens, level.output_tokens, steady) {
            let sum: f64 = samples.iter().copied().filter(|v| v.is_finite()).sum();
            if !agrees(count_f64(total), sum, tolerance) {
                out.emit(
                    format!("/levels/{i}/output_tokens"),
                    format!(
                        "reported output_tokens {} at {}, but the level's {} per-request samples sum to {}",
                        count(total),
                        streams(level.key()),
                        count(samples.len()),
                        num(sum)
                    ),
                )
                .label(format!("the samples sum to {}", num(sum)))
                .help("the level total and the per-request counts must come from the same requests and the same token counter");
            }
        }
        ordered_percentiles(level, i, &checked_from_samples, out);
    }
}

/// Reported percentiles that decrease, for metrics not already checked against samples.
fn ordered_percentiles(level: &Level, i: usize, checked: &[&str], out: &mut Emitter<'_>) {
    for (metric, lower, higher) in ORDERED {
        if checked.contains(&metric) {
            continue;
        }
        let (Some(lo), Some(hi)) = (
            reported(level, metric, lower),
            reported(level, metric, higher),
        ) else {
            continue;
        };
        if hi < lo {
            out.emit(
                format!("/levels/{i}/{metric}/{higher}"),
                format!("reported {metric} {higher} {} is below its {lower} {}: no set of samples has that",
                    num(hi),
                    num(lo)),
            )
            .label(format!("below the {lower}"))
            .help("recompute the percentiles from the per-request values; a higher percentile is never below a lower one");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every figure the rule reads from the typed level is the number at its pointer in the
    /// canonical JSON, and a figure the level lacks (or holds as null) is absent in both.
    #[test]
    fn typed_figures_are_the_numbers_at_their_pointers() {
        let value = serde_json::json!({
            "concurrency": 4,
            "ttft_s": { "p50": 0.11, "p95": 0.2, "p99": 3 },
            "tpot_ms": { "p50": 20.5, "p95": null },
            "e2e_s": { "p95": 5.25 },
            "per_user_tok_s": { "mean": 49.5, "median": 49, "p10": 47.25 }
        });
        let level: Level = serde_json::from_value(value.clone()).unwrap();
        let stats = FIGURES.iter().map(|(m, s, _)| (*m, *s)).chain(
            ORDERED
                .iter()
                .flat_map(|(m, lo, hi)| [(*m, *lo), (*m, *hi)]),
        );
        let mut present = 0;
        for (metric, stat) in stats {
            let at = value
                .pointer(&format!("/{metric}/{stat}"))
                .and_then(Value::as_f64);
            assert_eq!(reported(&level, metric, stat), at, "{metric} {stat}");
            present += usize::from(at.is_some());
        }
        assert!(present >= 8, "{present}");
    }
}
