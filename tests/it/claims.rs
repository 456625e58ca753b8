//! Claims that cannot be decided get a verdict that says why, never a panic or a made-up
//! number; the pre-rule verdict; the CLI commands built on the claims analysis.
#![expect(
    clippy::needless_pass_by_value,
    reason = "the helpers take the JSON values they are built from"
)]

use std::path::{Path, PathBuf};
use std::process::Command;

use benchlint::audit::{ClaimOutcome, Verdict};
use benchlint::claims;
use benchlint::corpus::{self, LoadedClaims, Options, Origin};
use benchlint::thresholds::Thresholds;
use serde_json::{Value, json};

fn result(id: &str, launch: &str, measured: &str, levels: Value) -> Value {
    json!({
        "schema": "benchlint/result/v1",
        "id": id,
        "measured_at": measured,
        "outcome": "ok",
        "launch": { "id": launch },
        "platform": { "nodes": 1, "devices_per_node": 1, "device": { "model": "NVIDIA GB10" } },
        "engine": { "name": "vllm", "version": "0.11.2", "image_digest": "sha256:aa",
                    "speculative": { "enabled": false }, "enforce_eager": false, "max_num_seqs": 32 },
        "model": { "name": "m", "precision": "nvfp4", "kernel": "marlin" },
        "workload": { "name": "w", "prompt_tokens": { "mean": 41 }, "max_output_tokens": 256 },
        "artifacts": { "quality_gate": { "path": "q.json", "passed": true } },
        "levels": levels
    })
}

fn levels(rows: &[(u64, f64, f64)]) -> Value {
    Value::Array(
        rows.iter()
            .map(|&(c, agg, pu)| json!({ "concurrency": c, "throughput_tok_s": { "aggregate": agg, "decode": agg }, "per_user_tok_s": { "median": pu } }))
            .collect(),
    )
}

fn write_corpus(dir: &Path, results: &[Value], claims: Option<Value>) {
    for r in results {
        let id = r["id"].as_str().unwrap();
        std::fs::write(
            dir.join(format!("{id}.json")),
            serde_json::to_string_pretty(r).unwrap(),
        )
        .unwrap();
    }
    if let Some(c) = claims {
        std::fs::write(
            dir.join("claims.json"),
            serde_json::to_string_pretty(&c).unwrap(),
        )
        .unwrap();
    }
}

fn outcome_of(dir: &Path, claim: Value) -> ClaimOutcome {
    let mut corpus = corpus::load(&[dir.to_path_buf()], &Options::default());
    // Claims given directly, as an in-memory document (the schema would reject some of them).
    corpus.claims = vec![LoadedClaims::read(
        Origin {
            path: "claims.json".into(),
            doc_start: 0,
            format: "claims",
        },
        &json!({ "schema": "benchlint/claims/v1", "claims": [claim] }),
    )];
    let report = claims::audit(&corpus, 20.0, &Thresholds::default());
    report.claims.into_iter().next().unwrap()
}

fn base(dir: &Path) {
    write_corpus(
        dir,
        &[
            result(
                "a",
                "la",
                "2026-09-23T10:00:00Z",
                levels(&[(1, 40.0, 41.0), (8, 200.0, 26.0), (32, 500.0, 16.0)]),
            ),
            result(
                "b",
                "lb",
                "2026-09-23T11:00:00Z",
                json!([
                    { "concurrency": 1, "throughput_tok_s": { "aggregate": 30.0, "decode": 0.0 }, "per_user_tok_s": { "median": 31.0 } },
                    { "concurrency": 8, "failed": 3, "throughput_tok_s": { "aggregate": 150.0, "decode": 150.0 }, "per_user_tok_s": { "median": 19.0 } },
                    { "concurrency": 16, "throughput_tok_s": { "aggregate": 0.0, "decode": 0.0 }, "per_user_tok_s": { "median": 0.0 } }
                ]),
            ),
        ],
        None,
    );
    let mut lost = result("lost", "lc", "2026-09-23T12:00:00Z", json!([]));
    lost["outcome"] = json!("does-not-fit");
    write_corpus(dir, &[lost], None);
}

fn ratio(metric: &str, subject: Value, baseline: Value) -> Value {
    json!({ "id": "r", "kind": "ratio", "metric": metric, "value": 1.5, "subject": subject, "baseline": baseline })
}

fn not_decidable(c: &ClaimOutcome, why: &str) {
    assert_eq!(c.verdict, Verdict::Unresolved, "{c:#?}");
    assert_eq!(c.restated_value, None);
    let text = c
        .reasons
        .iter()
        .map(benchlint::text::Text::raw)
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        text.contains("Not decidable") || text.contains("not decidable"),
        "{text}"
    );
    assert!(text.contains(why), "{why:?} not in {text}");
}

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

