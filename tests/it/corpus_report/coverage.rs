//! The checklist coverage states (recorded, derived, sidecar, not usable, missing, not asked)
//! on files written here, as the configuration and the run folder decide them.

use serde_json::Value;

use super::{complete, remove, report_json, run, state, write};

/// Every state of the matrix, each where a user would expect it.
#[test]
fn coverage_states() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let mut n = 0;
    let mut variant = |name: &str, edit: &dyn Fn(&mut Value)| {
        let mut doc = complete();
        n += 1;
        doc["id"] = Value::from(format!("variant-{n}"));
        edit(&mut doc);
        write(dir, name, &doc);
    };
    variant("full.json", &|_| {});
    // The command was read from the process and names --max-num-seqs: derived.
    variant("derived.json", &|d| remove(d, "/engine/max_num_seqs"));
    variant("sidecar.json", &|d| remove(d, "/engine/enforce_eager"));
    variant("tag.json", &|d| {
        d["engine"]["image_digest"] = Value::from("nvcr.io/nvidia/vllm:25.09-py3");
    });
    variant("bare.json", &|d| {
        remove(d, "/platform/host");
        remove(d, "/model/kernel");
    });
    variant("single-node.json", &|d| {
        d["platform"]["nodes"] = Value::from(1);
        remove(d, "/platform/fabric");
        remove(d, "/platform/parity_check");
    });
    write(
        dir,
        "sidecar.meta.json",
        &serde_json::json!({ "engine": { "enforce_eager": false } }),
    );
    let root = dir.to_str().unwrap();
    let v = report_json(root);
    assert_eq!(state(&v, "/full.json", "engine.max_num_seqs"), "recorded");
    assert_eq!(state(&v, "/derived.json", "engine.max_num_seqs"), "derived");
    assert_eq!(
        state(&v, "/sidecar.json", "engine.enforce_eager"),
        "sidecar"
    );
    assert_eq!(state(&v, "/tag.json", "engine.image_digest"), "unusable");
    assert_eq!(state(&v, "/bare.json", "platform.host"), "missing");
    assert_eq!(state(&v, "/bare.json", "model.kernel"), "missing");
    assert_eq!(
        state(&v, "/single-node.json", "platform.fabric.interconnect"),
        "not-applicable"
    );
    assert_eq!(
        state(&v, "/single-node.json", "platform.parity_check.at"),
        "not-applicable"
    );
    let files = v["corpus"]["checklist"]["files"].as_array().unwrap();
    // Most owed first: the bare file owes two fields.
    assert!(files[0]["path"].as_str().unwrap().ends_with("/bare.json"));
    assert_eq!(files[0]["owed"], 2);
    let (_, md) = run(&["audit", root]);
    assert!(md.contains("| `bare.json` | 2 of 35 |"), "{md}");
    assert!(
        md.contains("- `bare.json` (1 result): lacks M001 `platform.host`; M008 `model.kernel`."),
        "{md}"
    );
    assert!(
        md.contains("- `tag.json` (1 result): lacks M002 `engine.image_digest` (not usable)."),
        "{md}"
    );
    assert!(md.contains("(paths below are relative to it)"));
}

/// The configuration decides the columns: a rule turned off has none, a rule turned off for a
/// file leaves its fields not asked there.
#[test]
fn coverage_follows_the_configuration() {
    let tmp = tempfile::tempdir().unwrap();
    for name in ["old.json", "new.json"] {
        let mut doc = complete();
        doc["id"] = Value::from(name);
        remove(&mut doc, "/platform/host");
        write(tmp.path(), name, &doc);
    }
    std::fs::write(
        tmp.path().join("benchlint.toml"),
        "ignore = [\"M014\"]\n\n[per-file-ignores]\n\"old.json\" = [\"M001\"]\n",
    )
    .unwrap();
    let v = report_json(tmp.path().to_str().unwrap());
    let items = v["corpus"]["checklist"]["items"].as_array().unwrap();
    assert!(items.iter().all(|i| i["code"] != "M014"));
    assert_eq!(items.len(), 33);
    assert_eq!(state(&v, "/old.json", "platform.host"), "not-applicable");
    assert_eq!(state(&v, "/new.json", "platform.host"), "missing");
    assert!(
        v["corpus"]["rules"]
            .as_array()
            .unwrap()
            .iter()
            .all(|r| r["code"] != "M014")
    );
}

/// Run folders: what the engine's log and the launch command supply is marked as such.
#[test]
fn coverage_from_the_run_folder() {
    let v = report_json("testdata/adapters/run-folder/vllm-aiperf");
    let file = "aiperf_artifacts/profile_export_aiperf.json";
    assert_eq!(state(&v, file, "engine.version"), "run-folder");
    assert_eq!(state(&v, file, "engine.serve_command"), "run-folder");
    assert_eq!(state(&v, file, "platform.host"), "missing");
}
