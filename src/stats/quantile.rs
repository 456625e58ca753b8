//! The one quantile definition used everywhere: Hyndman & Fan (1996) type 7, linear
//! interpolation between order statistics, which is numpy's default (`numpy.quantile`,
//! `method="linear"`) and what vLLM, `SGLang` and genai-perf report. statrs'
//! `OrderStatistics::quantile` is type 8 and gives different values for small n
//! (`research/stats.md` §6, §8.0), so it is not used for percentiles.

use super::{count_f64, finite};

/// The type-7 (numpy default) quantile of the finite values at `q` in `[0, 1]`.
///
/// With the finite values sorted as `x[0] ≤ … ≤ x[n−1]`, `h = (n − 1)·q` and the result is
/// `x[⌊h⌋] + (h − ⌊h⌋)·(x[⌊h⌋+1] − x[⌊h⌋])`.
///
/// Non-finite values (NaN, ±∞) are **ignored**, as everywhere in this module. Returns `None` when
/// no finite value remains or when `q` is NaN or outside `[0, 1]`.
#[must_use]
pub fn quantile_type7(values: &[f64], q: f64) -> Option<f64> {
    quantile_type7_sorted(&sorted_finite(values), q)
}

/// The finite values of `values`, sorted: computed once, it serves every quantile of one
/// sample through [`quantile_type7_sorted`].
#[must_use]
pub fn sorted_finite(values: &[f64]) -> Vec<f64> {
    let mut sorted = finite(values);
    // Unstable is enough: values equal under `total_cmp` are the same bits.
    sorted.sort_unstable_by(f64::total_cmp);
    sorted
}

/// The finite values of `values`, arranged so that [`quantile_type7_sorted`] gives the same
/// answer as on [`sorted_finite`] for each probability in `qs` (and only for those): the order
/// statistics those quantiles read are put in place by selection, without sorting the rest.
/// Thousands of per-request samples need two or three quantiles each; a full sort costs a
/// factor of log n more. Values equal under `total_cmp` are the same bits, so the positions
/// read hold exactly what the sorted array holds there.
#[must_use]
pub fn selected_finite(values: &[f64], qs: &[f64]) -> Vec<f64> {
    let mut arranged = finite(values);
    let mut ranks: Vec<usize> = qs
        .iter()
        .filter_map(|q| interpolation_ranks(arranged.len(), *q))
        .flat_map(|(lo, hi)| [lo, hi])
        .collect();
    ranks.sort_unstable();
    ranks.dedup();
    // Each selection leaves everything after its rank no smaller than it, so the next
    // (higher) rank is selected from that tail alone.
    let mut from = 0;
    for rank in ranks {
        arranged[from..].select_nth_unstable_by(rank - from, f64::total_cmp);
        from = rank + 1;
    }
    arranged
}

/// The two order statistics (0-based ranks in the sorted values) a type-7 quantile at `q` of
/// `n` values interpolates between; `None` when there is no quantile.
fn interpolation_ranks(n: usize, q: f64) -> Option<(usize, usize)> {
    if !(0.0..=1.0).contains(&q) || n == 0 {
        return None;
    }
    let last = n - 1;
    let lo = floor_index(count_f64(last) * q).min(last);
    Some((lo, (lo + 1).min(last)))
}

/// [`quantile_type7`] of values already filtered and sorted by [`sorted_finite`] (or arranged
/// by [`selected_finite`] for `q`).
#[must_use]
pub fn quantile_type7_sorted(sorted: &[f64], q: f64) -> Option<f64> {
    let (lo, hi) = interpolation_ranks(sorted.len(), q)?;
    let h = count_f64(sorted.len() - 1) * q;
    let frac = h - count_f64(lo);
    let (a, b) = (sorted[lo], sorted[hi]);
    // numpy interpolates from the nearer end so that the result never leaves [a, b] through
    // rounding; doing the same keeps results identical to numpy's last digit more often.
    Some(if frac < 0.5 {
        a + (b - a) * frac
    } else {
        b - (b - a) * (1.0 - frac)
    })
}

/// `⌊h⌋` as an index, for `h ≥ 0` that is at most the last index.
#[expect(
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    reason = "h = (n − 1)·q with q in [0, 1] is non-negative and at most n − 1"
)]
fn floor_index(h: f64) -> usize {
    h.floor() as usize
}

#[cfg(test)]
mod tests {
    use super::*;
    use statrs::statistics::{Data, OrderStatistics};

    fn close(got: f64, want: f64) {
        assert!((got - want).abs() <= 1e-9, "got {got}, want {want}");
    }

