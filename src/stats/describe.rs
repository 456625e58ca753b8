//! Descriptive statistics for one level: mean, sample standard deviation (n − 1), coefficient of
//! variation and the `Describe` summary (median, min, max, n) that every report shows
//! (`research/stats.md` §8.1 step 1). The median is the type-7 quantile (Hyndman & Fan 1996,
//! numpy's default); the CV threshold follows pyperf's 10% check.

use super::quantile::quantile_type7;
use super::{count_f64, finite};

/// CV above which a level is flagged as noisy (S005 high-variation). 10% is pyperf's `check`
/// threshold and the "fair" band of `AIPerf` (`research/stats.md` §8.1).
pub const HIGH_CV: f64 = 0.10;

/// Arithmetic mean of the finite values; `None` when there are none.
///
/// The sum is taken around the first value, so that n equal values give exactly that value (and
/// then a standard deviation of exactly 0) and large offsets such as timestamps lose no digits.
#[must_use]
pub fn mean(values: &[f64]) -> Option<f64> {
    let values = finite(values);
    mean_of(&values)
}

/// Sample standard deviation (divisor n − 1) of the finite values; `None` when fewer than two.
#[must_use]
pub fn sample_sd(values: &[f64]) -> Option<f64> {
    let values = finite(values);
    sd_of(&values)
}

/// Coefficient of variation `sd / |mean|` of the finite values.
///
/// `None` when fewer than two values or when the mean is 0, where the ratio has no meaning. The
/// absolute value of the mean keeps the CV non-negative, so a "CV > 10%" check cannot be
/// silenced by a negative mean.
#[must_use]
pub fn cv(values: &[f64]) -> Option<f64> {
    let values = finite(values);
    cv_of(&values)
}

/// Summary of one level's values, as shown in every report.
#[derive(Debug, Clone, PartialEq)]
pub struct Describe {
    /// Number of finite values summarised (NaN and infinities are not counted).
    pub n: usize,
    /// Median (type-7 quantile at 0.5).
    pub median: f64,
    /// Smallest value.
    pub min: f64,
    /// Largest value.
    pub max: f64,
    /// Arithmetic mean.
    pub mean: f64,
    /// Sample standard deviation (n − 1); `None` when n < 2.
    pub sd: Option<f64>,
    /// `sd / |mean|`; `None` when n < 2 or the mean is 0.
    pub cv: Option<f64>,
}

/// Summarise the finite values; `None` when there are none.
#[must_use]
pub fn describe(values: &[f64]) -> Option<Describe> {
    let values = finite(values);
    let mean = mean_of(&values)?;
    let median = quantile_type7(&values, 0.5)?;
    let min = values.iter().copied().fold(f64::INFINITY, f64::min);
    let max = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    Some(Describe {
        n: values.len(),
        median,
        min,
        max,
        mean,
        sd: sd_of(&values),
        cv: cv_of(&values),
    })
}

/// Mean of values already known to be finite.
pub(super) fn mean_of(values: &[f64]) -> Option<f64> {
    let (&first, _) = values.split_first()?;
    let shifted: f64 = values.iter().map(|v| v - first).sum();
    let mean = first + shifted / count_f64(values.len());
    // Only sums near f64::MAX overflow; an infinite mean is no answer, so say so.
    mean.is_finite().then_some(mean)
}

/// Sample variance (n − 1) of values already known to be finite.
pub(super) fn variance_of(values: &[f64]) -> Option<f64> {
    if values.len() < 2 {
        return None;
    }
    let m = mean_of(values)?;
    // Two passes around the mean: no cancellation, and exactly 0 for equal values.
    let ss: f64 = values.iter().map(|v| (v - m) * (v - m)).sum();
    let var = ss / count_f64(values.len() - 1);
    var.is_finite().then_some(var)
}

/// Sample standard deviation of values already known to be finite.
pub(super) fn sd_of(values: &[f64]) -> Option<f64> {
    variance_of(values).map(f64::sqrt)
}

