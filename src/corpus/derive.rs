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

/// Engines whose images are published under their own name (`vllm/vllm-openai`,
/// `lmsysorg/sglang`, `nvcr.io/nvidia/tensorrt-llm/release`, ...).
const ENGINE_IMAGES: [&str; 6] = [
    "vllm",
    "sglang",
    "tensorrt-llm",
    "trtllm",
    "lmdeploy",
    "tgi",
];

/// The version an image tag names (`vllm/vllm-openai-rocm:v0.21.0` → `0.21.0`,
/// `lmsysorg/sglang:v0.5.4-rocm700` → `0.5.4`, `...:0.4.6.post2-cu124` → `0.4.6.post2`),
/// when the image is the engine's own (its repository names the engine: `engine` when the
/// result records one, else a known engine) and the tag starts with a dotted version. A tag
/// that names no version (`latest`, `nightly`, a date) and a team's own image (whose version
/// is the image's, not the engine's) name none.
pub fn version_from_image(image: &str, engine: Option<&str>) -> Option<String> {
    let image = image.split('@').next().unwrap_or(image).trim();
    let (repo, tag) = image.rsplit_once(':')?;
    if tag.contains('/') {
        return None; // a registry port (`host:5000/name`), not a tag
    }
    let repo = repo.to_ascii_lowercase();
    let names_engine = match engine {
        Some(e) => {
            let e = e.to_ascii_lowercase();
            repo.contains(&e) || (e == "tensorrt-llm" && repo.contains("trtllm"))
        }
        None => ENGINE_IMAGES.iter().any(|e| repo.contains(e)),
    };
    // NVIDIA's NGC containers (`nvcr.io/nvidia/vllm:25.09-py3`) are tagged by container
    // release (year.month), not by engine version; TensorRT-LLM's release image is the
    // exception, tagged by its version.
    let ngc_release = repo.starts_with("nvcr.io/nvidia/") && !repo.contains("tensorrt-llm");
    if !names_engine || ngc_release {
        return None;
    }
    let tag = tag.strip_prefix(['v', 'V']).unwrap_or(tag);
    let version: String = tag
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '.')
        .collect();
    let mut parts = version.split('.');
    let major_ok = parts
        .next()
        .is_some_and(|m| !m.is_empty() && m.len() <= 4 && m.bytes().all(|b| b.is_ascii_digit()));
    let minor_ok = parts
        .next()
        .is_some_and(|m| m.bytes().next().is_some_and(|b| b.is_ascii_digit()));
    (major_ok && minor_ok).then_some(version)
}

/// Fills an absent `engine.version` from a versioned tag of `engine.image`
/// ([`version_from_image`]), recorded as derived from the image (DESIGN.md conventions: a
/// tag that names a version records the engine version; it is still not a digest).
pub fn derive_version_from_image(value: &mut Value, provenance: &mut ProvenanceMap) {
    let Some(engine) = value.get_mut("engine").and_then(Value::as_object_mut) else {
        return;
    };
    if engine.get("version").is_some_and(|v| !v.is_null()) {
        return;
    }
    let Some(image) = engine.get("image").and_then(Value::as_str) else {
        return;
    };
    let Some(version) = version_from_image(image, engine.get("name").and_then(Value::as_str))
    else {
        return;
    };
    let from = format!("the version in the image tag `{image}`");
    engine.insert("version".into(), Value::String(version));
    provenance.insert(
        "/engine/version",
        Provenance::Derived {
            from,
            pointer: "/engine/image".into(),
        },
    );
}

#[cfg(test)]
mod tests {
    use super::version_from_image;

    #[test]
    fn a_versioned_tag_of_the_engine_image_names_the_version() {
        let cases = [
            ("vllm/vllm-openai-rocm:v0.21.0", None, Some("0.21.0")),
            ("vllm/vllm-openai:v0.22.0", Some("vllm"), Some("0.22.0")),
            (
                "lmsysorg/sglang:v0.5.4-rocm700-mi35x",
                Some("sglang"),
                Some("0.5.4"),
            ),
            (
                "lmsysorg/sglang:0.4.6.post2-cu124",
                None,
                Some("0.4.6.post2"),
            ),
            (
                "nvcr.io/nvidia/tensorrt-llm/release:1.2.0rc2",
                Some("tensorrt-llm"),
                Some("1.2.0rc2"),
            ),
            ("vllm/vllm-openai:latest", None, None),
            ("vllm/vllm-openai:nightly", None, None),
            ("vllm/vllm-openai@sha256:0123", None, None),
            ("myorg/infer:1.2.3", None, None),
            ("myorg/infer:1.2.3", Some("vllm"), None),
            ("registry:5000/vllm", None, None),
            ("rocm/vllm:rocm6.3.1_vllm_0.8.3", None, None),
            ("vllm/vllm-openai:20260101", None, None),
            ("nvcr.io/nvidia/vllm:25.09-py3", Some("vllm"), None),
        ];
        for (image, engine, want) in cases {
            assert_eq!(
                version_from_image(image, engine).as_deref(),
                want,
                "{image} ({engine:?})"
            );
        }
    }
}
