//! Statistics behind the replication (S) and comparison (C) rules: descriptive summaries,
//! confidence intervals at the launch level, Welch's test, variance components and the A/B
//! verdict, and the per-cell tests of regression mode (log ratio, Benjamini–Hochberg, TOST,
//! launches needed). The method is written up in `research/stats.md` §7–8 and DESIGN.md "Statistics".
//!
//! Conventions that hold for every function here:
//!
//! * **Non-finite values are dropped, never propagated.** NaN and ±∞ are removed before any
//!   computation, so no function returns NaN because an input held one. A function whose input
//!   has too few finite values left returns `None`.
//! * **The launch is the unit of replication** (Kalibera & Jones, "Rigorous benchmarking in
//!   reasonable time", 2013): runs of one engine launch share the launch's effect, so intervals and
//!   tests use one value per launch and never pool runs across launches.
//! * Quantiles are Hyndman & Fan (1996) type 7, numpy's default, because the benchmark harnesses
//!   whose percentiles we check report numpy values.
//! * Student t quantiles and tail probabilities come from `statrs`; everything else is our own,
//!   because statrs has no Welch test, no variance components and a type-8 quantile.

mod anova;
mod describe;
mod fdr;
mod interval;
mod launches_needed;
mod log_ratio;
mod quantile;
mod verdict;
mod welch;

pub use anova::{VarianceComponents, variance_components};
pub use describe::{Describe, HIGH_CV, cv, describe, mean, sample_sd};
pub use fdr::benjamini_hochberg;
pub use interval::{Interval, IntervalBasis, launch_interval, t_quantile, t_quantile_975};
pub use launches_needed::{LaunchesNeeded, MAX_LAUNCHES, POWER, launches_needed};
pub use log_ratio::{LogRatio, log_ratio, pooled_log_sd};
pub use quantile::{quantile_type7, quantile_type7_sorted, selected_finite, sorted_finite};
pub use verdict::{
    AbResult, Direction, MAX_LAUNCHES_ADVICE, STATIC_NOISE_FLOOR_TAIL_LATENCY,
    STATIC_NOISE_FLOOR_THROUGHPUT, Verdict, ab_verdict, effective_noise_floor,
    noise_floor_from_controls,
};
pub use welch::{Welch, welch};

/// The finite values of `values`, in input order.
///
/// Every public function starts here, so that a NaN or an infinity in a result file can never
/// turn into a NaN verdict.
fn finite(values: &[f64]) -> Vec<f64> {
    values.iter().copied().filter(|v| v.is_finite()).collect()
}

/// `n` as a float, for the divisions in the formulas.
#[expect(
    clippy::cast_precision_loss,
    reason = "sample counts are far below 2^52, where usize to f64 is exact"
)]
fn count_f64(n: usize) -> f64 {
    n as f64
}
