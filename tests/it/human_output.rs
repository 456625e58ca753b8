//! The human format on a file whose records repeat the same findings (a vLLM JSON Lines file
//! of two levels): each rule drawn once with its snippet, the second record's findings one
//! line each under it with their own line, column and message; the harness's sidecar said
//! once.

use std::process::Command;

const TWO_LEVELS: &str = "testdata/sidecar/vllm/qwen3-8b-fp8.jsonl";

fn check(format: &str) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_benchlint"))
        .args(["check", "--isolated", TWO_LEVELS, "--format", format])
        .env("NO_COLOR", "1")
        .env_remove("CLICOLOR_FORCE")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn a_rule_repeated_in_a_file_is_drawn_once_and_listed_under_it() {
    let human = check("human");
    // One snippet per rule, none for the second record.
    assert_eq!(human.matches("╭─[").count(), 5, "{human}");
    assert!(!human.contains(&format!("╭─[{TWO_LEVELS}:2:")), "{human}");
    let also: Vec<&str> = human
        .lines()
        .filter(|l| l.starts_with("  also at 2:"))
        .collect();
    assert_eq!(also.len(), 5, "{human}");
    assert!(also.contains(&"  also at 2:1: not recorded: the same 27 fields of the checklist"));
    assert!(
        human.contains(
            "  also at 2:254: at 16 streams: the measured window lasted 24.02 s, under 140 s (120 s after a 20 s\n    ramp; no ramp or steady window is recorded)\n"
        ),
        "{human}"
    );
    // Every finding of the concise format is listed: its line and column appear under its rule.
    let concise = check("concise");
    for line in concise.lines().filter(|l| l.contains(".jsonl:2:")) {
        let at = line
            .split(": ")
            .next()
            .unwrap()
            .trim_start_matches(TWO_LEVELS);
        assert!(
            human.contains(&format!("  also at {}: ", &at[1..])),
            "{line}"
        );
    }
    // Where the absent values go is said once.
    assert_eq!(human.matches("is a harness's output").count(), 1, "{human}");
    insta::with_settings!({ snapshot_path => "snapshots/human_output", prepend_module_to_snapshot => false }, {
        insta::assert_snapshot!("two_levels", human);
    });
}
