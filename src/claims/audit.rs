//! The retractions report (`benchlint audit`): a verdict for every published claim, every
//! configuration's ladder with its intervals and its capacity at the per-user floor, and the
//! losing runs.
//!
//! # Verdict logic
//!
//! Each claim is analysed once ([`super::analyse`]; the C rules of `benchlint check` report the
//! same findings), then the first of these that applies decides:
//!
//! 1. **Not decidable → unresolved.** The claim cannot be read, names an unknown metric, is a
//!    ratio without a baseline, points at ids the corpus does not hold (C015), rests on a run
//!    that did not produce figures (failed, aborted, does-not-fit), names a level a run did not
//!    measure, a level with failed requests (R006) or zero throughput (R007), a metric the runs
//!    do not record (tokens per watt of a level whose power does not say wall or device, L005),
//!    or a ratio whose baseline is 0. The reason starts "not decidable: ..." and no value is
//!    made up.
//! 2. **Retracted: no matched basis.** The sides differ in what no re-cut of these runs can
//!    remove: precision or kernel (C001), speculation (C002), graph mode (C003), request shape
//!    (C007), or the power basis of a cost or tokens-per-watt claim (C006: a wall number against
//!    a device number), including a setting recorded on one side only (the ratio is
//!    unknowable). Also when the sides differ only in what a matched service
//!    level resolves (C004, C005, C012) but no restatement can be computed (a side has no level
//!    clearing the floor, or no per-user rate).
//! 3. **Unresolved: the runs disagree.** A configuration the claim rests on has two runs at the
//!    claim's level that disagree beyond noise (S006: "two runs, 258 and 317, not yet
//!    resolved").
//! 4. **Retracted: not reproducible.** The published value, interval or run count does not
//!    follow from the runs it names (C013): the value beyond the tolerance (2%, or the rounding
//!    of the published digits), an interval narrower than the launch-level interval, more runs
//!    than named.
//! 5. **Restated.** The published basis mixes peaks across sequence caps (C004), the same total
//!    streams over different device counts (C005) or different per-user rates (C012), and a
//!    matched basis exists: each side at its highest concurrency whose per-user rate clears the
//!    floor at every level up to it, replicas multiplying the engine throughputs. When that gives
//!    another value, the claim is restated to it, with basis "matched per-user floor of 20 tok/s
//!    (deployment)"; the A/B verdict of the restated comparison is part of the reasons (seed
//!    004's four pairs against the cluster: 2.2 restated to 1.05, "a tie inside the run-to-run
//!    variance").
//! 6. **The A/B verdict** of the comparison the claim rests on (as published, or matched when
//!    the restatement gave the published value), for a ratio that claims a difference (further
//!    from 1 than the static noise floor): a tie within the noise (C009, C011) → retracted, the
//!    claimed win is not there; a single launch on a side (C010) or an underpowered comparison
//!    (C011) → unresolved ("a single-instance A/B is only trusted when it finds no difference",
//!    seed 000).
//! 7. **Figures: too few or too noisy runs → unresolved.** A configuration the figure rests on
//!    has too few runs (S001 with speculation, S002), a single launch (S003) or a level above
//!    10% variation (S005). A ratio's replication is judged by its A/B verdict instead (rule 6);
//!    these codes are still listed.
//! 8. **Pre-rule.** The only findings behind the claim are pre-rule labels (S001 on runs measured
//!    before its adoption on 26 July 2026).
//! 9. **Upheld** otherwise.
//!
//! C008 (engine settings differ) and C014 (no quality gate) are warnings: listed in the codes
//! and the reasons, never the verdict.
//!
//! A claim's `codes` are its C findings (on the claim as published and on the matched basis)
//! and the S findings that matter to it on the configurations its runs belong to: S001, S002,
//! S003 for any level, S005 and S006 at the levels the claim is taken at.

use std::collections::BTreeSet;

