//! What benchlint says about the corpora people actually have is true: unknown configurations
//! are pooled with nothing, labels keep deployments apart, a copied run counts once (S010), a
//! server that served nothing is reported as such and nothing else, and the false alarms real
//! files exposed stay gone. Each verdict is shown on the real file it came from
//! (`../shared/realworld`, skipped with a printed reason when absent; copied into a scratch
//! folder when a sidecar or a second copy is needed, never into the project) and on a fixture of
//! our own that always runs.

use std::path::Path;

use benchlint::corpus::Options;
use benchlint::engine;
use serde_json::json;

use crate::support::realworld;

use realworld::{codes, copy_to, findings, json_of, l40s_identity, real, sidecar, with_code};

const REPLICATION: [&str; 7] = ["S001", "S002", "S003", "S004", "S005", "S006", "S007"];

// ------------------------------------------------------------- unknown is never equal to unknown

#[test]
fn real_results_that_do_not_say_what_they_measured_are_pooled_with_nothing() {
    let Some(root) = real("") else { return };
    let all = findings(&[&root]);
    let judged: Vec<String> = all
        .iter()
        .filter(|f| REPLICATION.contains(&f.rule.code))
        // The one file that records them all (the kimik2.5 InferenceX sweep: engine, device
        // label, precision, model and scenario in every row) is judged, as it should be.
        .filter(|f| {
            !f.primary
                .path
                .raw()
                .contains("kimik2.5-fp4-b200-vllm-agentic-lmcache")
        })
        .map(|f| format!("{} {} {}", f.rule.code, f.primary.path.raw(), f.message))
        .collect();
    // No other real file records engine, device, precision and model together: nothing else
    // is judged.
    assert!(judged.is_empty(), "{judged:#?}");
    // `summary` prints no interval over them: each is one run of its own configuration.
    let Some(vllm) = real("vllm") else { return };
    let summary = json_of(&["summary"], &[&vllm]);
    let configs = summary["configurations"].as_array().unwrap();
    // Every successful run is a configuration of its own, however many the folder holds.
    let loaded = benchlint::engine::check(
        std::slice::from_ref(&vllm),
        &benchlint::corpus::Options::default(),
    );
    let ok = loaded
        .corpus
        .results
        .iter()
        .filter(|r| r.doc.outcome == benchlint::model::Outcome::Ok)
        .count();
    assert!(ok >= 11, "the real vLLM runs are read: {ok}");
    assert_eq!(configs.len(), ok, "one configuration per successful run");
    for c in configs {
        assert!(!c["unidentified"].as_array().unwrap().is_empty(), "{c}");
        assert_eq!(c["runs"], 1, "{c}");
        for level in c["levels"].as_array().unwrap() {
            assert!(level["ci95"].is_null(), "{c}");
        }
    }
}

#[test]
fn two_models_without_names_are_not_one_configuration() {
    // Seed 004's GB300 pair (740.4 and 1,080.1 tok/s at 8 streams) with the model name removed
    // from both files: the 31% spread is not a CV of anything.
    let unknown = Path::new("testdata/rules/S005-high-variation/pass/model-name-unknown-on-both");
    let all = findings(&[unknown]);
    assert!(
        codes(&all).iter().all(|c| !REPLICATION.contains(c)),
        "{:?}",
        codes(&all)
    );
    assert!(with_code(&all, "M001").len() + with_code(&all, "M002").len() < all.len());
    let summary = json_of(&["summary"], &[unknown]);
    let configs = summary["configurations"].as_array().unwrap();
    assert_eq!(configs.len(), 2);
    for c in configs {
        assert_eq!(c["unidentified"], json!(["model name"]));
        assert!(
            c["levels"]
                .as_array()
                .unwrap()
                .iter()
                .all(|l| l["ci95"].is_null())
        );
    }
    // The same two files naming their model are one configuration, and S005 judges it.
    let named = Path::new("testdata/rules/S005-high-variation/fail/gb300-8-streams");
    assert_eq!(with_code(&findings(&[named]), "S005").len(), 1);
    let summary = json_of(&["summary"], &[named]);
    assert_eq!(summary["configurations"].as_array().unwrap().len(), 1);
}

