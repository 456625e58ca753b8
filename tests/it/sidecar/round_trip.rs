//! The round trip: a skeleton completed with realistic values makes the checklist findings go
//! away, on a file of ours and on a real vLLM file.

use std::collections::BTreeSet;
use std::path::Path;

use serde_json::{Value, json};

use super::{VLLM, diagnostics, run};
use crate::support::realworld;

/// What a team would write for each key a skeleton asks for: realistic values of an H100 box
/// running vLLM, as a launcher script and `docker inspect` would tell them.
#[expect(
    clippy::match_same_arms,
    reason = "one value per key, as a team writes them, equal or not"
)]
fn team_value(key: &str) -> Value {
    match key {
        "platform.host" => json!("gpu-node-07"),
        "platform.description" => json!("1x DGX H100 (8x H100 SXM5 80GB, NVLink), 2 GPUs used"),
        "platform.device.model" => json!("NVIDIA H100 80GB HBM3"),
        "platform.devices_per_node" => json!(2),
        "platform.nodes" => json!(1),
        "engine.name" => json!("vllm"),
        "engine.version" => json!("0.11.0"),
        "engine.image_digest" => json!(format!("sha256:{}", "7c".repeat(32))),
        "engine.serve_command" => json!([
            "vllm",
            "serve",
            "facebook/opt-125m",
            "--max-num-seqs",
            "256",
            "--max-model-len",
            "2048"
        ]),
        "engine.serve_command_source" => json!("process"),
        "engine.speculative.enabled" => json!(false),
        "engine.enforce_eager" => json!(false),
        "engine.kv_cache_dtype" => json!("auto"),
        "engine.max_num_seqs" => json!(256),
        "engine.max_model_len" => json!(2048),
        "engine.max_num_batched_tokens" => json!(8192),
        "engine.enable_prefix_caching" => json!(true),
        "engine.tensor_parallel_size" => json!(2),
        "engine.expert_parallel_size" => json!(1),
        "engine.pipeline_parallel_size" => json!(1),
        "model.precision" => json!("bf16"),
        "model.revision" => json!("27dcfa74d334bc871f3234de431e71c6eeba5dd6"),
        "model.kernel" => json!("flash-attn"),
        "harness.revision" => json!("4c2a9e1f0b7d3a5c8e6f1b2d4a7c9e0f3b5d8a1c"),
        "workload.sampling.top_p" => json!(1.0),
        "workload.sampling.top_k" => json!(-1),
        "workload.temperature" => json!(0),
        "workload.seed" => json!(0),
        "artifacts.power_trace.path" => json!("power/run.csv"),
        "artifacts.power_trace.kind" => json!("device"),
        "artifacts.quality_gate.path" => json!("quality/run.json"),
        "artifacts.quality_gate.passed" => json!(true),
        other => panic!("the skeleton asks for `{other}`, which this test has no value for"),
    }
}

/// Replaces every null of `doc` (but the note) with [`team_value`] of its dotted key.
fn complete(doc: &mut Value, prefix: &str) {
    let Some(map) = doc.as_object_mut() else {
        return;
    };
    for (k, v) in map.iter_mut() {
        if k == "$benchlint" {
            continue;
        }
        let key = format!("{prefix}{k}");
        if v.is_null() {
            *v = team_value(&key);
        } else if v.is_object() {
            complete(v, &format!("{key}."));
        }
    }
}

/// The artifacts the completed sidecar names, beside the result.
fn write_artifacts(dir: &Path) {
    std::fs::create_dir_all(dir.join("power")).unwrap();
    std::fs::create_dir_all(dir.join("quality")).unwrap();
    std::fs::write(dir.join("power/run.csv"), "t_s,power_w\n0,612.5\n1,640.1\n").unwrap();
    std::fs::write(
        dir.join("quality/run.json"),
        r#"{"passed": true, "score": 0.81}"#,
    )
    .unwrap();
}

/// The canonical pointers of the checklist items (M001-M014) `check` reports absent.
fn absent_pointers(diagnostics: &[Value]) -> BTreeSet<String> {
    diagnostics
        .iter()
        .filter(|d| {
            let code = d["code"].as_str().unwrap();
            ("M001"..="M014").contains(&code)
        })
        .filter_map(|d| {
            let m = d["message"].as_str().unwrap();
            let rest = m.strip_prefix("not recorded: ")?;
            let start = rest.rfind("(`")?;
            Some(rest[start + 2..rest.len() - 2].to_string())
        })
        .collect()
}

