//! Variance components of runs nested in launches: the one-way random-effects ANOVA
//! `y_ij = μ + b_i + e_ij` with the method-of-moments (ANOVA) estimator and the unbalanced
//! `m₀` (`research/stats.md` §7.3; the nested-level view of Kalibera & Jones 2013). It splits a
//! level's spread into launch-to-launch (`between`) and run-to-run (`within`) variance, which is
//! what tells a reader whether more runs or more launches would help. statrs' `f_oneway` gives
//! no mean squares and fails on constant groups, so this is our own.

use super::describe::mean_of;
use super::{count_f64, finite};

/// Variance components of one level, runs grouped by launch.
#[derive(Debug, Clone, PartialEq)]
pub struct VarianceComponents {
    /// Number of groups (launches) that had at least one finite value.
    pub groups: usize,
    /// Number of finite values over all groups (N).
    pub n: usize,
    /// Mean of all N values (the ANOVA grand mean; equal to the mean of the group means only
    /// when the groups are balanced).
    pub grand_mean: f64,
    /// `σ̂_b² = max(0, (MSB − MSW)/m₀)`: launch-to-launch variance, floored at 0 because a
    /// negative variance estimate only means "no launch effect detectable".
    pub between: f64,
    /// `σ̂_w² = MSW`: run-to-run variance within a launch.
    pub within: f64,
    /// Intraclass correlation `σ̂_b² / (σ̂_b² + σ̂_w²)`; 0 when both are 0.
    pub icc: f64,
    /// Mean square between groups `Σ m_i (ȳ_i − ȳ)² / (k − 1)`.
    pub msb: f64,
    /// Mean square within groups `ΣΣ (y_ij − ȳ_i)² / (N − k)`.
    pub msw: f64,
    /// Effective group size `(N − Σ m_i²/N) / (k − 1)`; the common size when balanced.
    pub m0: f64,
}

impl VarianceComponents {
    /// Design effect `1 + (m₀ − 1)·ICC`: how much the run-level variance of a mean understates
    /// its true variance when launches are ignored.
    #[must_use]
    pub fn design_effect(&self) -> f64 {
        1.0 + (self.m0 - 1.0) * self.icc
    }

    /// Effective number of independent values `N / DEFF`, between k and N.
    #[must_use]
    pub fn effective_n(&self) -> f64 {
        count_f64(self.n) / self.design_effect()
    }

    /// F statistic `MSB / MSW` on (k − 1, N − k) df; `None` when MSW is 0.
    #[must_use]
    pub fn f_statistic(&self) -> Option<f64> {
        (self.msw > 0.0).then(|| self.msb / self.msw)
    }
}

