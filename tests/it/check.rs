//! `benchlint check` end to end: the checklist at the exact pointer, bad input as diagnostics,
//! and the JSON output against its schema.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

fn bin() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_benchlint"));
    c.env("NO_COLOR", "1").env_remove("GITHUB_ACTIONS");
    c
}

fn json_of(args: &[&str]) -> (i32, Value) {
    let out = bin()
        .args(["check", "--format", "json"])
        .args(args)
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).expect("check --format json prints JSON");
    (out.status.code().unwrap(), v)
}

/// The first canonical result file under `testdata/clean` (a complete, clean file).
fn complete_file() -> PathBuf {
    let mut stack = vec![PathBuf::from("testdata/clean")];
    let mut files = Vec::new();
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "json") {
                files.push(p);
            }
        }
    }
    files.sort();
    files
        .into_iter()
        .find(|p| {
            let text = std::fs::read_to_string(p).unwrap();
            text.contains("\"benchlint/result/v1\"") && text.contains("\"serve_command\"")
        })
        .expect("a complete canonical result under testdata/clean")
}

fn m_findings(dir: &Path) -> Vec<(String, String)> {
    let (_, v) = json_of(&[dir.to_str().unwrap()]);
    let mut out: Vec<(String, String)> = v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["code"].as_str().unwrap().starts_with('M'))
        .map(|d| {
            (
                d["code"].as_str().unwrap().to_string(),
                d["pointer"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    out.sort();
    out
}

fn remove(doc: &mut Value, pointer: &str) {
    let (parent, key) = pointer.rsplit_once('/').unwrap();
    doc.pointer_mut(parent)
        .unwrap()
        .as_object_mut()
        .unwrap()
        .remove(key)
        .unwrap_or_else(|| panic!("{pointer} not in the complete file"));
}

/// Removes `--flag` (and its value, when it takes one) from the serve command.
fn drop_flag(doc: &mut Value, flag: &str, takes_value: bool) {
    let argv = doc
        .pointer_mut("/engine/serve_command")
        .unwrap()
        .as_array_mut()
        .unwrap();
    if let Some(i) = argv.iter().position(|a| a == flag) {
        argv.remove(i);
        if takes_value {
            argv.remove(i);
        }
    }
}

/// (removed pointer, serve-command flag naming the same setting, expected code, expected pointer)
type ChecklistItem<'a> = (&'a str, Option<(&'a str, bool)>, &'a str, &'a str);

#[test]
fn each_missing_checklist_item_gets_exactly_its_code_at_its_pointer() {
    let source = complete_file();
    let complete: Value = serde_json::from_str(&std::fs::read_to_string(&source).unwrap()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    // Artifacts sit beside the result; copy them so M017 stays quiet.
    for e in std::fs::read_dir(source.parent().unwrap())
        .unwrap()
        .flatten()
    {
        if e.path().is_file() && e.path() != source {
            std::fs::copy(e.path(), dir.path().join(e.file_name())).unwrap();
        }
    }
    let target = dir.path().join("result.json");
    std::fs::write(&target, serde_json::to_string_pretty(&complete).unwrap()).unwrap();
    let before = m_findings(&target);
    assert!(
        before.is_empty(),
        "the complete file has checklist findings: {before:?}"
    );

    // (removed pointer, serve-command flag naming the same setting, expected code, expected pointer)
    let items: [ChecklistItem<'_>; 20] = [
        ("/platform/host", None, "M001", "/platform/host"),
        (
            "/platform/device/model",
            None,
            "M001",
            "/platform/device/model",
        ),
        (
            "/platform/devices_per_node",
            None,
            "M001",
            "/platform/devices_per_node",
        ),
        ("/engine/version", None, "M002", "/engine/version"),
        ("/engine/image_digest", None, "M002", "/engine/image_digest"),
        (
            "/engine/serve_command_source",
            None,
            "M004",
            "/engine/serve_command_source",
        ),
        (
            "/engine/speculative",
            Some(("--speculative-config", true)),
            "M005",
            "/engine/speculative",
        ),
        (
            "/engine/enforce_eager",
            None,
            "M006",
            "/engine/enforce_eager",
        ),
        (
            "/engine/kv_cache_dtype",
            Some(("--kv-cache-dtype", true)),
            "M007",
            "/engine/kv_cache_dtype",
        ),
        (
            "/engine/max_num_seqs",
            Some(("--max-num-seqs", true)),
            "M007",
            "/engine/max_num_seqs",
        ),
        (
            "/engine/enable_prefix_caching",
            Some(("--no-enable-prefix-caching", false)),
            "M007",
            "/engine/enable_prefix_caching",
        ),
        ("/model/precision", None, "M008", "/model/precision"),
        ("/model/kernel", None, "M008", "/model/kernel"),
        (
            "/engine/expert_parallel_size",
            None,
            "M009",
            "/engine/expert_parallel_size",
        ),
        ("/platform/nodes", None, "M009", "/platform/nodes"),
        (
            "/platform/fabric/interconnect",
            None,
            "M010",
            "/platform/fabric/interconnect",
        ),
        (
            "/platform/parity_check",
            None,
            "M011",
            "/platform/parity_check/at",
        ),
        ("/harness/revision", None, "M013", "/harness/revision"),
        ("/workload/seed", None, "M013", "/workload/seed"),
        (
            "/artifacts/quality_gate/path",
            None,
            "M014",
            "/artifacts/quality_gate/path",
        ),
    ];
    for (removed, flag, code, pointer) in items {
        let mut doc = complete.clone();
        remove(&mut doc, removed);
        if let Some((f, takes)) = flag {
            drop_flag(&mut doc, f, takes);
        }
        std::fs::write(&target, serde_json::to_string_pretty(&doc).unwrap()).unwrap();
        let after = m_findings(&target);
        assert_eq!(
            after,
            vec![(code.to_string(), pointer.to_string())],
            "after removing {removed}"
        );
    }
}

#[test]
fn a_setting_derived_from_a_captured_command_satisfies_its_item() {
    let source = complete_file();
    let mut doc: Value = serde_json::from_str(&std::fs::read_to_string(&source).unwrap()).unwrap();
    remove(&mut doc, "/engine/speculative");
    remove(&mut doc, "/engine/max_num_seqs");
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("result.json");
    std::fs::write(&target, serde_json::to_string_pretty(&doc).unwrap()).unwrap();
    let found = m_findings(&target);
    assert!(
        !found.iter().any(|(c, _)| c == "M005" || c == "M007"),
        "{found:?}"
    );
    // The same command typed by hand derives nothing.
    *doc.pointer_mut("/engine/serve_command_source").unwrap() = Value::from("typed");
    std::fs::write(&target, serde_json::to_string_pretty(&doc).unwrap()).unwrap();
    let found = m_findings(&target);
    assert!(
        found.contains(&("M005".into(), "/engine/speculative".into())),
        "{found:?}"
    );
    assert!(
        found.contains(&("M007".into(), "/engine/max_num_seqs".into())),
        "{found:?}"
    );
}

#[test]
fn bad_input_is_a_diagnostic_and_the_other_files_are_still_checked() {
    let (code, v) = json_of(&["testdata/bad"]);
    assert_eq!(code, 1);
    let diags = v["diagnostics"].as_array().unwrap();
    let find = |path: &str, code: &str| {
        diags
            .iter()
            .find(|d| d["path"] == path && d["code"] == code)
            .unwrap_or_else(|| panic!("no {code} on {path}: {diags:#?}"))
    };
    let t = find("testdata/bad/truncated.json", "E002");
    assert_eq!(
        (t["line"].as_u64(), t["column"].as_u64()),
        (Some(6), Some(37))
    );
    assert!(t["message"].as_str().unwrap().contains("truncated"));
    let w = find("testdata/bad/wrong-type.json", "E003");
    assert_eq!(w["pointer"], "/levels/0/concurrency");
    assert_eq!(w["line"], 7);
    let u = find("testdata/bad/unknown-schema.json", "E003");
    assert_eq!(u["pointer"], "/schema");
    assert!(
        u["message"]
            .as_str()
            .unwrap()
            .contains("benchlint/result/v9")
    );
    find("testdata/bad/empty.json", "E002");
    // The one good file was loaded and checked.
    assert_eq!(v["summary"]["results"], 1);
    assert_eq!(v["summary"]["files"], 5);
    find("testdata/bad/minimal.json", "M001");
}

#[test]
fn a_missing_path_is_reported_and_the_rest_goes_on() {
    let (code, v) = json_of(&["testdata/no-such-folder", "testdata/bad/minimal.json"]);
    assert_eq!(code, 1);
    let diags = v["diagnostics"].as_array().unwrap();
    assert!(
        diags
            .iter()
            .any(|d| d["code"] == "E001" && d["path"] == "testdata/no-such-folder")
    );
    assert_eq!(v["summary"]["results"], 1);
}

#[test]
fn a_folder_with_no_result_fails_and_a_folder_with_nothing_passes_with_a_warning() {
    // `testdata/empty` holds a README only: a walk that reads no result fails, naming it.
    let out = bin().args(["check", "testdata/empty"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("no result was read under"),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let dir = tempfile::tempdir().unwrap();
    let out = bin().arg("check").arg(dir.path()).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no result files"));
}

#[test]
fn bad_arguments_exit_2_with_one_line() {
    let out = bin()
        .args(["check", "--format", "yaml", "x"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let out = bin().args(["rule", "Z999"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
}

#[test]
fn json_output_follows_the_report_schema() {
    for dir in [
        "testdata/bad",
        "testdata/rules/M015-serve-command-mismatch/fail",
        "testdata/rules/M019-sidecar-conflict/fail",
    ] {
        let (_, v) = json_of(&[dir]);
        let errors = benchlint::schema::validate(benchlint::schema::Kind::Report, &v);
        assert!(errors.is_empty(), "{dir}: {errors:?}");
    }
}

#[test]
fn output_is_deterministic() {
    let run = || {
        bin()
            .args(["check", "--format", "concise", "testdata/rules"])
            .output()
            .unwrap()
            .stdout
    };
    assert_eq!(run(), run());
}

#[test]
fn schemas_are_printed_as_bundled() {
    for name in ["result", "claims", "report", "audit"] {
        let out = bin().args(["schema", name]).output().unwrap();
        assert_eq!(out.status.code(), Some(0));
        let on_disk = std::fs::read(format!("schemas/{name}.schema.json")).unwrap();
        assert_eq!(out.stdout, on_disk, "{name}");
    }
}
