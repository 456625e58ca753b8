//! The fields one object lacks, shown as one finding in the human and concise formats and
//! kept one entry per field in JSON, with the counts and the exit code following the fields.

use std::process::Command;

use serde_json::Value;

const FILE: &str = "testdata/rules/M001-missing-hardware/fail/no-host-or-description.json";

fn check(format: &str) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_benchlint"))
        .env("NO_COLOR", "1")
        .env_remove("GITHUB_ACTIONS")
        .args(["check", "--format", format, FILE])
        .output()
        .unwrap();
    (
        out.status.code().unwrap(),
        String::from_utf8(out.stdout).unwrap(),
    )
}

#[test]
fn absent_fields_of_one_object_are_one_snippet_in_human_output() {
    let (code, human) = check("human");
    assert_eq!(code, 1, "{human}");
    // One diagnostic names both fields; the object that should hold them is drawn once.
    assert_eq!(human.matches("belong here").count(), 1, "{human}");
    assert!(human.contains("these 2 fields belong here"), "{human}");
    assert!(human.contains("`platform.description`"), "{human}");
    assert!(human.contains("`platform.host`"), "{human}");
    let summary = human.lines().last().unwrap();
    assert!(
        summary.contains("findings listed as") && summary.contains("shown together"),
        "{summary}"
    );
}

#[test]
fn concise_lists_the_fields_of_one_rule_on_one_line() {
    let (_, concise) = check("concise");
    let m001: Vec<&str> = concise.lines().filter(|l| l.contains(" M001 ")).collect();
    assert_eq!(m001.len(), 1, "{concise}");
    assert!(
        m001[0].ends_with(
            "not recorded: the hardware description (`/platform/description`) and the host name \
             (`/platform/host`)"
        ),
        "{}",
        m001[0]
    );
}

#[test]
fn json_keeps_one_entry_per_field_and_the_counts_agree() {
    let (code, json) = check("json");
    assert_eq!(code, 1);
    let v: Value = serde_json::from_str(&json).unwrap();
    let pointers: Vec<&str> = v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["code"] == "M001")
        .map(|d| d["pointer"].as_str().unwrap())
        .collect();
    assert_eq!(pointers, ["/platform/description", "/platform/host"]);
    let (_, concise) = check("concise");
    let errors = v["summary"]["errors"].as_u64().unwrap();
    assert!(
        concise
            .lines()
            .last()
            .unwrap()
            .starts_with(&format!("Found {errors} error")),
        "{concise}"
    );
}
