//! A document read to be let go ([`adapters::read_letting_go`]: each row of an aggregate, each
//! benchmark of a GuideLLM report, each run of a vLLM list left `null` once its result is
//! made) gives the results reading it whole gives: over every fixture document, over
//! aggregates drawn from the InferenceX fixture's rows with rows cut short, emptied, made
//! sparse or made something else than an object, over GuideLLM reports whose benchmarks are
//! drawn from a real sweep's, repeated, reordered, cut short or emptied, and over lists of vLLM
//! runs, some numbered, some warm-ups.

use benchlint::adapters::{self, Mapped, Reading, Source};
use serde_json::Value;

use crate::support::hostile_gen::Rng;

fn source(path: &str) -> Source<'_> {
    Source {
        path,
        file_name: "agg_bmk.json",
        doc_index: 0,
        doc_count: 1,
        folder: None,
        alone: false,
    }
}

/// What an adapter reads of `doc`: its name and each result's JSON and provenance.
fn shown(reading: Option<(&'static str, Reading<'_>)>) -> String {
    match reading {
        None => "none".into(),
        Some((name, Reading::Results(mapped))) => {
            let each: Vec<String> = mapped
                .map(|m: Mapped| {
                    format!("{}\n{:?}", m.value, m.provenance.iter().collect::<Vec<_>>())
                })
                .collect();
            format!("{name}: {}", each.join("\n"))
        }
        Some((name, other)) => format!("{name}: {other:?}"),
    }
}

fn same_either_way(path: &str, doc: &Value) -> bool {
    let whole = shown(adapters::read(doc, &source(path)));
    let mut taken = doc.clone();
    let let_go = shown(adapters::read_letting_go(&mut taken, &source(path)));
    assert_eq!(let_go, whole, "{path}");
    taken != *doc
}

#[test]
fn a_document_let_go_reads_as_the_document_kept_whole() {
    let mut let_go = 0;
    for entry in walkdir::WalkDir::new("testdata/adapters").sort_by_file_name() {
        let entry = entry.unwrap();
        let path = entry.path().display().to_string();
        let Ok(text) = std::fs::read_to_string(entry.path()) else {
            continue;
        };
        if let Ok(doc) = serde_json::from_str::<Value>(&text) {
            let_go += usize::from(same_either_way(&path, &doc));
        }
    }
    let fixture: Value = serde_json::from_str(
        &std::fs::read_to_string("testdata/adapters/inferencex/agg_bmk.json").unwrap(),
    )
    .unwrap();
    let rows = fixture.as_array().unwrap();
    let mut rng = Rng(0x6c65_7467);
    for case in 0..60 {
        let n = 1 + rng.below(40);
        let mut drawn: Vec<Value> = Vec::with_capacity(n);
        for i in 0..n {
            let mut row = rows[rng.below(rows.len())].clone();
            row["conc"] = serde_json::json!(i + 1);
            match rng.below(8) {
                0 => {
                    let keys: Vec<String> = row.as_object().unwrap().keys().cloned().collect();
                    for k in keys.iter().filter(|_| rng.below(2) == 0) {
                        row.as_object_mut().unwrap().remove(k);
                    }
                }
                1 => row = serde_json::json!({}),
                2 if case % 5 == 0 => row = serde_json::json!([1, 2]),
                _ => {}
            }
            drawn.push(row);
        }
        let_go += usize::from(same_either_way(
            &format!("drawn-{case}.json"),
            &Value::Array(drawn),
        ));
    }
    for name in [
        "v0.8.1-concurrent-sweep.json",
        "v0.8.1-server-errors.json",
        "v0.8.1-dead-server-all-errored.json",
    ] {
        let report: Value = serde_json::from_str(
            &std::fs::read_to_string(format!("testdata/adapters/guidellm/{name}")).unwrap(),
        )
        .unwrap();
        let benchmarks = report["benchmarks"].as_array().unwrap().clone();
        for case in 0..10 {
            let mut drawn = report.clone();
            let picked: Vec<Value> = (0..=rng.below(6))
                .map(|_| {
                    let mut b = benchmarks[rng.below(benchmarks.len())].clone();
                    match rng.below(6) {
                        0 => b["requests"] = Value::Null,
                        1 => b = serde_json::json!({}),
                        _ => {}
                    }
                    b
                })
                .collect();
            drawn["benchmarks"] = Value::Array(picked);
            let_go += usize::from(same_either_way(&format!("{name}-{case}"), &drawn));
        }
    }
    // Lists of vLLM runs: some numbered, some warm-ups (`run_number` -1), some cut short.
    let run: Value = serde_json::from_str(
        &std::fs::read_to_string("testdata/adapters/vllm/bench-serve-save-detailed.json").unwrap(),
    )
    .unwrap();
    for case in 0..20 {
        let list: Vec<Value> = (0..=rng.below(6))
            .map(|i| {
                let mut r = run.clone();
                match rng.below(5) {
                    0 => r["run_number"] = serde_json::json!(-1),
                    1 => r["run_number"] = serde_json::json!(i),
                    2 => {
                        r.as_object_mut().unwrap().remove("ttfts");
                    }
                    _ => {}
                }
                r
            })
            .collect();
        let_go += usize::from(same_either_way(
            &format!("runs-{case}.json"),
            &Value::Array(list),
        ));
    }
    // The draw reaches what it is for: documents whose rows were let go.
    assert!(let_go > 60, "{let_go} documents let go");
}
