//! The analysis of every claim: its sides resolved, its comparison as published, its value
//! recomputed, a restatement on a matched service level when the published basis is not one,
//! and the C findings that follow. The C rules report these findings (`benchlint check`); the
//! audit turns the same analysis into a verdict, so the two never disagree.

mod figure;
mod ratio;
mod rules;
mod words;

use std::collections::BTreeSet;

use super::compare::{Comparison, Runs};
use super::side::{ResolvedSide, quoted_list, resolve_side};
use super::{Claim, ClaimKind, Metric, SideSpec};
use crate::diagnostic::Location;
use crate::model::loaded::LoadedClaims;
use crate::rules::{RuleMeta, c014_missing_quality_gate, c015_claim_source_missing};
use crate::thresholds::Thresholds;
use figure::figure;
use ratio::ratio;

pub use rules::{emit_findings, rule_help};
pub use words::{basis_words, matched_words, side_arithmetic};

/// Where a claim is: its claims document and its index in `claims`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClaimRef {
    /// Index of the claims document in the corpus.
    pub file: usize,
    /// Index of the claim in the document's `claims`.
    pub index: usize,
    /// The claims file as reached from the command line: shared with the document's, not a
    /// copy for each claim.
    pub path: crate::text::PathText,
    /// Byte offset of the document in the file.
    pub doc_start: usize,
    /// The claim's id (or `claim N` when it has none).
    pub id: String,
}

impl ClaimRef {
    /// The pointer of the claim, `/claims/N`.
    pub fn pointer(&self) -> String {
        format!("/claims/{}", self.index)
    }

    /// The location of `pointer` in the claims file.
    pub fn location(&self, pointer: &str) -> Location {
        Location {
            path: self.path.clone(),
            doc_start: self.doc_start,
            pointer: pointer.into(),
            offset: None,
        }
    }
}

/// One C finding on a claim.
#[derive(Debug, Clone)]
pub struct ClaimFinding {
    /// The rule.
    pub rule: &'static RuleMeta,
    /// What was found, with the numbers.
    pub message: String,
    /// Short text under the value.
    pub label: Option<String>,
    /// Pointer in the claims document.
    pub pointer: String,
    /// Places in the result files: (result index, canonical pointer).
    pub related: Vec<(usize, String)>,
    /// Whether the finding is about the restatement on the matched basis rather than the claim
    /// as published.
    pub matched: bool,
}

/// A ratio claim restated on a matched service level: each side at its highest concurrency
/// whose per-user rate clears the floor at every level up to it (seed 004).
#[derive(Debug, Clone)]
pub struct Restatement {
    /// The per-user floor, tokens per second.
    pub floor: f64,
    /// The subject at its capacity (when it has one).
    pub subject: Option<ResolvedSide>,
    /// The baseline at its capacity.
    pub baseline: Option<ResolvedSide>,
    /// The comparison of the two (when both have a capacity).
    pub comparison: Option<Comparison>,
    /// The restated value (subject over baseline at their capacities).
    pub value: Option<f64>,
    /// Why no restated value exists.
    pub problem: Option<String>,
}

/// Everything known about one claim.
#[derive(Debug, Clone)]
pub struct ClaimAnalysis {
    /// Where it is.
    pub at: ClaimRef,
    /// The claim, when it could be read.
    pub claim: Option<Claim>,
    /// Its metric, when known.
    pub metric: Option<Metric>,
    /// Why the claim is not decidable ("not decidable: ..."), if it is not.
    pub problem: Option<String>,
    /// The subject side.
    pub subject: Option<ResolvedSide>,
    /// The baseline side (ratios).
    pub baseline: Option<ResolvedSide>,
    /// The comparison as published (ratios).
    pub published: Option<Comparison>,
    /// The value recomputed from the runs on the claim's own basis.
    pub recomputed: Option<f64>,
    /// The restatement on a matched service level, when the published basis is not one.
    /// Boxed: most claims have none, and inline it was 760 of an analysis's 1,900 bytes, held
    /// for every claim until the run ends.
    pub restatement: Option<Box<Restatement>>,
    /// The C findings.
    pub findings: Vec<ClaimFinding>,
}

impl ClaimAnalysis {
    /// Whether a finding of `code` was made.
    pub fn has(&self, code: &str) -> bool {
        self.findings.iter().any(|f| f.rule.code == code)
    }

