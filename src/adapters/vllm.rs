//! vLLM's serving benchmark: `benchmarks/benchmark_serving.py` (2024 to mid-2025) and
//! `vllm bench serve --save-result` (formats.md §1).
//!
//! One JSON object is one run at one request rate / concurrency: one result with one level.
//! Users `cat` several into one file and `--append-result` appends them, so a file arrives as
//! several documents. Recognised by its keys: `model_id` with `completed` and `duration` (a
//! run that lost them is still told by a throughput beside a TTFT), and none of `SGLang`'s own keys (`total_output_tokens_retokenized`, `server_info`; `SGLang`'s
//! client is a fork of this one, §2).
//!
//! History handled:
//! - legacy script: no `failed` (failures are `num_prompts - completed`, §0.6, derived), no
//!   `endpoint_type`, the `"request_goodput:"` typo (not read: goodput has no canonical field);
//! - `vllm bench serve`: `failed`, `endpoint_type`, peak fields; percentile keys follow
//!   `--metric-percentiles` (`p95_ttft_ms` only when asked; `p50_*` or `median_*` for the p50);
//!   `e2el` only when selected;
//! - `--save-detailed` arrays (`ttfts` in s, `itls` in s, `output_lens`, `input_lens`,
//!   `errors`): per-request samples of the successful requests;
//! - `vllm bench sweep serve` (§1.5): `run=N.json` is a normal run plus `run_number` and the
//!   swept serve/bench keys (`max_num_seqs`, ...), read as engine settings; `warmup.json`
//!   (`run_number` -1) is a warm-up, a companion; `summary.json` is a JSON array of the
//!   runs of the folder, all carrying `run_number`: the sweep writes it next to the `run=N.json`
//!   it repeats, so it is a companion (reading it would count every run twice); a
//!   `run=N.failure.json` is a failed result;
//! - `--metadata KEY=VALUE` pairs are merged at the top level as strings (§0.5): the keys that
//!   name a canonical field are read ([`super::map::known_keys`]); `backend` (or
//!   `endpoint_type`) is the client API, never the engine (§0.4): it is `harness.backend`, and
//!   `framework` (an engine nickname in some files, the provider in others) is not read, so
//!   the engine is named only by an `engine` key; every pair with a text value (and the run's
//!   `--label`) is also kept in `labels`, which the configuration fingerprint includes, so that
//!   runs the user labelled as different deployments are never pooled as replicates;
//! - `tokenizer_id` is the tokenizer the client counted with (`workload.tokenizer`);
//! - the `.pytorch.json` companion (an array of per-metric records, §1.6) is a companion.
//!
//! The level's load is its `request_rate` and `max_concurrency` ([`super::map::Builder::load`]):
//! a capped run at rate `inf` is a closed-loop level at the cap, any other rate an open-loop
//! level; `num_prompts` is a request count, never a concurrency: it is the level's
//! `total_requests`, beside `completed` and `failed` that add up to it (R025). `measured_at` is
//! `date` (local time, read as UTC).
//! Output tokens are the server's usage counts for the OpenAI-style backends (§1.3).

mod per_request;

use serde_json::{Map, Value};

use super::items::{self, ItemsVerdict, Tally};
use super::map::{Builder, NONE_COMPLETED, at, count, from_compact_date, known_keys, labels, ptr};
use super::{Adapter, Mapped, Reading, Source};

pub(crate) use per_request::detailed;
use per_request::tpot_samples;

/// The vLLM serving benchmark adapter.
pub struct Vllm;

/// Keys only `SGLang`'s `bench_serving` writes (formats.md §2.2).
const SGLANG_KEYS: [&str; 2] = ["total_output_tokens_retokenized", "server_info"];

/// The keys `vllm bench serve` and `benchmark_serving.py` write themselves (formats.md §1.2,
/// §1.5), besides the metric keys `{mean,median,std,pN}_{ttft,tpot,itl,e2el}_ms`: any other
/// key with a text value is a `--metadata` pair, a label.
const OWN_KEYS: &[&str] = &[
    "date",
    "endpoint_type",
    "backend",
    "label",
    "model_id",
    "tokenizer_id",
    "num_prompts",
    "request_rate",
    "burstiness",
    "max_concurrency",
    "ramp_up_strategy",
    "ramp_up_start_rps",
    "ramp_up_end_rps",
    "duration",
    "completed",
    "failed",
    "total_input_tokens",
    "total_output_tokens",
    "request_throughput",
    "request_goodput",
    "request_goodput:",
    "output_throughput",
    "total_token_throughput",
    "max_output_tokens_per_s",
    "max_concurrent_requests",
    "rps_change_events",
    "rtfx",
    "input_lens",
    "output_lens",
    "ttfts",
    "itls",
    "generated_texts",
    "errors",
    "run_number",
];

