//! Rate-driven ladders in `benchlint regress`: inference-perf stages, GuideLLM constant rates
//! and an MLPerf Server run, read from their own formats with sidecars naming the launches,
//! matched by request rate like concurrency ladders; a GuideLLM sweep, whose rates the harness
//! chose, NOT COMPARABLE level by level.

use std::path::Path;

use serde_json::{Value, json};

use crate::support::realworld::sidecar;
use crate::support::regress::json_of;

/// A side of `launches` launches, each a copy of `files` (relative to `src`) with a sidecar
/// naming the launch, the engine version and the identity the harness file does not record.
fn rate_side(dir: &Path, src: &Path, files: &[&str], version: &str, identity: &Value) {
    for launch in ["l1", "l2"] {
        for f in files {
            let to = dir.join(launch).join(f);
            std::fs::create_dir_all(to.parent().unwrap()).unwrap();
            std::fs::copy(src.join(f), &to).unwrap();
        }
        let mut meta = identity.clone();
        meta["launch"] = json!({ "id": format!("{version}-{launch}") });
        meta["engine"]["version"] = json!(version);
        sidecar(&dir.join(launch).join(files[0]), &meta);
    }
}

fn rate_ladder(src: &str, files: &[&str], identity: &Value) -> Value {
    let tmp = tempfile::tempdir().unwrap();
    let (b, h) = (tmp.path().join("b"), tmp.path().join("h"));
    rate_side(&b, Path::new(src), files, "0.11.0", identity);
    rate_side(&h, Path::new(src), files, "0.11.1", identity);
    let (v, code) = json_of(&[b.to_str().unwrap(), h.to_str().unwrap()]);
    assert_eq!(code, 0, "{v}");
    v
}

fn rate_levels(v: &Value) -> Vec<(f64, String)> {
    let mut out: Vec<(f64, String)> = v["cells"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["metric"] == "aggregate_tok_s")
        .map(|c| {
            assert_eq!(c["level"]["kind"], "request_rate", "{c}");
            (
                c["level"]["value"].as_f64().unwrap(),
                c["verdict"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    out.sort_by(|a, b| a.0.total_cmp(&b.0));
    out
}

#[test]
fn rate_ladders_match_like_concurrency_ladders() {
    let id = json!({ "engine": { "name": "vllm" },
                     "platform": { "device": { "model": "NVIDIA L40S" } },
                     "model": { "precision": "bf16" } });
    // inference-perf: one run folder, two stages at 2 and 8 req/s.
    let v = rate_ladder(
        "testdata/adapters/inference-perf/older-stages-rates-in-config",
        &[
            "stage_0_lifecycle_metrics.json",
            "config.yaml",
            "stage_1_lifecycle_metrics.json",
            "summary_lifecycle_metrics.json",
        ],
        &id,
    );
    // The same launches on both sides: equivalent at 2 req/s, exactly; the 8 req/s stage
    // had failed requests, so its runs do not enter the cell (R006) and nothing is left.
    assert_eq!(
        rate_levels(&v),
        vec![(2.0, "equivalent".into()), (8.0, "not_decidable".into())]
    );
    let eight = v["cells"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["level"]["value"] == 8.0)
        .unwrap();
    let why = eight["reasons"][0].as_str().unwrap();
    assert!(
        why.contains("2 runs of BASE left out: failed requests (R006)"),
        "{why}"
    );
    // GuideLLM at fixed constant rates.
    let mut gid = id.clone();
    gid["workload"] = json!({ "name": "chat-114" });
    let v = rate_ladder("testdata/regress/rates", &["guidellm-constant.json"], &gid);
    assert_eq!(
        rate_levels(&v),
        vec![(2.0, "equivalent".into()), (4.0, "equivalent".into())]
    );
    // MLPerf Server at its target rate.
    let mut mid = id.clone();
    mid["model"]["name"] = json!("meta-llama/Llama-2-70b-chat-hf");
    mid["workload"] = json!({ "name": "open-orca" });
    let v = rate_ladder(
        "testdata/regress/rates/mlperf-server",
        &["mlperf_log_summary.txt"],
        &mid,
    );
    let levels = rate_levels(&v);
    assert_eq!(levels.len(), 1, "{levels:?}");
    assert_eq!(levels[0].1, "equivalent");
}

#[test]
fn a_guidellm_sweep_is_not_comparable_level_by_level() {
    let tmp = tempfile::tempdir().unwrap();
    let (b, h) = (tmp.path().join("b"), tmp.path().join("h"));
    let id = json!({ "engine": { "name": "vllm" },
                     "platform": { "device": { "model": "NVIDIA L40S" } },
                     "model": { "precision": "bf16" }, "workload": { "name": "chat-114" } });
    let src = Path::new("testdata/regress/rates");
    for (dir, file, version) in [
        (&b, "guidellm-sweep-base.json", "0.11.0"),
        (&h, "guidellm-sweep-head.json", "0.11.1"),
    ] {
        for launch in ["l1", "l2"] {
            let to = dir.join(launch).join("sweep.json");
            std::fs::create_dir_all(to.parent().unwrap()).unwrap();
            std::fs::copy(src.join(file), &to).unwrap();
            let mut meta = id.clone();
            meta["launch"] = json!({ "id": format!("{version}-{launch}") });
            meta["engine"]["version"] = json!(version);
            sidecar(&to, &meta);
        }
    }
    let (v, code) = json_of(&[b.to_str().unwrap(), h.to_str().unwrap()]);
    assert_eq!(code, 0, "{v}");
    let cells = v["cells"].as_array().unwrap();
    let finite: Vec<&Value> = cells
        .iter()
        .filter(|c| c["level"]["value"].is_f64())
        .collect();
    // 3.1 and 5.7 req/s on BASE, 3.3 and 6.0 on HEAD: none of them is matched.
    assert!(!finite.is_empty());
    for c in &finite {
        assert_eq!(c["verdict"], "not_comparable", "{c}");
        assert!(
            c["reasons"][0]
                .as_str()
                .unwrap()
                .contains("GuideLLM sweep chose this rate")
        );
    }
    // The synchronous and throughput runs are fixed levels: compared.
    assert!(
        cells
            .iter()
            .filter(|c| !c["level"]["value"].is_f64())
            .all(|c| c["verdict"] == "equivalent")
    );
}
