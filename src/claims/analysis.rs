//! The analysis of every claim: its sides resolved, its comparison as published, its value
//! recomputed, a restatement on a matched service level when the published basis is not one,
//! and the C findings that follow. The C rules report these findings (`benchlint check`); the
//! audit turns the same analysis into a verdict, so the two never disagree.

use std::fmt::Write as _;

use serde_json::Value;

use super::compare::{CompareOptions, Comparison, Runs, compare_sides};
use super::side::{ResolvedSide, num, pct, pct_abs, quoted_list, resolve_at, resolve_side};
use super::{Basis, Claim, ClaimKind, Metric, SideSpec, capacity};
use crate::corpus::LoadedClaims;
use crate::diagnostic::Location;
use crate::model::LevelKey;
use crate::replication::locate;
use crate::rules::{
    CorpusCtx, Emitter, RuleMeta, c013_claim_not_reproducible, c014_missing_quality_gate,
    c015_claim_source_missing,
};
use crate::thresholds::Thresholds;

/// Where a claim is: its claims document and its index in `claims`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClaimRef {
    /// Index of the claims document in the corpus.
    pub file: usize,
    /// Index of the claim in the document's `claims`.
    pub index: usize,
    /// The claims file as reached from the command line.
    pub path: String,
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
            path: self.path.clone().into(),
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
    pub restatement: Option<Restatement>,
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
    let mut out = Vec::new();
    for (file, doc) in claims.iter().enumerate() {
        let Some(items) = doc.value.get("claims").and_then(Value::as_array) else {
            continue;
        };
        for (index, raw) in items.iter().enumerate() {
            let id = raw
                .get("id")
                .and_then(Value::as_str)
                .map_or_else(|| format!("claim {}", index + 1), str::to_string);
            let at = ClaimRef {
                file,
                index,
                path: doc.origin.path.clone(),
                doc_start: doc.origin.doc_start,
                id,
            };
            out.push(analyse_one(runs, at, raw, thresholds, floor));
        }
    }
    out
}

fn analyse_one(
    runs: &Runs<'_>,
    at: ClaimRef,
    raw: &Value,
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
    let claim: Claim = match serde_json::from_value(raw.clone()) {
        Ok(c) => c,
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
            spec.concurrency.map(LevelKey::Streams),
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
        let j = spec
            .results
            .iter()
            .position(|r| side.missing.contains(r))
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

fn value_finding(
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

fn side_related(side: &ResolvedSide, metric: Metric) -> Vec<(usize, String)> {
    side.points
        .iter()
        .map(|p| (p.result, metric.pointer(p.level)))
        .collect()
}

fn figure(a: &mut ClaimAnalysis, claim: &Claim, subject: &ResolvedSide, thresholds: &Thresholds) {
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

#[expect(
    clippy::too_many_arguments,
    reason = "one call site; the pieces of one analysis"
)]
fn ratio(
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
            a.restatement = Some(r);
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

/// "each side at its highest concurrency clearing 20 tok/s per user: the subject at 8 streams ×
/// 4 replicas, the baseline at 32 streams".
pub fn matched_words(floor: f64, subject: &ResolvedSide, baseline: &ResolvedSide) -> String {
    format!(
        "each side at its highest concurrency clearing {} tok/s per user: the subject {}, the baseline {}",
        num(floor),
        subject.where_phrase(),
        baseline.where_phrase()
    )
}

/// The arithmetic of a comparison in words: "4 × 140.8 = 563.2 tok/s (20.1 tok/s per user)".
pub fn side_arithmetic(side: &ResolvedSide, metric: Metric) -> String {
    let Some(v) = side.value() else {
        return "no value".into();
    };
    #[expect(clippy::cast_precision_loss, reason = "replica counts are small")]
    let each = v / side.replicas as f64;
    let mut s = if side.replicas > 1 && metric.adds_over_replicas() {
        format!(
            "{} × {} = {} {}",
            side.replicas,
            num(each),
            num(v),
            metric.unit()
        )
    } else {
        format!("{} {}", num(v), metric.unit())
    };
    let each = if side.replicas > 1 { " each" } else { "" };
    if let (Some(c), Some(u)) = (side.level, side.per_user())
        && metric != Metric::PerUserTokS
    {
        let _ = write!(s, " at {c}{each} ({} tok/s per user)", num(u));
    } else if let Some(c) = side.level {
        let _ = write!(s, " at {c}{each}");
    }
    s
}

/// The basis of a claim in words.
pub fn basis_words(basis: Option<Basis>) -> Option<&'static str> {
    match basis? {
        Basis::Hardware => Some("hardware"),
        Basis::Deployment => Some("deployment"),
    }
}

/// Reports the findings of `rule` on every claim of the corpus (the check of each C rule).
pub fn emit_findings(ctx: &CorpusCtx<'_>, out: &mut Emitter<'_>, rule: &'static RuleMeta) {
    if ctx.claims.is_empty() {
        return;
    }
    let runs = Runs::new(ctx.results);
    for a in analyse(
        &runs,
        ctx.claims,
        ctx.thresholds,
        ctx.thresholds.service_floor_tok_s,
    ) {
        for f in a.findings.iter().filter(|f| f.rule.code == rule.code) {
            let e = out.emit(f.pointer.clone(), f.message.clone());
            e.at(a.at.location(&f.pointer));
            if let Some(l) = &f.label {
                e.label(l.clone());
            }
            e.help(rule_help(rule.code));
            for (i, p) in &f.related {
                e.related(locate(ctx.results, *i, p));
            }
        }
    }
}

/// The help line of each C rule.
pub fn rule_help(code: &str) -> &'static str {
    match code {
        "C001" => {
            "compare the same precision and kernel on both sides (a matched track, in practice FP8), or label the claim `basis: deployment` and record both"
        }
        "C002" => {
            "compare speculation off against off (hardware) or each side at its recorded best (deployment), and record the speculative config on both sides"
        }
        "C003" => "run both sides in the same graph mode and record `engine.enforce_eager` on both",
        "C004" => {
            "ladder both sides to saturation under the same sequence cap, or compare at a matched per-user rate instead of at the peaks"
        }
        "C005" => {
            "hold streams per device constant, or better the per-user rate: let each side find its own stream count (`benchlint capacity --floor 20`)"
        }
        "C006" => "measure both sides at the wall (or both on the device) and say which",
        "C007" => {
            "compare the same prompt and output shape on both sides, and report prefill-heavy and decode-heavy shapes side by side"
        }
        "C008" => {
            "match the KV cache dtype, the prefix-caching setting and the engine version, or state the difference beside the figure"
        }
        "C009" => {
            "call it a tie: a difference smaller than what a configuration shows against itself is not a finding"
        }
        "C010" => {
            "measure each side over at least two engine launches (three is better) before claiming a difference"
        }
        "C011" => {
            "call it a tie, or measure more launches per side until the interval clears the noise floor"
        }
        "C012" => {
            "compare the sides at the same per-user rate: each at its highest concurrency clearing the floor (`benchlint capacity --floor 20`)"
        }
        "C013" => {
            "publish the value the runs give (mean of launch means, the launch-level interval), or point the claim at the runs it came from"
        }
        "C014" => {
            "pair every throughput run with a quality-gate result from the same endpoint (`artifacts.quality_gate`)"
        }
        "C015" => "add the results to the corpus, or correct the ids the claim points at",
        _ => "",
    }
}
