//! The help of a missing checklist item on a harness's file, the checklist rule pages on
//! sidecars, and a value copied from another result carrying no secret.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use super::{CANONICAL, VLLM, diagnostics, run};
use crate::support::realworld;

fn help_of(diagnostics: &[Value], pointer: &str) -> String {
    diagnostics
        .iter()
        .find(|d| {
            d["message"]
                .as_str()
                .unwrap()
                .ends_with(&format!("(`{pointer}`)"))
        })
        .and_then(|d| d["help"].as_str())
        .unwrap_or_else(|| panic!("no help for {pointer}: {diagnostics:#?}"))
        .to_string()
}

#[test]
fn a_missing_item_on_a_harness_file_says_where_the_value_goes() {
    let tmp = tempfile::tempdir().unwrap();
    let file = realworld::copy_to(Path::new(VLLM), tmp.path(), "qwen3-8b-fp8.jsonl");
    let before = diagnostics(&file);
    let host = help_of(&before, "/platform/host");
    let shown = file.to_string_lossy().into_owned();
    let side = tmp.path().join("qwen3-8b-fp8.meta.json");
    assert!(
        host.starts_with("add `platform.host`; this vllm file is a harness's output"),
        "{host}"
    );
    assert!(
        host.contains(&format!("`{}`", side.to_string_lossy())),
        "{host}"
    );
    assert!(host.contains(r#"`{"platform": {"host": …}}`"#), "{host}");
    assert!(
        host.contains(&format!("`benchlint sidecar {shown}`")),
        "{host}"
    );
    assert!(!host.contains("capture"), "{host}");
    let seqs = help_of(&before, "/engine/max_num_seqs");
    assert!(seqs.contains("`benchlint capture --pid PID`"), "{seqs}");
    // Once the skeleton is beside the file, the help names it as the place to fill.
    run(&["sidecar", "--isolated", "--write-beside", &shown]);
    let host = help_of(&diagnostics(&file), "/platform/host");
    assert!(host.contains("set it in its sidecar"), "{host}");
    // A canonical file is the team's own document: the rule's help alone.
    let canonical = diagnostics(&PathBuf::from(CANONICAL));
    assert_eq!(
        help_of(&canonical, "/platform/description"),
        "add `platform.description` in words (boxes, cards, fabric)"
    );
}

#[test]
fn checklist_rule_pages_say_how_a_sidecar_supplies_the_items() {
    for n in 1..=14 {
        let code = format!("M{n:03}");
        let r = run(&["rule", &code]);
        assert_eq!(r.code, 0);
        assert!(
            r.stdout.contains("`benchlint sidecar run.json`"),
            "{code}: {}",
            r.stdout
        );
        assert!(r.stdout.contains("`run.meta.json`"), "{code}");
    }
    let r = run(&["rule", "M007"]);
    assert!(
        r.stdout.contains("benchlint capture --pid PID"),
        "{}",
        r.stdout
    );
}

#[test]
fn a_value_copied_from_another_result_carries_no_secret() {
    let tmp = tempfile::tempdir().unwrap();
    let secret = "sk-proj-4fGh7Jk9Lm2Nq5Rs8Tv1Wx3Yz6Ab0Cd";
    let result = |id: &str, command: Option<Value>| {
        let mut r = json!({
            "schema": "benchlint/result/v1", "id": id, "measured_at": "2026-03-12T09:00:00Z",
            "outcome": "ok", "engine": {"name": "vllm"},
            "levels": [{"concurrency": 1, "throughput_tok_s": {"aggregate": 50.0}}]
        });
        if let Some(c) = command {
            r["engine"]["serve_command"] = c;
            r["engine"]["serve_command_source"] = json!("process");
        }
        r.to_string()
    };
    let file = tmp.path().join("runs.jsonl");
    std::fs::write(
        &file,
        format!(
            "{}\n{}\n",
            result(
                "a",
                Some(json!(["vllm", "serve", "m", "--api-key", secret]))
            ),
            result("b", None)
        ),
    )
    .unwrap();
    let r = run(&["sidecar", "--isolated", &file.to_string_lossy()]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(!r.stdout.contains(secret), "{}", r.stdout);
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    assert_eq!(
        v["engine"]["serve_command"][4],
        json!("<redacted>"),
        "{v:#}"
    );
    // What goes with the command comes with it.
    assert_eq!(
        v["engine"]["serve_command_source"],
        json!("process"),
        "{v:#}"
    );
}