/// The keys a skeleton lists (missing and derived), as canonical pointers.
fn skeleton_pointers(skeleton: &Value) -> BTreeSet<String> {
    let note = &skeleton["$benchlint"];
    ["missing", "derived"]
        .iter()
        .filter_map(|k| note[k].as_object())
        .flat_map(|m| m.keys())
        .map(|k| format!("/{}", k.replace('.', "/")))
        .collect()
}

/// The keys a skeleton adds only because they go with an item.
const COMPANIONS: [&str; 3] = [
    "/engine/serve_command_source",
    "/artifacts/power_trace/kind",
    "/artifacts/quality_gate/passed",
];

/// The round trip on `file` (a copy in a scratch folder): the skeleton lists exactly what
/// `check` reports absent; completed, it leaves no checklist finding.
fn round_trip(file: &Path) {
    let before = diagnostics(file);
    let absent = absent_pointers(&before);
    assert!(!absent.is_empty(), "the file misses nothing");
    let r = run(&[
        "sidecar",
        "--isolated",
        "--write-beside",
        &file.to_string_lossy(),
    ]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(r.stdout.starts_with("wrote "), "{}", r.stdout);
    let written = file.with_file_name(
        r.stdout
            .split_whitespace()
            .nth(1)
            .map(|p| Path::new(p).file_name().unwrap().to_owned())
            .unwrap(),
    );
    let mut skeleton: Value =
        serde_json::from_str(&std::fs::read_to_string(&written).unwrap()).unwrap();
    let listed: BTreeSet<String> = skeleton_pointers(&skeleton)
        .into_iter()
        .filter(|p| !COMPANIONS.contains(&p.as_str()))
        .collect();
    assert_eq!(
        listed, absent,
        "the skeleton lists exactly what check reports"
    );
    // As written, it is a valid sidecar that supplies only what benchlint filled in.
    let derived: BTreeSet<String> = skeleton["$benchlint"]["derived"]
        .as_object()
        .map(|m| {
            m.keys()
                .map(|k| format!("/{}", k.replace('.', "/")))
                .collect()
        })
        .unwrap_or_default();
    let blank = diagnostics(file);
    assert_eq!(
        absent_pointers(&blank),
        absent.difference(&derived).cloned().collect()
    );
    assert!(
        !blank
            .iter()
            .any(|d| d["code"] == "E003" || d["code"] == "M019"),
        "{blank:#?}"
    );
    complete(&mut skeleton, "");
    std::fs::write(&written, format!("{skeleton:#}\n")).unwrap();
    write_artifacts(file.parent().unwrap());
    let after = diagnostics(file);
    let left: Vec<&Value> = after
        .iter()
        .filter(|d| {
            let code = d["code"].as_str().unwrap();
            ("M001"..="M014").contains(&code) || code == "M019" || code == "E003"
        })
        .collect();
    assert!(left.is_empty(), "{left:#?}");
    // The folder walked as a whole: the completed sidecar is recognised as one, not reported
    // as an input problem.
    let r = run(&[
        "check",
        "--format",
        "json",
        "--isolated",
        &file.parent().unwrap().to_string_lossy(),
    ]);
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    assert!(
        !v["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .any(|d| d["path"].as_str().unwrap().ends_with(".meta.json")
                && d["code"].as_str().unwrap().starts_with('E')),
        "{}",
        r.stdout
    );
}

#[test]
fn round_trip_on_a_file_of_ours() {
    let tmp = tempfile::tempdir().unwrap();
    let file = realworld::copy_to(Path::new(VLLM), tmp.path(), "runs/qwen3-8b-fp8.jsonl");
    round_trip(&file);
}

#[test]
fn round_trip_on_a_real_vllm_file() {
    let Some(real) = realworld::real("vllm/er0080__bench_serve_v0.25.1.json") else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let file = realworld::copy_to(&real, tmp.path(), "runs/bench_serve.json");
    round_trip(&file);
}
