//! Writes a deterministic benchmark corpus for the performance bench, the same bytes for the
//! same seed. Four kinds:
//!
//! - (default) N result files of a realistic mix: canonical files with and without per-request
//!   samples, some with 2,000+ requests; vLLM JSON and JSON Lines, SGLang JSON Lines,
//!   GuideLLM, AIPerf and llmperf files; with a realistic share of defects so rules fire;
//! - `--canonical-only`: the canonical half of that mix alone;
//! - `--clean`: complete, replicated canonical results with per-request samples on which
//!   `check` reports nothing (see `canonical.rs`);
//! - `--heavy`: the same results with the defects of old corpora, about 25 findings a file
//!   (see `defects.rs`);
//! - `--shape NAME`: an adversarial corpus of the scaling bench (see `shapes.rs`).
//!
//! Usage: `cargo run --release --example gen_corpus -- OUT_DIR N [SEED]
//! [--canonical-only | --clean | --heavy | --shape NAME]`

mod canonical;
mod defects;
mod shapes;

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

const CANONICAL: &str = include_str!("../../testdata/clean/replicated-corpus/complete.json");
const VLLM: &str = include_str!("../../testdata/adapters/vllm/legacy-no-failed-field.json");
const SGLANG: &str = include_str!("../../testdata/adapters/sglang/late-2025-server-info.jsonl");
/// An InferenceX aggregate: a list of rows, one result each.
const INFERENCEX: &str = include_str!("../../testdata/adapters/inferencex/agg_bmk.json");
const GUIDELLM: &str =
    include_str!("../../testdata/adapters/guidellm/v0.8.1-concurrent-sweep.json");
const AIPERF: &str = include_str!(
    "../../testdata/adapters/genai-perf/aiperf-0.13.0/concurrency-4.profile_export_aiperf.json"
);
const LLMPERF: &str =
    include_str!("../../testdata/adapters/llmperf/summary-with-errors-and-sampling.json");

/// A small deterministic generator (SplitMix64): the same seed writes the same bytes.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    fn unit(&mut self) -> f64 {
        #[expect(clippy::cast_precision_loss, reason = "53 random bits")]
        let x = (self.next() >> 11) as f64 / (1u64 << 53) as f64;
        x
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// Scales every number of a harness document by a factor near 1 (integers stay integers).
fn jitter(v: &mut Value, rng: &mut Rng) {
    match v {
        Value::Number(n) => {
            let f = 0.9 + 0.2 * rng.unit();
            if let Some(i) = n.as_u64() {
                #[expect(
                    clippy::cast_possible_truncation,
                    clippy::cast_sign_loss,
                    clippy::cast_precision_loss,
                    reason = "small counts"
                )]
                let scaled = ((i as f64) * f).round() as u64;
                *v = json!(scaled.max(u64::from(i > 0)));
            } else if let Some(x) = n.as_f64() {
                *v = json!((x * f * 1000.0).round() / 1000.0);
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|x| jitter(x, rng)),
        Value::Object(map) => map.values_mut().for_each(|x| jitter(x, rng)),
        _ => {}
    }
}

fn canonical(i: u64, rng: &mut Rng) -> Value {
    let mut d: Value = serde_json::from_str(CANONICAL).expect("template parses");
    d["id"] = json!(format!("gen-{i:06}"));
    d["launch"]["id"] = json!(format!("launch-{}", i / 3));
    d["repeat"] = json!(i % 3 + 1);
    d["measured_at"] = json!(format!(
        "2026-{:02}-{:02}T{:02}:00:00Z",
        7 + rng.below(4),
        1 + rng.below(28),
        rng.below(24)
    ));
    d["platform"]["host"] = json!(format!("node-{:03}", rng.below(64)));
    let levels = d["levels"].as_array_mut().expect("levels");
    let with_samples = rng.below(10);
    for level in levels.iter_mut() {
        let f = 0.95 + 0.1 * rng.unit();
        for key in ["decode", "prefill", "aggregate"] {
            if let Some(x) = level["throughput_tok_s"][key].as_f64() {
                level["throughput_tok_s"][key] = json!((x * f * 10.0).round() / 10.0);
            }
        }
        match with_samples {
            // One in ten carries 2,000+ requests per level.
            0 => {
                let n = 2000 + rng.below(500);
                let ttft: Vec<f64> = (0..n)
                    .map(|_| (0.08 + 0.05 * rng.unit() * 1000.0).round() / 1000.0)
                    .collect();
                level["samples"] = json!({ "ttft_s": ttft });
                level["ttft_s"] = json!({ "p50": 0.105, "p95": 0.128, "p99": 0.13 });
            }
            1..=6 => {
                level.as_object_mut().expect("level").remove("samples");
            }
            _ => {}
        }
    }
    // A realistic share of defects.
    match rng.below(10) {
        0 => {
            d["engine"]
                .as_object_mut()
                .expect("engine")
                .remove("enforce_eager");
        }
        1 => {
            d["engine"]["image_digest"] = json!("vllm/vllm-openai:latest");
        }
        2 => {
            d["levels"][2]["failed"] = json!(3);
        }
        3 => {
            d["workload"]["temperature"] = json!(0.7);
        }
        _ => {}
    }
    d
}

