//! The Markdown, HTML and JSON renderers on a hand-built report: every verdict, a restated
//! and a retracted ratio, a marginal capacity, losing runs, text that needs escaping.

use benchlint::audit::{
    AuditReport, Capacity, ClaimOutcome, ConfigLadder, Estimate, LadderPoint, LosingRun, Verdict,
};
use benchlint::model::LevelKey;
use benchlint::report::{AuditContext, audit_html, audit_json, audit_markdown};
use serde_json::Value;

use super::{assert_self_contained, snapshot};

fn est(value: f64, low: f64, high: f64) -> Estimate {
    Estimate { value, low, high }
}

fn point(
    concurrency: u64,
    agg: impl Into<Option<Estimate>>,
    per_user: impl Into<Option<Estimate>>,
    runs: usize,
    launches: usize,
) -> LadderPoint {
    LadderPoint {
        key: LevelKey::Streams(concurrency),
        concurrency: Some(concurrency),
        request_rate: None,
        aggregate_tok_s: agg.into(),
        per_user_tok_s: per_user.into(),
        runs,
        launches,
    }
}

fn claim(
    id: &str,
    kind: &str,
    metric: &str,
    verdict: Verdict,
    published: f64,
    restated: Option<f64>,
) -> ClaimOutcome {
    ClaimOutcome {
        id: id.into(),
        statement: None,
        kind: kind.into(),
        metric: metric.into(),
        verdict,
        codes: vec![],
        published_value: published,
        restated_value: restated,
        basis: None,
        reasons: vec![],
        subject: vec![],
        baseline: vec![],
    }
}

