//! SARIF logs against the SARIF 2.1.0 schema and Microsoft's SARIF multitool, and a log past
//! 25,000 results that keeps the errors and says what it left out.

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::Value;

use super::{DEMO, ENERGY, REALWORLD, SARIF_SCHEMA, check_in, github_accepts};
use crate::scaling::results_file;
use crate::support::watchdog::{bin, run};

/// The SARIF logs the validators see: the demo corpus, the corpus findings, the real corpus.
fn logs_to_validate(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for (name, args) in [
        ("demo.sarif", vec![DEMO, "--isolated"]),
        ("energy.sarif", vec![ENERGY, "--isolated"]),
        ("realworld.sarif", vec![REALWORLD, "--isolated"]),
    ] {
        if !Path::new(args[0]).exists() {
            println!("not validated: {} is absent", args[0]);
            continue;
        }
        let mut a = args.clone();
        a.extend(["--format", "sarif", "--project-root", "."]);
        let r = check_in(Path::new("."), &a);
        let path = dir.join(name);
        std::fs::write(&path, r.out()).unwrap();
        out.push(path);
    }
    out
}

#[test]
fn the_logs_validate_against_the_sarif_schema() {
    let Ok(text) = std::fs::read_to_string(SARIF_SCHEMA) else {
        println!("skipped the schema check: {SARIF_SCHEMA} is absent");
        return;
    };
    let schema: Value = serde_json::from_str(&text).unwrap();
    let validator = jsonschema::options().build(&schema).unwrap();
    let tmp = tempfile::tempdir().unwrap();
    for log in logs_to_validate(tmp.path()) {
        let v: Value = serde_json::from_str(&std::fs::read_to_string(&log).unwrap()).unwrap();
        let errors: Vec<String> = validator.iter_errors(&v).map(|e| e.to_string()).collect();
        assert!(errors.is_empty(), "{}: {errors:#?}", log.display());
    }
}

/// Microsoft's SARIF multitool as `.ci/run` installs it (`.ci/sarif`, `npm ci`).
fn multitool() -> Option<PathBuf> {
    let bin = Path::new(".ci/sarif/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool");
    bin.is_file().then(|| bin.to_path_buf())
}

#[test]
fn the_sarif_multitool_finds_no_error() {
    let Some(tool) = multitool() else {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI is set but the SARIF multitool is not installed (.ci/run runs `npm ci` in .ci/sarif)"
        );
        println!("skipped: the SARIF multitool is not installed (`npm ci` in .ci/sarif)");
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    for log in logs_to_validate(tmp.path()) {
        let report = tmp.path().join("validation.sarif");
        let _ = std::fs::remove_file(&report);
        let mut c = std::process::Command::new(&tool);
        c.arg("validate")
            .args(["--rule-kind", "Sarif;Gh", "--output"])
            .arg(&report)
            .arg(&log)
            // The tool's .NET runtime needs no ICU for this.
            .env("DOTNET_SYSTEM_GLOBALIZATION_INVARIANT", "1");
        let r = run(c, Duration::from_secs(600));
        assert_eq!(r.code, Some(0), "{}\n{}", r.out(), r.err());
        let v: Value = serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
        let found: Vec<String> = v["runs"][0]["results"]
            .as_array()
            .map(|a| {
                a.iter()
                    .filter(|x| {
                        x["level"] == "error"
                            || x["ruleId"] == "SARIF2017"
                            || x["ruleId"].as_str().is_some_and(|id| id.starts_with("GH"))
                    })
                    .map(|x| format!("{} {}", x["ruleId"], x["message"]))
                    .collect()
            })
            .unwrap_or_default();
        assert!(found.is_empty(), "{}: {found:#?}", log.display());
    }
}

#[test]
fn a_log_past_25000_results_keeps_the_errors_and_says_what_it_left_out() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    for k in 0..30 {
        results_file(&dir.join(format!("r{k:02}.jsonl")), 100);
    }
    std::fs::write(
        dir.join("uncapped.toml"),
        "[thresholds]\nmax_findings_per_file = 100000000\nmax_findings = 100000000\n",
    )
    .unwrap();
    let json = check_in(dir, &[".", "--config", "uncapped.toml", "--format", "json"]);
    let all: Value = serde_json::from_str(&json.out()).unwrap();
    let summary = &all["summary"];
    let total = all["diagnostics"].as_array().unwrap().len();
    assert!(total > 25_000, "the corpus makes {total} findings");
    let r = check_in(
        dir,
        &[".", "--config", "uncapped.toml", "--format", "sarif"],
    );
    let results = github_accepts(&r.out());
    assert_eq!(results.len(), 25_000);
    let last = results.last().unwrap();
    assert_eq!(last["ruleId"], "benchlint/cut");
    let left_out = total - 24_999;
    let text = last["message"]["text"].as_str().unwrap();
    assert!(
        text.starts_with(&format!("{left_out} findings were left out")),
        "{text}"
    );
    // Errors are kept first, then warnings.
    let count = |level: &str| {
        results
            .iter()
            .filter(|r| r["level"] == level && r["ruleId"] != "benchlint/cut")
            .count()
    };
    let errors = usize::try_from(summary["errors"].as_u64().unwrap()).unwrap();
    let warnings = usize::try_from(summary["warnings"].as_u64().unwrap()).unwrap();
    assert_eq!(count("error"), errors.min(24_999));
    assert_eq!(count("warning"), warnings.min(24_999 - count("error")));
    assert!(
        r.err()
            .contains(&format!("{left_out} findings were left out")),
        "said on stderr: {}",
        r.err()
    );
    // The step summary of the same corpus stays under 1 MiB and says what it does not list.
    let summary = dir.join("summary.md");
    let mut c = bin();
    c.current_dir(dir)
        .env("GITHUB_STEP_SUMMARY", &summary)
        .args([
            "check",
            ".",
            "--config",
            "uncapped.toml",
            "--format",
            "github",
        ]);
    let r = run(c, Duration::from_secs(300));
    assert_eq!(r.out().lines().count(), total);
    let text = std::fs::read_to_string(&summary).unwrap();
    assert!(text.len() < 1_048_576, "{} bytes", text.len());
    assert!(
        text.contains(&format!(" of {total} findings are not listed")),
        "{}",
        &text[text.len() - 300..]
    );
}
