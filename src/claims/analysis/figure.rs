//! A claim of one figure checked against what its side recomputes, and its `n` against the runs
//! it names (C013), with the reproduction test every published value shares: within the
//! tolerance or the rounding of the published digits.

use super::{ClaimAnalysis, ClaimFinding};
use crate::claims::side::{ResolvedSide, num, pct, pct_abs};
use crate::claims::{Claim, Metric};
use crate::rules::c013_claim_not_reproducible;
use crate::thresholds::Thresholds;

/// Half a unit in the last digit the published value writes (`8.6` → 0.05, `537` → 0.5).
fn rounding(value: f64) -> f64 {
    let text = format!("{value}");
    let decimals = text.split_once('.').map_or(0, |(_, f)| f.len());
    let decimals = i32::try_from(decimals.min(12)).unwrap_or(12);
    0.5 * 10f64.powi(-decimals)
}

/// Whether `published` follows from `recomputed`: within the relative tolerance or the rounding
/// of the published digits.
fn reproduces(published: f64, recomputed: f64, tolerance: f64) -> bool {
    (published - recomputed).abs()
        <= (tolerance * recomputed.abs()).max(rounding(published)) + 1e-12
}

pub(super) fn value_finding(
    a: &ClaimAnalysis,
    claim: &Claim,
    recomputed: f64,
    how: &str,
    related: Vec<(usize, String)>,
    tolerance: f64,
) -> Option<ClaimFinding> {
    if reproduces(claim.value, recomputed, tolerance) {
        return None;
    }
    let rel = if recomputed == 0.0 {
        f64::INFINITY
    } else {
        claim.value / recomputed - 1.0
    };
    Some(ClaimFinding {
        rule: &c013_claim_not_reproducible::RULE,
        message: format!(
            "claim `{}` publishes {}, but the runs it names give {} ({how}): {} off, beyond the {} tolerance",
            a.at.id,
            num(claim.value),
            num(recomputed),
            if rel.is_finite() {
                pct(rel)
            } else {
                "infinitely".into()
            },
            pct_abs(tolerance)
        ),
        label: Some(format!("the runs give {}", num(recomputed))),
        pointer: format!("{}/value", a.at.pointer()),
        related,
        matched: false,
    })
}

pub(super) fn side_related(side: &ResolvedSide, metric: Metric) -> Vec<(usize, String)> {
    side.points
        .iter()
        .map(|p| (p.result, metric.pointer(p.level)))
        .collect()
}

pub(super) fn figure(
    a: &mut ClaimAnalysis,
    claim: &Claim,
    subject: &ResolvedSide,
    thresholds: &Thresholds,
) {
    let Some(metric) = a.metric else { return };
    if a.problem.is_some() {
        return;
    }
    let Some(value) = subject.value() else { return };
    a.recomputed = Some(value);
    let tol = thresholds.claim_tolerance;
    let how = format!(
        "the mean of {} launch {} {}",
        subject.launches(),
        if subject.launches() == 1 {
            "mean"
        } else {
            "means"
        },
        subject.where_phrase()
    );
    if let Some(f) = value_finding(a, claim, value, &how, side_related(subject, metric), tol) {
        a.findings.push(f);
    }
    let base = a.at.pointer();
    if let Some(ci) = claim.ci95.filter(|c| c.is_finite()) {
        match subject.interval() {
            None => a.findings.push(ClaimFinding {
                rule: &c013_claim_not_reproducible::RULE,
                message: format!(
                    "claim `{}` publishes a 95% interval of ±{}, but it rests on one run, which gives no interval",
                    a.at.id,
                    num(ci)
                ),
                label: Some("no interval from one run".into()),
                pointer: format!("{base}/ci95"),
                related: side_related(subject, metric),
                matched: false,
            }),
            Some(iv) => {
                let half = iv.half_width();
                if ci + rounding(ci) < half * (1.0 - tol) {
                    let over = match iv.basis {
                        crate::stats::IntervalBasis::AcrossLaunches { launches } => format!("across {launches} launches"),
                        crate::stats::IntervalBasis::SingleInstance { runs } => {
                            format!("over {runs} runs of a single launch")
                        }
                    };
                    a.findings.push(ClaimFinding {
                        rule: &c013_claim_not_reproducible::RULE,
                        message: format!(
                            "claim `{}` publishes a 95% interval of ±{}, but the runs give ±{} ({over}): the published \
                             interval is narrower than the runs support",
                            a.at.id,
                            num(ci),
                            num(half)
                        ),
                        label: Some(format!("the runs give ±{}", num(half))),
                        pointer: format!("{base}/ci95"),
                        related: side_related(subject, metric),
                        matched: false,
                    });
                }
            }
        }
    }
    n_finding(a, claim, subject);
}

fn n_finding(a: &mut ClaimAnalysis, claim: &Claim, subject: &ResolvedSide) {
    let Some(n) = claim.n else { return };
    let runs = subject.points.len();
    if usize::try_from(n).is_ok_and(|n| n <= runs) {
        return;
    }
    a.findings.push(ClaimFinding {
        rule: &c013_claim_not_reproducible::RULE,
        message: format!(
            "claim `{}` publishes n = {n}, but it names {}",
            a.at.id,
            if runs == 1 {
                "1 run".to_string()
            } else {
                format!("{runs} runs")
            }
        ),
        label: Some(format!("{runs} runs named")),
        pointer: format!("{}/n", a.at.pointer()),
        related: Vec::new(),
        matched: false,
    });
}
