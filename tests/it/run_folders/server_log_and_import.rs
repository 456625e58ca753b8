//! A run folder whose server log and launch command fill what its result lacks: a log that
//! contradicts the result, the checklist items the folder records, and `import` writing where
//! each value came from.

use std::path::Path;

use benchlint::model::Provenance;
use serde_json::Value;

use super::{FIXTURES, check, findings};

#[test]
fn a_server_log_that_contradicts_the_result_is_m019_pointing_at_its_line() {
    let folder = Path::new(FIXTURES).join("run-folder/vllm-log-contradicts");
    let checked = check(&folder);
    let m019 = findings(&checked, "M019");
    assert_eq!(m019.len(), 1, "{m019:?}");
    let f = m019[0];
    assert_eq!(f.primary.pointer, "/tensor_parallel_size");
    assert!(f.message.contains("server log") && f.message.contains("is 4 but the file records 2"));
    let log_path = folder.join("server.log");
    let related = &f.related[0];
    assert_eq!(related.path.raw(), log_path.to_string_lossy());
    let log = std::fs::read_to_string(&log_path).unwrap();
    let line = &log[related.offset.unwrap()..];
    // The effective configuration the engine printed wins over the arguments it was given.
    assert!(line.starts_with(
        "(EngineCore_DP0 pid=7911) INFO 03-01 14:19:02 [core.py:77] Initializing a V1 LLM engine"
    ));
    // The file's value is kept; what the file does not record is filled from the log.
    let r = &checked.corpus.results[0];
    assert_eq!(r.doc.engine.as_ref().unwrap().tensor_parallel_size, Some(2));
    assert_eq!(r.doc.engine.as_ref().unwrap().max_num_seqs, Some(32));
}

#[test]
fn the_run_folder_above_aiperf_artifacts_passes_the_checklist_items_it_records() {
    let folder = Path::new(FIXTURES).join("run-folder/vllm-aiperf");
    // Read from the run folder, from aiperf_artifacts/ alone, or the file alone: the same.
    for arg in [
        folder.clone(),
        folder.join("aiperf_artifacts"),
        folder.join("aiperf_artifacts/profile_export_aiperf.json"),
    ] {
        let checked = check(&arg);
        assert_eq!(checked.corpus.results.len(), 1, "{}", arg.display());
        for code in ["M003", "M004", "M005", "M006", "M007", "E004"] {
            assert!(
                findings(&checked, code).is_empty(),
                "{} {code}: {:?}",
                arg.display(),
                findings(&checked, code)
            );
        }
        let r = &checked.corpus.results[0];
        assert_eq!(
            r.value.pointer("/engine/serve_command_source"),
            Some(&Value::from("launch-command"))
        );
        assert!(matches!(
            r.provenance.get("/engine/version").as_deref(),
            Some(Provenance::ServerLog { .. })
        ));
        assert!(matches!(
            r.provenance.get("/engine/serve_command").as_deref(),
            Some(Provenance::LaunchCommand { path }) if path.ends_with("vllm_command.txt")
        ));
    }
}

#[test]
fn import_writes_where_each_value_came_from() {
    let out = tempfile::tempdir().unwrap();
    let folder = Path::new(FIXTURES).join("run-folder/vllm-aiperf");
    let status = std::process::Command::new(env!("CARGO_BIN_EXE_benchlint"))
        .arg("import")
        .arg(&folder)
        .arg("-o")
        .arg(out.path())
        .status()
        .unwrap();
    assert!(status.success());
    // The outputs mirror the run folder: the result sits where it sat, below `aiperf_artifacts/`.
    let mut provenance = None;
    let mut folders = vec![out.path().to_path_buf()];
    while let Some(dir) = folders.pop() {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                folders.push(p);
            } else if p.to_string_lossy().ends_with(".provenance.json") {
                provenance = Some(std::fs::read_to_string(p).unwrap());
            }
        }
    }
    let v: Value = serde_json::from_str(&provenance.unwrap()).unwrap();
    assert_eq!(v["values"]["/engine/version"]["kind"], "server-log");
    assert_eq!(
        v["values"]["/engine/serve_command"]["kind"],
        "launch-command"
    );
    assert_eq!(
        v["values"]["/engine/serve_command_source"]["kind"],
        "launch-command"
    );
}
