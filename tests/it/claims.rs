//! Claims that cannot be decided get a verdict that says why, never a panic or a made-up
//! number; the pre-rule verdict; the CLI commands built on the claims analysis.
#![expect(
    clippy::needless_pass_by_value,
    reason = "the helpers take the JSON values they are built from"
)]

mod analysis;
mod commands;

use std::path::Path;

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
