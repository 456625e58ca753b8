//! 95% confidence intervals at the launch level and the Student t quantiles behind them.
//!
//! With k ≥ 2 engine launches the interval is the t interval over the k launch means, df = k − 1.
//! This equals the exact balanced random-effects interval and Kalibera & Jones' `confidence95`
//! (Kalibera & Jones 2013; `research/stats.md` §7.3, §8.1 step 3). Runs are never pooled across
//! launches: runs of one launch share its effect, and pooling them narrows the interval about
//! fivefold in the §7.3 example while hiding exactly the variance that separates two launches.
//! With one launch the within-launch interval is all there is, and it is labelled as such.

use statrs::distribution::{ContinuousCDF, Normal, StudentsT};

use super::describe::{mean_of, sd_of};
use super::{count_f64, finite};

/// Degrees of freedom above which the t quantile comes from the Cornish–Fisher expansion rather
/// than statrs. statrs inverts the regularized incomplete beta function, which loses accuracy as
/// df grows (t_{0.975} is off by 1e-4 at df = 1e6 and by 0.13 at 1e7) and did not return at all
/// at 1e8 when probed. A Welch df over per-request samples can be that large. Above 1000 the four
/// expansion terms are accurate to better than 1e-10.
const LARGE_DF: f64 = 1000.0;

/// Degrees of freedom above which the t tail is taken as the normal tail: statrs' t tail drifts
/// beyond it (sf(1.96) = 0.02495 at df = 1e12, 0.5 at 1e300), while the normal tail's own error
/// is below 2e-8 there.
const NORMAL_TAIL_DF: f64 = 1e7;

/// The `p` quantile of Student's t with `df` degrees of freedom (fractional df allowed, as Welch
/// needs); infinite `df` gives the normal quantile.
///
/// `None` when `p` is not strictly inside (0, 1) or `df` is NaN or not positive.
#[must_use]
pub fn t_quantile(p: f64, df: f64) -> Option<f64> {
    if !(p > 0.0 && p < 1.0) || df.is_nan() || df <= 0.0 {
        return None;
    }
    if df > LARGE_DF {
        return Some(cornish_fisher_t(Normal::standard().inverse_cdf(p), df));
    }
    let t = StudentsT::new(0.0, 1.0, df).ok()?.inverse_cdf(p);
    t.is_finite().then_some(t)
}

/// t quantile from the normal quantile `z` by the expansion of Abramowitz & Stegun 26.7.5
/// (Cornish–Fisher), `t = z + g1/ν + g2/ν² + g3/ν³ + g4/ν⁴`; `ν = ∞` gives `z`.
fn cornish_fisher_t(z: f64, df: f64) -> f64 {
    let z2 = z * z;
    let g1 = z * (z2 + 1.0) / 4.0;
    let g2 = z * ((5.0 * z2 + 16.0) * z2 + 3.0) / 96.0;
    let g3 = z * (((3.0 * z2 + 19.0) * z2 + 17.0) * z2 - 15.0) / 384.0;
    let g4 = z * ((((79.0 * z2 + 776.0) * z2 + 1482.0) * z2 - 1920.0) * z2 - 945.0) / 92160.0;
    let v = 1.0 / df;
    z + v * (g1 + v * (g2 + v * (g3 + v * g4)))
}

/// Upper tail `P(T_df > x)`, with the normal tail for very large df (see [`NORMAL_TAIL_DF`]).
/// `None` when `df` is NaN or not positive or `x` is NaN.
pub(super) fn t_sf(x: f64, df: f64) -> Option<f64> {
    if x.is_nan() || df.is_nan() || df <= 0.0 {
        return None;
    }
    let sf = if df > NORMAL_TAIL_DF {
        Normal::standard().sf(x)
    } else {
        StudentsT::new(0.0, 1.0, df).ok()?.sf(x)
    };
    sf.is_finite().then_some(sf)
}

/// The two-sided 95% critical value `t_{0.975, df}`: 12.706 for df = 1, 2.365 for df = 7,
/// 1.960 as df → ∞.
///
/// A NaN or non-positive `df` gives `f64::INFINITY`: with no degrees of freedom the interval is
/// unbounded, and an infinite width can only make a verdict more cautious, never wrong.
#[must_use]
pub fn t_quantile_975(df: f64) -> f64 {
    t_quantile(0.975, df).unwrap_or(f64::INFINITY)
}

/// What a confidence interval's spread is made of, which decides what it may be used for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum IntervalBasis {
    /// Over the means of `launches` engine launches (df = launches − 1): includes the
    /// launch-to-launch variance, so it is the interval for decisions.
    AcrossLaunches {
        /// Number of launches that had at least one finite run value.
        launches: usize,
    },
    /// Over the `runs` of a single launch (df = runs − 1): excludes the launch-to-launch variance,
    /// so it is too narrow to show a difference between configurations ("single instance").
    SingleInstance {
        /// Number of finite run values in the launch.
        runs: usize,
    },
}

