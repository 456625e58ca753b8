//! Welch's two-sample t test for unequal variances (Welch 1947) with the Satterthwaite (1946)
//! approximation to its degrees of freedom, the same as go-moremath's `TwoSampleWelchTTest`.
//! statrs has no two-sample t test, so it is written here (`research/stats.md` §6, §7.2);
//! statrs supplies only the t tail probability (through `interval::t_sf`).

use super::count_f64;
use super::describe::{mean_of, variance_of};
use super::finite;
use super::interval::t_sf;

/// Result of Welch's test of `b` against `a`.
#[derive(Debug, Clone, PartialEq)]
pub struct Welch {
    /// Test statistic `diff / se`.
    pub t: f64,
    /// Welch–Satterthwaite degrees of freedom (fractional).
    pub df: f64,
    /// Two-sided p-value `2·P(T_df > |t|)`.
    pub p_two_sided: f64,
    /// `mean(b) − mean(a)`.
    pub diff: f64,
    /// Standard error of `diff`: `sqrt(s_a²/n_a + s_b²/n_b)`.
    pub se: f64,
}

impl Welch {
    /// The two-sided 95% interval for `diff`: `diff ± t_{0.975, df}·se`.
    #[must_use]
    pub fn ci95(&self) -> (f64, f64) {
        let half = super::t_quantile_975(self.df) * self.se;
        (self.diff - half, self.diff + half)
    }
}

/// Welch's t test of `mean(b) − mean(a)` over the finite values of each side.
///
/// `ν = (v_a + v_b)² / (v_a²/(n_a − 1) + v_b²/(n_b − 1))` with `v = s²/n`.
///
/// `None` when either side has fewer than two finite values, or when **both** sides have zero
/// variance: the standard error is then 0 and neither t nor ν is defined (go-moremath's
/// `ErrZeroVariance`). Callers that must still decide handle that case themselves; one
/// zero-variance side is fine and gives ν = n − 1 of the other side.
#[must_use]
pub fn welch(a: &[f64], b: &[f64]) -> Option<Welch> {
    let (a, b) = (finite(a), finite(b));
    let (va, vb) = (
        variance_of(&a)? / count_f64(a.len()),
        variance_of(&b)? / count_f64(b.len()),
    );
    let se2 = va + vb;
    if se2 <= 0.0 {
        return None;
    }
    let diff = mean_of(&b)? - mean_of(&a)?;
    let se = se2.sqrt();
    let t = diff / se;
    let df = se2 * se2 / (va * va / count_f64(a.len() - 1) + vb * vb / count_f64(b.len() - 1));
    let p_two_sided = (2.0 * t_sf(t.abs(), df)?).min(1.0);
    [t, df, p_two_sided]
        .iter()
        .all(|v| v.is_finite())
        .then_some(Welch {
            t,
            df,
            p_two_sided,
            diff,
            se,
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(got: f64, want: f64, tol: f64) {
        assert!((got - want).abs() <= tol, "got {got}, want {want} ± {tol}");
    }

    #[test]
    fn separated_samples() {
        // Own vector; reference values from mpmath (30 digits) with the same formulas and the
        // t tail as the regularized incomplete beta: diff 0.9642857143, se 0.1188808356,
        // t 8.11136387, df 10.92306078, p 5.988341969e-6.
        let a = [10.1, 9.8, 10.3, 10.0, 9.9, 10.2];
        let b = [10.9, 11.2, 10.7, 11.4, 11.0, 10.8, 11.1];
        let w = welch(&a, &b).unwrap();
        close(w.diff, 0.964_285_714_3, 1e-9);
        close(w.se, 0.118_880_835_6, 1e-9);
        close(w.t, 8.111_363_87, 1e-7);
        close(w.df, 10.923_060_78, 1e-7);
        close(w.p_two_sided, 5.988_341_969e-6, 1e-10);
    }

    #[test]
    fn overlapping_samples() {
        // mpmath: diff 4.133333333, se 1.544164643, t 2.676743929, df 8.389027431,
        // p 0.02691930459.
        let a = [20.0, 22.0, 19.0, 24.0, 21.0];
        let b = [23.0, 21.0, 26.0, 25.0, 30.0, 27.0];
        let w = welch(&a, &b).unwrap();
        close(w.diff, 4.133_333_333, 1e-9);
        close(w.se, 1.544_164_643, 1e-9);
        close(w.t, 2.676_743_929, 1e-8);
        close(w.df, 8.389_027_431, 1e-8);
        close(w.p_two_sided, 0.026_919_304_59, 1e-8);
        // Swapping the sides flips the sign and nothing else.
        let r = welch(&b, &a).unwrap();
        close(r.t, -w.t, 1e-12);
        close(r.p_two_sided, w.p_two_sided, 1e-12);
    }

    #[test]
    fn ci95_is_diff_plus_minus_t_se() {
        let w = welch(
            &[20.0, 22.0, 19.0, 24.0, 21.0],
            &[23.0, 21.0, 26.0, 25.0, 30.0, 27.0],
        )
        .unwrap();
        let (lo, hi) = w.ci95();
        // t_{0.975, 8.389} from mpmath's root of the same cdf: 2.287522 (between df 8 and 9).
        close((hi - lo) / 2.0 / w.se, 2.287_522, 1e-5);
        assert!(lo > 0.0, "p < 0.05 means 0 is outside the interval");
    }

    #[test]
    fn both_variances_zero_is_none() {
        assert_eq!(welch(&[5.0, 5.0, 5.0], &[6.0, 6.0]), None);
        assert_eq!(welch(&[5.0, 5.0], &[5.0, 5.0]), None);
    }

    #[test]
    fn one_variance_zero_uses_the_other_sides_df() {
        // a has no spread: ν = n_b − 1 = 2; b = 1, 2, 3 has s² = 1, se = 1/√3.
        let w = welch(&[0.0, 0.0, 0.0, 0.0], &[1.0, 2.0, 3.0]).unwrap();
        close(w.df, 2.0, 1e-12);
        close(w.se, (1.0_f64 / 3.0).sqrt(), 1e-12);
        close(w.t, 2.0 * 3.0_f64.sqrt(), 1e-12);
        assert!(w.p_two_sided > 0.0 && w.p_two_sided < 0.1);
    }

    #[test]
    fn too_few_values_is_none() {
        assert_eq!(welch(&[], &[1.0, 2.0]), None);
        assert_eq!(welch(&[1.0], &[1.0, 2.0]), None);
        assert_eq!(welch(&[1.0, 2.0], &[f64::NAN, 3.0]), None);
    }

    #[test]
    fn equal_means_give_p_one() {
        let w = welch(&[1.0, 3.0], &[0.0, 4.0]).unwrap();
        close(w.t, 0.0, 0.0);
        close(w.p_two_sided, 1.0, 1e-12);
    }
}