#[test]
fn metadata_labels_keep_real_deployments_apart() {
    let Some(file) = real("vllm/nerdalert-vllm-bench-automation__results.jsonl") else {
        return;
    };
    // Identified by a sidecar, the nine runs are three deployments, each a ladder of three rates:
    // the three `inf` runs (8,321, 10,145 and 11,011 tok/s) are not one level with a 14% CV.
    let dir = tempfile::tempdir().unwrap();
    let copy = copy_to(&file, dir.path(), "results.jsonl");
    sidecar(&copy, &l40s_identity());
    let all = findings(&[dir.path()]);
    assert!(
        with_code(&all, "S005").is_empty(),
        "{:?}",
        with_code(&all, "S005")
    );
    let summary = json_of(&["summary"], &[dir.path()]);
    let configs = summary["configurations"].as_array().unwrap();
    assert_eq!(configs.len(), 3, "{summary:#}");
    for c in configs {
        assert_eq!(c["unidentified"], json!([]), "{c}");
        let levels = c["levels"].as_array().unwrap();
        assert_eq!(levels.len(), 3, "{c}");
        assert!(levels.iter().all(|l| l["n"] == 1), "{c}");
    }
    // The labels are in the canonical result, where the fingerprint reads them.
    let checked = engine::check(&[copy], &Options::default());
    let labels = checked.corpus.results[0].doc.labels.clone().unwrap();
    assert_eq!(labels["deployment"], "no-features");
    assert_eq!(labels["gateway"], "kgateway");
}

#[test]
fn labelled_deployments_are_two_configurations() {
    let apart = Path::new("testdata/rules/S005-high-variation/pass/deployments-labelled-apart");
    let all = findings(&[apart]);
    assert!(with_code(&all, "S005").is_empty());
    let summary = json_of(&["summary"], &[apart]);
    assert_eq!(summary["configurations"].as_array().unwrap().len(), 2);
}

// ------------------------------------------------------------------------- the same run twice

#[test]
fn a_real_run_folder_copied_into_two_sweeps_counts_once() {
    let Some(run) = real(
        "vllm/er0080__vllm_sweep_v0.25.1__SERVE--max_num_seqs=4-BENCH--max_concurrency=2-num_prompts=8__run=0.json",
    ) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let folder = "SERVE--max_num_seqs=4-BENCH--max_concurrency=2-num_prompts=8";
    let a = copy_to(&run, dir.path(), &format!("sweep-1/{folder}/run=0.json"));
    let b = copy_to(&run, dir.path(), &format!("sweep-2/{folder}/run=0.json"));
    let all = findings(&[dir.path()]);
    let s010 = with_code(&all, "S010");
    assert_eq!(s010.len(), 1, "{s010:?}");
    assert!(
        s010[0].primary.path.raw().contains("sweep-2"),
        "{}",
        s010[0].primary.path.raw()
    );
    assert!(
        s010[0].message.contains("2026-08-18T"),
        "{}",
        s010[0].message
    );
    assert!(s010[0].related[0].path.raw().contains("sweep-1"));
    // Identified, the configuration has one run, not two.
    let identity = json!({ "engine": { "name": "vllm" }, "platform": { "device": { "model": "NVIDIA A10G" } },
                           "model": { "precision": "fp16" } });
    sidecar(&a, &identity);
    sidecar(&b, &identity);
    let all = findings(&[dir.path()]);
    assert_eq!(with_code(&all, "S010").len(), 1);
    let s002 = with_code(&all, "S002");
    assert_eq!(s002.len(), 1);
    assert!(
        s002[0].message.contains("has 1 run over"),
        "{}",
        s002[0].message
    );
    let summary = json_of(&["summary"], &[dir.path()]);
    assert_eq!(summary["configurations"][0]["levels"][0]["n"], 1);
}

#[test]
fn a_copied_result_counts_once_in_its_configuration() {
    // Seed 004's speculative GB300 run, kept in two folders: S001 counts one run, not two.
    let copies = Path::new("testdata/rules/S010-duplicate-run/fail/result-kept-in-two-folders");
    let all = findings(&[copies]);
    assert_eq!(with_code(&all, "S010").len(), 1);
    let s001 = with_code(&all, "S001");
    assert_eq!(s001.len(), 1);
    assert!(
        s001[0].message.contains("has 1 run on"),
        "{}",
        s001[0].message
    );
    // Two runs of one configuration, each measured, are two.
    let two = Path::new("testdata/rules/S010-duplicate-run/pass/two-runs-of-one-configuration");
    assert!(with_code(&findings(&[two]), "S010").is_empty());
}
