//! The A/B verdict of DESIGN.md "Statistics" and `research/stats.md` §8.2: is B different from A,
//! a tie within noise, or not decidable? And the noise floor it is judged against.
//!
//! The unit is the engine launch (Kalibera & Jones 2013): each side is given as its launch means,
//! the effect is taken on the log scale so that it reads as a ratio, and its interval is Welch's
//! (Welch 1947, Satterthwaite 1946 df) over the log launch means. The rules are criterion's
//! comparison with the noise floor in place of its noise threshold, plus an equivalence branch;
//! the first rule that matches wins.

use super::describe::{mean_of, variance_of};
use super::interval::t_quantile_975;
use super::welch::{Welch, welch};
use super::{count_f64, finite};

/// Default noise floor for throughput metrics: a relative difference below 2% is never a finding
/// (criterion's book uses 2% as its noise threshold).
pub const STATIC_NOISE_FLOOR_THROUGHPUT: f64 = 0.02;

/// Default noise floor for tail latencies (p95, p99), which move more between launches than
/// throughput; 5% is Firecracker's aggregate threshold.
pub const STATIC_NOISE_FLOOR_TAIL_LATENCY: f64 = 0.05;

/// Largest launches-per-side count that the underpowered verdict will recommend; beyond it the
/// answer is "not reachable" rather than an impractical number.
pub const MAX_LAUNCHES_ADVICE: usize = 100;

/// 1.96·√2 ≈ 2.77: 95% of same-vs-same differences of two launch means fall within ±2.77
/// standard deviations of one launch mean (`research/stats.md` §7.3). Kept at the documented
/// two decimals so that values match the notes and the rule texts.
const AA_BAND_FACTOR: f64 = 2.77;

/// Which way a metric improves; the verdict itself is symmetric, the direction only names the
/// winner.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Direction {
    /// Throughput and rates: larger is better.
    HigherIsBetter,
    /// Latencies: smaller is better.
    LowerIsBetter,
}

/// Outcome of an A/B comparison (`research/stats.md` §8.2, rules R1–R5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Verdict {
    /// R1: at least two launches per side and the 95% interval of the effect lies wholly beyond
    /// the noise floor on one side.
    Difference,
    /// R2 (interval wholly inside ±floor, equivalence shown) or R3 (point effect inside ±floor):
    /// to be called a tie, never a slight win.
    TieWithinNoise,
    /// R4: a side has a single launch and the effect exceeds the floor; two launches of one
    /// configuration can differ by this much, so nothing can be concluded.
    SingleLaunch,
    /// R5: the effect exceeds the floor but its interval reaches inside it.
    Underpowered {
        /// Launches per side that would resolve an effect of this size at this spread; `None`
        /// when more than [`MAX_LAUNCHES_ADVICE`] would be needed.
        launches_needed_per_side: Option<usize>,
    },
}

/// Result of [`ab_verdict`].
#[derive(Debug, Clone, PartialEq)]
pub struct AbResult {
    /// Which rule matched.
    pub verdict: Verdict,
    /// Relative effect `B/A − 1`, as `exp(mean log B − mean log A) − 1`.
    pub effect_rel: f64,
    /// 95% interval of `effect_rel` when both sides have at least two launches; `None` otherwise.
    pub ci_rel: Option<(f64, f64)>,
    /// The floor the effect was judged against (as given).
    pub noise_floor_rel: f64,
    /// Launches on side A (finite, positive launch means).
    pub launches_a: usize,
    /// Launches on side B.
    pub launches_b: usize,
    /// True only for R2: the whole interval lies inside ±floor, so the tie is demonstrated and
    /// not merely "not shown to differ".
    pub equivalence_shown: bool,
    /// Welch's test on the log launch means (`diff` is `mean log B − mean log A`), when both
    /// sides have two or more launches and not both have zero spread. Reported for p and df.
    pub log_welch: Option<Welch>,
}

impl AbResult {
    /// Whether B is the better side under `direction`: `Some` only for a
    /// [`Verdict::Difference`], since no other verdict may be reported as a win.
    #[must_use]
    pub fn b_is_better(&self, direction: Direction) -> Option<bool> {
        (self.verdict == Verdict::Difference).then_some(match direction {
            Direction::HigherIsBetter => self.effect_rel > 0.0,
            Direction::LowerIsBetter => self.effect_rel < 0.0,
        })
    }
}

