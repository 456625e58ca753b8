//! Values derived from a verbatim serve command (read from the process or the container):
//! a setting the command names fills the canonical field when the file does not record it.
//! A retyped command derives nothing, because it records what someone meant to run.

use serde_json::{Map, Value};

use crate::model::{Provenance, ProvenanceMap};
use crate::serve_command::ServeSettings;

/// Fills absent engine settings of `value` from `serve`, recording them as derived.
///
/// `argv_form` says whether the command is an argv array, so the derivation can point at the
/// exact argument.
pub fn derive_from_command(
    value: &mut Value,
    serve: &ServeSettings,
    argv_form: bool,
    provenance: &mut ProvenanceMap,
) {
    derive_into(value, serve, argv_form, Some(provenance));
}

/// Fills absent engine settings of `value` from `serve`, without recording provenance.
pub fn derive_settings(value: &mut Value, serve: &ServeSettings, argv_form: bool) {
    derive_into(value, serve, argv_form, None);
}

fn derive_into(
    value: &mut Value,
    serve: &ServeSettings,
    argv_form: bool,
    mut provenance: Option<&mut ProvenanceMap>,
) {
    let source = |i: usize| {
        if argv_form {
            (
                format!("serve command argument {i}"),
                format!("/engine/serve_command/{i}"),
            )
        } else {
            (
                "the serve command".to_string(),
                "/engine/serve_command".to_string(),
            )
        }
    };
    let mut fills: Vec<(&str, Value, usize)> = Vec::new();
    if let Some(f) = &serve.speculative {
        let mut spec = Map::new();
        spec.insert("enabled".into(), Value::from(f.value.enabled));
        if let Some(m) = &f.value.method {
            spec.insert("method".into(), Value::from(m.clone()));
        }
        if let Some(n) = f.value.num_speculative_tokens {
            spec.insert("num_speculative_tokens".into(), Value::from(n));
        }
        if let Some(d) = &f.value.draft_model {
            spec.insert("draft_model".into(), Value::from(d.clone()));
        }
        fills.push(("speculative", Value::Object(spec), f.arg_index));
    }
    if let Some(f) = &serve.enforce_eager {
        fills.push(("enforce_eager", Value::from(f.value), f.arg_index));
    }
    if let Some(f) = &serve.kv_cache_dtype {
        fills.push(("kv_cache_dtype", Value::from(f.value.clone()), f.arg_index));
    }
    if let Some(f) = &serve.enable_prefix_caching {
        fills.push(("enable_prefix_caching", Value::from(f.value), f.arg_index));
    }
    for (key, found) in [
        ("max_num_seqs", &serve.max_num_seqs),
        ("max_model_len", &serve.max_model_len),
        ("max_num_batched_tokens", &serve.max_num_batched_tokens),
        ("tensor_parallel_size", &serve.tensor_parallel_size),
        ("pipeline_parallel_size", &serve.pipeline_parallel_size),
        ("expert_parallel_size", &serve.expert_parallel_size),
        ("data_parallel_size", &serve.data_parallel_size),
    ] {
        if let Some(f) = found {
            fills.push((key, Value::from(f.value), f.arg_index));
        }
    }
    let Some(root) = value.as_object_mut() else {
        return;
    };
    let engine = root
        .entry("engine")
        .or_insert_with(|| Value::Object(Map::new()));
    let Some(engine) = engine.as_object_mut() else {
        return;
    };
    for (key, v, arg) in fills {
        if engine.get(key).is_some_and(|e| !e.is_null()) {
            continue;
        }
        engine.insert(key.to_string(), v);
        if let Some(p) = provenance.as_deref_mut() {
            let (from, pointer) = source(arg);
            p.insert(
                format!("/engine/{key}"),
                Provenance::Derived { from, pointer },
            );
        }
    }
}
