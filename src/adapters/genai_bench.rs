//! `SGLang`'s genai-bench (`sgl-project/genai-bench`), formats2.md "genai-bench".
//!
//! An experiment folder holds `experiment_metadata.json` and one file per level, named
//! `{scenario}_{task}_num_concurrency_{N}_time_{T}s.json`, each with `aggregated_metrics`
//! (counts, throughputs, and `stats`: distributions of `ttft`, `tpot`, `e2e_latency`,
//! `output_inference_speed`, token counts) and `individual_request_metrics` (one record per
//! request). The folder is one ladder per traffic scenario: the level files of a scenario are
//! one result whose levels are the files in order of concurrency ([`super::ladder`]); a level
//! file read without its folder is a one-level result. Recognised by content:
//! `aggregated_metrics` with `stats` and `num_concurrency`.
//!
//! `experiment_metadata.json` is a companion (no result of its own); each level file consults
//! it for what the level files do not record: the harness version (`benchmark_version`), the
//! client API (`api_backend`, `harness.backend`), engine name and version (`server_engine`,
//! `server_version`, often null), GPU type and count (`server_gpu_type`, `server_gpu_count`,
//! a string or null), the model (`api_model_name`, the name requests were sent with, else
//! `model`), the tokenizer the client counted with (`server_model_tokenizer`), the scenario and
//! the sampling parameters sent (`additional_request_params`, whose `stream` says whether
//! responses were streamed). Those values point into the
//! metadata file. What the metadata does **not** hold is the serve command: `cmd` is the
//! client's own command line (`genai-bench benchmark ...`), so `engine.serve_command` stays
//! absent (M003) unless a launch command file or sidecar beside the results supplies it.
//! `cmd` may carry `--api-key`: M018 reports it on the metadata file, masked, and it is never
//! copied into the result.
//!
//! Times are seconds unless `_time_unit` says `ms`. `tpot` is per request (generation time
//! over output tokens - 1), so it is TPOT; `output_inference_speed` is each request's own
//! decode rate, the per-user rate. genai-bench records no date: `measured_at` is the epoch
//! fallback. The scenario string (`N(2000,200)/(200,20)`, `D(100,1000)`) is the workload's
//! name; a deterministic `D(in,out)` scenario fixes the output length, which becomes
//! `max_output_tokens`.

use serde_json::Value;

use super::ladder::{LadderFormat, Role};
use super::map::{Builder, NONE_COMPLETED, at, count, number, ptr, text};
use super::{Adapter, Mapped, Reading, Source};
use crate::io::beside::Place;
use crate::model::Provenance;

/// The genai-bench adapter.
pub struct GenaiBench;

/// The metadata file of an experiment folder.
const METADATA: &str = "experiment_metadata.json";

fn is_level(v: &Value) -> bool {
    v.get("aggregated_metrics").is_some_and(|m| {
        m.get("stats").is_some_and(Value::is_object)
            && (m.get("num_concurrency").is_some() || m.get("num_completed_requests").is_some())
    }) && v.get("schema").is_none()
}

fn is_metadata(v: &Value) -> bool {
    v.as_object().is_some_and(|m| {
        m.contains_key("benchmark_version")
            && m.contains_key("api_backend")
            && (m.contains_key("traffic_scenario") || m.contains_key("num_concurrency"))
    })
}

/// The ladder of a level file: its scenario (with the task and iteration type), at its
/// concurrency.
fn position(_name: &str, doc: &Value) -> Option<(String, f64)> {
    if !is_level(doc) {
        return None;
    }
    let m = doc.get("aggregated_metrics")?;
    let part = |k: &str| m.get(k).and_then(text).unwrap_or_default();
    let group = format!(
        "{}\u{1f}{}\u{1f}{}",
        part("scenario"),
        part("iteration_type"),
        part("batch_size")
    );
    let at = m.get("num_concurrency").and_then(number).unwrap_or(0.0);
    Some((group, at))
}

const LADDER: LadderFormat = LadderFormat {
    key: "genai-bench",
    position,
    map: map_level,
};

