//! The fingerprint's contract: what splits a configuration, what does not, and what must be
//! known for results to be pooled at all.

use serde_json::Value;

use super::*;

const COMPLETE: &str = include_str!("../../testdata/clean/replicated-corpus/complete.json");

pub(super) fn complete() -> Value {
    serde_json::from_str(COMPLETE).unwrap()
}

fn fp(v: &Value) -> Fingerprint {
    Fingerprint::of(&serde_json::from_value(v.clone()).unwrap())
}

fn set(v: &mut Value, pointer: &str, new: Value) {
    let (parent, key) = pointer.rsplit_once('/').unwrap();
    let obj = v.pointer_mut(parent).unwrap().as_object_mut().unwrap();
    obj.insert(key.to_string(), new);
}

fn remove(v: &mut Value, pointer: &str) {
    let (parent, key) = pointer.rsplit_once('/').unwrap();
    v.pointer_mut(parent)
        .unwrap()
        .as_object_mut()
        .unwrap()
        .remove(key);
}

#[test]
fn fnv1a_matches_the_reference_vectors() {
    // Reference values of the FNV specification (64-bit FNV-1a).
    assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
    assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
    assert_eq!(fnv1a(b"foobar"), 0x8594_4171_f739_67e8);
}

#[test]
fn runs_that_differ_only_in_identity_share_a_fingerprint() {
    let a = complete();
    let mut b = complete();
    set(&mut b, "/id", "another-run".into());
    set(&mut b, "/measured_at", "2026-09-25T09:00:00Z".into());
    set(&mut b, "/outcome", "failed".into());
    set(
        &mut b,
        "/launch",
        serde_json::json!({ "id": "other-launch", "started_at": "2026-09-25T08:50:00Z" }),
    );
    set(&mut b, "/repeat", 4.into());
    set(
        &mut b,
        "/harness/revision",
        "0000000000000000000000000000000000000000".into(),
    );
    set(&mut b, "/harness/version", "2.5.0".into());
    set(&mut b, "/harness/dirty", true.into());
    set(&mut b, "/harness/backend", "vllm".into());
    set(&mut b, "/platform/host", "spark-07".into());
    set(
        &mut b,
        "/platform/description",
        "two other boxes of the same kind".into(),
    );
    set(
        &mut b,
        "/platform/clocks_under_load_mhz",
        serde_json::json!([2390, 2411]),
    );
    set(
        &mut b,
        "/platform/parity_check/at",
        "2026-09-25T08:40:00Z".into(),
    );
    set(&mut b, "/platform/fabric/interconnect", "RoCE".into());
    set(
        &mut b,
        "/engine/serve_command_source",
        "container-inspect".into(),
    );
    set(&mut b, "/workload/seed", 99.into());
    set(
        &mut b,
        "/workload/tokenizer",
        "hf-internal-testing/llama-tokenizer".into(),
    );
    set(&mut b, "/workload/level_order", "ascending".into());
    set(&mut b, "/workload/warmup_requests", 16.into());
    set(
        &mut b,
        "/levels",
        serde_json::json!([{ "concurrency": 1, "throughput_tok_s": { "aggregate": 1.0 } }]),
    );
    set(&mut b, "/artifacts", serde_json::json!({}));
    set(&mut b, "/cost", serde_json::json!({ "hourly_usd": 9.0 }));
    set(&mut b, "/notes", "a different note".into());
    // `32` and `32.0`, key order and a disabled budget's leftovers are spellings, not values.
    set(
        &mut b,
        "/workload/sampling",
        serde_json::json!({ "repetition_penalty": 1, "top_k": -1, "top_p": 1.0 }),
    );
    assert_eq!(fp(&a), fp(&b));
    assert_eq!(fp(&a).short(), fp(&b).short());
    assert_eq!(fp(&a).short().len(), 12);
}

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

#[test]
fn identity_fields_must_be_known_and_the_workload_by_any_of_three() {
    let doc = |v: Value| -> ResultDoc { serde_json::from_value(v).unwrap() };
    assert!(unidentified(&doc(complete()), true).is_empty());
    let mut v = complete();
    remove(&mut v, "/model/name");
    set(&mut v, "/model/precision", "unknown".into());
    assert_eq!(
        unidentified(&doc(v), true),
        ["model name", "precision"],
        "absent and placeholder are both unknown"
    );
    // The workload is known by its name, a scenario label or its prompt shape.
    let mut v = complete();
    remove(&mut v, "/workload/name");
    assert!(
        unidentified(&doc(v.clone()), true).is_empty(),
        "prompt shape"
    );
    remove(&mut v, "/workload/prompt_tokens");
    assert_eq!(
        unidentified(&doc(v.clone()), true),
        ["workload (its name, scenario or prompt shape)"]
    );
    assert!(
        unidentified(&doc(v.clone()), false).is_empty(),
        "setup only"
    );
    set(&mut v, "/labels", serde_json::json!({ "scenario": "chat" }));
    assert!(unidentified(&doc(v), true).is_empty(), "scenario label");
}

#[test]
fn unpooled_fingerprints_never_equal_another() {
    let mut v = complete();
    remove(&mut v, "/engine/name");
    let d: ResultDoc = serde_json::from_value(v).unwrap();
    let (a, b) = (
        Fingerprint::unpooled(&d, "a.json#0"),
        Fingerprint::unpooled(&d, "b.json#0"),
    );
    assert_ne!(a, b);
    assert!(!a.is_pooled() && Fingerprint::of(&d).is_pooled());
    assert!(
        a.canonical().ends_with(",\"unpooled\":\"a.json#0\"}"),
        "{}",
        a.canonical()
    );
    assert_eq!(
        a.label(),
        format!("{} · result {}", Fingerprint::of(&d).label(), d.id)
    );
}

#[test]
fn the_setup_fingerprint_ignores_the_workload() {
    let a = complete();
    let mut b = complete();
    set(&mut b, "/workload/kind", "code".into());
    set(&mut b, "/workload/name", "code-decode-56".into());
    let (da, db): (ResultDoc, ResultDoc) = (
        serde_json::from_value(a).unwrap(),
        serde_json::from_value(b).unwrap(),
    );
    assert_ne!(Fingerprint::of(&da), Fingerprint::of(&db));
    assert_eq!(Fingerprint::setup_of(&da), Fingerprint::setup_of(&db));
}

#[test]
fn the_label_names_engine_model_platform_and_workload() {
    let f = fp(&complete());
    assert_eq!(
        f.label(),
        "Qwen3.8-Flash-Next-NVFP4 nvfp4 · vllm 0.11.2 · 2 × NVIDIA GB10 on 2 nodes · eagle3 speculation (4 tokens) · prose-decode-41"
    );
    assert!(
        f.canonical()
            .starts_with("{\"engine.data_parallel_size\":1,"),
        "{}",
        f.canonical()
    );
}
