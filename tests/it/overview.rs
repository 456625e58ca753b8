//! The per-file views of a corpus on the bundled demo corpus: `--format grouped` (findings
//! under their file, then the files worst first), `--statistics` (by rule, with severity and
//! files) and `--show-files` (what read each file), and the overview ending the human output.

use std::process::Command;

const DEMO: &str = "testdata/corpora/demo";

fn check(args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_benchlint"))
        .env("NO_COLOR", "1")
        .env_remove("GITHUB_ACTIONS")
        .arg("check")
        .args(args)
        .arg(DEMO)
        .output()
        .unwrap();
    (
        out.status.code().unwrap(),
        String::from_utf8(out.stdout).unwrap(),
    )
}

#[test]
fn grouped_lists_findings_by_file_then_the_files_worst_first() {
    let (code, out) = check(&["--format", "grouped"]);
    assert_eq!(code, 1, "{out}");
    insta::assert_snapshot!("grouped", out);
}

#[test]
fn statistics_count_by_rule_with_severity_and_files() {
    let (code, out) = check(&["--statistics"]);
    assert_eq!(code, 1, "{out}");
    insta::assert_snapshot!("statistics", out);
}

#[test]
fn show_files_names_what_read_each_file() {
    let (code, out) = check(&["--show-files"]);
    assert_eq!(code, 1, "{out}");
    insta::assert_snapshot!("show_files", out);
}

#[test]
fn human_output_ends_with_the_same_overview_as_grouped() {
    let (_, human) = check(&[]);
    let (_, grouped) = check(&["--format", "grouped"]);
    let tail = |s: &str| s[s.find("Files, worst first").expect("an overview")..].to_string();
    assert_eq!(tail(&human), tail(&grouped));
}
