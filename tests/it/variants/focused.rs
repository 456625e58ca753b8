//! Focused variants: a serving record without one of its signature keys, and R002 exactly past
//! what unfinished requests could hold.

use std::collections::BTreeSet;
use std::path::Path;

use benchlint::corpus::Options;
use benchlint::engine;
use serde_json::Value;

use super::change::{Change, lay_out};
use super::{Rng, check, on_file, seed_files};
use crate::support::realworld::REALWORLD;

/// The keys the vLLM and `SGLang` readers recognise a record by.
const SIGNATURE_KEYS: [&str; 10] = [
    "model_id",
    "completed",
    "duration",
    "total_output_tokens_retokenized",
    "server_info",
    "request_throughput",
    "output_throughput",
    "mean_ttft_ms",
    "median_ttft_ms",
    "mean_e2e_latency_ms",
];

/// Every key a vLLM or `SGLang` record is recognised by, dropped in turn from the first record
/// of every such fixture and real file: the record is still read as that harness's (a record
/// with fewer keys is read as far as it goes), never refused as "looks like a result".
#[test]
fn a_serving_record_without_one_of_its_signature_keys_is_still_read() {
    let mut seeds = Vec::new();
    for dir in ["testdata/adapters/vllm", "testdata/adapters/sglang"] {
        seed_files(Path::new(dir), &mut seeds);
    }
    for dir in ["vllm", "sglang"] {
        seed_files(&Path::new(REALWORLD).join(dir), &mut seeds);
    }
    assert!(seeds.len() >= 8, "the vLLM and SGLang fixtures are missing");
    let mut problems = Vec::new();
    let mut checked = 0;
    for seed in &seeds {
        let text = std::fs::read_to_string(seed).unwrap();
        let jsonl = seed.extension().is_some_and(|e| e == "jsonl");
        let (first, rest) = if jsonl {
            text.split_once('\n').unwrap_or((&text, ""))
        } else {
            (text.as_str(), "")
        };
        let Ok(doc) = serde_json::from_str::<Value>(first) else {
            continue;
        };
        let Some(record) = doc.as_object() else {
            continue;
        };
        let dir = tempfile::tempdir().unwrap();
        let (root, file) = lay_out(dir.path(), seed, &text, &Change::UnknownKey);
        let base = check(&root, &file);
        if base.results == 0 {
            continue;
        }
        for key in SIGNATURE_KEYS.iter().filter(|k| record.contains_key(**k)) {
            let mut d = doc.clone();
            d.as_object_mut().unwrap().remove(*key);
            let changed = if jsonl {
                format!("{}\n{rest}", serde_json::to_string(&d).unwrap())
            } else {
                serde_json::to_string_pretty(&d).unwrap()
            };
            let dir = tempfile::tempdir().unwrap();
            let (root, file) = lay_out(dir.path(), seed, &changed, &Change::UnknownKey);
            let v = check(&root, &file);
            checked += 1;
            let refused: Vec<String> = on_file(&v.findings, &root, &file)
                .iter()
                .filter(|f| f.rule.code == "E003" || f.rule.code == "E004")
                .map(|f| format!("{} {}", f.rule.code, f.message.raw()))
                .collect();
            if v.results < base.results || !refused.is_empty() {
                problems.push(format!(
                    "{} without `{key}`: {} of {} results read; {}",
                    seed.display(),
                    v.results,
                    base.results,
                    refused.join(" | ")
                ));
            }
        }
    }
    println!("{checked} records without a signature key");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Variants of a level whose server counter is above or below the client's count: the
/// streams left unfinished when the window closed, the failures, the output cap, the two
/// counts and how the client counted, drawn from a fixed seed. R002 fires exactly when the
/// counts differ by more than 2% and the gap is not one the unfinished requests could hold
/// (the server above the client by at most (streams + failed) × cap, the client not counting
/// stream chunks); the expectation is computed here, not read from the program.
#[test]
fn r002_fires_exactly_past_what_unfinished_requests_could_hold() {
    let seed = Path::new("testdata/rules/R002-token-count-mismatch/pass/within-2-percent.json");
    let base: Value = serde_json::from_str(&std::fs::read_to_string(seed).unwrap()).unwrap();
    let level = 3; // 8 streams
    let dir = tempfile::tempdir().unwrap();
    let mut rng = Rng(0x00D2_2026);
    let mut expected = BTreeSet::new();
    let sources = ["server-usage", "client-tokenizer", "stream-chunks"];
    for n in 0..60 {
        let failed = rng.below(4) as u64;
        let cap = 64 + rng.below(1985) as u64;
        let client = 2_000 + rng.below(98_000) as u64;
        let allowance = (8 + failed) * cap;
        // Gaps drawn around the two edges that matter: 2% and the allowance.
        let gap = match rng.below(4) {
            0 => allowance,
            1 => allowance + 1 + rng.below(50) as u64,
            2 => rng.below(usize::try_from(allowance).unwrap()) as u64,
            _ => client / 50 + rng.below(200) as u64,
        };
        let above = rng.below(3) != 0;
        let server = if above {
            client + gap
        } else {
            client.saturating_sub(gap).max(1)
        };
        let source = sources[rng.below(3)];
        let mut d = base.clone();
        d["id"] = Value::from(format!("r002-variant-{n}"));
        d["workload"]["max_output_tokens"] = Value::from(cap);
        d["workload"]["token_count_source"] = Value::from(source);
        d["levels"][level]["failed"] = Value::from(failed);
        d["levels"][level]["output_tokens"] = Value::from(client);
        d["levels"][level]["server_output_tokens"] = Value::from(server);
        let name = format!("variant-{n:02}.json");
        std::fs::write(
            dir.path().join(&name),
            serde_json::to_string_pretty(&d).unwrap(),
        )
        .unwrap();
        #[expect(clippy::cast_precision_loss, reason = "token counts are small")]
        let differs = (client as f64 - server as f64).abs() / server as f64 > 0.02;
        let held = server > client && server - client <= allowance && source != "stream-chunks";
        if differs && !held {
            expected.insert(name);
        }
    }
    let out = engine::check(&[dir.path().to_path_buf()], &Options::default());
    let fired: BTreeSet<String> = out
        .findings
        .iter()
        .filter(|f| f.rule.code == "R002")
        .filter(|f| f.primary.pointer.raw() == format!("/levels/{level}/output_tokens"))
        .map(|f| {
            Path::new(f.primary.path.raw())
                .file_name()
                .unwrap()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    assert!(expected.len() >= 10 && expected.len() <= 50, "{expected:?}");
    assert_eq!(fired, expected);
}