/// One-way random-effects ANOVA over `groups` (one `Vec` of run values per launch).
///
/// Non-finite values are dropped and groups left empty are not counted. `None` unless at least
/// two groups remain and at least one group has two values (N > k), since otherwise MSB or MSW
/// has no degrees of freedom.
#[must_use]
pub fn variance_components(groups: &[Vec<f64>]) -> Option<VarianceComponents> {
    let groups: Vec<Vec<f64>> = groups
        .iter()
        .map(|g| finite(g))
        .filter(|g| !g.is_empty())
        .collect();
    let k = groups.len();
    let n: usize = groups.iter().map(Vec::len).sum();
    if k < 2 || n <= k {
        return None;
    }
    let all: Vec<f64> = groups.iter().flatten().copied().collect();
    let grand_mean = mean_of(&all)?;
    let means: Vec<f64> = groups.iter().map(|g| mean_of(g)).collect::<Option<_>>()?;

    let ss_between: f64 = groups
        .iter()
        .zip(&means)
        .map(|(g, m)| count_f64(g.len()) * (m - grand_mean).powi(2))
        .sum();
    let ss_within: f64 = groups
        .iter()
        .zip(&means)
        .map(|(g, m)| g.iter().map(|y| (y - m).powi(2)).sum::<f64>())
        .sum();
    let msb = ss_between / count_f64(k - 1);
    let msw = ss_within / count_f64(n - k);

    let sum_sq_sizes: f64 = groups.iter().map(|g| count_f64(g.len()).powi(2)).sum();
    let m0 = (count_f64(n) - sum_sq_sizes / count_f64(n)) / count_f64(k - 1);

    let between = ((msb - msw) / m0).max(0.0);
    let within = msw;
    let total = between + within;
    let icc = if total > 0.0 { between / total } else { 0.0 };

    let result = VarianceComponents {
        groups: k,
        n,
        grand_mean,
        between,
        within,
        icc,
        msb,
        msw,
        m0,
    };
    [grand_mean, msb, msw, between, icc, m0]
        .iter()
        .all(|v| v.is_finite())
        .then_some(result)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(got: f64, want: f64, tol: f64) {
        assert!((got - want).abs() <= tol, "got {got}, want {want} ± {tol}");
    }

    #[test]
    fn stats_md_three_by_five_example() {
        // research/stats.md §7.3: ȳ = 98.833, MSB = 75.417, MSW = 0.625, σ̂_b² = 14.958,
        // ICC = 0.960, DEFF = 4.84, n_eff = 3.10.
        let vc = variance_components(&[
            vec![100.0, 101.0, 99.0, 100.5, 99.5],
            vec![94.0, 95.0, 93.5, 94.5, 95.5],
            vec![102.0, 103.0, 101.5, 102.5, 101.0],
        ])
        .unwrap();
        assert_eq!((vc.groups, vc.n), (3, 15));
        close(vc.grand_mean, 98.8333, 1e-4);
        close(vc.msb, 75.4167, 1e-4);
        close(vc.msw, 0.625, 1e-12);
        close(vc.m0, 5.0, 1e-12);
        close(vc.between, 14.9583, 1e-4);
        close(vc.within, 0.625, 1e-12);
        close(vc.icc, 0.9599, 1e-4);
        close(vc.design_effect(), 4.84, 5e-3);
        close(vc.effective_n(), 3.10, 5e-3);
        close(vc.f_statistic().unwrap(), 120.6667, 1e-4);
    }

    #[test]
    fn unbalanced_groups_use_m0() {
        // Sizes 3, 2, 4 (N = 9): m₀ = (9 − 29/9)/2 = 2.8889. Hand/mpmath: ȳ = 11.3333,
        // MSB = 13.75, MSW = 0.75, σ̂_b² = 13/2.8889 = 4.5, ICC = 0.857143.
        let vc = variance_components(&[
            vec![10.0, 11.0, 12.0],
            vec![14.0, 15.0],
            vec![9.0, 10.0, 11.0, 10.0],
        ])
        .unwrap();
        close(vc.m0, 2.888_888_889, 1e-9);
        close(vc.grand_mean, 11.333_333_333, 1e-9);
        close(vc.msb, 13.75, 1e-9);
        close(vc.msw, 0.75, 1e-12);
        close(vc.between, 4.5, 1e-9);
        close(vc.icc, 0.857_142_857, 1e-9);
    }

    #[test]
    fn between_is_floored_at_zero() {
        // Group means 2 and 2.5 are closer than the run noise predicts: MSB = 0.375,
        // MSW = 20.5/4 = 5.125, so (MSB − MSW)/m₀ < 0 and is floored.
        let vc = variance_components(&[vec![0.0, 2.0, 4.0], vec![0.0, 2.5, 5.0]]).unwrap();
        close(vc.msb, 0.375, 1e-12);
        close(vc.msw, 5.125, 1e-12);
        close(vc.between, 0.0, 0.0);
        close(vc.icc, 0.0, 0.0);
        close(vc.design_effect(), 1.0, 0.0);
    }

    #[test]
    fn all_equal_values_give_zeros_not_nan() {
        let vc = variance_components(&[vec![7.0, 7.0], vec![7.0, 7.0, 7.0]]).unwrap();
        assert_eq!(
            (vc.between, vc.within, vc.icc, vc.msb, vc.msw),
            (0.0, 0.0, 0.0, 0.0, 0.0)
        );
        assert_eq!(vc.f_statistic(), None);
    }

    #[test]
    fn constant_groups_with_different_levels_are_all_between() {
        // statrs' f_oneway errors here; we report ICC = 1.
        let vc = variance_components(&[vec![1.0, 1.0], vec![3.0, 3.0]]).unwrap();
        close(vc.within, 0.0, 0.0);
        close(vc.between, 2.0, 1e-12);
        close(vc.icc, 1.0, 0.0);
    }

    #[test]
    fn not_estimable_is_none() {
        assert_eq!(variance_components(&[]), None);
        assert_eq!(variance_components(&[vec![1.0, 2.0, 3.0]]), None);
        // k = 2 but one value each: no within-group df.
        assert_eq!(variance_components(&[vec![1.0], vec![2.0]]), None);
        // NaN-only group is dropped, leaving one group.
        assert_eq!(variance_components(&[vec![1.0, 2.0], vec![f64::NAN]]), None);
    }
}