/// A report with every verdict, built by hand from the numbers of seed 004.
fn hand_built() -> AuditReport<'static> {
    let mut single = claim(
        "cluster-single-stream",
        "figure",
        "per_user_tok_s",
        Verdict::Upheld,
        47.5,
        None,
    );
    single.statement =
        Some("Single-stream decode on the eight-unit group: 47.5 tokens per second.".into());
    single.basis = Some("single stream, eight units, five runs over three launches".into());
    single.subject = vec!["gb10-x8-r1".into(), "gb10-x8-r2".into()];

    let mut pairs = claim(
        "pairs-vs-cluster",
        "ratio",
        "aggregate_tok_s",
        Verdict::Restated,
        2.2,
        Some(1.05),
    );
    pairs.statement = Some("Four independent pairs beat the eight-unit cluster 2.2 to 1.".into());
    pairs.codes = vec!["C005".into(), "C012".into(), "S003".into()];
    pairs.reasons = vec![
        "The pairs ran at 32 streams each (128 users at 10.5 tok/s) against 32 users on the cluster.".into(),
        "At the 20 tok/s floor four pairs deliver 4 × 140.8 = 563.2 tok/s against 537.6: a tie inside the run-to-run variance."
            .into(),
        "On `gb10-x2-r1`: the only run of this configuration comes from one launch (S003).".into(),
    ];
    pairs.basis = Some(
        "matched per-user rate: each side at its highest concurrency clearing 20 tok/s per user"
            .into(),
    );
    pairs.subject = vec!["gb10-x2-r1".into()];
    pairs.baseline = vec!["gb10-x8-r1".into(), "gb10-x8-r2".into()];

    let mut glm = claim(
        "glm-eight-unit-32",
        "figure",
        "aggregate_tok_s",
        Verdict::Unresolved,
        316.7,
        None,
    );
    glm.codes = vec!["S002".into(), "S006".into()];
    glm.reasons = vec!["Two runs, 258 and 317, not yet resolved.".into()];
    glm.subject = vec!["glm-x8-0922".into(), "glm-x8-0923".into()];

    let mut h200 = claim(
        "h200-vs-gb10",
        "ratio",
        "aggregate_tok_s",
        Verdict::Retracted,
        8.6,
        None,
    );
    h200.statement =
        Some("Four H200 cards do 8.6 times the work of the eight-unit GB10 cluster.".into());
    h200.codes = vec!["C001".into(), "C002".into(), "C004".into(), "C005".into()];
    h200.reasons = vec![
        "FP8 against NVFP4.".into(),
        "Five-token speculative decoding against none.".into(),
        "An engine sequence cap of at least 96 against 32.".into(),
        "Four GPUs against eight complete systems.".into(),
    ];

    let mut ttft = claim(
        "gb300-ttft",
        "figure",
        "ttft_p50_s",
        Verdict::PreRule,
        0.223,
        None,
    );
    ttft.statement = Some("TTFT 0.223 s | GB300 <vs> H200 & friends at 32 streams".into());
    ttft.codes = vec!["R014".into()];
    ttft.reasons =
        vec!["Measured before the rule on level order was adopted: labelled, not failed.".into()];
    ttft.basis = Some("41-token prompts, 256-token cap".into());

    let mut rerun = claim(
        "gb300-rerun-parity",
        "ratio",
        "aggregate_tok_s",
        Verdict::Upheld,
        1.0,
        None,
    );
    rerun.statement = Some("The two GB300 runs agree at 32 streams.".into());
    rerun.subject = vec!["gb300-a".into()];
    rerun.baseline = vec!["gb300-b".into()];

    let cluster = ConfigLadder {
        label: "8× GB10 TP8, Qwen3.8-Flash-Next NVFP4, prose".into(),
        fingerprint: "a1b2c3d4e5f6".into(),
        results: vec!["gb10-x8-r1".into(), "gb10-x8-r2".into()],
        points: vec![
            point(1, est(47.5, 46.9, 48.1), est(47.5, 46.9, 48.1), 5, 3),
            point(2, est(88.2, 85.0, 91.4), est(44.1, 42.5, 45.7), 5, 3),
            point(4, est(160.4, 150.2, 170.6), est(40.1, 37.6, 42.6), 5, 3),
            point(8, est(268.8, 255.0, 282.6), est(33.6, 31.9, 35.3), 5, 3),
            point(16, est(420.0, 401.0, 439.0), est(26.3, 25.1, 27.4), 5, 3),
            point(32, est(537.6, 510.0, 565.2), est(20.1, 18.9, 21.3), 5, 3),
            point(48, est(560.3, 548.0, 572.6), est(11.7, 11.4, 11.9), 5, 3),
        ],
        capacity: Some(Capacity {
            floor_tok_s: 20.0,
            level: Some(LevelKey::Streams(16)),
            concurrency: Some(16),
            request_rate: None,
            none_because: None,
            aggregate_tok_s: Some(420.0),
            marginal_interval: Some((LevelKey::Streams(16), LevelKey::Streams(32))),
            single_instance: false,
        }),
        replication: None,
    };
    let pair = ConfigLadder {
        label: "2× GB10 TP2 <pair> | eager & spec".into(),
        fingerprint: "0f9e8d7c6b5a".into(),
        results: vec!["gb10-x2-r1".into()],
        points: vec![
            point(1, est(33.1, 33.1, 33.1), est(33.1, 33.1, 33.1), 1, 1),
            point(8, est(140.8, 140.8, 140.8), est(20.9, 20.9, 20.9), 1, 1),
            point(32, est(336.0, 336.0, 336.0), est(10.5, 10.5, 10.5), 1, 1),
            point(64, est(341.0, 341.0, 341.0), None, 1, 1),
        ],
        capacity: Some(Capacity {
            floor_tok_s: 20.0,
            level: Some(LevelKey::Streams(8)),
            concurrency: Some(8),
            request_rate: None,
            none_because: None,
            aggregate_tok_s: Some(140.8),
            marginal_interval: None,
            single_instance: true,
        }),
        replication: None,
    };
    let below = ConfigLadder {
        label: "GLM-5.3-Flash, 8× GB10".into(),
        fingerprint: "77aa88bb99cc".into(),
        results: vec!["glm-x8-0922".into(), "glm-x8-0923".into()],
        points: vec![
            point(1, est(33.2, 33.0, 33.4), est(33.2, 33.0, 33.4), 2, 2),
            point(16, est(198.1, 148.8, 247.4), est(12.4, 9.3, 15.5), 2, 2),
            point(32, est(287.3, 257.8, 316.7), est(9.0, 8.1, 9.9), 2, 2),
        ],
        capacity: Some(Capacity {
            floor_tok_s: 20.0,
            level: Some(LevelKey::Streams(1)),
            concurrency: Some(1),
            request_rate: None,
            none_because: None,
            aggregate_tok_s: Some(33.2),
            marginal_interval: None,
            single_instance: false,
        }),
        replication: None,
    };
    AuditReport {
        floor_tok_s: 20.0,
        claims: vec![single, pairs, glm, h200, ttft, rerun],
        ladders: vec![cluster, pair, below].into(),
        losing_runs: vec![
            LosingRun {
                id: "gb10-x1-433gib".into(),
                outcome: "does-not-fit".into(),
                path: "gb10/single/qwen-433.json".into(),
                notes: Some(
                    "126 GB checkpoint | does not load on one 121.7 GiB unit <OOM> & stops".into(),
                ),
            },
            LosingRun {
                id: "glm-x8-aborted".into(),
                outcome: "aborted".into(),
                path: "glm/x8/aborted.json".into(),
                notes: None,
            },
        ],
        corpus: None,
    }
}