/// The A/B verdict for launch means of side A and side B against `noise_floor_rel` (δ, relative,
/// e.g. 0.02; normally [`effective_noise_floor`]).
///
/// Steps (`research/stats.md` §8.2):
/// 1. `D = mean(log B) − mean(log A)`, `effect_rel = e^D − 1`.
/// 2. With `k_A, k_B ≥ 2`: Welch on the log launch means, `CI = exp(D ± t_{0.975,ν}·SE) − 1`. If
///    both sides have zero spread the interval is the point `effect_rel` itself.
/// 3. First match wins: R1 CI wholly above +δ or below −δ → [`Verdict::Difference`]; R2 CI within
///    [−δ, δ] → [`Verdict::TieWithinNoise`] with equivalence shown; R3 `|effect_rel| ≤ δ` →
///    [`Verdict::TieWithinNoise`]; R4 a side has one launch → [`Verdict::SingleLaunch`];
///    R5 otherwise → [`Verdict::Underpowered`].
///
/// Non-finite launch means are dropped. `None` when a side has no launch mean left, when any is
/// zero or negative (no ratio exists), or when `noise_floor_rel` is negative or not finite.
#[must_use]
pub fn ab_verdict(
    a_launch_means: &[f64],
    b_launch_means: &[f64],
    noise_floor_rel: f64,
) -> Option<AbResult> {
    if !(noise_floor_rel.is_finite() && noise_floor_rel >= 0.0) {
        return None;
    }
    let (a, b) = (finite(a_launch_means), finite(b_launch_means));
    if a.iter().chain(&b).any(|&v| v <= 0.0) {
        return None;
    }
    let log_a: Vec<f64> = a.iter().map(|v| v.ln()).collect();
    let log_b: Vec<f64> = b.iter().map(|v| v.ln()).collect();
    let d = mean_of(&log_b)? - mean_of(&log_a)?;
    let effect_rel = d.exp_m1();
    let delta = noise_floor_rel;
    let replicated = log_a.len() >= 2 && log_b.len() >= 2;

    let log_welch = if replicated {
        welch(&log_a, &log_b)
    } else {
        None
    };
    let ci_rel = replicated.then(|| match &log_welch {
        Some(w) => {
            let (lo, hi) = w.ci95();
            (lo.exp_m1(), hi.exp_m1())
        }
        // Every launch on each side gave the same value: the data show no launch noise at all,
        // so the interval is the point estimate.
        None if no_spread(&log_a) && no_spread(&log_b) => (effect_rel, effect_rel),
        // Spread exists but Welch could not be evaluated (only for variances so small that
        // their squares underflow): an unbounded interval, which can only make the verdict
        // more cautious.
        None => (-1.0, f64::INFINITY),
    });

    let (verdict, equivalence_shown) = match ci_rel {
        Some((lo, hi)) if lo > delta || hi < -delta => (Verdict::Difference, false),
        Some((lo, hi)) if lo >= -delta && hi <= delta => (Verdict::TieWithinNoise, true),
        _ if effect_rel.abs() <= delta => (Verdict::TieWithinNoise, false),
        _ if !replicated => (Verdict::SingleLaunch, false),
        _ => (
            Verdict::Underpowered {
                launches_needed_per_side: launches_needed(&log_a, &log_b, effect_rel.abs() - delta),
            },
            false,
        ),
    };

    Some(AbResult {
        verdict,
        effect_rel,
        ci_rel,
        noise_floor_rel,
        launches_a: log_a.len(),
        launches_b: log_b.len(),
        equivalence_shown,
        log_welch,
    })
}

/// True when every value equals the first (the sample variance is exactly 0 then).
fn no_spread(values: &[f64]) -> bool {
    values.windows(2).all(|w| w[0].to_bits() == w[1].to_bits())
}

/// Smallest k ≤ [`MAX_LAUNCHES_ADVICE`] with `t_{0.975, 2k−2}·√2·CV_rm/√k ≤ margin`, where
/// `CV_rm` is the pooled SD of the log launch means (≈ the relative SD of a launch mean) and
/// `margin = |effect| − δ > 0`. This is the k per side at which an interval of today's spread,
/// centred on today's effect, would clear the floor.
fn launches_needed(log_a: &[f64], log_b: &[f64], margin: f64) -> Option<usize> {
    let (ka, kb) = (log_a.len(), log_b.len());
    let pooled_var = (count_f64(ka - 1) * variance_of(log_a)?
        + count_f64(kb - 1) * variance_of(log_b)?)
        / count_f64(ka + kb - 2);
    let cv_rm = pooled_var.sqrt();
    (2..=MAX_LAUNCHES_ADVICE).find(|&k| {
        t_quantile_975(count_f64(2 * k - 2)) * std::f64::consts::SQRT_2 * cv_rm
            / count_f64(k).sqrt()
            <= margin
    })
}

/// `δ_AA`, the noise floor that same-vs-same controls show, from the relative differences
/// `d = x̄₂/x̄₁ − 1` of P pairs of launches of one identical configuration.
///
/// * P ≥ 3: `2.77·sqrt(Σd²/(2P))`, the 95% band of A/A differences (`E[d²] = 2·Var(launch mean)`).
/// * P = 1 or 2: `max |d|`, the literal rule "a difference smaller than what a configuration
///   shows against itself is not a finding".
///
/// Non-finite differences are dropped; `None` when none is left.
#[must_use]
pub fn noise_floor_from_controls(pair_rel_diffs: &[f64]) -> Option<f64> {
    let d = finite(pair_rel_diffs);
    match d.len() {
        0 => None,
        1 | 2 => Some(d.iter().map(|x| x.abs()).fold(0.0, f64::max)),
        p => {
            let sum_sq: f64 = d.iter().map(|x| x * x).sum();
            Some(AA_BAND_FACTOR * (sum_sq / (2.0 * count_f64(p))).sqrt())
        }
    }
}

/// `δ = max(δ_static, δ_AA)`: the floor a comparison is judged against. A missing or non-finite
/// control value leaves the static floor.
///
/// The arms' own variance is deliberately not folded in: it is already in the interval, and
/// counting it twice would make "difference" unreachable (`research/stats.md` §8.2 step 1).
#[must_use]
pub fn effective_noise_floor(static_floor: f64, from_controls: Option<f64>) -> f64 {
    match from_controls {
        Some(aa) if aa.is_finite() => static_floor.max(aa),
        _ => static_floor,
    }
}

#[cfg(test)]
#[path = "verdict_tests.rs"]
mod tests;
