//! The claims analysis in-process: undecidable claims say why, every metric is read, the
//! pre-rule label, a level named by request rate, and no spare room kept.

use benchlint::audit::Verdict;
use benchlint::claims;
use benchlint::corpus::{self, Options};
use benchlint::thresholds::Thresholds;
use serde_json::{Value, json};

use super::{base, levels, not_decidable, outcome_of, ratio, result, write_corpus};

#[test]
fn undecidable_claims_say_why() {
    let tmp = tempfile::tempdir().unwrap();
    base(tmp.path());
    let at = |id: &str, c: u64| json!({ "results": [id], "concurrency": c });
    // No such level.
    not_decidable(
        &outcome_of(
            tmp.path(),
            ratio("aggregate_tok_s", at("a", 64), at("b", 1)),
        ),
        "has no level at 64 streams",
    );
    // The sides share no level and none is named: each side is taken at its own peak, which
    // exists; a level only one side has, named on both, is not decidable.
    not_decidable(
        &outcome_of(
            tmp.path(),
            ratio("aggregate_tok_s", at("a", 32), at("b", 32)),
        ),
        "`b` has no level at 32 streams",
    );
    // A zero denominator.
    not_decidable(
        &outcome_of(tmp.path(), ratio("decode_tok_s", at("a", 1), at("b", 1))),
        "is 0, so no ratio exists",
    );
    // A level with failed requests.
    not_decidable(
        &outcome_of(tmp.path(), ratio("aggregate_tok_s", at("a", 8), at("b", 8))),
        "3 failed requests",
    );
    // A stopped server.
    not_decidable(
        &outcome_of(
            tmp.path(),
            ratio("aggregate_tok_s", at("a", 1), at("b", 16)),
        ),
        "delivered 0 tok/s",
    );
    // A losing run.
    not_decidable(
        &outcome_of(
            tmp.path(),
            ratio("aggregate_tok_s", at("a", 1), at("lost", 1)),
        ),
        "does-not-fit",
    );
    // An unknown metric (the schema rejects it in a file: E003).
    not_decidable(
        &outcome_of(tmp.path(), ratio("tokens_per_watt", at("a", 1), at("b", 1))),
        "unknown metric `tokens_per_watt`",
    );
    // An id not in the corpus.
    let c = outcome_of(
        tmp.path(),
        ratio("aggregate_tok_s", at("a", 1), at("nowhere", 1)),
    );
    not_decidable(&c, "`nowhere` not in the corpus");
    assert!(c.codes.contains(&"C015".to_string()), "{:?}", c.codes);
    // A ratio without a baseline, and a claim that is not a claim.
    not_decidable(
        &outcome_of(
            tmp.path(),
            json!({ "id": "x", "kind": "ratio", "metric": "aggregate_tok_s", "value": 2, "subject": at("a", 1) }),
        ),
        "names no baseline",
    );
    not_decidable(
        &outcome_of(tmp.path(), json!({ "id": "y", "kind": "figure" })),
        "could not be read",
    );
    not_decidable(
        &outcome_of(
            tmp.path(),
            json!({ "id": "z", "kind": "figure", "metric": "aggregate_tok_s", "value": 1, "subject": { "results": [] } }),
        ),
        "names no result",
    );
}

#[test]
fn every_metric_is_read() {
    let tmp = tempfile::tempdir().unwrap();
    let mut r = result(
        "full",
        "l1",
        "2026-09-23T10:00:00Z",
        json!([{
            "concurrency": 8,
            "throughput_tok_s": { "aggregate": 200.0, "decode": 210.0, "prefill": 1500.0 },
            "per_user_tok_s": { "median": 26.0 },
            "ttft_s": { "p50": 0.2, "p95": 0.4 },
            "tpot_ms": { "p50": 38.0 }
        }]),
    );
    r["platform"]["hourly_cost_usd"] = json!(1.8);
    write_corpus(tmp.path(), &[r], None);
    for (metric, value) in [
        ("aggregate_tok_s", 200.0),
        ("decode_tok_s", 210.0),
        ("prefill_tok_s", 1500.0),
        ("per_user_tok_s", 26.0),
        ("ttft_p50_s", 0.2),
        ("ttft_p95_s", 0.4),
        ("tpot_p50_ms", 38.0),
        // 1.8 USD / (200 tok/s × 3600 s) × 1e6 = 2.5
        ("cost_per_million_usd", 2.5),
    ] {
        let c = outcome_of(
            tmp.path(),
            json!({ "id": metric, "kind": "figure", "metric": metric, "value": value, "subject": { "results": ["full"] } }),
        );
        assert!(!c.codes.contains(&"C013".to_string()), "{metric}: {c:#?}");
        // One run: too few to quote, but the value reproduces.
        assert_eq!(c.verdict, Verdict::Unresolved, "{metric}");
        assert!(
            c.codes.contains(&"S002".to_string()),
            "{metric}: {:?}",
            c.codes
        );
    }
    // Replicas multiply the engine throughputs only.
    let c = outcome_of(
        tmp.path(),
        json!({ "id": "x4", "kind": "figure", "metric": "aggregate_tok_s", "value": 800, "subject": { "results": ["full"], "replicas": 4 } }),
    );
    assert!(!c.codes.contains(&"C013".to_string()), "{c:#?}");
    let c = outcome_of(
        tmp.path(),
        json!({ "id": "u4", "kind": "figure", "metric": "per_user_tok_s", "value": 104, "subject": { "results": ["full"], "replicas": 4 } }),
    );
    assert!(c.codes.contains(&"C013".to_string()), "{c:#?}");
    assert_eq!(c.verdict, Verdict::Retracted);
}

