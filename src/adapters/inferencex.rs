//! SemiAnalysis InferenceX (formerly InferenceMAX) processed results, formats2.md
//! "InferenceX".
//!
//! InferenceX runs vLLM's `bench serve` (read by the vLLM adapter) and processes each run into
//! a flat row (`utils/process_result.py`): the settings it ran with (`hw`, `framework`,
//! `precision`, `image`, `tp`, `ep`, `dp_attention`, `spec_decoding`, `disagg`, `offloading`,
//! `scenario_type`, `isl`, `osl`, `conc`) and the figures. Each run folder keeps its row as a
//! single object (`agg_<result>.json`); the sweep's `agg_bmk.json` is a JSON array of the rows
//! of many runs. Recognised by content: five or more of the keys every row carries (`hw`,
//! `conc`, `tp`, `framework`, the request counts, a per-GPU throughput, ...); a file of rows
//! when one of them is a full row (with a per-GPU throughput).
//!
//! - **A row is a result** with one level at `conc` streams. Rows with equal settings are
//!   repeats of one configuration (the replication rules group them); a row that is the same
//!   run as another (its run folder copied, the row in `agg_bmk.json` and in its folder) is
//!   S010's to find.
//! - **Empty strings are absent values**: unknown `framework`, `precision`, `image` are written
//!   as `""`, and stay absent (the checklist rules report them).
//! - **Units.** The processing divides every `*_ms` figure of the bench result by 1000 and
//!   drops the suffix: `median_ttft`, `p99_ttft`, `mean_e2el`, `median_tpot` are seconds (TPOT
//!   becomes milliseconds here again); `*_intvty` is 1000 / TPOT ms, the per-user rate.
//!   Agentic rows have `mean`/`p75`/`p90`/`p95`/`std` and no median.
//! - **Tokens.** The output tokens the client received are `mean_output_tokens_actual ×
//!   num_requests_successful` (derived; the product `output_tput_tps` divides by
//!   `duration_seconds`). `total_generation_tokens` is not that count: it is the engine's own
//!   counter (beside `total_prompt_tokens`, `total_requests_completed` and the server cache hit
//!   rates; in a real row 184,008 against the client's 159,787, and its prompt total carries the
//!   chat template the client's does not), so it is `server_output_tokens`, the figure R002
//!   cross-checks against the client's.
//! - **Throughput.** `output_tput_tps` where written; older rows have only
//!   `output_tput_per_gpu`, the output throughput divided by `tp` (single node) or by
//!   `num_decode_gpu` (multi-node), and the aggregate is that product. On one node the
//!   harness counts `tp` GPUs: `devices_per_node` is `tp` there.
//! - **Settings without a canonical field** that still define the configuration
//!   (`offloading`, `dp_attention`, `disagg`) are labels (`labels`, text), part of the
//!   configuration fingerprint, so that rows differing in them are not pooled as repeats.
//! - `spec_decoding` `none` is an explicit off; `hw` (the runner type, `mi355x`, `h200-nb`) is
//!   the device label; `framework` is the engine (`trt` is TensorRT-LLM). A multi-node
//!   (disaggregated) row records a parallel size only when its prefill and decode workers
//!   share it.
//! - `run_stats.json` (`{hw: {n_success, total}}`, the sweep's success counts) is a companion.
//! - **A bad row spoils only itself.** A run that served nothing is written as a sparse row
//!   (settings and counts, no figures: `num_requests_total` and `num_requests_successful` 0,
//!   29 of 76 keys in a real `agg_bmk.json`). Inside a file of full rows it is read as far as
//!   it goes: a failed result (derived from the counts) with its settings, so R006/R007 report
//!   it and the other rows are read as usual.
//!
//! Rows record no date: `measured_at` is the epoch fallback.

use serde_json::Value;

use super::items::{self, ItemsVerdict, Tally};
use super::map::{Builder, NONE_COMPLETED, NOTHING_SERVED, at, count, number, ptr, text};
use super::{Adapter, Mapped, Reading, Source};

/// The InferenceX adapter.
pub struct InferenceX;

fn is_row(v: &Value) -> bool {
    is_sparse_row(v)
        && v.as_object().is_some_and(|m| {
            m.contains_key("tput_per_gpu") || m.contains_key("output_tput_per_gpu")
        })
}

/// A row as far as a run that served nothing writes it: the settings (`hw`, `conc`, the
/// framework or TP) and the request counts, without the figures (29 of the 76 keys of a real
/// row with 0 requests). Read as a row inside a file whose other rows are full ones.
fn is_sparse_row(v: &Value) -> bool {
    v.as_object().is_some_and(|m| {
        ROW_KEYS.iter().filter(|k| m.contains_key(**k)).count() >= 5 && !m.contains_key("schema")
    })
}

/// The keys `process_result.py` writes for every run, figures or not: a row holds most of
/// them, a row without one of them (its `conc`, its `hw`) is still a row, read as far as it
/// goes.
const ROW_KEYS: [&str; 15] = [
    "hw",
    "conc",
    "tp",
    "ep",
    "framework",
    "precision",
    "infmax_model_prefix",
    "spec_decoding",
    "dp_attention",
    "disagg",
    "is_multinode",
    "num_requests_total",
    "num_requests_successful",
    "tput_per_gpu",
    "output_tput_per_gpu",
];