    /// Whether the claim asserts a difference: a ratio further from 1 than the static floor.
    pub fn asserts_difference(&self) -> bool {
        match (&self.claim, self.metric) {
            (Some(c), Some(m)) if c.kind == ClaimKind::Ratio => {
                (c.value - 1.0).abs() > m.static_noise_floor()
            }
            _ => false,
        }
    }
}

/// Codes of the mismatches a matched service level resolves: peaks across caps (C004), the same
/// total streams over different device counts (C005), different per-user rates (C012).
pub const RESTATABLE: [&str; 3] = ["C004", "C005", "C012"];

/// Analyses every claim of every claims document, in file order then claim order. `floor` is
/// the per-user floor of the matched basis, tokens per second.
pub fn analyse(
    runs: &Runs<'_>,
    claims: &[LoadedClaims],
    thresholds: &Thresholds,
    floor: f64,
) -> Vec<ClaimAnalysis> {
    // An analysis is about a kilobyte before what it points to, kept for every claim until the
    // run ends: sized to the claims, not grown by doubling past them.
    let mut out = Vec::with_capacity(claim_count(claims));
    each_analysis(runs, claims, thresholds, floor, &mut |a| out.push(a));
    out
}

/// Where a claim is and its C findings: all the C rules report of an analysis.
#[derive(Debug, Clone)]
pub struct ClaimFindings {
    /// Where the claim is.
    pub at: ClaimRef,
    /// Its C findings.
    pub findings: Vec<ClaimFinding>,
}

/// The C findings of every claim, as [`analyse`] makes them, of the rules `rule_runs` says run;
/// each claim's analysis is dropped once its findings are taken. The C rules of `check` report
/// findings, never verdicts, and the rest of an analysis (the claim, its sides, the
/// comparisons and the strings they copy, a few kilobytes) held for every claim until the last
/// C rule ran was most of the memory a claims file of a claim per result added.
pub fn claim_findings(
    runs: &Runs<'_>,
    claims: &[LoadedClaims],
    thresholds: &Thresholds,
    floor: f64,
    rule_runs: &dyn Fn(&str) -> bool,
) -> Vec<ClaimFindings> {
    let mut out = Vec::with_capacity(claim_count(claims));
    each_analysis(runs, claims, thresholds, floor, &mut |a| {
        let mut findings = a.findings;
        findings.retain(|f| rule_runs(f.rule.code));
        findings.shrink_to_fit();
        out.push(ClaimFindings { at: a.at, findings });
    });
    out
}

/// How many claims the claims documents hold.
pub fn claim_count(claims: &[LoadedClaims]) -> usize {
    claims.iter().map(|doc| doc.claims.len()).sum()
}

/// Each claim's analysis, in file order then claim order, handed to `keep`: as [`analyse`],
/// for a caller that needs no analysis once it has made what it keeps of it.
pub fn each_analysis(
    runs: &Runs<'_>,
    claims: &[LoadedClaims],
    thresholds: &Thresholds,
    floor: f64,
    keep: &mut dyn FnMut(ClaimAnalysis),
) {
    for (file, doc) in claims.iter().enumerate() {
        for (index, item) in doc.claims.iter().enumerate() {
            let id = item
                .id
                .clone()
                .unwrap_or_else(|| format!("claim {}", index + 1));
            let at = ClaimRef {
                file,
                index,
                path: doc.origin.path.clone(),
                doc_start: doc.origin.doc_start,
                id,
            };
            let mut a = analyse_one(runs, at, &item.read, thresholds, floor);
            // Kept to the end of the run: a claim's few findings, not the room a growing list
            // leaves.
            a.findings.shrink_to_fit();
            keep(a);
        }
    }
}