/// Whether `key` is one vLLM writes itself (not a `--metadata` pair).
fn own_key(key: &str) -> bool {
    if OWN_KEYS.contains(&key) || key.starts_with("spec_decode_") {
        return true;
    }
    // `mean_ttft_ms`, `p99.9_itl_ms`, `median_e2el_ms`, ...
    let Some(stem) = key.strip_suffix("_ms") else {
        return false;
    };
    let Some((stat, metric)) = stem.split_once('_') else {
        return false;
    };
    let stat_ok = matches!(stat, "mean" | "median" | "std")
        || stat
            .strip_prefix('p')
            .is_some_and(|p| !p.is_empty() && p.chars().all(|c| c.is_ascii_digit() || c == '.'));
    stat_ok && matches!(metric, "ttft" | "tpot" | "itl" | "e2el")
}

/// Backends whose request function reads the server's streamed `usage` (formats.md §1.3).
const USAGE_BACKENDS: [&str; 7] = [
    "vllm",
    "openai",
    "openai-chat",
    "vllm-chat",
    "sglang",
    "sglang-oai",
    "lmdeploy",
];

/// A run: `model_id` with vLLM's own figures. A run that lacks some of them (its counts, or
/// its duration, or both, or its `model_id`) is still read, as far as it goes: `model_id`
/// (or, without it, four keys only this client writes) with `completed` or `duration` (or,
/// with neither, a throughput beside a TTFT: what only a serving run measures) and at least
/// one more key only this client writes (a figure, the request count, a
/// per-request array), so that a result without its counts is a vLLM file with findings, not
/// an unknown format.
fn is_run(v: &Value) -> bool {
    v.as_object().is_some_and(|m| {
        // A run records its counts and window; one that lost both is still told by what only
        // a serving run measures: a throughput beside a time to first token.
        let timed = m.contains_key("completed")
            || m.contains_key("duration")
            || (["request_throughput", "output_throughput"]
                .iter()
                .any(|k| m.contains_key(*k))
                && ["mean_ttft_ms", "median_ttft_ms", "p99_ttft_ms"]
                    .iter()
                    .any(|k| m.contains_key(*k)));
        let own = m
            .keys()
            .filter(|k| {
                own_key(k)
                    && !matches!(
                        k.as_str(),
                        "model_id"
                            | "date"
                            | "backend"
                            | "endpoint_type"
                            | "label"
                            | "tokenizer_id"
                    )
            })
            .count();
        // A run that lost its `model_id` is still told by vLLM's own figures around it.
        (m.contains_key("model_id") || own >= 4)
            && timed
            && own >= 2
            && !SGLANG_KEYS.iter().any(|k| m.contains_key(*k))
            && !m.contains_key("schema")
    })
}

fn is_warmup(v: &Value) -> bool {
    v.get("run_number").and_then(Value::as_i64) == Some(-1)
}

/// `run=N.failure.json` of a sweep: `{run_number, error_type, error, serve_overrides,
/// bench_overrides}` (formats.md §1.5).
fn is_failure(v: &Value) -> bool {
    v.as_object().is_some_and(|m| {
        m.contains_key("run_number")
            && (m.contains_key("error") || m.contains_key("error_type"))
            && (m.contains_key("serve_overrides") || m.contains_key("bench_overrides"))
            && !m.contains_key("completed")
    })
}

/// A `.pytorch.json` record: `{benchmark: {name: "vLLM benchmark", ...}, model, metric}`.
fn is_pytorch_record(r: &Value) -> bool {
    r.pointer("/benchmark/name")
        .and_then(Value::as_str)
        .is_some_and(|n| n.contains("vLLM"))
        && r.get("metric").is_some()
}

