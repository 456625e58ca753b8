//! The verdict of one claim and the sentence that leads its reasons: the first rule of the
//! verdict logic (see the parent module) that applies decides.

use std::collections::BTreeSet;

use super::groups::GroupFinding;
use crate::audit::Verdict;
use crate::claims::ClaimKind;
use crate::claims::analysis::{ClaimAnalysis, side_arithmetic};
use crate::claims::compare::{Comparison, Runs};
use crate::claims::side::{ResolvedSide, num, pct};
use crate::stats::Verdict as Ab;
use crate::thresholds::Thresholds;

/// Mismatches no re-cut of the runs can remove (C006 only for cost and per-watt claims, see the
/// module doc).
const HARD: [&str; 4] = ["C001", "C002", "C003", "C007"];

/// A verdict, the sentence leading its reasons, and what that sentence already tells.
pub(super) struct Decided {
    pub(super) verdict: Verdict,
    pub(super) restated: Option<f64>,
    pub(super) lead: String,
    pub(super) extra: Vec<String>,
    /// The message of a finding the lead quotes in full (S006, C013): not told again below it.
    pub(super) quotes: Option<String>,
}

impl Decided {
    fn new(verdict: Verdict, lead: String) -> Self {
        Decided {
            verdict,
            restated: None,
            lead,
            extra: Vec::new(),
            quotes: None,
        }
    }

    fn quoting(mut self, message: &str) -> Self {
        self.quotes = Some(message.to_string());
        self
    }
}