fn analyse_one(
    runs: &Runs<'_>,
    at: ClaimRef,
    read: &Result<Claim, String>,
    thresholds: &Thresholds,
    floor: f64,
) -> ClaimAnalysis {
    let mut a = ClaimAnalysis {
        at,
        claim: None,
        metric: None,
        problem: None,
        subject: None,
        baseline: None,
        published: None,
        recomputed: None,
        restatement: None,
        findings: Vec::new(),
    };
    let claim: Claim = match read {
        Ok(c) => c.clone(),
        Err(e) => {
            a.problem = Some(format!("not decidable: the claim could not be read ({e})"));
            return a;
        }
    };
    let Some(metric) = Metric::parse(&claim.metric) else {
        let names: Vec<&str> = Metric::ALL.iter().map(|m| m.as_str()).collect();
        a.problem = Some(format!(
            "not decidable: unknown metric `{}` (a claim names one of {})",
            claim.metric,
            names.join(", ")
        ));
        a.claim = Some(claim);
        return a;
    };
    a.metric = Some(metric);
    let base = a.at.pointer();
    if !claim.value.is_finite() {
        a.problem = Some("not decidable: the published value is not a number".into());
        a.claim = Some(claim);
        return a;
    }
    let baseline_spec = match (claim.kind, &claim.baseline) {
        (ClaimKind::Ratio, None) => {
            a.problem = Some("not decidable: a ratio claim names no baseline".into());
            a.claim = Some(claim);
            return a;
        }
        (ClaimKind::Ratio, Some(b)) => Some(b.clone()),
        (ClaimKind::Figure, _) => None,
    };
    let resolve = |spec: &SideSpec| {
        resolve_side(
            runs.results,
            &runs.index,
            &spec.results,
            spec.level(),
            spec.replicas(),
            metric,
        )
    };
    let subject = resolve(&claim.subject);
    let baseline = baseline_spec.as_ref().map(resolve);

    // C015: ids not in the corpus.
    for (name, spec, side) in [
        ("subject", Some(&claim.subject), Some(&subject)),
        ("baseline", baseline_spec.as_ref(), baseline.as_ref()),
    ] {
        let (Some(spec), Some(side)) = (spec, side) else {
            continue;
        };
        if side.missing.is_empty() {
            continue;
        }
        // A set, not a scan of `missing` per id: a claim may name tens of thousands of ids.
        let missing: BTreeSet<&str> = side.missing.iter().map(String::as_str).collect();
        let j = spec
            .results
            .iter()
            .position(|r| missing.contains(r.as_str()))
            .unwrap_or(0);
        a.findings.push(ClaimFinding {
            rule: &c015_claim_source_missing::RULE,
            message: format!(
                "claim `{}` rests its {name} on {}, which the corpus does not hold: the claim cannot be checked",
                a.at.id,
                quoted_list(&side.missing, "result", "results")
            ),
            label: Some("not in the corpus".into()),
            pointer: format!("{base}/{name}/results/{j}"),
            related: Vec::new(),
            matched: false,
        });
    }

    // C014: a speed claim without a paired quality gate.
    if metric.is_speed() {
        let sides: Vec<&ResolvedSide> =
            std::iter::once(&subject).chain(baseline.as_ref()).collect();
        let without: Vec<usize> = sides
            .iter()
            .flat_map(|s| s.results.iter().copied())
            .filter(|&i| {
                runs.results[i]
                    .doc
                    .artifacts
                    .as_ref()
                    .and_then(|x| x.quality_gate.as_ref())
                    .is_none()
            })
            .collect();
        if !without.is_empty() {
            let ids: Vec<String> = without
                .iter()
                .map(|&i| runs.results[i].doc.id.clone())
                .collect();
            a.findings.push(ClaimFinding {
                rule: &c014_missing_quality_gate::RULE,
                message: format!(
                    "the {} claim rests on {} without a paired quality gate: a speed figure without an accuracy figure \
                     from the same endpoint cannot tell fast from quietly broken",
                    metric,
                    quoted_list(&ids, "result", "results")
                ),
                label: Some("no quality gate behind this figure".into()),
                pointer: format!("{base}/metric"),
                related: without.iter().map(|&i| (i, "/artifacts".to_string())).collect(),
                matched: false,
            });
        }
    }

    let side_problem = [
        ("the subject", Some(&subject)),
        ("the baseline", baseline.as_ref()),
    ]
    .into_iter()
    .find_map(|(name, s)| {
        s.and_then(|s| {
            s.problem
                .as_ref()
                .map(|p| format!("not decidable: {name}: {p}"))
        })
    });
    a.problem = side_problem;
    a.claim = Some(claim.clone());

    match &baseline {
        None => figure(&mut a, &claim, &subject, thresholds),
        Some(b) => ratio(runs, &mut a, &claim, metric, &subject, b, thresholds, floor),
    }
    a.subject = Some(subject);
    a.baseline = baseline;
    a
}
#[cfg(test)]
mod size_tests {
    #[test]
    fn a_claim_analysis_stays_small() {
        // Held for every claim until the run ends: a claims file of a claim per result holds
        // tens of thousands of them.
        let size = size_of::<super::ClaimAnalysis>();
        assert!(size <= 1_200, "a claim's analysis takes {size} bytes");
    }
}