impl Adapter for Vllm {
    fn name(&self) -> &'static str {
        "vllm"
    }

    fn read<'d, 's: 'd>(&self, doc: &'d Value, source: &Source<'s>) -> Reading<'d> {
        if is_run(doc) {
            // A warm-up is a companion of the sweep's runs; copied without them it is the one
            // run there is, read as a result (a failing run cannot hide as a warm-up).
            if is_warmup(doc) && !source.alone {
                return Reading::Companion;
            }
            return Reading::results(vec![map_run(doc, source, "")]);
        }
        if is_failure(doc) {
            return Reading::results(vec![map_failure(doc, source)]);
        }
        items::read_array(Box::new(ListTally::default()), doc, source)
    }

    fn lets_go(&self, doc: &Value, source: &Source<'_>) -> bool {
        items::reads_results(Box::new(ListTally::default()), doc, source)
    }

    /// A run of a list reads nothing of the list but itself ([`map_run`] reads under its
    /// base): it goes once its result is made.
    fn read_letting_go<'d, 's: 'd>(&self, doc: &'d mut Value, source: &Source<'s>) -> Reading<'d> {
        if !self.lets_go(doc, source) {
            return self.read(doc, source);
        }
        items::read_array_letting_go(Box::new(ListTally::default()), doc, source)
    }

    fn items_tally(&self) -> Option<Box<dyn Tally>> {
        Some(Box::new(ListTally::default()))
    }
}

/// What vLLM makes of an array, told from its items:
/// - a list of runs (`--append-result` written as one array, a sweep's summary): one partial
///   run spoils only itself, so it is vLLM's when one entry is a run and every entry is an
///   object and no failure. Its runs are read as results, all but its warm-ups unless all
///   are; a sweep's `summary.json`, which repeats the `run=N.json` files beside it (every run
///   numbered, not alone), is their companion;
/// - the `.pytorch.json` records (every entry an object, one a vLLM benchmark's metric): a
///   companion.
#[derive(Default)]
struct ListTally {
    seen: usize,
    runs: usize,
    unnumbered_runs: usize,
    not_objects: usize,
    failures: usize,
    pytorch_records: usize,
    /// The entries that are no warm-up, in order.
    not_warmups: Vec<usize>,
}

impl Tally for ListTally {
    fn see(&mut self, item: &Value) {
        if is_run(item) {
            self.runs += 1;
            self.unnumbered_runs += usize::from(item.get("run_number").is_none());
        }
        self.not_objects += usize::from(!item.is_object());
        self.failures += usize::from(is_failure(item));
        self.pytorch_records += usize::from(is_pytorch_record(item));
        if !is_warmup(item) {
            self.not_warmups.push(self.seen);
        }
        self.seen += 1;
    }

    fn verdict(&self, source: &Source<'_>) -> ItemsVerdict {
        if self.runs > 0 && self.not_objects == 0 && self.failures == 0 {
            if self.unnumbered_runs == 0 && !source.alone {
                return ItemsVerdict::Companion;
            }
            // All but the warm-ups, unless all are.
            let items = if self.not_warmups.is_empty() {
                (0..self.seen).collect()
            } else {
                self.not_warmups.clone()
            };
            return ItemsVerdict::Results {
                items,
                map: map_run,
            };
        }
        if self.not_objects == 0 && self.pytorch_records > 0 {
            return ItemsVerdict::Companion;
        }
        ItemsVerdict::NotMine
    }
}

