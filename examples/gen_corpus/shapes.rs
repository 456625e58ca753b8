//! The adversarial corpora of the scaling bench (`benches/shapes.sh`): shapes where what the
//! results share, or how they are laid out, could make a corpus-wide pass grow faster than the
//! corpus.
//!
//! - `one-config`: every result one configuration, each on its own launch;
//! - `shared`: the same, every result with one launch, start time and repeat (what copies
//!   share), its figures its own;
//! - `distinct`: every result its own configuration, all on one platform and model;
//! - `undated`: llmperf summaries, which record no start time and no launch, figures jittered;
//! - `claims`: `distinct` with a claims file of one ratio claim per result;
//! - `tiny`: small canonical files of one level;
//! - `huge`: one canonical file of `N` × 100 per-request samples;
//! - `jsonl`: one SGLang JSON Lines file of `N` lines;
//! - `rows`: one InferenceX aggregate of `N` rows written compact, on one line.

use std::path::Path;

use serde_json::{Value, json};

use crate::{CANONICAL, INFERENCEX, LLMPERF, Rng, SGLANG, jitter, write};

/// The names `--shape` takes.
pub const SHAPES: [&str; 9] = [
    "one-config",
    "shared",
    "distinct",
    "undated",
    "claims",
    "tiny",
    "huge",
    "jsonl",
    "rows",
];

/// Writes corpus `shape` of `n` results into `out`; returns the bytes written, `None` for an
/// unknown shape.
pub fn write_shape(out: &Path, shape: &str, n: u64, seed: u64) -> Option<usize> {
    let mut rng = Rng(seed);
    let mut bytes = 0usize;
    let mut put = |rel: String, text: String| {
        let path = out.join(rel);
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).expect("create the output folder");
        }
        bytes += text.len();
        write(&path, &text);
    };
    match shape {
        "one-config" | "shared" | "distinct" | "claims" => {
            let distinct = matches!(shape, "distinct" | "claims");
            for i in 0..n {
                let mut d = canonical(i, distinct, &mut rng);
                if shape == "shared" {
                    d["launch"]["id"] = json!("launch-0");
                    d["launch"]["started_at"] = json!("2026-09-01T00:00:00Z");
                    d["measured_at"] = json!("2026-09-01T00:10:00Z");
                    d["repeat"] = json!(1);
                }
                put(folder(i, "json"), format!("{d:#}\n"));
            }
            if shape == "claims" {
                put("claims.json".into(), claims(n).to_string());
            }
        }
        "undated" => {
            let template: Value = serde_json::from_str(LLMPERF).expect("template parses");
            for i in 0..n {
                let mut v = template.clone();
                jitter(&mut v, &mut rng);
                put(folder(i, "json"), format!("{v:#}\n"));
            }
        }
        "tiny" => {
            for i in 0..n {
                let d = json!({
                    "schema": "benchlint/result/v1", "id": format!("tiny-{i:06}"),
                    "measured_at": "2026-09-01T00:00:00Z", "outcome": "ok",
                    "levels": [{"concurrency": 1, "throughput_tok_s": {"aggregate": 10.0 + rng.unit()}}],
                });
                put(folder(i, "json"), d.to_string());
            }
        }
        "huge" => {
            let mut d: Value = serde_json::from_str(CANONICAL).expect("template parses");
            let levels = d["levels"].as_array_mut().expect("levels");
            let per_level = n * 100 / levels.len() as u64;
            for level in levels.iter_mut() {
                let ttft: Vec<f64> = (0..per_level)
                    .map(|_| (80.0 + 50.0 * rng.unit()).round() / 1000.0)
                    .collect();
                level["samples"] = json!({ "ttft_s": ttft });
            }
            put("huge.json".into(), format!("{d}\n"));
        }
        "jsonl" => {
            let line = SGLANG
                .lines()
                .find(|l| serde_json::from_str::<Value>(l).is_ok())
                .expect("a line that parses");
            let template: Value = serde_json::from_str(line).expect("template parses");
            let mut text = String::new();
            for _ in 0..n {
                let mut v = template.clone();
                jitter(&mut v, &mut rng);
                text.push_str(&v.to_string());
                text.push('\n');
            }
            put("long.jsonl".into(), text);
        }
        "rows" => {
            let rows: Vec<Value> = serde_json::from_str(INFERENCEX).expect("template parses");
            let all: Vec<Value> = (0..n)
                .map(|i| {
                    let mut row = rows[usize::try_from(i).unwrap_or(0) % rows.len()].clone();
                    row["conc"] = json!([4, 8, 16, 32, 64, 128][(i % 6) as usize]);
                    row["tp"] = json!([1, 2, 4, 8][((i / 6) % 4) as usize]);
                    jitter(&mut row, &mut rng);
                    row
                })
                .collect();
            put("agg_bmk.json".into(), Value::Array(all).to_string());
        }
        _ => return None,
    }
    Some(bytes)
}

/// A file name in folders of a thousand.
fn folder(i: u64, ext: &str) -> String {
    format!("d{:03}/r{i:06}.{ext}", i / 1000)
}

/// The complete canonical result, made result `i`: its own launch and start time; its own
/// engine version (a configuration of its own) when `distinct`.
fn canonical(i: u64, distinct: bool, rng: &mut Rng) -> Value {
    let mut d: Value = serde_json::from_str(CANONICAL).expect("template parses");
    d["id"] = json!(format!("gen-{i:06}"));
    d["launch"]["id"] = json!(format!("launch-{i:06}"));
    d["launch"]["started_at"] = json!(format!("2026-09-{:02}T{:02}:00:00Z", 1 + i % 28, i % 24));
    d["measured_at"] = json!(format!(
        "2026-09-{:02}T{:02}:{:02}:00Z",
        1 + i % 28,
        i % 24,
        1 + i % 58
    ));
    if distinct {
        d["engine"]["version"] = json!(format!("0.{i}.0"));
    }
    for level in d["levels"].as_array_mut().expect("levels") {
        let f = 0.95 + 0.1 * rng.unit();
        for key in ["decode", "prefill", "aggregate"] {
            if let Some(x) = level["throughput_tok_s"][key].as_f64() {
                level["throughput_tok_s"][key] = json!((x * f * 10.0).round() / 10.0);
            }
        }
        level.as_object_mut().expect("level").remove("samples");
    }
    d
}

/// One ratio claim per result, each against the next, at the first level.
fn claims(n: u64) -> Value {
    let claims: Vec<Value> = (0..n)
        .map(|i| {
            json!({"id": format!("c{i}"), "kind": "ratio", "metric": "aggregate_tok_s", "value": 1.01,
                   "subject": {"results": [format!("gen-{:06}", (i + 1) % n)], "concurrency": 1},
                   "baseline": {"results": [format!("gen-{i:06}")], "concurrency": 1}})
        })
        .collect();
    json!({"schema": "benchlint/claims/v1", "claims": claims})
}
