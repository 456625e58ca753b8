//! The statistics and the verdict of every cell (DESIGN.md "Regression mode", first match
//! wins): NOT COMPARABLE / MISSING (set by [`super::cells`]); NOT DECIDABLE (fewer than two
//! launches on a side); REGRESSION (BH-adjusted q of "worse" under α and the change worse
//! than T; confirmed when the whole `1 − α` interval is worse than T); IMPROVED (the mirror,
//! with its own BH family); EQUIVALENT (TOST within ±T at α); SLOWER / FASTER WITHIN T
//! (significant after adjustment, under T); INCONCLUSIVE, with the launches per side that
//! would settle it at the observed launch spread.
//!
//! The noise floor of a cell is the larger of the static floor and what a same-vs-same
//! control shows (`crate::stats::noise_floor_from_controls` over relative differences of
//! launch summaries: each control launch against the BASE launch of the same rank with
//! `--control`, else consecutive BASE launches when BASE has two or more). A T below the
//! floor is said in the cell's reasons: the verdict still follows the tests, which carry the
//! cell's own spread, but a reader is told that the threshold is finer than the noise.

use std::fmt::Write as _;
use std::sync::Arc;

use super::{Cell, Options, Verdict};
use crate::numbers::plural;
use crate::stats::{
    benjamini_hochberg, launches_needed, log_ratio, noise_floor_from_controls, pooled_log_sd,
};
use crate::text::FileText;

/// The noise floor of `cell` and its source.
fn noise_floor(cell: &Cell) -> (f64, &'static str) {
    let fixed = cell.metric.static_floor();
    let Some(base) = &cell.base else {
        return (fixed, "static");
    };
    let b = base.values();
    let (diffs, source): (Vec<f64>, &'static str) = match &cell.control {
        Some(c) if !c.launches.is_empty() => (
            c.values()
                .iter()
                .zip(&b)
                .map(|(c, b)| c / b - 1.0)
                .collect(),
            "control",
        ),
        _ => (
            b.windows(2).map(|w| w[1] / w[0] - 1.0).collect(),
            "BASE launches",
        ),
    };
    match noise_floor_from_controls(&diffs) {
        Some(aa) if aa > fixed => (aa, source),
        _ => (fixed, "static"),
    }
}

/// Computes every cell's statistics and verdict; returns the BH family size. Every cell at
/// once: the reference a report's walks ([`super::made`]) and the simulations are tested with.
#[cfg(test)]
pub fn decide(cells: &mut [Cell], options: &Options) -> usize {
    let tested = test(cells, options);
    let p = |worse: bool| -> Vec<f64> {
        tested
            .iter()
            .map(|&i| {
                cells[i]
                    .stats
                    .as_ref()
                    .map_or(1.0, |s| if worse { s.p_worse } else { s.p_better })
            })
            .collect()
    };
    let q = adjust(&p(true), &p(false));
    settle(cells, &tested, &q, options);
    tested.len()
}

/// The Benjamini–Hochberg q of "worse" and of "better" of each tested cell, in order, from
/// their one-sided p.
pub fn adjust(p_worse: &[f64], p_better: &[f64]) -> Vec<(f64, f64)> {
    let (qw, qb) = (benjamini_hochberg(p_worse), benjamini_hochberg(p_better));
    qw.into_iter().zip(qb).collect()
}

/// The first part of deciding: each comparable cell's noise floor and statistics, or NOT
/// DECIDABLE. Returns the cells that are tested (those with statistics), in order: the
/// family the adjustment is made over.
#[cfg(test)]
pub fn test(cells: &mut [Cell], options: &Options) -> Vec<usize> {
    (0..cells.len())
        .filter(|&i| test_cell(&mut cells[i], options))
        .collect()
}