fn harness(kind: u64, rng: &mut Rng) -> (String, &'static str) {
    let (template, ext) = match kind {
        0 => (VLLM, "json"),
        1 => (SGLANG, "jsonl"),
        2 => (GUIDELLM, "json"),
        3 => (AIPERF, "json"),
        _ => (LLMPERF, "json"),
    };
    if ext == "jsonl" {
        let lines: Vec<String> = template
            .lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| match serde_json::from_str::<Value>(l) {
                Ok(mut v) => {
                    jitter(&mut v, rng);
                    v.to_string()
                }
                // A line with a bare `Infinity` (as SGLang writes it) is kept verbatim.
                Err(_) => l.to_string(),
            })
            .collect();
        return (lines.join("\n") + "\n", ext);
    }
    let mut v: Value = serde_json::from_str(template).expect("template parses");
    jitter(&mut v, rng);
    (format!("{v:#}\n"), ext)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let flag = |name: &str| args.iter().any(|a| a == name);
    let canonical_only = flag("--canonical-only");
    // The word after `--shape` is its value, not a positional argument.
    let positional: Vec<&String> = args
        .iter()
        .enumerate()
        .filter(|(i, a)| !a.starts_with("--") && (*i == 0 || args[i - 1] != "--shape"))
        .map(|(_, a)| a)
        .collect();
    let (Some(out), Some(n)) = (
        positional.first(),
        positional.get(1).and_then(|n| n.parse::<u64>().ok()),
    ) else {
        eprintln!(
            "usage: gen_corpus OUT_DIR N [SEED] [--canonical-only | --clean | --heavy | --shape NAME]"
        );
        std::process::exit(2);
    };
    let seed = positional.get(2).and_then(|s| s.parse().ok()).unwrap_or(42);
    let out = PathBuf::from(out);
    if let Some(at) = args.iter().position(|a| a == "--shape") {
        let shape = args.get(at + 1).map_or("", String::as_str);
        let Some(bytes) = shapes::write_shape(&out, shape, n, seed) else {
            eprintln!("--shape takes one of {}", shapes::SHAPES.join(", "));
            std::process::exit(2);
        };
        println!(
            "wrote {shape} of {n} results, {bytes} bytes, into {}",
            out.display()
        );
        return;
    }
    if flag("--clean") || flag("--heavy") {
        let bytes = canonical::write_corpus(&out, n, seed, flag("--heavy"));
        println!("wrote {n} files, {bytes} bytes, into {}", out.display());
        return;
    }
    let mut rng = Rng(seed);
    let mut bytes = 0usize;
    for i in 0..n {
        let dir = out.join(format!("d{:03}", i / 1000));
        if i % 1000 == 0 {
            std::fs::create_dir_all(&dir).expect("create the output folder");
        }
        // Half canonical, half the formats real harnesses write.
        let (text, ext) = if canonical_only || rng.below(2) == 0 {
            (format!("{:#}\n", canonical(i, &mut rng)), "json")
        } else {
            let kind = rng.below(5);
            harness(kind, &mut rng)
        };
        bytes += text.len();
        write(&dir.join(format!("r{i:06}.{ext}")), &text);
    }
    println!("wrote {n} files, {bytes} bytes, into {}", out.display());
}

fn write(path: &Path, text: &str) {
    std::fs::write(path, text).expect("write a corpus file");
}