impl Adapter for GenaiBench {
    fn name(&self) -> &'static str {
        "genai-bench"
    }

    fn read<'d, 's: 'd>(&self, doc: &'d Value, source: &Source<'s>) -> Reading<'d> {
        if is_metadata(doc) {
            return Reading::Companion;
        }
        if !is_level(doc) {
            return Reading::NotMine;
        }
        let mut mapped = match LADDER.role(doc, source) {
            Role::Member if !source.alone => return Reading::Companion,
            Role::Member | Role::Alone => map_level(doc, source),
            Role::Anchor(levels) => super::ladder::assemble(doc, source, &levels, map_level),
        };
        if let Some(folder) = source.folder
            && let Some(meta) = folder.json(Place::Here, METADATA)
            && is_metadata(&meta)
        {
            metadata(&mut mapped, &meta, &folder.display(Place::Here, METADATA));
        }
        Reading::results(vec![mapped])
    }
}

/// Seconds per unit of the file's time fields.
fn time_scale(doc: &Value) -> f64 {
    match at(doc, "/_time_unit").and_then(Value::as_str) {
        Some("ms") => 1e-3,
        _ => 1.0,
    }
}

/// One level file as a one-level result.
fn map_level(doc: &Value, source: &Source<'_>) -> Mapped {
    let mut b = Builder::new(doc, source, "");
    b.put("/harness/name", "genai-bench", "");
    let a = "/aggregated_metrics";
    let p = |k: &str| ptr(a, &[k]);
    let s = |metric: &str, stat: &str| ptr(a, &["stats", metric, stat]);
    let secs = time_scale(doc);

    let completed = at(doc, &p("num_completed_requests")).and_then(count);
    let failed = at(doc, &p("num_error_requests")).and_then(count);
    if completed == Some(0) && failed.is_some_and(|f| f > 0) {
        b.derived("/outcome", "failed", NONE_COMPLETED, "/levels/0/requests");
    }
    b.whole("/levels/0/concurrency", &p("num_concurrency"), 1);
    b.whole("/levels/0/requests", &p("num_completed_requests"), 0);
    b.whole("/levels/0/failed", &p("num_error_requests"), 0);
    // The harness's own total and error rate, beside the counts they follow from (R025: real
    // files write `error_rate` 0 beside errors).
    b.whole("/levels/0/total_requests", &p("num_requests"), 0);
    if at(doc, &p("error_rate"))
        .and_then(number)
        .is_some_and(|e| (0.0..=1.0).contains(&e))
    {
        b.real("/levels/0/error_rate", &p("error_rate"), 1.0);
    }
    b.real("/levels/0/duration_s", &p("run_duration"), 1.0);
    b.whole("/levels/0/output_tokens", &s("num_output_tokens", "sum"), 0);
    if completed.is_some_and(|c| c > 0) {
        b.real(
            "/levels/0/throughput_tok_s/aggregate",
            &p("mean_output_throughput_tokens_per_s"),
            1.0,
        );
        for q in ["p50", "p95", "p99"] {
            b.real(&format!("/levels/0/ttft_s/{q}"), &s("ttft", q), secs);
        }
        for q in ["p50", "p95"] {
            b.real(&format!("/levels/0/tpot_ms/{q}"), &s("tpot", q), secs * 1e3);
            b.real(&format!("/levels/0/e2e_s/{q}"), &s("e2e_latency", q), secs);
        }
        b.real(
            "/levels/0/per_user_tok_s/mean",
            &s("output_inference_speed", "mean"),
            1.0,
        );
        b.real(
            "/levels/0/per_user_tok_s/median",
            &s("output_inference_speed", "p50"),
            1.0,
        );
        for (stat, field) in [("min", "min"), ("max", "max"), ("mean", "mean")] {
            b.real(
                &format!("/workload/prompt_tokens/{field}"),
                &s("num_input_tokens", stat),
                1.0,
            );
        }
        samples(&mut b, secs);
    }
    if b.string("/workload/name", &p("scenario")) {
        fixed_output(&mut b, &p("scenario"));
    }
    b.finish()
}

