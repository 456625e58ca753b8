//! The skeleton of each file's sidecar (snapshots): a harness file, a file of several results,
//! one skeleton printed with what was skipped named, every line of a long JSON Lines file.

use std::path::Path;

use serde_json::{Value, json};

use super::{CANONICAL, VLLM, run, snapshot};

#[test]
fn skeleton_of_a_harness_file() {
    let r = run(&["sidecar", "--isolated", VLLM]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    snapshot("vllm_skeleton", &r.stdout);
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(
        v["model"]["precision"],
        json!("fp8"),
        "from the model's name"
    );
    assert_eq!(
        v["platform"]["devices_per_node"],
        json!(2),
        "from the tensor parallel size the file's metadata records"
    );
    assert!(v["platform"]["host"].is_null());
}

#[test]
fn skeleton_of_a_file_of_several_results() {
    let r = run(&["sidecar", "--isolated", CANONICAL]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    snapshot("canonical_skeleton", &r.stdout);
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    let note = &v["$benchlint"];
    // Two of three results record the host, alike: the third takes it from the sidecar.
    assert_eq!(v["platform"]["host"], json!("gpu-a"));
    assert!(
        note["derived"]["platform.host"]
            .as_str()
            .unwrap()
            .contains("2 of the 3 results")
    );
    // Two record different model lengths: no one value fits, so it stays to fill, said why.
    assert!(v["engine"]["max_model_len"].is_null());
    assert!(
        note["missing"]["engine.max_model_len"]
            .as_str()
            .unwrap()
            .contains("disagree (4096, 8192)")
    );
    // A typed command is not taken as recorded by `check`; the skeleton fills it, to check.
    assert_eq!(v["engine"]["max_num_seqs"], json!(64));
    assert!(
        note["derived"]["engine.max_num_seqs"]
            .as_str()
            .unwrap()
            .contains("\"typed\"")
    );
}

#[test]
fn printing_takes_one_skeleton_and_names_what_it_skipped() {
    let r = run(&["sidecar", "--isolated", VLLM, CANONICAL]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("2 files need a skeleton"), "{}", r.stderr);
    assert!(r.stdout.is_empty());
    let complete = "testdata/clean/replicated-corpus/workload-code/code-l1-r10.json";
    let r = run(&[
        "sidecar",
        "--isolated",
        complete,
        "testdata/clean/replicated-corpus/complete.power.csv",
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.is_empty(), "{}", r.stdout);
    snapshot("nothing_to_print", &r.stderr);
}

/// A JSON Lines file's results reach the skeleton a chunk of lines at a time, kept without
/// their levels until the last line: the skeleton is the one made of every line at once (the
/// same lines in a `.json` file, read whole), its counts over all 700 results.
#[test]
fn a_long_json_lines_file_gets_the_skeleton_of_all_its_lines() {
    let fixture = std::fs::read_to_string("testdata/adapters/sglang/late-2025-server-info.jsonl")
        .unwrap()
        .replace("Infinity", "1000000");
    let lines: Vec<Value> = fixture
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let mut text = String::new();
    for i in 0..700 {
        let mut d = lines[i % lines.len()].clone();
        d["tag"] = json!(format!("run-{i}"));
        // Settings some lines record and others not, in every chunk of lines.
        let server = d["server_info"].as_object_mut().unwrap();
        for (every, key) in [(3, "kv_cache_dtype"), (7, "quantization"), (11, "tp_size")] {
            if i % every == 0 {
                server.remove(key);
            }
        }
        text.push_str(&d.to_string());
        text.push('\n');
    }
    let tmp = tempfile::tempdir().unwrap();
    let (lines_file, whole_file) = (
        tmp.path().join("runs.jsonl"),
        tmp.path().join("runs.jsonl.json"),
    );
    std::fs::write(&lines_file, &text).unwrap();
    std::fs::write(&whole_file, &text).unwrap();
    let skeleton = |p: &Path| {
        let r = run(&["sidecar", p.to_str().unwrap()]);
        assert_eq!(r.code, 0, "{}", r.stderr);
        r.stdout.replace(p.to_str().unwrap(), "RUNS")
    };
    let (by_lines, whole) = (skeleton(&lines_file), skeleton(&whole_file));
    assert!(
        by_lines.contains("recorded by 466 of the 700 results"),
        "{by_lines}"
    );
    assert_eq!(by_lines, whole);
}