pub(super) fn decide(
    runs: &Runs<'_>,
    a: &ClaimAnalysis,
    s_findings: &[&GroupFinding],
    thresholds: &Thresholds,
) -> Decided {
    // 1. Not decidable.
    if let Some(p) = &a.problem {
        return Decided::new(
            Verdict::Unresolved,
            format!(
                "{}: the claim cannot be decided from these runs.",
                capitalised(p)
            ),
        );
    }
    let (Some(claim), Some(metric)) = (&a.claim, a.metric) else {
        return Decided::new(
            Verdict::Unresolved,
            "Not decidable: the claim could not be read.".into(),
        );
    };
    let published = |f: &&crate::claims::ClaimFinding| !f.matched;
    let mut hard: Vec<&str> = a
        .findings
        .iter()
        .filter(published)
        .filter(|f| {
            HARD.contains(&f.rule.code)
                || (f.rule.code == "C006"
                    && (metric == crate::claims::Metric::CostPerMillionUsd || metric.is_per_watt()))
        })
        .map(|f| f.rule.code)
        .collect();
    hard.sort_unstable();
    hard.dedup();
    let restatable = a
        .findings
        .iter()
        .filter(published)
        .any(|f| crate::claims::RESTATABLE.contains(&f.rule.code));

    // 2. Retracted: no matched basis.
    let mut also: Vec<&str> = a
        .findings
        .iter()
        .filter(published)
        .map(|f| f.rule.code)
        .filter(|c| crate::claims::RESTATABLE.contains(c))
        .collect();
    also.sort_unstable();
    also.dedup();
    if !hard.is_empty() {
        let mut d = Decided::new(
            Verdict::Retracted,
            format!(
                "Retracted: the two sides differ in what no restatement from these runs can remove ({}){}, so no \
                 matched-basis comparison exists{}.",
                hard.join(", "),
                if also.is_empty() {
                    String::new()
                } else {
                    format!(
                        ", besides what a matched service level would resolve ({})",
                        also.join(", ")
                    )
                },
                match a.recomputed {
                    Some(r) => format!(
                        "; as published the runs give {}, which measures those choices rather than the hardware",
                        num(r)
                    ),
                    None => String::new(),
                }
            ),
        );
        if let Some(r) = a.restatement.as_ref().and_then(|r| r.value.map(|v| (r, v))) {
            d.extra.push(format!(
                "Even on a matched per-user floor of {} tok/s the ratio would be {}, and that still compares the mismatched settings.",
                num(r.0.floor),
                num(r.1)
            ));
        }
        return d;
    }
    if restatable
        && let Some(r) = &a.restatement
        && r.value.is_none()
    {
        return Decided::new(
            Verdict::Retracted,
            format!(
                "Retracted: the sides are not on a matched basis and a matched-basis comparison is impossible: {}.",
                r.problem
                    .as_deref()
                    .unwrap_or("no restatement can be computed")
            ),
        );
    }

    // 3. The runs disagree.
    let unresolved: Vec<&&GroupFinding> = s_findings.iter().filter(|g| g.code == "S006").collect();
    if let Some(g) = unresolved.first() {
        return Decided::new(
            Verdict::Unresolved,
            format!(
                "Not yet resolved: the runs behind the claim disagree beyond noise (on `{}`, {}) (S006).",
                g.result,
                g.message.raw().trim_end_matches('.')
            ),
        )
        .quoting(&g.message.raw());
    }

    // 4. Not reproducible.
    if let Some(f) = a.findings.iter().find(|f| f.rule.code == "C013") {
        return Decided::new(
            Verdict::Retracted,
            format!(
                "Retracted: the published claim does not follow from the runs it names: {} (C013).",
                f.message.trim_end_matches('.')
            ),
        )
        .quoting(&f.message);
    }

    // 5. Restated.
    let mut basis_cmp: Option<&Comparison> = a.published.as_ref();
    if restatable
        && let Some(r) = &a.restatement
        && let (Some(value), Some(s), Some(b), Some(cmp)) =
            (r.value, &r.subject, &r.baseline, &r.comparison)
    {
        let same =
            (claim.value - value).abs() <= (thresholds.claim_tolerance * value.abs()).max(1e-12);
        if !same {
            // The A/B verdict on the matched basis is part of the one verdict: the restated
            // value, and whether it is a difference, a tie or not decidable from these runs.
            // The C finding of that basis (C009, C010, C011) follows with its numbers.
            let ab = match cmp.ab.as_ref().map(|ab| &ab.verdict) {
                Some(Ab::TieWithinNoise) => format!(
                    "on that basis the sides tie within noise ({} inside the {} floor), so there is no win to claim",
                    pct(cmp.ab.as_ref().map_or(0.0, |ab| ab.effect_rel)),
                    crate::claims::pct_abs(cmp.noise.value),
                ),
                Some(Ab::Difference) => {
                    format!(
                        "on that basis the difference holds ({})",
                        cmp.effect_words()
                    )
                }
                _ => {
                    let words = cmp.verdict_words();
                    let why = words.strip_prefix("not decidable: ").unwrap_or(&words);
                    format!(
                        "whether the sides differ on that basis is not decidable from these runs ({why}, {}), so \
                         the restated value is what these runs give, not yet a finding",
                        cmp.effect_words()
                    )
                }
            };
            let mut d = Decided::new(
                Verdict::Restated,
                format!(
                    "Restated on a matched per-user floor of {} tok/s, each side at its highest concurrency clearing it: {} \
                     against {} gives {} instead of the published {}{}; {ab}.",
                    num(r.floor),
                    side_arithmetic(s, metric),
                    side_arithmetic(b, metric),
                    num(value),
                    num(claim.value),
                    per_device(runs.results, s, b, metric),
                ),
            );
            d.restated = Some(value);
            return d;
        }
        basis_cmp = Some(cmp);
    }

    // 6. The A/B verdict of a claimed difference.
    if claim.kind == ClaimKind::Ratio
        && a.asserts_difference()
        && let Some(cmp) = basis_cmp
        && let Some(ab) = &cmp.ab
    {
        match ab.verdict {
            Ab::TieWithinNoise => {
                return Decided::new(
                    Verdict::Retracted,
                    format!(
                        "Retracted: the claimed difference is a tie within noise: {} against the {} floor ({}).",
                        cmp.effect_words(),
                        crate::claims::pct_abs(cmp.noise.value),
                        cmp.noise.source()
                    ),
                );
            }
            Ab::SingleLaunch | Ab::Underpowered { .. } => {
                return Decided::new(
                    Verdict::Unresolved,
                    format!(
                        "Not yet resolved: {} ({}).",
                        cmp.verdict_words(),
                        cmp.effect_words()
                    ),
                );
            }
            Ab::Difference => {}
        }
    }

    // 7. Figures on too few or too noisy runs.
    let blocking: Vec<&&GroupFinding> = s_findings
        .iter()
        .filter(|g| !g.pre_rule && g.code != "S006")
        .collect();
    if claim.kind == ClaimKind::Figure && !blocking.is_empty() {
        let which: BTreeSet<&str> = blocking.iter().map(|g| g.code).collect();
        return Decided::new(
            Verdict::Unresolved,
            format!(
                "Not yet resolved: the figure rests on too few or too noisy runs ({}), so there is no interval worth quoting.",
                which.into_iter().collect::<Vec<_>>().join(", ")
            ),
        );
    }

    // 8. Pre-rule.
    let errors = a
        .findings
        .iter()
        .any(|f| !matches!(f.rule.code, "C008" | "C014"));
    if !errors && !s_findings.is_empty() && s_findings.iter().all(|g| g.pre_rule) {
        return Decided::new(
            Verdict::PreRule,
            "Pre-rule: the only findings behind the claim are rules adopted after its runs were measured (labelled, not failed).".into(),
        );
    }

    // 9. Upheld.
    let value = a
        .recomputed
        .map_or_else(|| "the published value".into(), num);
    let how = match (claim.kind, basis_cmp) {
        (ClaimKind::Ratio, Some(cmp)) if a.asserts_difference() => {
            format!(", a difference of {}", cmp.effect_words())
        }
        (ClaimKind::Ratio, Some(cmp)) => format!(" ({})", cmp.verdict_words()),
        _ => a
            .subject
            .as_ref()
            .map(|s| match s.interval() {
                Some(iv) => format!(
                    " ± {:.2} over {} runs and {} launches",
                    iv.half_width(),
                    s.points.len(),
                    s.launches()
                ),
                None => String::new(),
            })
            .unwrap_or_default(),
    };
    Decided::new(
        Verdict::Upheld,
        format!(
            "Upheld: the runs give {value}{how}, as published ({}).",
            num(claim.value)
        ),
    )
}

/// "; per device, 67.2 against 70.4 tok/s" when the sides use different device counts.
fn per_device(
    results: &[crate::model::loaded::LoadedResult],
    s: &ResolvedSide,
    b: &ResolvedSide,
    metric: crate::claims::Metric,
) -> String {
    if !metric.adds_over_replicas() {
        return String::new();
    }
    match (s.value(), b.value(), s.devices(results), b.devices(results)) {
        (Some(sv), Some(bv), Some(sd), Some(bd)) if sd != bd && sd > 0 && bd > 0 => {
            #[expect(clippy::cast_precision_loss, reason = "device counts are small")]
            let (x, y) = (sv / sd as f64, bv / bd as f64);
            format!(
                "; per device, {} {} on {sd} devices against {} on {bd}",
                num(x),
                metric.unit(),
                num(y)
            )
        }
        _ => String::new(),
    }
}

fn capitalised(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}