/// Per-request values of the requests that succeeded (`error_code` null).
fn samples(b: &mut Builder<'_>, secs: f64) {
    let src = "/individual_request_metrics";
    let Some(records) = at(b.doc(), src).and_then(Value::as_array) else {
        return;
    };
    let ok: Vec<&Value> = records
        .iter()
        .filter(|r| r.get("error_code").is_none_or(Value::is_null))
        .collect();
    let column = |key: &str, scale: f64| -> Vec<Value> {
        ok.iter()
            .filter_map(|r| r.get(key).and_then(number).filter(|f| *f >= 0.0))
            .map(|f| Value::from(f * scale))
            .collect()
    };
    for (key, canonical, scale) in [
        ("ttft", "/levels/0/samples/ttft_s", secs),
        ("tpot", "/levels/0/samples/tpot_ms", secs * 1e3),
        (
            "output_inference_speed",
            "/levels/0/samples/per_user_tok_s",
            1.0,
        ),
        ("num_output_tokens", "/levels/0/samples/output_tokens", 1.0),
    ] {
        let values = column(key, scale);
        if !values.is_empty() {
            b.put(canonical, values, src);
        }
    }
}

/// A deterministic scenario `D(in,out)` sends fixed lengths: `out` is the output length asked.
fn fixed_output(b: &mut Builder<'_>, src: &str) {
    let Some(scenario) = at(b.doc(), src).and_then(Value::as_str) else {
        return;
    };
    let out = scenario
        .trim()
        .strip_prefix("D(")
        .and_then(|r| r.strip_suffix(')'))
        .and_then(|r| r.split_once(','))
        .and_then(|(_, o)| o.trim().parse::<u64>().ok())
        .filter(|o| *o >= 1);
    if let Some(o) = out {
        b.put("/workload/max_output_tokens", o, src);
    }
}

/// Fills what `experiment_metadata.json` records and the level files do not, pointing into it.
fn metadata(result: &mut Mapped, meta: &Value, path: &str) {
    let mut fill = |canonical: &str, src: &str, value: Option<Value>| {
        let Some(value) = value else { return };
        if result.value.pointer(canonical).is_some() {
            return;
        }
        crate::json::insert_at(&mut result.value, canonical, value);
        result.provenance.insert(
            canonical,
            Provenance::Beside {
                path: path.to_string(),
                pointer: src.to_string(),
            },
        );
    };
    let name = |key: &str| meta.get(key).and_then(text).filter(|s| !is_none(s));
    fill(
        "/harness/version",
        "/benchmark_version",
        name("benchmark_version").map(Value::from),
    );
    fill(
        "/harness/backend",
        "/api_backend",
        name("api_backend").map(Value::from),
    );
    fill(
        "/engine/name",
        "/server_engine",
        name("server_engine").map(|s| Value::from(s.to_ascii_lowercase())),
    );
    fill(
        "/engine/version",
        "/server_version",
        name("server_version").map(Value::from),
    );
    fill(
        "/platform/device/model",
        "/server_gpu_type",
        name("server_gpu_type").map(Value::from),
    );
    fill(
        "/platform/devices_per_node",
        "/server_gpu_count",
        meta.get("server_gpu_count")
            .and_then(count)
            .filter(|n| *n >= 1)
            .map(Value::from),
    );
    if name("api_model_name").is_some() {
        fill(
            "/model/name",
            "/api_model_name",
            name("api_model_name").map(Value::from),
        );
    } else {
        fill("/model/name", "/model", name("model").map(Value::from));
    }
    fill(
        "/workload/tokenizer",
        "/server_model_tokenizer",
        name("server_model_tokenizer").map(Value::from),
    );
    fill(
        "/workload/dataset",
        "/dataset_path",
        name("dataset_path").map(Value::from),
    );
    if let Some(params) = meta
        .get("additional_request_params")
        .and_then(Value::as_object)
    {
        for (k, v) in params {
            let key = ptr("/additional_request_params", &[k]);
            match k.as_str() {
                "temperature" => fill(
                    "/workload/temperature",
                    &key,
                    number(v).filter(|f| *f >= 0.0).map(Value::from),
                ),
                "ignore_eos" => fill("/workload/ignore_eos", &key, v.as_bool().map(Value::from)),
                "stream" => fill("/workload/streaming", &key, v.as_bool().map(Value::from)),
                "max_tokens" => fill(
                    "/workload/max_output_tokens",
                    &key,
                    count(v).filter(|n| *n >= 1).map(Value::from),
                ),
                _ if !v.is_null() => fill(&ptr("/workload/sampling", &[k]), &key, Some(v.clone())),
                _ => {}
            }
        }
    }
}

/// genai-bench writes Python's `None` as a string for an unset path.
fn is_none(s: &str) -> bool {
    s.eq_ignore_ascii_case("none") || s.eq_ignore_ascii_case("null")
}
