//! What splits a configuration: every defining field changed in turn, a disabled speculative
//! budget that does not, and every field of the complete file classified.

use super::*;

#[test]
fn changing_any_defining_field_splits_them() {
    use serde_json::json;
    let base = complete();
    // One mutation per entry of DEFINING_FIELDS, in the same order: (field, pointer, value).
    let digest = format!("sha256:{}", "0".repeat(64));
    let mutations = [
        ("platform.nodes", "/platform/nodes", json!(4)),
        (
            "platform.devices_per_node",
            "/platform/devices_per_node",
            json!(2),
        ),
        (
            "platform.device.model",
            "/platform/device/model",
            json!("NVIDIA GB300"),
        ),
        ("platform.shared_host", "/platform/shared_host", json!(true)),
        ("harness.name", "/harness/name", json!("guidellm")),
        ("engine.name", "/engine/name", json!("sglang")),
        ("engine.version", "/engine/version", json!("0.11.3")),
        ("engine.image_digest", "/engine/image_digest", json!(digest)),
        (
            "engine.image",
            "/engine/image",
            json!("nvcr.io/nvidia/vllm:25.10-py3"),
        ),
        (
            "engine.speculative.enabled",
            "/engine/speculative/enabled",
            json!(false),
        ),
        (
            "engine.speculative.method",
            "/engine/speculative/method",
            json!("ngram"),
        ),
        (
            "engine.speculative.num_speculative_tokens",
            "/engine/speculative/num_speculative_tokens",
            json!(2),
        ),
        (
            "engine.speculative.draft_model",
            "/engine/speculative/draft_model",
            json!("other/draft"),
        ),
        ("engine.enforce_eager", "/engine/enforce_eager", json!(true)),
        (
            "engine.kv_cache_dtype",
            "/engine/kv_cache_dtype",
            json!("auto"),
        ),
        ("engine.max_num_seqs", "/engine/max_num_seqs", json!(64)),
        (
            "engine.max_model_len",
            "/engine/max_model_len",
            json!(16384),
        ),
        (
            "engine.max_num_batched_tokens",
            "/engine/max_num_batched_tokens",
            json!(4096),
        ),
        (
            "engine.enable_prefix_caching",
            "/engine/enable_prefix_caching",
            json!(true),
        ),
        (
            "engine.tensor_parallel_size",
            "/engine/tensor_parallel_size",
            json!(1),
        ),
        (
            "engine.pipeline_parallel_size",
            "/engine/pipeline_parallel_size",
            json!(2),
        ),
        (
            "engine.expert_parallel_size",
            "/engine/expert_parallel_size",
            json!(2),
        ),
        (
            "engine.data_parallel_size",
            "/engine/data_parallel_size",
            json!(2),
        ),
        (
            "model.name",
            "/model/name",
            json!("nvidia/Qwen3.8-27B-NVFP4"),
        ),
        ("model.revision", "/model/revision", json!("0123456")),
        ("model.precision", "/model/precision", json!("fp8")),
        ("model.kernel", "/model/kernel", json!("cutlass")),
        ("model.thinking", "/model/thinking", json!(true)),
        (
            "workload.name",
            "/workload/name",
            json!("prose-decode-41-v2"),
        ),
        ("workload.kind", "/workload/kind", json!("code")),
        ("workload.prompts", "/workload/prompts", json!("dataset")),
        (
            "workload.dataset",
            "/workload/dataset",
            json!("prompts/other.jsonl"),
        ),
        (
            "workload.prompt_tokens.min",
            "/workload/prompt_tokens/min",
            json!(38),
        ),
        (
            "workload.prompt_tokens.max",
            "/workload/prompt_tokens/max",
            json!(43),
        ),
        (
            "workload.prompt_tokens.mean",
            "/workload/prompt_tokens/mean",
            json!(40.9),
        ),
        (
            "workload.max_output_tokens",
            "/workload/max_output_tokens",
            json!(512),
        ),
        ("workload.ignore_eos", "/workload/ignore_eos", json!(true)),
        ("workload.temperature", "/workload/temperature", json!(0.7)),
        ("workload.sampling", "/workload/sampling/top_p", json!(0.95)),
        (
            "workload.window.mode",
            "/workload/window/mode",
            json!("burst"),
        ),
        (
            "workload.window.ramp_s",
            "/workload/window/ramp_s",
            json!(30),
        ),
        (
            "workload.window.measure_s",
            "/workload/window/measure_s",
            json!(300),
        ),
        (
            "workload.token_count_source",
            "/workload/token_count_source",
            json!("stream-chunks"),
        ),
        (
            "labels",
            "/labels",
            json!({ "deployment": "pd-disaggregated" }),
        ),
    ];
    let names: Vec<&str> = mutations.iter().map(|(n, _, _)| *n).collect();
    assert_eq!(
        names, DEFINING_FIELDS,
        "one mutation per defining field, in order"
    );
    for (name, pointer, value) in mutations {
        // `engine.image` counts only without a digest: both sides are taken without one.
        let mut reference = base.clone();
        if name == "engine.image" {
            remove(&mut reference, "/engine/image_digest");
        }
        let mut changed = reference.clone();
        set(&mut changed, pointer, value);
        let (a, b) = (fp(&reference), fp(&changed));
        assert_ne!(a, b, "changing {name} must split the group");
        assert_ne!(a.short(), b.short(), "{name}: short forms collide");
    }
    // Removing a defining field is a change too (silence is not an answer).
    let mut silent = base.clone();
    remove(&mut silent, "/engine/enforce_eager");
    assert_ne!(fp(&silent), fp(&base));
    // The image tag alone changes nothing while a digest is recorded.
    let mut retagged = base.clone();
    set(&mut retagged, "/engine/image", json!("vllm:latest"));
    assert_eq!(fp(&retagged), fp(&base));
}

#[test]
fn a_disabled_speculative_budget_is_not_part_of_the_configuration() {
    let mut a = complete();
    set(
        &mut a,
        "/engine/speculative",
        serde_json::json!({ "enabled": false }),
    );
    let mut b = complete();
    set(
        &mut b,
        "/engine/speculative",
        serde_json::json!({ "enabled": false, "method": "eagle3", "num_speculative_tokens": 4 }),
    );
    assert_eq!(fp(&a), fp(&b));
    assert!(
        fp(&a).label().contains("no speculation"),
        "{}",
        fp(&a).label()
    );
}

#[test]
fn every_field_of_the_complete_file_is_classified() {
    // A new canonical field must be declared defining or identity.
    fn leaves(v: &Value, prefix: &str, out: &mut Vec<String>) {
        match v {
            Value::Object(map) if !map.is_empty() => {
                for (k, child) in map {
                    let p = if prefix.is_empty() {
                        k.clone()
                    } else {
                        format!("{prefix}.{k}")
                    };
                    leaves(child, &p, out);
                }
            }
            _ => out.push(prefix.to_string()),
        }
    }
    let mut all = Vec::new();
    leaves(&complete(), "", &mut all);
    let covered = |path: &str, list: &[&str]| {
        list.iter()
            .any(|f| path == *f || path.starts_with(&format!("{f}.")))
    };
    for path in all {
        let defining = covered(&path, DEFINING_FIELDS);
        let identity = covered(&path, RUN_FIELDS);
        assert!(
            defining ^ identity,
            "`{path}` must be in exactly one of DEFINING_FIELDS and RUN_FIELDS"
        );
    }
}