/// `run_stats.json`: `{hw: {n_success, total}}`.
fn is_run_stats(v: &Value) -> bool {
    v.as_object().is_some_and(|m| {
        !m.is_empty()
            && m.values()
                .all(|s| s.get("n_success").is_some() && s.get("total").is_some() && s.is_object())
    })
}

impl Adapter for InferenceX {
    fn name(&self) -> &'static str {
        "inferencex"
    }

    fn read<'d, 's: 'd>(&self, doc: &'d Value, source: &Source<'s>) -> Reading<'d> {
        // A run folder's own row, full or (a run that served nothing) sparse.
        if is_sparse_row(doc) {
            return Reading::results(vec![map_row(doc, source, "")]);
        }
        if doc.is_array() {
            return items::read_array(Box::new(SweepTally::default()), doc, source);
        }
        if is_run_stats(doc) {
            return Reading::Companion;
        }
        Reading::NotMine
    }

    fn lets_go(&self, doc: &Value, source: &Source<'_>) -> bool {
        items::reads_results(Box::new(SweepTally::default()), doc, source)
    }

    /// A row reads nothing of the document but itself ([`map_row`] reads under its base).
    fn read_letting_go<'d, 's: 'd>(&self, doc: &'d mut Value, source: &Source<'s>) -> Reading<'d> {
        if !self.lets_go(doc, source) {
            return self.read(doc, source);
        }
        items::read_array_letting_go(Box::new(SweepTally::default()), doc, source)
    }

    fn items_tally(&self) -> Option<Box<dyn Tally>> {
        Some(Box::new(SweepTally::default()))
    }
}

/// A sweep's aggregate: an array of rows, each read as a result. A bad row spoils only
/// itself: the file is the sweep's when one row is a full row and every entry is an object; a
/// sparse row is read as far as it goes.
#[derive(Default)]
struct SweepTally {
    rows: usize,
    full_rows: usize,
    not_objects: usize,
}

impl Tally for SweepTally {
    fn see(&mut self, item: &Value) {
        self.rows += 1;
        self.full_rows += usize::from(is_row(item));
        self.not_objects += usize::from(!item.is_object());
    }

    fn verdict(&self, _source: &Source<'_>) -> ItemsVerdict {
        if self.full_rows > 0 && self.not_objects == 0 {
            ItemsVerdict::Results {
                items: (0..self.rows).collect(),
                map: map_row,
            }
        } else {
            ItemsVerdict::NotMine
        }
    }
}

fn map_row(doc: &Value, source: &Source<'_>, base: &str) -> Mapped {
    let p = |k: &str| ptr(base, &[k]);
    let get = |k: &str| at(doc, &p(k));
    let mut b = Builder::new(doc, source, base);
    b.put("/harness/name", "inferencex", base);

    // Identity and settings.
    b.string("/platform/device/model", &p("hw"));
    if let Some(name) = get("framework").and_then(text) {
        let engine = match name.to_ascii_lowercase().as_str() {
            "trt" | "trtllm" | "trt-llm" => "tensorrt-llm".to_string(),
            other => other.to_string(),
        };
        b.put("/engine/name", engine, &p("framework"));
    }
    b.string("/engine/image", &p("image"));
    b.string("/model/name", &p("model"));
    b.string("/model/precision", &p("precision"));
    let multinode = get("is_multinode").and_then(Value::as_bool) == Some(true);
    if multinode {
        // Disaggregated: the prefill and decode workers have their own sizes; one size is
        // recorded only when both sides share it.
        for (prefill, decode, canonical) in [
            ("prefill_tp", "decode_tp", "/engine/tensor_parallel_size"),
            ("prefill_ep", "decode_ep", "/engine/expert_parallel_size"),
        ] {
            let both = (get(prefill).and_then(count), get(decode).and_then(count));
            if let (Some(a), Some(b2)) = both
                && a == b2
            {
                b.whole(canonical, &p(decode), 1);
            }
        }
    } else {
        b.whole("/engine/tensor_parallel_size", &p("tp"), 1);
        b.whole("/engine/expert_parallel_size", &p("ep"), 1);
        if get("is_multinode").is_some() {
            b.put("/platform/nodes", 1, &p("is_multinode"));
        }
        b.whole("/platform/devices_per_node", &p("tp"), 1);
    }
    match get("spec_decoding").and_then(text) {
        Some(s) if s.eq_ignore_ascii_case("none") => {
            b.put("/engine/speculative/enabled", false, &p("spec_decoding"));
        }
        Some(s) => {
            b.put("/engine/speculative/enabled", true, &p("spec_decoding"));
            b.put(
                "/engine/speculative/method",
                s.to_ascii_lowercase(),
                &p("spec_decoding"),
            );
        }
        None => {}
    }
    for key in ["offloading", "dp_attention", "disagg"] {
        let label = match get(key) {
            Some(Value::Bool(v)) => Some(v.to_string()),
            Some(v) => text(v),
            None => None,
        };
        if let Some(l) = label {
            b.put(&ptr("/labels", &[key]), l, &p(key));
        }
    }
    b.string("/workload/name", &p("scenario_type"));
    b.whole("/workload/max_output_tokens", &p("osl"), 1);
    if !b.real("/workload/prompt_tokens/mean", &p("mean_input_tokens"), 1.0) {
        b.real("/workload/prompt_tokens/mean", &p("isl"), 1.0);
    }

    // The level.
    b.whole("/levels/0/concurrency", &p("conc"), 1);
    let total = get("num_requests_total").and_then(count);
    let ok = get("num_requests_successful").and_then(count);
    if b.whole("/levels/0/requests", &p("num_requests_successful"), 0)
        && let (Some(t), Some(s)) = (total, ok)
        && t >= s
    {
        b.put("/levels/0/failed", t - s, &p("num_requests_total"));
    }
    // A run that completed nothing failed, whether its failures were counted (`total` above
    // 0) or not even the requests sent were (`num_requests_total` 0: the client never got a
    // request through, e.g. a server that did not come up).
    if ok == Some(0)
        && let Some(t) = total
    {
        let why = if t > 0 {
            NONE_COMPLETED
        } else {
            NOTHING_SERVED
        };
        b.derived("/outcome", "failed", why, "/levels/0/requests");
    }
    b.real("/levels/0/duration_s", &p("duration_seconds"), 1.0);
    tokens(&mut b, base, ok);
    // A row of a run that completed nothing carries zeros, not measurements (map.rs).
    if ok.is_none_or(|n| n > 0) {
        aggregate(&mut b, base, multinode);
        latencies(&mut b, base);
    }
    b.finish()
}

