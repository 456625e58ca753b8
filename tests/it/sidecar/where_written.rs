//! Where skeletons are written and what is refused: an existing sidecar replaced only with
//! `--force`, never through a symbolic link, an output folder mirroring the corpus.

use std::path::Path;

use serde_json::{Value, json};

use super::{VLLM, run, run_in, snapshot};
use crate::support::realworld;

#[test]
fn an_existing_sidecar_is_replaced_only_with_force_and_keeps_its_values() {
    let tmp = tempfile::tempdir().unwrap();
    let file = realworld::copy_to(Path::new(VLLM), tmp.path(), "qwen3-8b-fp8.jsonl");
    let shown = file.to_string_lossy().into_owned();
    assert_eq!(
        run(&["sidecar", "--isolated", "--write-beside", &shown]).code,
        0
    );
    let side = tmp.path().join("qwen3-8b-fp8.meta.json");
    let mut doc: Value = serde_json::from_str(&std::fs::read_to_string(&side).unwrap()).unwrap();
    doc["platform"]["host"] = json!("gpu-node-07");
    let edited = format!("{doc:#}\n");
    std::fs::write(&side, &edited).unwrap();
    let r = run(&["sidecar", "--isolated", "--write-beside", &shown]);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.contains("exists; nothing was written"),
        "{}",
        r.stderr
    );
    assert_eq!(std::fs::read_to_string(&side).unwrap(), edited);
    let r = run(&["sidecar", "--isolated", "--write-beside", "--force", &shown]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let again: Value = serde_json::from_str(&std::fs::read_to_string(&side).unwrap()).unwrap();
    assert_eq!(again["platform"]["host"], json!("gpu-node-07"));
    assert!(
        again["$benchlint"]["missing"]
            .get("platform.host")
            .is_none()
    );
    assert!(
        again["$benchlint"]["missing"]
            .get("platform.description")
            .is_some()
    );
    // The values benchlint filled in keep their note.
    assert!(
        again["$benchlint"]["derived"]
            .get("model.precision")
            .is_some()
    );
}

#[test]
fn never_written_through_a_symbolic_link() {
    let tmp = tempfile::tempdir().unwrap();
    let file = realworld::copy_to(Path::new(VLLM), tmp.path(), "qwen3-8b-fp8.jsonl");
    let precious = tmp.path().join("precious.txt");
    std::fs::write(&precious, "kept").unwrap();
    std::os::unix::fs::symlink(&precious, tmp.path().join("qwen3-8b-fp8.meta.json")).unwrap();
    for extra in [None, Some("--force")] {
        let mut args = vec!["sidecar", "--isolated", "--write-beside"];
        args.extend(extra);
        let shown = file.to_string_lossy().into_owned();
        args.push(&shown);
        let r = run(&args);
        assert_eq!(r.code, 2, "{}", r.stdout);
        assert!(r.stderr.contains("symbolic link"), "{}", r.stderr);
        assert_eq!(std::fs::read_to_string(&precious).unwrap(), "kept");
    }
}

#[test]
fn an_output_folder_mirrors_the_corpus_and_stays_out_of_it() {
    let tmp = tempfile::tempdir().unwrap();
    let corpus = tmp.path().join("corpus");
    realworld::copy_to(Path::new(VLLM), &corpus, "run-a/results.jsonl");
    realworld::copy_to(Path::new(VLLM), &corpus, "run-b/results.jsonl");
    std::fs::write(corpus.join("run-b/broken.json"), "{\"completed\": ").unwrap();
    let r = run_in(
        Some(tmp.path()),
        &["sidecar", "--isolated", "corpus", "-o", "out"],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    snapshot("output_folder", &r.stdout);
    for run_folder in ["run-a", "run-b"] {
        let written = tmp
            .path()
            .join("out")
            .join(run_folder)
            .join("results.meta.json");
        let v: Value = serde_json::from_str(&std::fs::read_to_string(&written).unwrap()).unwrap();
        assert_eq!(
            v["$benchlint"]["skeleton_for"],
            json!(format!("corpus/{run_folder}/results.jsonl"))
        );
    }
    assert!(
        !corpus.join("run-a/results.meta.json").exists(),
        "nothing into the corpus"
    );
    let r = run_in(
        Some(tmp.path()),
        &["sidecar", "--isolated", "corpus", "-o", "corpus/sidecars"],
    );
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("inside the corpus"), "{}", r.stderr);
    assert!(!corpus.join("sidecars").exists());
}
