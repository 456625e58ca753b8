//! The done-when of the claims analysis: `testdata/corpora/gb10-audit/` reproduces seed 004's
//! GB10 audit, and `claims::audit` reaches its verdicts: the 2.2 times "four pairs beat the
//! cluster" ratio restated to about 1.05 at a 20 tok/s floor and called a tie; the 8.6 times
//! H200 against GB10 ratio retracted for FP8 against NVFP4, speculation and sequence caps; the
//! per-unit decline flagged for the same 32 streams over 2 and 8 units; the figure resting on
//! the 258/317 runs unresolved; and a well-replicated figure upheld.

use std::path::PathBuf;

use benchlint::audit::{AuditReport, ClaimOutcome, Verdict};
use benchlint::claims;
use benchlint::corpus::{self, Options};
use benchlint::engine;
use benchlint::thresholds::Thresholds;

fn report(floor: f64) -> AuditReport<'static> {
    let corpus = corpus::load(
        &[PathBuf::from("testdata/corpora/gb10-audit")],
        &Options::default(),
    );
    assert_eq!(corpus.claims.len(), 1, "the claims file is loaded");
    let report = claims::audit(&corpus, floor, &Thresholds::default());
    // The ladders held, to outlive the corpus they are made from.
    AuditReport {
        floor_tok_s: report.floor_tok_s,
        claims: report.claims,
        ladders: report.ladders.held(),
        losing_runs: report.losing_runs,
        corpus: report.corpus,
    }
}

fn claim<'r>(r: &'r AuditReport, id: &str) -> &'r ClaimOutcome {
    r.claims
        .iter()
        .find(|c| c.id == id)
        .unwrap_or_else(|| panic!("no claim {id}"))
}

fn has(c: &ClaimOutcome, code: &str) -> bool {
    c.codes.iter().any(|x| x == code)
}

#[test]
fn four_pairs_against_the_cluster_is_restated_to_a_tie() {
    let r = report(20.0);
    let c = claim(&r, "four-pairs-beat-the-cluster");
    assert_eq!(c.verdict, Verdict::Restated, "{c:#?}");
    assert!((c.published_value - 2.2).abs() < 1e-9);
    let restated = c.restated_value.expect("a restated value");
    // 4 × 140.8 = 563.2 against 537.6.
    assert!((restated - 1.05).abs() <= 0.02, "restated to {restated}");
    assert!(
        (restated - 563.2 / 537.6).abs() < 1e-3,
        "restated to {restated}"
    );
    assert_eq!(
        c.basis.as_ref().map(benchlint::text::Text::raw).as_deref(),
        Some("matched per-user floor of 20 tok/s (deployment)")
    );
    assert!(has(c, "C012"), "{:?}", c.codes);
    let text = c
        .reasons
        .iter()
        .map(benchlint::text::Text::raw)
        .collect::<Vec<_>>()
        .join(" ");
    assert!(text.contains("tie within noise"), "{text}");
    assert!(text.contains("4 × 140.8 = 563.2"), "{text}");
    assert!(text.contains("537.6"), "{text}");
}

#[test]
fn the_h200_ratio_is_retracted_for_its_mismatches() {
    let r = report(20.0);
    let c = claim(&r, "h200-vs-gb10-cluster");
    assert_eq!(c.verdict, Verdict::Retracted, "{c:#?}");
    for code in ["C001", "C002", "C004"] {
        assert!(has(c, code), "{code} missing from {:?}", c.codes);
    }
    assert_eq!(c.restated_value, None);
    let text = c
        .reasons
        .iter()
        .map(benchlint::text::Text::raw)
        .collect::<Vec<_>>()
        .join(" ");
    assert!(text.contains("fp8") && text.contains("nvfp4"), "{text}");
    assert!(text.contains("96") && text.contains("32"), "{text}");
}

#[test]
fn the_per_unit_decline_is_flagged_for_constant_total_concurrency() {
    let r = report(20.0);
    let c = claim(&r, "per-unit-decline");
    assert!(has(c, "C005"), "{:?}", c.codes);
    assert_eq!(c.verdict, Verdict::Restated, "{c:#?}");
    // At the matched floor: 537.6 against 140.8, about 70 tok/s per unit on both sides.
    let restated = c.restated_value.unwrap();
    assert!((restated - 537.6 / 140.8).abs() < 1e-3, "{restated}");
    assert!(
        c.reasons
            .iter()
            .map(benchlint::text::Text::raw)
            .collect::<Vec<_>>()
            .join(" ")
            .contains("4 streams per device against 16"),
        "{:?}",
        c.reasons
    );
}

#[test]
fn the_figure_on_two_disagreeing_runs_is_unresolved() {
    let r = report(20.0);
    let c = claim(&r, "glm-eight-way-317");
    assert_eq!(c.verdict, Verdict::Unresolved, "{c:#?}");
    assert!(has(c, "S006"), "{:?}", c.codes);
    let text = c
        .reasons
        .iter()
        .map(benchlint::text::Text::raw)
        .collect::<Vec<_>>()
        .join(" ");
    assert!(text.contains("257.8") && text.contains("316.7"), "{text}");
    assert_eq!(c.restated_value, None);
}

