//! One claim's outcome: its codes, its verdict, and the reasons behind it, each told once.

use std::collections::BTreeSet;

use super::decide::decide;
use super::groups::{GroupFindings, relevant};
use crate::audit::{ClaimOutcome, Verdict};
use crate::claims::analysis::{ClaimAnalysis, basis_words};
use crate::claims::compare::Runs;
use crate::claims::side::num;
use crate::text::Text;
use crate::thresholds::Thresholds;

pub(super) fn sentence(message: &str, code: &str) -> String {
    let mut s = message.trim_end_matches('.').to_string();
    if let Some(first) = s.chars().next() {
        let upper: String = first.to_uppercase().collect();
        s.replace_range(..first.len_utf8(), &upper);
    }
    format!("{s} ({code}).")
}

/// The verdict of one claim (the module documentation has the logic).
pub(super) fn outcome(
    runs: &Runs<'_>,
    a: &ClaimAnalysis,
    group: &GroupFindings,
    thresholds: &Thresholds,
) -> ClaimOutcome {
    let claim = a.claim.as_ref();
    let s_findings = relevant(runs, a, group);
    let mut codes: BTreeSet<String> = a.findings.iter().map(|f| f.rule.code.to_string()).collect();
    codes.extend(s_findings.iter().map(|g| g.code.to_string()));
    let published_value = claim.map_or(f64::NAN, |c| c.value);
    let claim_basis = claim.and_then(|c| basis_words(c.basis));
    let decided = decide(runs, a, &s_findings, thresholds);
    // Each reason once: a rule that fires both on the claim as published and on the matched
    // basis (C010 twice, say) is told on the basis the verdict rests on, the matched one for a
    // restatement, the published one otherwise. Its code stays in `codes`.
    let on_matched = decided.verdict == Verdict::Restated;
    let told_on = |matched: bool| {
        a.findings
            .iter()
            .filter(move |f| f.matched == matched)
            .map(|f| f.rule.code)
            .collect::<BTreeSet<&str>>()
    };
    let (told_published, told_matched) = (told_on(false), told_on(true));
    let mut details: Vec<String> = a
        .findings
        .iter()
        .filter(|f| {
            if f.matched {
                on_matched || !told_published.contains(f.rule.code)
            } else {
                !on_matched || !told_matched.contains(f.rule.code)
            }
        })
        .filter(|f| decided.quotes.as_deref() != Some(f.message.as_str()))
        .map(|f| sentence(&f.message, f.rule.code))
        .collect();
    details.extend(
        s_findings
            .iter()
            .filter(|g| decided.quotes.as_deref() != Some(g.message.raw().as_str()))
            .map(|g| sentence(&format!("on `{}`: {}", g.result, g.message.raw()), g.code)),
    );

    // Sentences of benchlint's that quote ids and values between backticks.
    // Kept for every claim to the end of the run: each sentence without the room `format!`
    // leaves, the list made to its length (not grown from room for four).
    let reasons: Vec<Text> = std::iter::once(decided.lead)
        .chain(decided.extra)
        .chain(details)
        .map(|mut s| {
            s.shrink_to_fit();
            Text::quoting(s)
        })
        .collect();

    let basis = match (&decided.verdict, decided.restated) {
        (Verdict::Restated, Some(_)) => Some(match claim_basis {
            Some(b) => format!(
                "matched per-user floor of {} tok/s ({b})",
                num(a.restatement.as_ref().map_or(f64::NAN, |r| r.floor))
            ),
            None => format!(
                "matched per-user floor of {} tok/s",
                num(a.restatement.as_ref().map_or(f64::NAN, |r| r.floor))
            ),
        }),
        _ => claim_basis.map(str::to_string),
    };
    ClaimOutcome {
        id: a.at.id.clone().into(),
        statement: claim.and_then(|c| c.statement.clone().map(Into::into)),
        kind: claim.map_or_else(|| "unknown".to_string(), |c| c.kind_str().to_string()),
        metric: claim.map_or_else(|| "unknown".into(), |c| c.metric.clone().into()),
        verdict: decided.verdict,
        codes: codes.into_iter().collect(),
        published_value,
        restated_value: decided.restated,
        basis: basis.map(Text::quoting),
        reasons,
        subject: claim
            .map(|c| c.subject.results.iter().map(Into::into).collect())
            .unwrap_or_default(),
        baseline: claim
            .and_then(|c| {
                c.baseline
                    .as_ref()
                    .map(|b| b.results.iter().map(Into::into).collect())
            })
            .unwrap_or_default(),
    }
}
