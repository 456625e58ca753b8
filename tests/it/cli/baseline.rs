//! The baseline: writing it, checking against it, and a baseline inside the corpus left unchecked.

use serde_json::Value;

use super::{fixture, run_in, write};

// ---------------------------------------------------------------------------------------------
// Baseline

#[test]
fn baseline_workflow() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(d, "results/broken.json", &fixture("broken.json"));
    write(d, "results/wrong-type.json", &fixture("wrong-type.json"));
    write(d, "benchlint.toml", "select = [\"E\"]\n");
    let check = |extra: &[&str]| {
        let mut args = vec!["check", "results", "--baseline", "baseline.json"];
        args.extend_from_slice(extra);
        run_in(Some(d), &args)
    };
    // No baseline yet: a clear error, exit 2.
    let r = check(&[]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("--update-baseline"), "{}", r.stderr);
    // Record the current findings.
    let r = check(&["--update-baseline"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let written: Value =
        serde_json::from_str(&std::fs::read_to_string(d.join("baseline.json")).unwrap()).unwrap();
    assert_eq!(
        written,
        serde_json::json!({"version": 2, "tool": "benchlint", "findings": {
            "results/broken.json": {"E002": [""]},
            "results/wrong-type.json": {"E003": ["/levels/0/concurrency"]},
        }})
    );
    // The same findings now pass, and the summary says how many were suppressed.
    let r = check(&[]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stdout.contains("2 suppressed by the baseline"),
        "{}",
        r.stdout
    );
    // From another folder, with the same baseline: entries are relative to the baseline.
    let r = run_in(
        Some(&d.join("results")),
        &["check", ".", "--baseline", "../baseline.json"],
    );
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    // A new bad file fails, alone.
    write(d, "results/new.json", &fixture("broken.json"));
    let r = check(&["--format", "json"]);
    assert_eq!(r.code, 1);
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    let paths: Vec<&str> = v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x["path"].as_str().unwrap())
        .collect();
    assert_eq!(paths, vec!["results/new.json"]);
    assert_eq!(v["summary"]["suppressed"], 2);
    std::fs::remove_file(d.join("results/new.json")).unwrap();
    // A baselined problem fixed: its entry is stale and fails the run, so the baseline shrinks.
    write(
        d,
        "results/wrong-type.json",
        &fixture("wrong-type.json").replace("\"32\"", "32"),
    );
    let r = check(&[]);
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    assert!(r.stderr.contains("1 stale entry"), "{}", r.stderr);
    assert!(
        r.stderr
            .contains("results/wrong-type.json: E003 at /levels/0/concurrency"),
        "{}",
        r.stderr
    );
    assert_eq!(check(&["--exit-zero"]).code, 0);
    assert_eq!(check(&["--allow-stale-baseline"]).code, 0);
    // Checking another file only: entries of files not checked are not stale.
    let r = run_in(
        Some(d),
        &[
            "check",
            "results/broken.json",
            "--baseline",
            "baseline.json",
        ],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    // Nor are entries of rules that did not run.
    assert_eq!(check(&["--ignore", "E003"]).code, 0);
    // Pruning.
    assert_eq!(check(&["--update-baseline"]).code, 0);
    let written: Value =
        serde_json::from_str(&std::fs::read_to_string(d.join("baseline.json")).unwrap()).unwrap();
    assert_eq!(
        written["findings"],
        serde_json::json!({"results/broken.json": {"E002": [""]}})
    );
    assert_eq!(check(&[]).code, 0);
    // Another version, or not a baseline at all: exit 2 with a clear message.
    std::fs::write(
        d.join("baseline.json"),
        r#"{"version": 3, "tool": "benchlint", "findings": {}}"#,
    )
    .unwrap();
    let r = check(&[]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("version 3"), "{}", r.stderr);
    assert_eq!(check(&["--exit-zero"]).code, 2);
    std::fs::write(d.join("baseline.json"), "not json").unwrap();
    assert_eq!(check(&[]).code, 2);
    assert_eq!(
        check(&["--update-baseline"]).code,
        2,
        "an unreadable baseline is never overwritten"
    );
}

#[test]
fn a_baseline_inside_the_corpus_is_not_checked() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(d, "results/broken.json", &fixture("broken.json"));
    let r = run_in(
        Some(d),
        &[
            "check",
            "results",
            "--isolated",
            "--select",
            "E",
            "--baseline",
            "results/baseline.json",
            "--update-baseline",
        ],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let r = run_in(
        Some(d),
        &[
            "check",
            "results",
            "--isolated",
            "--select",
            "E",
            "--baseline",
            "results/baseline.json",
        ],
    );
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(!r.stdout.contains("E004"), "{}", r.stdout);
}