/// A two-sided 95% t interval `estimate ± t_{0.975, df}·s/√n`.
#[derive(Debug, Clone, PartialEq)]
pub struct Interval {
    /// Point estimate: the mean of the launch means, or of the runs for a single launch.
    pub estimate: f64,
    /// Lower end of the 95% interval.
    pub low: f64,
    /// Upper end of the 95% interval.
    pub high: f64,
    /// Degrees of freedom of the t quantile used.
    pub df: f64,
    /// What the interval's spread comes from.
    pub basis: IntervalBasis,
}

impl Interval {
    /// Half the width of the interval.
    #[must_use]
    pub fn half_width(&self) -> f64 {
        (self.high - self.low) / 2.0
    }

    /// Half-width relative to the estimate (`None` when the estimate is 0).
    #[must_use]
    pub fn relative_half_width(&self) -> Option<f64> {
        (self.estimate != 0.0).then(|| self.half_width() / self.estimate.abs())
    }
}

/// The 95% interval for a level whose runs are grouped by engine launch (one `Vec` per launch).
///
/// * k ≥ 2 launches: the t interval over the k launch means (each the mean of that launch's
///   runs), df = k − 1, basis [`IntervalBasis::AcrossLaunches`]. Launches weigh equally whatever
///   their run counts; this is robust and slightly conservative when the counts differ
///   (`research/stats.md` §7.3, unbalanced case).
/// * k = 1: the t interval over that launch's runs, df = runs − 1, basis
///   [`IntervalBasis::SingleInstance`].
///
/// Non-finite run values are dropped and a launch left with no runs is not counted. `None` when
/// no launch has data, or when the single launch has fewer than two runs.
#[must_use]
pub fn launch_interval(launches: &[Vec<f64>]) -> Option<Interval> {
    let launches: Vec<Vec<f64>> = launches
        .iter()
        .map(|runs| finite(runs))
        .filter(|runs| !runs.is_empty())
        .collect();
    match launches.as_slice() {
        [] => None,
        [only] => t_interval(only, IntervalBasis::SingleInstance { runs: only.len() }),
        several => {
            let means: Vec<f64> = several
                .iter()
                .map(|runs| mean_of(runs))
                .collect::<Option<_>>()?;
            t_interval(
                &means,
                IntervalBasis::AcrossLaunches {
                    launches: means.len(),
                },
            )
        }
    }
}

