//! The per-cell statistics of regression mode (DESIGN.md "Regression mode",
//! `research/regression.md` §3.5, §4.3): the change from BASE to HEAD as a ratio of launch
//! summaries, taken on the log scale so that it reads as a percentage, with Welch's interval
//! (Welch 1947, Satterthwaite 1946 df, from `welch.rs`), the one-sided test in the direction of "worse", its
//! mirror, and the two one-sided tests of equivalence within ±T (TOST, Schuirmann 1987).
//!
//! The sign convention makes "worse" positive whatever the metric: `d = s·(mean ln H − mean ln B)`
//! with `s = +1` when lower is better (latencies) and `s = −1` when higher is better
//! (throughput), so `d > 0` is a regression. The threshold T is the margin `m = ln(1 + T)`
//! on either side: a change worse than T is a ratio beyond `1 + T` in the bad direction.
//!
//! Both sides constant (zero variance) leave no standard error: the change is then known
//! exactly, and every test is decided by the sign of `d` against 0 and ±m (p 0 or 1). The
//! known vectors in the tests come from scipy (`testdata/regress/stats_vectors.py`).

use super::describe::{mean_of, variance_of};
use super::interval::{t_quantile, t_sf};
use super::welch::welch;
use super::{Direction, count_f64, finite};

/// The change of one cell, oriented so that positive is worse.
#[derive(Debug, Clone, PartialEq)]
pub struct LogRatio {
    /// `d`: the oriented difference of the mean log launch summaries (positive: worse).
    pub d: f64,
    /// `mean ln H − mean ln B`, not oriented: `exp(raw) − 1` is the change as a user reads it.
    pub raw: f64,
    /// Welch standard error of `d` (0 when both sides are constant).
    pub se: f64,
    /// Welch–Satterthwaite degrees of freedom (`∞` when both sides are constant).
    pub df: f64,
    /// The two-sided `1 − α` interval of `raw` (not oriented).
    pub ci: (f64, f64),
    /// One-sided p of "HEAD is worse" (H0: d ≤ 0).
    pub p_worse: f64,
    /// One-sided p of "HEAD is better" (H0: d ≥ 0).
    pub p_better: f64,
    /// TOST p: the larger of the two one-sided p values against −m and +m.
    pub p_tost: f64,
}

impl LogRatio {
    /// The change as a fraction (`+0.08` is 8% higher on HEAD), from `raw`.
    pub fn change(&self) -> f64 {
        self.raw.exp_m1()
    }

    /// The interval of the change as fractions.
    pub fn change_ci(&self) -> (f64, f64) {
        (self.ci.0.exp_m1(), self.ci.1.exp_m1())
    }

    /// The oriented interval bounds (low, high) of `d`.
    pub fn worse_ci(&self, direction: Direction) -> (f64, f64) {
        match direction {
            Direction::LowerIsBetter => self.ci,
            Direction::HigherIsBetter => (-self.ci.1, -self.ci.0),
        }
    }
}

/// The change from `base` to `head` (launch summaries, positive values: a value ≤ 0 has no
/// logarithm and is dropped with the non-finite ones), with the interval at `1 − alpha` and
/// the equivalence margin `ln(1 + threshold)`. `None` when a side has fewer than two usable
/// values or `alpha`/`threshold` are out of range.
#[must_use]
pub fn log_ratio(
    base: &[f64],
    head: &[f64],
    direction: Direction,
    threshold: f64,
    alpha: f64,
) -> Option<LogRatio> {
    if !(alpha > 0.0 && alpha < 0.5 && threshold > 0.0 && threshold.is_finite()) {
        return None;
    }
    let logs = |v: &[f64]| -> Vec<f64> {
        finite(v)
            .into_iter()
            .filter(|x| *x > 0.0)
            .map(f64::ln)
            .collect()
    };
    let (lb, lh) = (logs(base), logs(head));
    if lb.len() < 2 || lh.len() < 2 {
        return None;
    }
    let sign = match direction {
        Direction::LowerIsBetter => 1.0,
        Direction::HigherIsBetter => -1.0,
    };
    let m = threshold.ln_1p();
    // Welch's test of the logs (`welch.rs`); `None` there with two constant sides is the
    // exact case, and anything else it refuses is refused here too.
    let Some(w) = welch(&lb, &lh) else {
        if variance_of(&lb)? > 0.0 || variance_of(&lh)? > 0.0 {
            return None;
        }
        let raw = mean_of(&lh)? - mean_of(&lb)?;
        let d = sign * raw;
        let step = |x: f64| if x > 0.0 { 0.0 } else { 1.0 };
        return Some(LogRatio {
            d,
            raw,
            se: 0.0,
            df: f64::INFINITY,
            ci: (raw, raw),
            p_worse: step(d),
            p_better: step(-d),
            p_tost: step(m - d.abs()),
        });
    };
    let (raw, se, df) = (w.diff, w.se, w.df);
    let d = sign * raw;
    let q = t_quantile(1.0 - alpha / 2.0, df)?;
    let p_worse = t_sf(d / se, df)?;
    let p_better = t_sf(-d / se, df)?;
    // H0: d ≤ −m, rejected for large (d + m)/se; H0: d ≥ m, rejected for large (m − d)/se.
    let p_tost = t_sf((d + m) / se, df)?.max(t_sf((m - d) / se, df)?);
    let out = LogRatio {
        d,
        raw,
        se,
        df,
        ci: (raw - q * se, raw + q * se),
        p_worse,
        p_better,
        p_tost,
    };
    [
        out.d, out.se, out.df, out.ci.0, out.ci.1, p_worse, p_better, p_tost,
    ]
    .iter()
    .all(|v| v.is_finite())
    .then_some(out)
}