#[test]
fn a_figure_whose_only_finding_is_pre_rule_is_labelled() {
    let tmp = tempfile::tempdir().unwrap();
    let mut runs = Vec::new();
    for k in 0..5 {
        let launch = if k < 3 { "l1" } else { "l2" };
        let mut r = result(
            &format!("spec-{k}"),
            launch,
            "2026-07-12T10:00:00Z",
            levels(&[(1, 30.0 + f64::from(k) * 0.05, 31.0)]),
        );
        r["engine"]["speculative"] =
            json!({ "enabled": true, "method": "eagle3", "num_speculative_tokens": 4 });
        runs.push(r);
    }
    write_corpus(tmp.path(), &runs, None);
    let ids: Vec<String> = (0..5).map(|k| format!("spec-{k}")).collect();
    let c = outcome_of(
        tmp.path(),
        json!({ "id": "old", "kind": "figure", "metric": "aggregate_tok_s", "value": 30.1, "subject": { "results": ids, "concurrency": 1 } }),
    );
    assert_eq!(c.verdict, Verdict::PreRule, "{c:#?}");
    assert_eq!(c.codes, vec!["S001".to_string()]);
}

/// A claim on an open-loop ladder names its level by the request rate: the figure is read at
/// that rate (and reproduces), a rate the results never measured is not decidable, and the
/// schema takes `request_rate` but refuses it beside `concurrency`.
#[test]
fn a_claim_can_name_its_level_by_request_rate() {
    let tmp = tempfile::tempdir().unwrap();
    let r = result(
        "open-loop",
        "l1",
        "2026-09-23T10:00:00Z",
        json!([
            { "request_rate": 2.0, "throughput_tok_s": { "aggregate": 400.0 }, "per_user_tok_s": { "median": 30.0 } },
            { "request_rate": 8.0, "throughput_tok_s": { "aggregate": 1500.0 }, "per_user_tok_s": { "median": 22.0 } },
            { "request_rate": "inf", "max_concurrency": 64, "throughput_tok_s": { "aggregate": 1800.0 }, "per_user_tok_s": { "median": 12.0 } }
        ]),
    );
    write_corpus(tmp.path(), &[r], None);
    let at = |rate: Value, value: f64| {
        outcome_of(
            tmp.path(),
            json!({ "id": "c", "kind": "figure", "metric": "aggregate_tok_s", "value": value,
                    "subject": { "results": ["open-loop"], "request_rate": rate } }),
        )
    };
    let c = at(json!(2.0), 400.0);
    assert!(!c.codes.contains(&"C013".to_string()), "{c:#?}");
    // The level at 2 req/s is 400 tok/s, not the peak's 1,800: a claim of 1,800 there does
    // not follow from the runs.
    let c = at(json!(2.0), 1800.0);
    assert!(c.codes.contains(&"C013".to_string()), "{c:#?}");
    assert_eq!(c.verdict, Verdict::Retracted);
    not_decidable(&at(json!(4.0), 400.0), "no level at 4 req/s");

    let claims = |side: Value| {
        json!({ "schema": "benchlint/claims/v1", "claims": [
            { "id": "c", "kind": "figure", "metric": "aggregate_tok_s", "value": 400, "subject": side } ] })
    };
    let errors = |v: &Value| benchlint::schema::validate(benchlint::schema::Kind::Claims, v);
    assert!(errors(&claims(json!({ "results": ["a"], "request_rate": 2.0 }))).is_empty());
    assert!(errors(&claims(json!({ "results": ["a"], "request_rate": "inf" }))).is_empty());
    assert!(
        !errors(&claims(
            json!({ "results": ["a"], "request_rate": 2.0, "concurrency": 8 })
        ))
        .is_empty()
    );
    assert!(!errors(&claims(json!({ "results": ["a"], "request_rate": 0 }))).is_empty());
}

/// A claim's analysis and its outcome in the audit are kept to the end of the run, one per
/// claim: their lists hold what they hold and no spare room (a growing list starts with room
/// for four and doubles), checked on every claims fixture of the C rules, passing and failing.
#[test]
fn a_claims_analysis_keeps_no_spare_room() {
    let mut analysed = 0;
    let mut with_findings = 0;
    for rule in std::fs::read_dir("testdata/rules").unwrap() {
        let rule = rule.unwrap().path();
        if !rule.file_name().unwrap().to_string_lossy().starts_with('C') {
            continue;
        }
        for side in ["pass", "fail"] {
            let Ok(cases) = std::fs::read_dir(rule.join(side)) else {
                continue;
            };
            for case in cases {
                let case = case.unwrap().path();
                let corpus = corpus::load(std::slice::from_ref(&case), &Options::default());
                let runs = claims::Runs::new(&corpus.results);
                let thresholds = Thresholds::default();
                // The audit's outcome of each claim, kept with the report to its end: its
                // reasons likewise.
                for c in claims::audit(&corpus, 20.0, &thresholds).claims {
                    assert_eq!(c.reasons.capacity(), c.reasons.len(), "{}", case.display());
                }
                for a in claims::analyse(&runs, &corpus.claims, &thresholds, 20.0) {
                    analysed += 1;
                    with_findings += usize::from(!a.findings.is_empty());
                    assert_eq!(
                        a.findings.capacity(),
                        a.findings.len(),
                        "{}",
                        case.display()
                    );
                    for s in a.subject.iter().chain(&a.baseline) {
                        assert_eq!(s.points.capacity(), s.points.len(), "{}", case.display());
                    }
                }
            }
        }
    }
    assert!(
        analysed > 20 && with_findings > 10,
        "{analysed} claims, {with_findings} with findings"
    );
}
