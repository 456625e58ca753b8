//! The fingerprint's contract: what splits a configuration, what does not, and what must be
//! known for results to be pooled at all.

mod defining_fields;

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