#[test]
fn the_replicated_figure_is_upheld() {
    let r = report(20.0);
    let c = claim(&r, "eight-way-at-32-users");
    assert_eq!(c.verdict, Verdict::Upheld, "{c:#?}");
    assert!(c.codes.is_empty(), "{:?}", c.codes);
}

#[test]
fn capacities_reproduce_the_seed_rows() {
    let r = report(20.0);
    let by_units = |units: &str| {
        r.ladders
            .iter()
            .find(|l| {
                l.label.raw().contains("Qwen3.8")
                    && l.label.raw().contains(&format!("{units} × NVIDIA GB10"))
            })
            .unwrap_or_else(|| {
                panic!(
                    "no ladder for {units} units: {:?}",
                    r.ladders
                        .iter()
                        .map(|l| l.label.clone())
                        .collect::<Vec<_>>()
                )
            })
    };
    let cap = |units: &str| by_units(units).capacity.clone().unwrap();
    assert_eq!(cap("2").concurrency, Some(8));
    assert_eq!(cap("2").aggregate_tok_s, Some(140.8));
    assert_eq!(cap("8").concurrency, Some(32));
    assert!((cap("8").aggregate_tok_s.unwrap() - 537.6).abs() < 0.05);
    // The 30 tok/s rows: pair 98.9, four-way 220.3, eight-way 341.2.
    let r30 = report(30.0);
    let at30 = |units: &str| {
        r30.ladders
            .iter()
            .find(|l| {
                l.label.raw().contains("Qwen3.8")
                    && l.label.raw().contains(&format!("{units} × NVIDIA GB10"))
            })
            .and_then(|l| l.capacity.clone())
            .unwrap()
    };
    assert!((at30("2").aggregate_tok_s.unwrap() - 98.9).abs() < 0.05);
    assert!((at30("4").aggregate_tok_s.unwrap() - 220.3).abs() < 0.05);
    assert!((at30("8").aggregate_tok_s.unwrap() - 341.2).abs() < 0.05);
    assert!(!at30("4").single_instance);
    assert!(at30("2").single_instance);
    // The losing run is reported.
    assert!(r.losing_runs.iter().any(|l| l.outcome == "does-not-fit"));
}

#[test]
fn check_reports_the_claim_findings_on_the_claims_file() {
    let checked = engine::check(
        &[PathBuf::from("testdata/corpora/gb10-audit")],
        &Options::default(),
    );
    let on_claims: Vec<_> = checked
        .findings
        .iter()
        .filter(|f| f.rule.code.starts_with('C'))
        .collect();
    assert!(!on_claims.is_empty());
    for f in &on_claims {
        assert!(
            f.primary.path.raw().ends_with("claims.json"),
            "{} at {}",
            f.rule.code,
            f.primary.path.raw()
        );
        assert!(
            f.primary.pointer.raw().starts_with("/claims/"),
            "{}",
            f.primary.pointer.raw()
        );
    }
    for code in ["C001", "C002", "C004", "C005", "C009", "C010", "C012"] {
        assert!(
            on_claims.iter().any(|f| f.rule.code == code),
            "{code} not reported by check"
        );
    }
}

#[test]
fn every_claim_reads_as_one_verdict_with_each_reason_once() {
    let r = report(20.0);
    for c in &r.claims {
        let reasons: Vec<String> = c.reasons.iter().map(benchlint::text::Text::raw).collect();
        // A rule's reason is told once, whichever bases it fired on.
        let mut told: Vec<&str> = reasons
            .iter()
            .filter_map(|s| {
                s.strip_suffix(").")?
                    .rsplit_once(" (")
                    .map(|(_, code)| code)
            })
            .filter(|code| code.len() == 4)
            .collect();
        let n = told.len();
        told.sort_unstable();
        told.dedup();
        assert_eq!(told.len(), n, "{}: {reasons:#?}", c.id.raw());
        // No reason repeats another's words.
        for (i, a) in reasons.iter().enumerate() {
            for b in &reasons[i + 1..] {
                let (a, b) = (a.trim_end_matches('.'), b.trim_end_matches('.'));
                assert!(
                    !a.contains(b) && !b.contains(a),
                    "{}: {a} / {b}",
                    c.id.raw()
                );
            }
        }
    }
    // Restated, and the matched comparison not decidable: one sentence says both.
    let c = claim(&r, "per-unit-decline");
    assert_eq!(c.verdict, Verdict::Restated, "{c:#?}");
    let reasons: Vec<String> = c.reasons.iter().map(benchlint::text::Text::raw).collect();
    assert!(
        reasons[0].starts_with("Restated on a matched per-user floor")
            && reasons[0].contains("not decidable from these runs (single launch")
            && reasons[0].contains("not yet a finding"),
        "{}",
        reasons[0]
    );
    assert!(
        !reasons.iter().any(|s| s.starts_with("On that basis")),
        "{reasons:#?}"
    );
}