fn map_run(doc: &Value, source: &Source<'_>, base: &str) -> Mapped {
    let p = |k: &str| ptr(base, &[k]);
    let empty = Map::new();
    let obj = at(doc, base).and_then(Value::as_object).unwrap_or(&empty);
    let mut b = Builder::new(doc, source, base);

    if let Some(ts) = obj
        .get("date")
        .and_then(Value::as_str)
        .and_then(from_compact_date)
    {
        b.measured_at(ts, &p("date"));
    }
    let newest = ["endpoint_type", "failed", "max_concurrent_requests"]
        .iter()
        .any(|k| obj.contains_key(*k));
    b.put(
        "/harness/name",
        if newest {
            "vllm-bench-serve"
        } else {
            "vllm-benchmark-serving"
        },
        base,
    );
    b.string("/model/name", &p("model_id"));
    // The client's request function (`vllm`, `openai-chat`, ...), never the engine (§0.4).
    let _ = b.string("/harness/backend", &p("backend"))
        || b.string("/harness/backend", &p("endpoint_type"));
    // The tokenizer the client built prompts with, and counted outputs with when the server
    // returned no usage (§1.3).
    let _ = b.string("/workload/tokenizer", &p("tokenizer_id"))
        || b.string("/workload/tokenizer", &p("tokenizer"));

    let completed = obj.get("completed").and_then(count);
    let num_prompts = obj.get("num_prompts").and_then(count);
    // Legacy files: no failure field; what did not complete failed (formats.md §0.6), a
    // derivation that agrees with `num_prompts` by construction (R025 does not count it).
    let recorded_failed = obj.get("failed").and_then(count);
    let failed = match recorded_failed {
        Some(f) => Some((f, p("failed"))),
        None => match (num_prompts, completed) {
            (Some(n), Some(c)) if n >= c => Some((n - c, p("num_prompts"))),
            _ => None,
        },
    };
    if completed == Some(0) && failed.as_ref().is_some_and(|(f, _)| *f > 0) {
        b.derived("/outcome", "failed", NONE_COMPLETED, "/levels/0/requests");
    }

    b.load(&p("request_rate"), &p("max_concurrency"));
    b.whole("/levels/0/requests", &p("completed"), 0);
    match &failed {
        Some((f, src)) if recorded_failed.is_some() => b.put("/levels/0/failed", *f, src),
        Some((f, src)) => b.derived("/levels/0/failed", *f, "num_prompts - completed", src),
        None => {}
    }
    // The harness's own total, beside the counts it should equal (R025).
    b.whole("/levels/0/total_requests", &p("num_prompts"), 0);
    b.real("/levels/0/duration_s", &p("duration"), 1.0);
    b.whole("/levels/0/output_tokens", &p("total_output_tokens"), 0);
    // With no successful request vLLM writes 0.0 for the throughput and every latency: not a
    // measurement, and not a figure the level reports (R006, R007 see the counts instead).
    if completed != Some(0) {
        b.real(
            "/levels/0/throughput_tok_s/aggregate",
            &p("output_throughput"),
            1.0,
        );
    }
    // Unknown is not nothing: a run without its counts keeps its latencies.
    if completed != Some(0) {
        latencies(&mut b, base);
    }

    let keep = detailed(&mut b, base, &p("total_input_tokens"), completed);
    if obj.contains_key("ttfts") {
        tpot_samples(&mut b, base, &keep);
    }

    let backend = ["backend", "endpoint_type"]
        .iter()
        .find_map(|k| obj.get(*k).and_then(Value::as_str).map(|s| (*k, s)));
    if let Some((k, name)) = backend
        && USAGE_BACKENDS.contains(&name)
        && obj.contains_key("total_output_tokens")
    {
        b.put("/workload/token_count_source", "server-usage", &p(k));
    }
    known_keys(&mut b, base);
    // `--label` names the run; `--metadata` pairs label what the file does not record.
    b.string("/labels/label", &p("label"));
    labels(&mut b, base, own_key);
    b.finish()
}

/// TTFT, TPOT and end-to-end latency percentiles, ms in the file (`p{P}_{m}_ms`,
/// `median_{m}_ms`).
fn latencies(b: &mut Builder<'_>, base: &str) {
    let sets: [(&str, &str, &[&str], f64); 3] = [
        ("ttft", "/levels/0/ttft_s", &["p50", "p95", "p99"], 0.001),
        ("tpot", "/levels/0/tpot_ms", &["p50", "p95"], 1.0),
        ("e2el", "/levels/0/e2e_s", &["p50", "p95"], 0.001),
    ];
    for (metric, canonical, quantiles, scale) in sets {
        for q in quantiles {
            let mut srcs = vec![ptr(base, &[&format!("{q}_{metric}_ms")])];
            if *q == "p50" {
                srcs.push(ptr(base, &[&format!("median_{metric}_ms")]));
            }
            b.first(&format!("{canonical}/{q}"), &srcs, scale);
        }
    }
}

/// A sweep run that failed: a losing result, with the ladder position and the swept settings
/// it was run with.
fn map_failure(doc: &Value, source: &Source<'_>) -> Mapped {
    let mut b = Builder::new(doc, source, "");
    b.put("/harness/name", "vllm-bench-serve", "");
    let why = if doc.get("error_type").is_some() {
        "/error_type"
    } else {
        "/error"
    };
    b.put("/outcome", "failed", why);
    b.load(
        "/bench_overrides/request_rate",
        "/bench_overrides/max_concurrency",
    );
    known_keys(&mut b, "/serve_overrides");
    known_keys(&mut b, "/bench_overrides");
    b.finish()
}
