//! `-q`/`--quiet` and `-s`/`--silent`: what each holds back and what it keeps.

use serde_json::Value;

use super::{run, scratch};

// ---------------------------------------------------------------------------------------------
// -q, -s

#[test]
fn quiet_prints_the_findings_and_nothing_else() {
    let (_tmp, root) = scratch();
    for format in ["concise", "human", "grouped"] {
        let normal = run(&root, &["check", "--format", format, "results"]);
        let quiet = run(&root, &["check", "-q", "--format", format, "results"]);
        assert_eq!(normal.code, 1, "{format}: {}", normal.stderr);
        assert_eq!(quiet.code, normal.code, "{format}");
        assert!(normal.stdout.contains("Found "), "{format}");
        assert!(
            !quiet.stdout.contains("Found "),
            "{format}: {}",
            quiet.stdout
        );
        // The findings are all there: the normal output starts with the quiet one.
        assert!(!quiet.stdout.is_empty(), "{format}");
        assert!(
            normal.stdout.starts_with(&quiet.stdout),
            "{format}:\n{}\n---\n{}",
            quiet.stdout,
            normal.stdout
        );
    }
    let concise = run(
        &root,
        &["check", "--quiet", "--format", "concise", "results"],
    );
    assert!(
        concise.stdout.lines().all(|l| l.starts_with("results/")),
        "{}",
        concise.stdout
    );
}

#[test]
fn quiet_and_silent_hold_back_warnings_but_not_errors() {
    let (_tmp, root) = scratch();
    std::fs::create_dir(root.join("empty")).unwrap();
    let normal = run(&root, &["check", "empty"]);
    assert!(
        normal.stderr.contains("warning: no result files"),
        "{}",
        normal.stderr
    );
    for flag in ["-q", "-s"] {
        let r = run(&root, &["check", flag, "empty"]);
        assert_eq!(r.code, 0, "{flag}");
        assert_eq!(r.stderr, "", "{flag}");
    }
    // A broken config is an error of the run: said even under --silent, exit 2.
    let r = run(
        &root,
        &["check", "-s", "--config", "ignore = [\"XX99\"]", "results"],
    );
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("XX99"), "{}", r.stderr);
    assert_eq!(r.stdout, "");
}

#[test]
fn silent_says_nothing_and_exits_as_the_run_does() {
    let (_tmp, root) = scratch();
    for format in ["human", "json", "concise", "sarif"] {
        let r = run(&root, &["check", "-s", "--format", format, "results"]);
        assert_eq!(r.code, 1, "{format}");
        assert_eq!(r.stdout, "", "{format}");
        assert_eq!(r.stderr, "", "{format}");
    }
    let r = run(&root, &["check", "--silent", "--exit-zero", "results"]);
    assert_eq!((r.code, r.stdout.as_str()), (0, ""));
    // An output file is what was asked: still written.
    let out = root.join("../report.json");
    let r = run(
        &root,
        &[
            "check",
            "-s",
            "--format",
            "json",
            "--output-file",
            out.to_str().unwrap(),
            "results",
        ],
    );
    assert_eq!((r.code, r.stdout.as_str(), r.stderr.as_str()), (1, "", ""));
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert!(v["diagnostics"].as_array().unwrap().len() > 10);
    let r = run(&root, &["check", "-q", "-s", "results"]);
    assert_eq!(r.code, 2, "-q and -s together are refused");
}