fn context() -> AuditContext {
    AuditContext {
        version: "0.0.0-test".into(),
        inputs: vec!["corpus/".into()],
        claims_file: Some("corpus/claims.json".into()),
        rule_pages: true,
    }
}

/// The Markdown of the hand-built report.
#[test]
fn markdown_of_a_hand_built_report() {
    let md = String::from_utf8(audit_markdown(&hand_built(), &context())).unwrap();
    snapshot("hand_built.md", &md);
    // Escaped: a `|` never splits a cell, `<` and `&` never become markup.
    assert!(md.contains("TTFT 0.223 s \\| GB300 &lt;vs&gt; H200 &amp; friends"));
    assert!(!md.contains("<OOM>"));
    assert!(
        md.contains("[S003 single-launch](rules/S003-single-launch.md)"),
        "codes link to their rule pages"
    );
}

/// The JSON of the hand-built report: the contract, valid against the schema.
#[test]
fn json_of_a_hand_built_report() {
    let bytes = audit_json(&hand_built(), &context());
    let text = String::from_utf8(bytes).unwrap();
    snapshot("hand_built.json", &text);
    let v: Value = serde_json::from_str(&text).unwrap();
    let errors = benchlint::schema::validate(benchlint::schema::Kind::Audit, &v);
    assert!(errors.is_empty(), "{errors:?}");
    let keys = [
        "id",
        "verdict",
        "codes",
        "published_value",
        "restated_value",
        "basis",
        "reasons",
    ];
    for c in v["claims"].as_array().unwrap() {
        let mut got: Vec<&str> = c.as_object().unwrap().keys().map(String::as_str).collect();
        got.sort_unstable();
        let mut want = keys.to_vec();
        want.sort_unstable();
        assert_eq!(got, want);
    }
    assert_eq!(v["claims"][3]["restated_value"], Value::Null);
    assert_eq!(v["claims"][1]["restated_value"], 1.05);
}

/// The HTML page: self-contained, escaped, one chart per ladder and per ratio claim.
#[test]
fn html_of_a_hand_built_report() {
    let report = hand_built();
    let html = String::from_utf8(audit_html(&report, &context())).unwrap();
    if let Some(path) = std::env::var_os("BENCHLINT_AUDIT_HTML") {
        std::fs::write(path, &html).unwrap();
    }
    assert_self_contained(&html);
    let ratios = report.claims.iter().filter(|c| c.kind == "ratio").count();
    assert_eq!(html.matches("<svg").count(), report.ladders.len() + ratios);
    assert!(html.contains("TTFT 0.223 s | GB300 &lt;vs&gt; H200 &amp; friends"));
    assert!(html.contains("2× GB10 TP2 &lt;pair&gt; | eager &amp; spec"));
    assert!(!html.contains("<pair>") && !html.contains("<OOM>") && !html.contains("<vs>"));
    // A retracted ratio has no audited value: its slot is words, never a bar that reads as
    // the largest ratio on the chart.
    let retracted = html
        .split("<svg")
        .filter_map(|chart| chart.split("</svg>").next())
        .find(|chart| chart.contains("retracted: no value"))
        .expect("the retracted ratio's chart");
    assert_eq!(
        retracted.matches("<rect").count(),
        1,
        "only the published bar: {retracted}"
    );
    assert_eq!(
        html,
        String::from_utf8(audit_html(&report, &context())).unwrap(),
        "deterministic"
    );
}