/// `x̄ ± t_{0.975, n−1}·s/√n` over finite `values`; `None` when n < 2.
fn t_interval(values: &[f64], basis: IntervalBasis) -> Option<Interval> {
    let n = values.len();
    let estimate = mean_of(values)?;
    let sd = sd_of(values)?;
    let df = count_f64(n - 1);
    let half = t_quantile_975(df) * sd / count_f64(n).sqrt();
    Some(Interval {
        estimate,
        low: estimate - half,
        high: estimate + half,
        df,
        basis,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(got: f64, want: f64, tol: f64) {
        assert!((got - want).abs() <= tol, "got {got}, want {want} ± {tol}");
    }

    fn is_plus_infinity(x: f64) -> bool {
        x.is_infinite() && x.is_sign_positive()
    }

    #[test]
    fn t_quantiles_match_tables() {
        // research/stats.md §6 (checked against mpmath) and ux_crates.md §5 (df = 7).
        for (df, want) in [
            (1.0, 12.7062),
            (2.0, 4.3027),
            (4.0, 2.7764),
            (7.0, 2.3646),
            (9.0, 2.2622),
            (14.0, 2.1448),
            (29.0, 2.0452),
            (7.3, 2.3451),
        ] {
            close(t_quantile_975(df), want, 5e-5);
        }
    }

    #[test]
    fn t_quantile_limits() {
        close(t_quantile_975(f64::INFINITY), 1.959_963_985, 1e-9);
        // mpmath roots of the t cdf, either side of the switch to the expansion and far beyond.
        close(t_quantile_975(1000.0), 1.962_339_080_826, 1e-9);
        close(t_quantile_975(1001.0), 1.962_336_705_281, 1e-9);
        close(t_quantile_975(5000.0), 1.960_438_551_707, 1e-9);
        close(t_quantile_975(1e5), 1.959_987_707_535, 1e-9);
        close(t_quantile_975(1e6), 1.959_966_357, 1e-9);
        close(t_quantile_975(1e7), 1.959_964_221_767, 1e-9);
        close(t_quantile_975(1e300), 1.959_963_985, 1e-9);
        assert!(is_plus_infinity(t_quantile_975(0.0)));
        assert!(is_plus_infinity(t_quantile_975(-3.0)));
        assert!(is_plus_infinity(t_quantile_975(f64::NAN)));
        assert_eq!(t_quantile(1.0, 5.0), None);
        assert_eq!(t_quantile(0.0, 5.0), None);
        close(t_quantile(0.025, 7.0).unwrap(), -2.3646, 5e-5);
    }

    #[test]
    fn t_tail_is_sane_for_any_df() {
        // mpmath: P(T_7 > 2.3646242516) = 0.025; normal tail at 1.959963985 is 0.025.
        close(t_sf(2.364_624_251_6, 7.0).unwrap(), 0.025, 1e-9);
        close(t_sf(1.959_963_985, 1e12).unwrap(), 0.025, 1e-9);
        close(t_sf(1.959_963_985, 1e300).unwrap(), 0.025, 1e-9);
        close(t_sf(0.0, 3.0).unwrap(), 0.5, 1e-15);
        assert_eq!(t_sf(1.0, 0.0), None);
        assert_eq!(t_sf(f64::NAN, 3.0), None);
    }

    #[test]
    fn two_launches_use_df_1_and_never_pool_runs() {
        // Launch means 100.5 and 104.5: s = 2√2, so the half-width is 12.7062·2√2/√2 = 25.4124.
        let iv = launch_interval(&[vec![100.0, 101.0], vec![104.0, 105.0]]).unwrap();
        assert_eq!(iv.basis, IntervalBasis::AcrossLaunches { launches: 2 });
        close(iv.df, 1.0, 0.0);
        close(iv.estimate, 102.5, 1e-12);
        close(iv.half_width(), 25.4124, 1e-3);
        close(iv.low, 102.5 - 25.4124, 1e-3);
        close(iv.high, 102.5 + 25.4124, 1e-3);
        // Pooling the four runs would give 3.1824·2.0817/2 = 3.31: far narrower, and wrong.
        assert!(iv.half_width() > 20.0);
    }

    #[test]
    fn anova_example_gives_the_hierarchical_interval() {
        // research/stats.md §7.3: 3 launches × 5 runs, hierarchical CI ±9.648 (df = 2), not the
        // pooled ±1.862 (df = 14).
        let iv = launch_interval(&[
            vec![100.0, 101.0, 99.0, 100.5, 99.5],
            vec![94.0, 95.0, 93.5, 94.5, 95.5],
            vec![102.0, 103.0, 101.5, 102.5, 101.0],
        ])
        .unwrap();
        assert_eq!(iv.basis, IntervalBasis::AcrossLaunches { launches: 3 });
        close(iv.df, 2.0, 0.0);
        close(iv.estimate, 98.8333, 1e-4);
        close(iv.half_width(), 9.648, 1e-3);
    }

    #[test]
    fn unequal_run_counts_weigh_launches_equally() {
        // Launch means 10 and 20 whatever the run counts: estimate 15, not (10·3 + 20)/4 = 12.5.
        let iv = launch_interval(&[vec![9.0, 10.0, 11.0], vec![20.0]]).unwrap();
        close(iv.estimate, 15.0, 1e-12);
        close(
            iv.half_width(),
            12.7062 * 50.0_f64.sqrt() / 2.0_f64.sqrt(),
            1e-3,
        );
    }

    #[test]
    fn single_launch_is_labelled_single_instance() {
        // Runs 10, 12, 14: mean 12, s = 2, t_{0.975,2} = 4.3027 → ±4.3027·2/√3 = ±4.9683.
        let iv = launch_interval(&[vec![10.0, 12.0, 14.0]]).unwrap();
        assert_eq!(iv.basis, IntervalBasis::SingleInstance { runs: 3 });
        close(iv.df, 2.0, 0.0);
        close(iv.estimate, 12.0, 1e-12);
        close(iv.half_width(), 4.9683, 1e-3);
        close(iv.relative_half_width().unwrap(), 4.9683 / 12.0, 1e-4);
    }

    #[test]
    fn not_computable_cases_are_none() {
        assert_eq!(launch_interval(&[]), None);
        assert_eq!(launch_interval(&[vec![]]), None);
        assert_eq!(launch_interval(&[vec![5.0]]), None);
        assert_eq!(launch_interval(&[vec![f64::NAN, f64::NAN]]), None);
    }

    #[test]
    fn nan_runs_and_empty_launches_are_dropped() {
        // The NaN-only and empty launches do not count, leaving one launch of two runs.
        let iv = launch_interval(&[vec![1.0, f64::NAN, 3.0], vec![f64::NAN], vec![]]).unwrap();
        assert_eq!(iv.basis, IntervalBasis::SingleInstance { runs: 2 });
        close(iv.estimate, 2.0, 1e-12);
        assert!(iv.low.is_finite() && iv.high.is_finite());
    }

    #[test]
    fn identical_launch_means_give_a_zero_width_interval() {
        let iv = launch_interval(&[vec![50.0, 52.0], vec![51.0, 51.0]]).unwrap();
        assert_eq!((iv.low, iv.estimate, iv.high), (51.0, 51.0, 51.0));
    }
}