fn benchlint(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_benchlint"))
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

const CORPUS: &str = "testdata/corpora/gb10-audit";

#[test]
fn capacity_prints_the_service_level_rows() {
    let (code, out, err) = benchlint(&["capacity", CORPUS, "--floor", "20", "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    let doc: Value = serde_json::from_str(&out).unwrap();
    let pair = doc["configurations"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["label"].as_str().unwrap().contains("2 × NVIDIA GB10"))
        .unwrap();
    assert_eq!(pair["capacity"], json!(8));
    assert_eq!(pair["aggregate_tok_s"], json!(140.8));
    assert_eq!(pair["single_instance"], json!(true));
    let (code, out, _) = benchlint(&["capacity", CORPUS, "--floor", "20", "--replicas", "4"]);
    assert_eq!(code, 0);
    assert!(out.contains("563.2"), "{out}");
    let (code, _, err) = benchlint(&["capacity", CORPUS, "--floor", "-3"]);
    assert_eq!(code, 2, "{err}");
}

#[test]
fn compare_prints_the_verdict_the_floor_and_the_mismatches() {
    let (code, out, err) = benchlint(&[
        "compare",
        "gb10-x8-qwen38-nvfp4-prose-2026-09-23-r1",
        "gb10-x2-qwen38-nvfp4-prose-2026-09-23-r1",
        CORPUS,
    ]);
    assert_eq!(code, 1, "{err}");
    assert!(out.contains("aggregate_tok_s at 32 streams"), "{out}");
    assert!(out.contains("5 runs over 3 launches"), "{out}");
    assert!(
        out.contains("verdict: not decidable: single launch"),
        "{out}"
    );
    assert!(out.contains("same-vs-same control"), "{out}");
    assert!(out.contains("C005") && out.contains("C012"), "{out}");
    let (code, out, err) = benchlint(&[
        "compare",
        "140f787ab830",
        "2228f73646aa",
        CORPUS,
        "--concurrency",
        "1",
        "--metric",
        "per_user_tok_s",
        "--format",
        "json",
    ]);
    assert!(code == 0 || code == 1, "{err}");
    let doc: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(doc["concurrency"], json!(1));
    assert_eq!(doc["b"]["launches"], json!(2));
    assert!(doc["verdict"].as_str().unwrap().len() > 3);
    let (code, _, err) = benchlint(&["compare", "nope", "140f", CORPUS]);
    assert_eq!(code, 2);
    assert!(
        err.contains("neither a result id nor a configuration fingerprint"),
        "{err}"
    );
}

#[test]
fn the_done_when_corpus_exists() {
    assert!(PathBuf::from(CORPUS).join("claims.json").is_file());
}

/// The audit corpus with every level turned into an open-loop level at `concurrency / 4`
/// requests per second: the same ladders, driven by a rate.
fn rate_driven_copy() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let mut stack = vec![PathBuf::from(CORPUS)];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
                continue;
            }
            let target = dir.path().join(p.strip_prefix(CORPUS).unwrap());
            std::fs::create_dir_all(target.parent().unwrap()).unwrap();
            let text = std::fs::read_to_string(&p).unwrap_or_default();
            match serde_json::from_str::<Value>(&text) {
                Ok(mut v) if v["schema"] == json!("benchlint/result/v1") => {
                    for level in v["levels"].as_array_mut().unwrap() {
                        let c = level["concurrency"].as_u64().unwrap();
                        let m = level.as_object_mut().unwrap();
                        m.remove("concurrency");
                        #[allow(clippy::cast_precision_loss)]
                        m.insert("request_rate".into(), json!(c as f64 / 4.0));
                    }
                    std::fs::write(&target, v.to_string()).unwrap();
                }
                _ => {
                    std::fs::copy(&p, &target).unwrap();
                }
            }
        }
    }
    dir
}

#[test]
fn compare_and_capacity_work_on_rate_driven_ladders() {
    let dir = rate_driven_copy();
    let root = dir.path().to_str().unwrap();
    let (code, out, err) = benchlint(&[
        "compare",
        "gb10-x8-qwen38-nvfp4-prose-2026-09-23-r1",
        "gb10-x2-qwen38-nvfp4-prose-2026-09-23-r1",
        root,
    ]);
    assert!(code == 0 || code == 1, "{err}");
    // The highest shared level is 32 streams' counterpart: 8 req/s, never a concurrency.
    assert!(out.contains("aggregate_tok_s at 8 req/s"), "{out}");
    assert!(!out.contains("streams"), "{out}");
    let (_, out, err) = benchlint(&[
        "compare",
        "140f787ab830",
        "2228f73646aa",
        root,
        "--request-rate",
        "0.25",
        "--format",
        "json",
    ]);
    let doc: Value = serde_json::from_str(&out).unwrap_or_else(|_| panic!("{out}{err}"));
    assert_eq!(doc["request_rate"], json!(0.25));
    assert_eq!(doc["concurrency"], json!(null));
    let (code, _, err) = benchlint(&[
        "compare",
        "140f787ab830",
        "2228f73646aa",
        root,
        "--request-rate",
        "fast",
    ]);
    assert_eq!(code, 2, "{err}");
    let (code, out, err) = benchlint(&["capacity", root, "--floor", "20", "--format", "json"]);
    assert_eq!(code, 0, "{err}");
    let doc: Value = serde_json::from_str(&out).unwrap();
    let rows = doc
        .as_array()
        .or_else(|| doc["configurations"].as_array())
        .unwrap();
    let pair = rows
        .iter()
        .find(|c| c["label"].as_str().unwrap().contains("2 × NVIDIA GB10"))
        .unwrap();
    // 8 streams cleared the floor; as a rate ladder that level is 2 req/s.
    assert_eq!(pair["capacity_request_rate"], json!(2.0), "{pair}");
    assert_eq!(pair["capacity"], json!(null), "{pair}");
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