/// CV of values already known to be finite.
fn cv_of(values: &[f64]) -> Option<f64> {
    let m = mean_of(values)?;
    if m == 0.0 {
        return None;
    }
    Some(sd_of(values)? / m.abs())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(got: f64, want: f64, tol: f64) {
        assert!((got - want).abs() <= tol, "got {got}, want {want} ± {tol}");
    }

    #[test]
    fn mean_sd_cv_of_a_known_vector() {
        // 2, 4, 4, 4, 5, 5, 7, 9: mean 5, Σ(x − 5)² = 32, s² = 32/7.
        let x = [2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0];
        close(mean(&x).unwrap(), 5.0, 1e-12);
        close(sample_sd(&x).unwrap(), (32.0_f64 / 7.0).sqrt(), 1e-12);
        close(cv(&x).unwrap(), (32.0_f64 / 7.0).sqrt() / 5.0, 1e-12);
    }

    #[test]
    fn equal_values_have_sd_exactly_zero() {
        // 0.1 is not representable; a naive Σx/n gives 0.10000000000000002 and a tiny sd.
        let x = [0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1];
        assert_eq!(mean(&x), Some(0.1));
        assert_eq!(sample_sd(&x), Some(0.0));
        assert_eq!(cv(&x), Some(0.0));
        let d = describe(&x).unwrap();
        assert_eq!((d.n, d.median, d.min, d.max), (7, 0.1, 0.1, 0.1));
        assert_eq!(d.sd, Some(0.0));
    }

    #[test]
    fn empty_input_gives_none() {
        assert_eq!(mean(&[]), None);
        assert_eq!(sample_sd(&[]), None);
        assert_eq!(cv(&[]), None);
        assert_eq!(describe(&[]), None);
    }

    #[test]
    fn one_value_has_no_spread() {
        assert_eq!(mean(&[42.0]), Some(42.0));
        assert_eq!(sample_sd(&[42.0]), None);
        assert_eq!(cv(&[42.0]), None);
        let d = describe(&[42.0]).unwrap();
        assert_eq!(d.n, 1);
        assert_eq!((d.median, d.min, d.max, d.mean), (42.0, 42.0, 42.0, 42.0));
        assert_eq!((d.sd, d.cv), (None, None));
    }

    #[test]
    fn zero_mean_has_no_cv() {
        assert_eq!(cv(&[-1.0, 1.0]), None);
        close(sample_sd(&[-1.0, 1.0]).unwrap(), 2.0_f64.sqrt(), 1e-12);
    }

    #[test]
    fn negative_mean_gives_positive_cv() {
        // sd 1, mean −2.
        close(cv(&[-1.0, -2.0, -3.0]).unwrap(), 0.5, 1e-12);
    }

    #[test]
    fn nan_and_infinity_are_dropped() {
        let x = [f64::NAN, 1.0, f64::INFINITY, 3.0, f64::NEG_INFINITY, 2.0];
        let d = describe(&x).unwrap();
        assert_eq!(d.n, 3);
        assert_eq!((d.median, d.min, d.max), (2.0, 1.0, 3.0));
        close(d.mean, 2.0, 1e-12);
        close(d.sd.unwrap(), 1.0, 1e-12);
        close(d.cv.unwrap(), 0.5, 1e-12);
        assert_eq!(describe(&[f64::NAN, f64::NAN]), None);
        assert_eq!(mean(&[f64::NAN]), None);
        assert_eq!(sample_sd(&[f64::NAN, 1.0]), None);
    }

    #[test]
    fn describe_median_is_type7_for_even_n() {
        let d = describe(&[4.0, 1.0, 3.0, 2.0]).unwrap();
        close(d.median, 2.5, 1e-12);
        assert_eq!((d.min, d.max), (1.0, 4.0));
    }

    #[test]
    fn large_offset_keeps_its_digits() {
        // Timestamps around 1.77e9 s with millisecond spread: sd of 0, 1, 2 ms is 1 ms. The
        // literals themselves are only stored to ~1.2e-7 s (one ulp at 1.77e9 is 2.4e-7), hence
        // the tolerance; the textbook Σx² − n·x̄² formula loses every digit here (x² ≈ 3e18).
        let x = [1_772_473_358.000, 1_772_473_358.001, 1_772_473_358.002];
        close(sample_sd(&x).unwrap(), 0.001, 2e-7);
    }
}
