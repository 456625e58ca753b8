//! The canonical form of a fingerprint: the defining fields a result records, each as canonical
//! JSON text (keys sorted at every depth, numbers written one way whatever their spelling).

use std::collections::BTreeMap;

use serde_json::Value;

use crate::model::ResultDoc;

/// The defining fields present in `doc`, dotted path to canonical JSON text, sorted by path.
pub(super) fn defining_values(
    doc: &ResultDoc,
    with_workload: bool,
) -> BTreeMap<&'static str, String> {
    let mut fields = BTreeMap::new();
    let mut put = |key: &'static str, value: Option<String>| {
        if let Some(v) = value {
            fields.insert(key, v);
        }
    };
    let text = |v: &Option<String>| v.as_deref().map(json_string);
    let int = |v: Option<u64>| v.map(|n| n.to_string());
    let flag = |v: Option<bool>| v.map(|x| x.to_string());
    let num = |v: Option<f64>| v.map(number);
    let word = |v: Option<String>| v.as_deref().map(json_string);

    if let Some(p) = &doc.platform {
        put("platform.nodes", int(p.nodes));
        put("platform.devices_per_node", int(p.devices_per_node));
        put(
            "platform.device.model",
            p.device.as_ref().and_then(|d| text(&d.model)),
        );
        put("platform.shared_host", flag(p.shared_host));
    }
    if let Some(h) = &doc.harness {
        put("harness.name", text(&h.name));
    }
    if let Some(en) = &doc.engine {
        put("engine.name", text(&en.name));
        put("engine.version", text(&en.version));
        put("engine.image_digest", text(&en.image_digest));
        if en.image_digest.is_none() {
            put("engine.image", text(&en.image));
        }
        if let Some(sp) = &en.speculative {
            put("engine.speculative.enabled", flag(sp.enabled));
            if sp.enabled != Some(false) {
                put("engine.speculative.method", text(&sp.method));
                put(
                    "engine.speculative.num_speculative_tokens",
                    int(sp.num_speculative_tokens),
                );
                put("engine.speculative.draft_model", text(&sp.draft_model));
            }
        }
        put("engine.enforce_eager", flag(en.enforce_eager));
        put("engine.kv_cache_dtype", text(&en.kv_cache_dtype));
        put("engine.max_num_seqs", int(en.max_num_seqs));
        put("engine.max_model_len", int(en.max_model_len));
        put(
            "engine.max_num_batched_tokens",
            int(en.max_num_batched_tokens),
        );
        put(
            "engine.enable_prefix_caching",
            flag(en.enable_prefix_caching),
        );
        put("engine.tensor_parallel_size", int(en.tensor_parallel_size));
        put(
            "engine.pipeline_parallel_size",
            int(en.pipeline_parallel_size),
        );
        put("engine.expert_parallel_size", int(en.expert_parallel_size));
        put("engine.data_parallel_size", int(en.data_parallel_size));
    }
    if let Some(mo) = &doc.model {
        put("model.name", text(&mo.name));
        put("model.revision", text(&mo.revision));
        put("model.precision", text(&mo.precision));
        put("model.kernel", text(&mo.kernel));
        put("model.thinking", flag(mo.thinking));
    }
    // Labels may name the deployment as well as the workload: they belong to the setup too.
    put(
        "labels",
        doc.labels.as_ref().filter(|l| !l.is_empty()).map(|map| {
            let v: serde_json::Map<String, Value> = map
                .iter()
                .map(|(k, v)| (k.clone(), Value::from(v.as_str())))
                .collect();
            canonical_json(&Value::Object(v))
        }),
    );
    if !with_workload {
        return fields;
    }
    if let Some(w) = &doc.workload {
        put("workload.name", text(&w.name));
        put("workload.kind", word(w.kind.map(enum_str)));
        put("workload.prompts", word(w.prompts.map(enum_str)));
        put("workload.dataset", text(&w.dataset));
        if let Some(pt) = &w.prompt_tokens {
            put("workload.prompt_tokens.min", num(pt.min));
            put("workload.prompt_tokens.max", num(pt.max));
            put("workload.prompt_tokens.mean", num(pt.mean));
        }
        put("workload.max_output_tokens", int(w.max_output_tokens));
        put("workload.ignore_eos", flag(w.ignore_eos));
        put("workload.temperature", num(w.temperature));
        put(
            "workload.sampling",
            w.sampling.as_ref().map(|map| {
                let v: serde_json::Map<String, Value> = map.clone().into_iter().collect();
                canonical_json(&Value::Object(v))
            }),
        );
        if let Some(win) = &w.window {
            put("workload.window.mode", word(win.mode.map(enum_str)));
            put("workload.window.ramp_s", num(win.ramp_s));
            put("workload.window.measure_s", num(win.measure_s));
        }
        put(
            "workload.token_count_source",
            word(w.token_count_source.map(enum_str)),
        );
    }
    fields
}

/// The kebab-case spelling of a serialisable unit enum (`"stream-chunks"`).
fn enum_str<T: serde::Serialize>(v: T) -> String {
    match serde_json::to_value(v) {
        Ok(Value::String(s)) => s,
        _ => "?".to_string(),
    }
}

/// The spelling of a workload kind.
pub(super) fn kind_str(kind: crate::model::WorkloadKind) -> &'static str {
    use crate::model::WorkloadKind;
    match kind {
        WorkloadKind::Code => "code",
        WorkloadKind::Prose => "prose",
        WorkloadKind::Mixed => "mixed",
        WorkloadKind::Other => "other",
    }
}

/// A JSON string literal.
pub(super) fn json_string(s: &str) -> String {
    serde_json::to_string(s).expect("a string serialises")
}

/// A number written one way whatever its JSON spelling: whole values as integers (`32.0` is
/// `32`), others in Rust's shortest round-trip form.
fn number(x: f64) -> String {
    if x == 0.0 {
        // -0.0 and 0.0 are one value.
        return "0".to_string();
    }
    #[expect(
        clippy::cast_possible_truncation,
        reason = "checked whole and within ±2^53"
    )]
    if x.fract() == 0.0 && x.abs() < 9.0e15 {
        return (x as i64).to_string();
    }
    format!("{x}")
}

/// JSON with object keys sorted at every depth and numbers as [`number`] writes them.
fn canonical_json(v: &Value) -> String {
    match v {
        Value::Null | Value::Bool(_) | Value::String(_) => v.to_string(),
        Value::Number(n) => match (n.as_u64(), n.as_i64(), n.as_f64()) {
            (Some(u), _, _) => u.to_string(),
            (_, Some(i), _) => i.to_string(),
            (_, _, Some(f)) => number(f),
            _ => n.to_string(),
        },
        Value::Array(items) => {
            let inner: Vec<String> = items.iter().map(canonical_json).collect();
            format!("[{}]", inner.join(","))
        }
        Value::Object(map) => {
            let sorted: BTreeMap<&String, &Value> = map.iter().collect();
            let inner: Vec<String> = sorted
                .into_iter()
                .map(|(k, v)| format!("{}:{}", json_string(k), canonical_json(v)))
                .collect();
            format!("{{{}}}", inner.join(","))
        }
    }
}