use super::analysis::{ClaimAnalysis, basis_words, side_arithmetic};
use super::capacity::{capacity, ladder};
use super::compare::{Comparison, Runs};
use super::side::{ResolvedSide, num, pct};
use super::{ClaimKind, analyse};
use crate::audit::{AuditReport, ClaimOutcome, ConfigLadder, LosingRun, Verdict};
use crate::corpus::Corpus;
use crate::model::Outcome;
use crate::rules::{Check, CorpusCtx, Emitter, find_rule};
use crate::stats::Verdict as Ab;
use crate::text::Text;
use crate::thresholds::Thresholds;

/// Mismatches no re-cut of the runs can remove (C006 only for cost and per-watt claims, see the
/// module doc).
const HARD: [&str; 4] = ["C001", "C002", "C003", "C007"];

/// Group rules whose findings on a claim's configurations matter to it.
const GROUP_CODES: [&str; 5] = ["S001", "S002", "S003", "S005", "S006"];

/// A replication finding on a configuration.
#[derive(Debug, Clone, PartialEq)]
pub struct GroupFinding {
    /// S001, S002, S003, S005 or S006.
    pub code: &'static str,
    /// Index of the configuration in [`Runs::configs`].
    pub config: usize,
    /// The level it is about, when it is about one.
    pub concurrency: Option<u64>,
    /// Its message.
    pub message: crate::text::Text,
    /// Measured before the rule was adopted.
    pub pre_rule: bool,
    /// The id of the result the finding is placed on.
    pub result: String,
}

/// The audit of `corpus`: every claim's verdict, every configuration's ladder and capacity at
/// `floor_tok_s` tokens per second per user, and the losing runs.
pub fn audit(corpus: &Corpus, floor_tok_s: f64, thresholds: &Thresholds) -> AuditReport {
    let runs = Runs::new(&corpus.results);
    let analyses = analyse(&runs, &corpus.claims, thresholds, floor_tok_s);
    let group = group_findings(&runs, thresholds);
    let claims = analyses
        .iter()
        .map(|a| outcome(&runs, a, &group, thresholds))
        .collect();
    let replication =
        crate::audit::replication::statuses(&corpus.results, &runs.configs, thresholds);
    let mut ladders: Vec<ConfigLadder> = runs
        .configs
        .iter()
        .zip(replication)
        .map(|(c, replication)| {
            let points = ladder(&corpus.results, &c.members);
            let cap = capacity(&points, floor_tok_s, 1);
            ConfigLadder {
                label: c.fingerprint.label().into(),
                fingerprint: c.fingerprint.short(),
                results: c
                    .members
                    .iter()
                    .map(|&i| corpus.results[i].doc.id.clone().into())
                    .collect(),
                points,
                capacity: Some(cap),
                replication: Some(replication),
            }
        })
        .collect();
    ladders.sort_by(|a, b| (&a.label, &a.fingerprint).cmp(&(&b.label, &b.fingerprint)));
    let losing_runs = crate::replication::path_order(&corpus.results)
        .into_iter()
        .map(|i| &corpus.results[i])
        .filter(|r| r.doc.outcome != Outcome::Ok)
        .map(|r| LosingRun {
            id: r.doc.id.clone().into(),
            outcome: r.doc.outcome.as_str().to_string(),
            path: r.origin.path.clone().into(),
            notes: r.doc.notes.clone().map(Into::into),
        })
        .collect();
    AuditReport {
        floor_tok_s,
        claims,
        ladders,
        losing_runs,
        corpus: None,
    }
}