/// [`test`] of one cell: whether it is tested.
pub fn test_cell(cell: &mut Cell, options: &Options) -> bool {
    let (threshold, alpha) = (options.threshold, options.alpha);
    if !cell.verdict.is_comparable() {
        return false;
    }
    cell.noise_floor = noise_floor(cell);
    let (kb, kh) = (
        cell.base.as_deref().map_or(0, |s| s.launches.len()),
        cell.head.as_deref().map_or(0, |s| s.launches.len()),
    );
    if kb < 2 || kh < 2 {
        cell.verdict = Verdict::NotDecidable;
        let left_out = |s: Option<&super::SideCell>| {
            let r = s.map_or(&[][..], |s| s.rejected.as_slice());
            let mut why: Vec<&str> = r.iter().map(|(_, w)| *w).collect();
            why.sort_unstable();
            why.dedup();
            (r.len(), why.join(", "))
        };
        let mut text = format!(
            "{} on BASE and {} on HEAD: a launch-to-launch spread needs at least 2 per side",
            plural(kb, "launch", "launches"),
            plural(kh, "launch", "launches")
        );
        for (name, s) in [
            ("BASE", cell.base.as_deref()),
            ("HEAD", cell.head.as_deref()),
        ] {
            let (n, why) = left_out(s);
            if n > 0 {
                let _ = write!(
                    text,
                    "; {} of {name} left out: {why}",
                    plural(n, "run", "runs")
                );
            }
        }
        cell.reasons.push(Arc::new(FileText::new(text)));
        return false;
    }
    let (b, h) = (
        cell.base.as_ref().map(|s| s.values()).unwrap_or_default(),
        cell.head.as_ref().map(|s| s.values()).unwrap_or_default(),
    );
    cell.stats = log_ratio(&b, &h, cell.metric.direction(), threshold, alpha).map(Box::new);
    if cell.stats.is_some() {
        return true;
    }
    cell.verdict = Verdict::NotDecidable;
    cell.reasons.push(Arc::new(FileText::new(
        "the launch summaries give no ratio (a value is zero or not finite)",
    )));
    false
}

/// What the verdict of a tested cell is read from: its one-sided p (adjusted into q over the
/// family), and the change with its interval toward worse and its TOST p.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Tested {
    /// p of "worse".
    pub p_worse: f64,
    /// p of "better".
    pub p_better: f64,
    /// The change toward worse, on the log scale.
    pub d: f64,
    /// The `1 − α` interval of `d`.
    pub worse_ci: (f64, f64),
    /// The TOST p.
    pub p_tost: f64,
}

impl Tested {
    /// What the verdict of `cell`, tested ([`test_cell`]), is read from.
    pub fn of(cell: &Cell) -> Option<Tested> {
        let st = cell.stats.as_deref()?;
        Some(Tested {
            p_worse: st.p_worse,
            p_better: st.p_better,
            d: st.d,
            worse_ci: st.worse_ci(cell.metric.direction()),
            p_tost: st.p_tost,
        })
    }

    /// The verdict, and whether it is confirmed, with the q of "worse" and "better" `q`.
    pub fn verdict(&self, (qw, qb): (f64, f64), options: &Options) -> (Verdict, bool) {
        let (alpha, margin) = (options.alpha, options.threshold.ln_1p());
        let (lo, hi) = self.worse_ci;
        if qw < alpha && self.d > margin {
            (Verdict::Regression, lo > margin)
        } else if qb < alpha && self.d < -margin {
            (Verdict::Improved, hi < -margin)
        } else if self.p_tost < alpha {
            (Verdict::Equivalent, false)
        } else if qw < alpha {
            (Verdict::SlowerWithinT, false)
        } else if qb < alpha {
            (Verdict::FasterWithinT, false)
        } else {
            (Verdict::Inconclusive, false)
        }
    }
}

/// The second part: the verdict of each tested cell (`tested`, from [`test`]) from its
/// adjusted q (`q`, one pair for each tested cell, in order), and what a verdict adds.
#[cfg(test)]
pub fn settle(cells: &mut [Cell], tested: &[usize], q: &[(f64, f64)], options: &Options) {
    for (&i, &q) in tested.iter().zip(q) {
        settle_cell(&mut cells[i], q, options);
    }
}

/// [`settle`] of one tested cell with its q of "worse" and "better".
pub fn settle_cell(cell: &mut Cell, (qw, qb): (f64, f64), options: &Options) {
    let (threshold, alpha) = (options.threshold, options.alpha);
    let Some(tested) = Tested::of(cell) else {
        return;
    };
    cell.q_worse = Some(qw);
    cell.q_better = Some(qb);
    (cell.verdict, cell.confirmed) = tested.verdict((qw, qb), options);
    if cell.verdict == Verdict::Inconclusive {
        let (b, h) = (
            cell.base.as_ref().map(|s| s.values()).unwrap_or_default(),
            cell.head.as_ref().map(|s| s.values()).unwrap_or_default(),
        );
        cell.launches_needed =
            pooled_log_sd(&[&b, &h]).and_then(|sd| launches_needed(sd, threshold, alpha));
    }
    if cell.noise_floor.0 > threshold {
        cell.reasons.push(Arc::new(FileText::new(format!(
            "T = {} is below the noise floor of {} (from {}): a change of T cannot be told from noise here",
            pct(threshold),
            pct(cell.noise_floor.0),
            cell.noise_floor.1
        ))));
    }
}

/// A fraction as a percentage for messages (`5%`, `12.5%`).
pub fn pct(x: f64) -> String {
    let v = x * 100.0;
    if (v - v.round()).abs() < 1e-9 {
        format!("{v:.0}%")
    } else {
        format!("{v:.1}%")
    }
}