/// The standard deviation of the logs of `values` pooled over the groups given (weights
/// `n − 1`): the launch-to-launch spread on the log scale, which is close to the launch CV.
/// `None` when no group has two positive finite values.
#[must_use]
pub fn pooled_log_sd(groups: &[&[f64]]) -> Option<f64> {
    let mut ss = 0.0;
    let mut df = 0usize;
    for g in groups {
        let logs: Vec<f64> = finite(g)
            .into_iter()
            .filter(|x| *x > 0.0)
            .map(f64::ln)
            .collect();
        if logs.len() < 2 {
            continue;
        }
        ss += variance_of(&logs)? * count_f64(logs.len() - 1);
        df += logs.len() - 1;
    }
    (df > 0).then(|| (ss / count_f64(df)).sqrt())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(got: f64, want: f64, tol: f64) {
        assert!((got - want).abs() <= tol, "got {got}, want {want} ± {tol}");
    }

    // Vectors from testdata/regress/stats_vectors.py (scipy.stats.ttest_ind(equal_var=False)
    // on the logs, scipy.stats.t.ppf for the interval, TOST from two one-sided t tests).
    #[test]
    fn latency_slower_on_head_matches_scipy() {
        let base = [18.3, 18.5, 18.4];
        let head = [19.9, 20.1, 19.8];
        let r = log_ratio(&base, &head, Direction::LowerIsBetter, 0.05, 0.05).unwrap();
        close(r.raw, V1_RAW, 1e-12);
        close(r.se, V1_SE, 1e-12);
        close(r.df, V1_DF, 1e-9);
        close(r.p_worse, V1_P_WORSE, 1e-9);
        close(r.ci.0, V1_CI_LO, 1e-9);
        close(r.ci.1, V1_CI_HI, 1e-9);
        close(r.p_tost, V1_P_TOST, 1e-9);
        close(r.p_better, 1.0 - V1_P_WORSE, 1e-9);
    }

    #[test]
    fn throughput_equivalent_matches_scipy() {
        let base = [5210.0, 5190.0, 5230.0, 5205.0];
        let head = [5200.0, 5222.0, 5195.0, 5212.0];
        let r = log_ratio(&base, &head, Direction::HigherIsBetter, 0.05, 0.05).unwrap();
        close(r.raw, V2_RAW, 1e-12);
        close(r.se, V2_SE, 1e-12);
        close(r.df, V2_DF, 1e-9);
        close(r.p_worse, V2_P_WORSE, 1e-9);
        close(r.p_tost, V2_P_TOST, 1e-9);
        close(r.ci.0, V2_CI_LO, 1e-9);
        close(r.ci.1, V2_CI_HI, 1e-9);
        assert!(r.p_tost < 0.05);
    }

    #[test]
    fn noisy_throughput_matches_scipy() {
        let base = [100.0, 120.0, 90.0];
        let head = [95.0, 118.0, 80.0];
        let r = log_ratio(&base, &head, Direction::HigherIsBetter, 0.05, 0.05).unwrap();
        close(r.raw, V3_RAW, 1e-12);
        close(r.se, V3_SE, 1e-12);
        close(r.df, V3_DF, 1e-9);
        close(r.ci.0, V3_CI_LO, 1e-9);
        close(r.ci.1, V3_CI_HI, 1e-9);
        close(r.p_worse, V3_P_WORSE, 1e-9);
        close(r.p_tost, V3_P_TOST, 1e-9);
    }

    #[test]
    fn constant_sides_are_exact() {
        let r = log_ratio(
            &[10.0, 10.0],
            &[10.0, 10.0],
            Direction::LowerIsBetter,
            0.05,
            0.05,
        )
        .unwrap();
        assert_eq!((r.d, r.p_worse, r.p_better, r.p_tost), (0.0, 1.0, 1.0, 0.0));
        let r = log_ratio(
            &[10.0, 10.0],
            &[12.0, 12.0],
            Direction::LowerIsBetter,
            0.05,
            0.05,
        )
        .unwrap();
        assert_eq!((r.p_worse, r.p_tost), (0.0, 1.0));
    }

    #[test]
    fn too_few_or_unusable_values() {
        assert!(log_ratio(&[1.0], &[1.0, 2.0], Direction::LowerIsBetter, 0.05, 0.05).is_none());
        assert!(
            log_ratio(
                &[0.0, -1.0, 2.0],
                &[1.0, 2.0],
                Direction::LowerIsBetter,
                0.05,
                0.05
            )
            .is_none()
        );
        assert!(
            log_ratio(
                &[f64::NAN, 1.0, 2.0],
                &[1.0, 2.0],
                Direction::LowerIsBetter,
                0.05,
                0.5
            )
            .is_none()
        );
    }

    #[test]
    fn pooled_sd_of_logs() {
        let a = [100.0, 110.0];
        let b = [50.0, 55.0];
        // Both groups have the same log spread, so the pooled value equals either one.
        let one = (110f64.ln() - 100f64.ln()).abs() / 2f64.sqrt();
        close(pooled_log_sd(&[&a, &b]).unwrap(), one, 1e-12);
        assert!(pooled_log_sd(&[&[1.0]]).is_none());
    }

    // Generated digits, kept as scipy printed them so that they can be compared by eye.
    #[allow(clippy::unreadable_literal)]
    mod vectors {
        include!("log_ratio_vectors.rs");
    }
    use vectors::*;
}