    // Eight made-up throughput runs (tok/s), deliberately unsorted. Sorted:
    // 95.1 97.3 98.0 99.2 100.4 101.0 102.5 103.1. Values worked by hand with numpy's rule
    // h = 7·q (0-based):
    //   q = 0.25: h = 1.75  → 97.3 + 0.75·(98.0 − 97.3)   = 97.825
    //   q = 0.50: h = 3.5   → 99.2 + 0.5·(100.4 − 99.2)   = 99.8
    //   q = 0.90: h = 6.3   → 102.5 + 0.3·(103.1 − 102.5) = 102.68
    //   q = 0.99: h = 6.93  → 102.5 + 0.93·0.6            = 103.058
    // Type 8 (statrs) at 0.90: h = (8 + 1/3)·0.9 + 1/3 = 7.8333 (1-based)
    //   → 102.5 + 0.8333·0.6 = 103.0, which is why statrs is not used.
    const RUNS: [f64; 8] = [98.0, 103.1, 95.1, 100.4, 97.3, 102.5, 99.2, 101.0];

    #[test]
    fn matches_numpy_linear_on_a_hand_worked_vector() {
        close(quantile_type7(&RUNS, 0.0).unwrap(), 95.1);
        close(quantile_type7(&RUNS, 0.25).unwrap(), 97.825);
        close(quantile_type7(&RUNS, 0.5).unwrap(), 99.8);
        close(quantile_type7(&RUNS, 0.9).unwrap(), 102.68);
        close(quantile_type7(&RUNS, 0.99).unwrap(), 103.058);
        close(quantile_type7(&RUNS, 1.0).unwrap(), 103.1);
    }

    #[test]
    fn differs_from_statrs_type8() {
        let statrs_p90 = Data::new(RUNS.to_vec()).quantile(0.9);
        close(statrs_p90, 103.0);
        assert!((quantile_type7(&RUNS, 0.9).unwrap() - statrs_p90).abs() > 0.3);
    }

    #[test]
    fn odd_count_median_is_the_middle_value() {
        close(quantile_type7(&[5.0, 1.0, 3.0], 0.5).unwrap(), 3.0);
    }

    #[test]
    fn empty_and_single() {
        assert_eq!(quantile_type7(&[], 0.5), None);
        assert_eq!(quantile_type7(&[7.0], 0.0), Some(7.0));
        assert_eq!(quantile_type7(&[7.0], 0.99), Some(7.0));
        assert_eq!(quantile_type7(&[7.0], 1.0), Some(7.0));
    }

    #[test]
    fn q_outside_unit_interval_is_none() {
        assert_eq!(quantile_type7(&RUNS, -0.01), None);
        assert_eq!(quantile_type7(&RUNS, 1.01), None);
        assert_eq!(quantile_type7(&RUNS, f64::NAN), None);
    }

    #[test]
    fn non_finite_values_are_ignored() {
        let with_junk = [
            f64::NAN,
            1.0,
            f64::INFINITY,
            2.0,
            f64::NEG_INFINITY,
            3.0,
            4.0,
        ];
        close(quantile_type7(&with_junk, 0.5).unwrap(), 2.5);
        close(quantile_type7(&with_junk, 1.0).unwrap(), 4.0);
        assert_eq!(quantile_type7(&[f64::NAN, f64::INFINITY], 0.5), None);
    }

    /// Selection gives bit for bit what the full sort gives, on values with repeats, negative
    /// zeros and non-finite values, for every count up to 300 and the quantiles R017 reads.
    #[test]
    fn selected_quantiles_are_the_sorted_ones() {
        let qs = [0.1, 0.5, 0.95, 0.99, 0.0, 1.0];
        let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
        for n in 0..300 {
            let values: Vec<f64> = (0..n)
                .map(|i| {
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    match seed % 11 {
                        0 => f64::NAN,
                        1 => -0.0,
                        2 => 0.0,
                        3 => f64::from(u32::try_from(i % 5).unwrap()),
                        _ => f64::from(u32::try_from(seed % 100_000).unwrap()) / 997.0,
                    }
                })
                .collect();
            let sorted = sorted_finite(&values);
            let selected = selected_finite(&values, &qs);
            for q in qs {
                assert_eq!(
                    quantile_type7_sorted(&selected, q).map(f64::to_bits),
                    quantile_type7_sorted(&sorted, q).map(f64::to_bits),
                    "n = {n}, q = {q}"
                );
            }
        }
    }

    #[test]
    fn equal_values_give_that_value() {
        assert_eq!(quantile_type7(&[0.3; 5], 0.37), Some(0.3));
    }
}
