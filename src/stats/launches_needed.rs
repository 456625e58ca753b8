//! Launches per side that would settle an inconclusive regression cell: the smallest n such
//! that, at the observed launch-to-launch spread σ (the pooled SD of the log launch
//! summaries, close to the launch CV), a change of T is detected by the one-sided Welch test
//! at α with power 1 − β (β = 0.2), which is also about what the non-inferiority half of TOST
//! needs to rule a change of T out (`research/regression.md` §3.5, §0 item 7).
//!
//! With equal n per side and equal spread, `se = σ·√(2/n)` and `df = 2n − 2`, so the condition
//! is `(t_{1−α, df} + t_{1−β, df})·σ·√(2/n) ≤ ln(1 + T)` (the usual normal-approximation power
//! formula with t quantiles; e.g. Julious 2004, Stat Med 23:1921). At CV 2% and T 5% this gives
//! 4 per side, at CV 15% it gives 118 (16 for T = 15%): the research notes quote about 4, 140 and 17.

use super::count_f64;
use super::interval::t_quantile;

/// Power the advice is for.
pub const POWER: f64 = 0.8;

/// Past this, the advice is "more than" it.
pub const MAX_LAUNCHES: usize = 1000;

/// What settling a cell would take.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LaunchesNeeded {
    /// This many launches per side.
    PerSide(usize),
    /// More than [`MAX_LAUNCHES`] per side.
    Beyond,
}

/// Launches per side for spread `sd` (log scale), threshold `threshold` (a fraction) and `alpha`.
/// `None` when the inputs are out of range; a zero spread needs the minimum, 2.
#[must_use]
pub fn launches_needed(sd: f64, threshold: f64, alpha: f64) -> Option<LaunchesNeeded> {
    if !(sd.is_finite()
        && sd >= 0.0
        && threshold > 0.0
        && threshold.is_finite()
        && alpha > 0.0
        && alpha < 0.5)
    {
        return None;
    }
    let m = threshold.ln_1p();
    for n in 2..=MAX_LAUNCHES {
        let df = count_f64(2 * n - 2);
        let z = t_quantile(1.0 - alpha, df)? + t_quantile(POWER, df)?;
        if z * sd * (2.0 / count_f64(n)).sqrt() <= m {
            return Some(LaunchesNeeded::PerSide(n));
        }
    }
    Some(LaunchesNeeded::Beyond)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_scipy_vectors() {
        // From testdata/regress/stats_vectors.py (the same condition with scipy.stats.t.ppf).
        for (sd, t, want) in [
            (0.02, 0.05, 4),
            (0.045, 0.05, 12),
            (0.15, 0.15, 16),
            (0.15, 0.05, 118),
            (0.0, 0.05, 2),
        ] {
            assert_eq!(
                launches_needed(sd, t, 0.05),
                Some(LaunchesNeeded::PerSide(want)),
                "sd {sd} T {t}"
            );
        }
        assert_eq!(
            launches_needed(2.0, 0.01, 0.05),
            Some(LaunchesNeeded::Beyond)
        );
        assert_eq!(launches_needed(f64::NAN, 0.05, 0.05), None);
    }
}