/// The output tokens the client received, and the server's own count (see the module doc).
fn tokens(b: &mut Builder<'_>, base: &str, ok: Option<u64>) {
    let p = |k: &str| ptr(base, &[k]);
    b.whole(
        "/levels/0/server_output_tokens",
        &p("total_generation_tokens"),
        0,
    );
    let mean = at(b.doc(), &p("mean_output_tokens_actual"))
        .and_then(number)
        .filter(|m| *m >= 0.0);
    if let (Some(mean), Some(n)) = (mean, ok) {
        #[expect(clippy::cast_precision_loss, reason = "request counts are small")]
        let total = mean * n as f64;
        // A mean over whole counts times their number is a whole count, up to float rounding.
        if total.is_finite() && (total - total.round()).abs() < 1e-6 * total.max(1.0) {
            #[expect(
                clippy::cast_possible_truncation,
                clippy::cast_sign_loss,
                reason = "non-negative and far below 2^63"
            )]
            let whole = total.round() as u64;
            b.derived(
                "/levels/0/output_tokens",
                whole,
                "mean_output_tokens_actual × num_requests_successful",
                &p("mean_output_tokens_actual"),
            );
        }
    }
}

/// `output_tput_tps`, else the per-GPU output throughput times the GPUs it was divided by.
fn aggregate(b: &mut Builder<'_>, base: &str, multinode: bool) {
    let p = |k: &str| ptr(base, &[k]);
    if b.real(
        "/levels/0/throughput_tok_s/aggregate",
        &p("output_tput_tps"),
        1.0,
    ) {
        return;
    }
    let doc = b.doc();
    let gpus = at(doc, &p(if multinode { "num_decode_gpu" } else { "tp" }))
        .and_then(count)
        .filter(|n| *n >= 1);
    let per_gpu = at(doc, &p("output_tput_per_gpu"))
        .and_then(number)
        .filter(|f| *f >= 0.0);
    if let (Some(g), Some(f)) = (gpus, per_gpu) {
        #[expect(clippy::cast_precision_loss, reason = "GPU counts are small")]
        let total = f * g as f64;
        b.put(
            "/levels/0/throughput_tok_s/aggregate",
            total,
            &p("output_tput_per_gpu"),
        );
    }
}

/// TTFT, TPOT, end-to-end latency (seconds in the row) and the per-user rate (`intvty`).
fn latencies(b: &mut Builder<'_>, base: &str) {
    let p = |k: &str| ptr(base, &[k]);
    let sets: [(&str, &str, &[&str], f64); 3] = [
        ("ttft", "/levels/0/ttft_s", &["p50", "p95", "p99"], 1.0),
        ("tpot", "/levels/0/tpot_ms", &["p50", "p95"], 1e3),
        ("e2el", "/levels/0/e2e_s", &["p50", "p95"], 1.0),
    ];
    for (metric, canonical, quantiles, scale) in sets {
        for q in quantiles {
            let mut srcs = vec![p(&format!("{q}_{metric}"))];
            if *q == "p50" {
                srcs.push(p(&format!("median_{metric}")));
            }
            b.first(&format!("{canonical}/{q}"), &srcs, scale);
        }
    }
    let _ = b.real("/levels/0/per_user_tok_s/median", &p("median_intvty"), 1.0)
        || b.real("/levels/0/per_user_tok_s/median", &p("p50_intvty"), 1.0);
    b.real("/levels/0/per_user_tok_s/mean", &p("mean_intvty"), 1.0);
}