/// The findings of the replication rules that matter to claims, by configuration.
pub fn group_findings(runs: &Runs<'_>, thresholds: &Thresholds) -> Vec<GroupFinding> {
    let configurations = crate::replication::configurations(runs.results);
    let ctx = CorpusCtx {
        results: runs.results,
        claims: &[],
        thresholds,
        configurations: &configurations,
    };
    let mut out = Vec::new();
    for code in GROUP_CODES {
        let Some(rule) = find_rule(code) else {
            continue;
        };
        let Check::Corpus(check) = rule.check else {
            continue;
        };
        let mut emits = Vec::new();
        check(&ctx, &mut Emitter::new(rule.meta, &mut emits));
        for e in emits {
            let Some(subject) = e.subject.filter(|&i| i < runs.results.len()) else {
                continue;
            };
            let Some(config) = runs.config_of[subject] else {
                continue;
            };
            let doc = &runs.results[subject].doc;
            let concurrency = e
                .pointer
                .strip_prefix("/levels/")
                .and_then(|rest| rest.split('/').next())
                .and_then(|i| i.parse::<usize>().ok())
                .and_then(|i| doc.levels.get(i))
                .and_then(|l| l.concurrency);
            let pre_rule = matches!((rule.meta.since, doc.measured_date()), (Some(since), Some(d)) if d < since);
            out.push(GroupFinding {
                code: rule.meta.code,
                config,
                concurrency,
                message: e.message,
                pre_rule,
                result: doc.id.clone(),
            });
        }
    }
    out
}

/// The group findings on the configurations `a`'s sides rest on, at the levels they are taken at.
fn relevant<'g>(
    runs: &Runs<'_>,
    a: &ClaimAnalysis,
    group: &'g [GroupFinding],
) -> Vec<&'g GroupFinding> {
    let mut configs = BTreeSet::new();
    let mut levels = BTreeSet::new();
    let sides = [a.subject.as_ref(), a.baseline.as_ref()];
    let matched = a
        .restatement
        .as_ref()
        .map_or([None, None], |r| [r.subject.as_ref(), r.baseline.as_ref()]);
    for side in sides.into_iter().chain(matched).flatten() {
        for &i in &side.results {
            if let Some(c) = runs.config_of[i] {
                configs.insert(c);
                if let Some(l) = side.concurrency() {
                    levels.insert((c, l));
                }
            }
        }
    }
    group
        .iter()
        .filter(|g| configs.contains(&g.config))
        .filter(|g| {
            g.concurrency
                .is_none_or(|l| levels.contains(&(g.config, l)))
        })
        .collect()
}

fn sentence(message: &str, code: &str) -> String {
    let mut s = message.trim_end_matches('.').to_string();
    if let Some(first) = s.chars().next() {
        let upper: String = first.to_uppercase().collect();
        s.replace_range(..first.len_utf8(), &upper);
    }
    format!("{s} ({code}).")
}

/// The verdict of one claim (the module documentation has the logic).
fn outcome(
    runs: &Runs<'_>,
    a: &ClaimAnalysis,
    group: &[GroupFinding],
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
    let mut reasons = vec![Text::quoting(decided.lead)];
    reasons.extend(decided.extra.into_iter().map(Text::quoting));
    reasons.extend(details.into_iter().map(Text::quoting));

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

struct Decided {
    verdict: Verdict,
    restated: Option<f64>,
    lead: String,
    extra: Vec<String>,
    /// The message of a finding the lead quotes in full (S006, C013): not told again below it.
    quotes: Option<String>,
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

fn decide(
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
    let published = |f: &&super::ClaimFinding| !f.matched;
    let mut hard: Vec<&str> = a
        .findings
        .iter()
        .filter(published)
        .filter(|f| {
            HARD.contains(&f.rule.code)
                || (f.rule.code == "C006"
                    && (metric == super::Metric::CostPerMillionUsd || metric.is_per_watt()))
        })
        .map(|f| f.rule.code)
        .collect();
    hard.sort_unstable();
    hard.dedup();
    let restatable = a
        .findings
        .iter()
        .filter(published)
        .any(|f| super::RESTATABLE.contains(&f.rule.code));

    // 2. Retracted: no matched basis.
    let mut also: Vec<&str> = a
        .findings
        .iter()
        .filter(published)
        .map(|f| f.rule.code)
        .filter(|c| super::RESTATABLE.contains(c))
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
                    super::pct_abs(cmp.noise.value),
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
                        super::pct_abs(cmp.noise.value),
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
    results: &[crate::corpus::LoadedResult],
    s: &ResolvedSide,
    b: &ResolvedSide,
    metric: super::Metric,
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
