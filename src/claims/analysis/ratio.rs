//! A ratio claim: the comparison as published, its ratio recomputed, and its restatement on a
//! matched service level when the published basis is not one (seed 004).

use super::figure::{side_related, value_finding};
use super::words::matched_words;
use super::{ClaimAnalysis, ClaimFinding, RESTATABLE, Restatement};
use crate::claims::compare::{CompareOptions, Runs, compare_sides};
use crate::claims::side::{ResolvedSide, num, resolve_at};
use crate::claims::{Claim, Metric, capacity};
use crate::thresholds::Thresholds;

#[expect(
    clippy::too_many_arguments,
    reason = "one call site; the pieces of one analysis"
)]
pub(super) fn ratio(
    runs: &Runs<'_>,
    a: &mut ClaimAnalysis,
    claim: &Claim,
    metric: Metric,
    subject: &ResolvedSide,
    baseline: &ResolvedSide,
    thresholds: &Thresholds,
    floor: f64,
) {
    let base = a.at.pointer();
    let options = CompareOptions {
        metric,
        basis: claim.basis,
        service_level_matched: false,
        name_a: "the baseline".into(),
        name_b: "the subject".into(),
    };
    let published = compare_sides(runs, baseline, subject, &options, thresholds);
    for m in &published.mismatches {
        a.findings.push(ClaimFinding {
            rule: m.rule,
            message: m.message.clone(),
            label: Some(if m.unknown {
                "not recorded on a side: the ratio is unknowable".into()
            } else {
                m.rule.summary.to_string()
            }),
            pointer: format!("{base}/value"),
            related: m.related.clone(),
            matched: false,
        });
    }
    if a.problem.is_none() {
        match (published.a_value, published.b_value) {
            (Some(x), Some(_)) => {
                if x == 0.0 {
                    a.problem = Some(format!(
                        "not decidable: the baseline's {metric} is 0, so no ratio exists"
                    ));
                }
            }
            _ => a.problem = Some("not decidable: a side gives no value".into()),
        }
    }
    if a.problem.is_none()
        && let Some(r) = published.ratio
    {
        a.recomputed = Some(r);
        let how = format!(
            "{} {} against {} {}",
            num(published.b_value.unwrap_or(f64::NAN)),
            subject.where_phrase(),
            num(published.a_value.unwrap_or(f64::NAN)),
            baseline.where_phrase()
        );
        let mut related = side_related(subject, metric);
        related.extend(side_related(baseline, metric));
        if let Some(f) = value_finding(a, claim, r, &how, related, thresholds.claim_tolerance) {
            a.findings.push(f);
        }
        if a.asserts_difference()
            && let Some(s) = published.stat_finding()
        {
            let mut related = side_related(subject, metric);
            related.extend(side_related(baseline, metric));
            a.findings.push(ClaimFinding {
                rule: s.rule,
                message: format!("as published, {}", s.message),
                label: Some(s.label),
                pointer: format!("{base}/value"),
                related,
                matched: false,
            });
        }
        if published
            .mismatches
            .iter()
            .any(|m| RESTATABLE.contains(&m.rule.code))
        {
            let r = restate(runs, a, claim, metric, subject, baseline, thresholds, floor);
            a.restatement = Some(Box::new(r));
        }
    }
    a.published = Some(published);
}

#[expect(
    clippy::too_many_arguments,
    reason = "one call site; the pieces of one analysis"
)]
fn restate(
    runs: &Runs<'_>,
    analysis: &mut ClaimAnalysis,
    claim: &Claim,
    metric: Metric,
    subject: &ResolvedSide,
    baseline: &ResolvedSide,
    thresholds: &Thresholds,
    floor: f64,
) -> Restatement {
    let mut out = Restatement {
        floor,
        subject: None,
        baseline: None,
        comparison: None,
        value: None,
        problem: None,
    };
    let at_capacity = |side: &ResolvedSide, name: &str| -> Result<ResolvedSide, String> {
        let ladder = capacity::ladder(runs.results, &side.results);
        let cap = capacity::capacity(&ladder, floor, side.replicas);
        let Some(c) = cap.level else {
            return Err(format!(
                "no level of {name} clears {} tok/s per user at every level up to it{}",
                num(floor),
                if ladder.iter().all(|p| p.per_user_tok_s.is_none()) {
                    " (no per-user rate is recorded)"
                } else {
                    ""
                }
            ));
        };
        let s = resolve_at(runs.results, side, c, metric);
        match &s.problem {
            Some(p) => Err(format!("{name} at its capacity: {p}")),
            None => Ok(s),
        }
    };
    let (subj, base) = (
        at_capacity(subject, "the subject"),
        at_capacity(baseline, "the baseline"),
    );
    let (subj, base) = match (subj, base) {
        (Ok(x), Ok(y)) => (x, y),
        (Err(e), _) | (_, Err(e)) => {
            out.problem = Some(e);
            return out;
        }
    };
    let options = CompareOptions {
        metric,
        basis: claim.basis,
        service_level_matched: true,
        name_a: "the baseline".into(),
        name_b: "the subject".into(),
    };
    let cmp = compare_sides(runs, &base, &subj, &options, thresholds);
    out.value = cmp.ratio;
    if out.value.is_none() {
        out.problem = Some(format!(
            "the baseline's {metric} at its capacity is 0 or missing, so no ratio exists"
        ));
    }
    if let Some(st) = cmp.stat_finding() {
        let mut related = side_related(&subj, metric);
        related.extend(side_related(&base, metric));
        analysis.findings.push(ClaimFinding {
            rule: st.rule,
            message: format!(
                "on the matched basis ({}), {}",
                matched_words(floor, &subj, &base),
                st.message
            ),
            label: Some(st.label),
            pointer: format!("{}/value", analysis.at.pointer()),
            related,
            matched: true,
        });
    }
    out.subject = Some(subj);
    out.baseline = Some(base);
    out.comparison = Some(cmp);
    out
}
