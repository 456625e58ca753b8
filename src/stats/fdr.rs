//! Benjamini–Hochberg adjustment (Benjamini & Hochberg 1995, JRSS-B 57:289): the false
//! discovery rate across every cell of one regression run. 720 cells tested at α = 0.05 with
//! nothing changed would flag about 36 by chance (`research/regression.md` §3.7); the adjusted
//! q-value of a cell is the smallest FDR at which it would still be flagged.
//!
//! `q_(i) = min_{j ≥ i} min(1, m·p_(j) / j)` over the p-values sorted ascending, which is what
//! `scipy.stats.false_discovery_control(p, method="bh")` and R's `p.adjust(p, "BH")` compute
//! (vectors in the tests from `testdata/regress/stats_vectors.py`).

/// The BH-adjusted q-values of `p`, in the order of `p`. A non-finite p is treated as 1 (it
/// can flag nothing) and counts in the family size m: a cell that was tested is part of the
/// family whatever its value.
#[must_use]
pub fn benjamini_hochberg(p: &[f64]) -> Vec<f64> {
    let m = p.len();
    let clean: Vec<f64> = p
        .iter()
        .map(|&x| {
            if x.is_finite() {
                x.clamp(0.0, 1.0)
            } else {
                1.0
            }
        })
        .collect();
    let mut order: Vec<usize> = (0..m).collect();
    // Stable: equal p-values keep their input order, so the output is deterministic.
    order.sort_by(|&a, &b| clean[a].total_cmp(&clean[b]));
    let mut q = vec![1.0; m];
    let mut running = 1.0f64;
    for rank in (0..m).rev() {
        let i = order[rank];
        let scaled = clean[i] * super::count_f64(m) / super::count_f64(rank + 1);
        running = running.min(scaled).min(1.0);
        q[i] = running;
    }
    q
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_scipy() {
        let p = [0.01, 0.04, 0.03, 0.005, 0.5, 0.2];
        let want = [0.03, 0.06, 0.06, 0.03, 0.5, 0.24];
        for (g, w) in benjamini_hochberg(&p).iter().zip(want) {
            assert!((g - w).abs() < 1e-12, "{g} vs {w}");
        }
    }

    #[test]
    fn edge_cases() {
        assert!(benjamini_hochberg(&[]).is_empty());
        assert_eq!(benjamini_hochberg(&[0.2]), vec![0.2]);
        assert_eq!(benjamini_hochberg(&[f64::NAN, 0.01]), vec![1.0, 0.02]);
        // Ties share one q.
        assert_eq!(benjamini_hochberg(&[0.02, 0.02]), vec![0.02, 0.02]);
    }
}
