//! Where output goes and how it looks: `BENCHLINT_OUTPUT_FORMAT`, `--output-file`, the man
//! pages, and the progress line (for a terminal, never for a pipe or CI).

use std::path::Path;
use std::process::Command;

use serde_json::Value;

use super::{bin, output, run, scratch};

// ---------------------------------------------------------------------------------------------
// BENCHLINT_OUTPUT_FORMAT, --output-file

#[test]
fn the_output_format_from_the_environment_and_the_flag_over_it() {
    let (_tmp, root) = scratch();
    let r = output(
        bin(&root)
            .env("BENCHLINT_OUTPUT_FORMAT", "json")
            .args(["check", "results"]),
    );
    assert_eq!(r.code, 1);
    let v: Value = serde_json::from_str(&r.stdout).expect("JSON from the environment");
    assert!(v["diagnostics"].is_array());
    let r = output(
        bin(&root)
            .env("BENCHLINT_OUTPUT_FORMAT", "json")
            .args(["check", "--format", "concise", "results"]),
    );
    assert!(
        r.stdout.lines().last().unwrap().starts_with("Found "),
        "{}",
        r.stdout
    );
    let r = output(
        bin(&root)
            .env("BENCHLINT_OUTPUT_FORMAT", "xml")
            .args(["check", "results"]),
    );
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("xml"), "{}", r.stderr);
}

#[test]
fn output_file_as_ruff_spells_it_and_the_old_spellings() {
    let (tmp, root) = scratch();
    for (i, flag) in ["--output-file", "--output", "-o"].iter().enumerate() {
        let out = tmp.path().join(format!("out{i}.txt"));
        let r = run(
            &root,
            &[
                "check",
                "--format",
                "concise",
                flag,
                out.to_str().unwrap(),
                "results",
            ],
        );
        assert_eq!((r.code, r.stdout.as_str()), (1, ""), "{flag}");
        let text = std::fs::read_to_string(&out).unwrap();
        assert!(
            text.lines().last().unwrap().starts_with("Found "),
            "{flag}: {text}"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Man pages

#[test]
fn a_man_page_for_every_command_the_main_page_names() {
    let tmp = tempfile::tempdir().unwrap();
    let main = run(tmp.path(), &["manpage"]);
    assert_eq!(main.code, 0);
    let named: Vec<String> = main
        .stdout
        .lines()
        .filter_map(|l| l.strip_prefix("benchlint\\-"))
        .filter_map(|l| l.strip_suffix("(1)"))
        .map(|c| format!("benchlint-{c}.1"))
        .collect();
    assert!(named.len() >= 12, "{named:?}");
    let dir = tmp.path().join("man");
    let r = run(tmp.path(), &["manpage", "--dir", dir.to_str().unwrap()]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    for page in &named {
        let text = std::fs::read_to_string(dir.join(page)).unwrap_or_else(|_| panic!("{page}"));
        assert!(
            text.contains(&format!(".TH {}", page.trim_end_matches(".1"))),
            "{page}"
        );
    }
    assert!(dir.join("benchlint.1").is_file());
    let check = run(tmp.path(), &["manpage", "check"]);
    assert_eq!(check.code, 0);
    assert!(
        check.stdout.contains(".TH benchlint\\-check")
            || check.stdout.contains(".TH benchlint-check")
    );
    assert!(
        check.stdout.contains("stdin\\-filename"),
        "the options are on the page"
    );
    let r = run(tmp.path(), &["manpage", "nosuch"]);
    assert_eq!(r.code, 2);
}

// ---------------------------------------------------------------------------------------------
// The progress line

/// Runs `check` on `corpus` under a terminal (`script`), report to a file; what the terminal got.
fn under_a_terminal(corpus: &Path, ci: bool) -> Option<String> {
    if Command::new("script").arg("--version").output().is_err() {
        eprintln!(
            "SKIP: `script` (util-linux) is not installed; no terminal to try the progress line on"
        );
        return None;
    }
    let tmp = tempfile::tempdir().unwrap();
    let log = tmp.path().join("terminal.log");
    let report = tmp.path().join("report.json");
    let command = format!(
        "{} check --format json {} > {}",
        env!("CARGO_BIN_EXE_benchlint"),
        corpus.display(),
        report.display()
    );
    let mut c = Command::new("script");
    c.args(["-qc", &command, log.to_str().unwrap()])
        .env_remove("CI");
    if ci {
        c.env("CI", "true");
    }
    let _ = c.output().unwrap();
    Some(std::fs::read_to_string(&log).unwrap_or_default())
}

#[test]
fn the_progress_line_is_for_a_terminal_and_never_for_a_pipe_or_ci() {
    let Some(corpus) = crate::support::realworld::real("") else {
        eprintln!("SKIP: ../shared/realworld is absent; no run long enough for the progress line");
        return;
    };
    // A pipe: never, however long the run.
    let r = output(
        bin(Path::new("."))
            .env_remove("CI")
            .args(["check", "--format", "json"])
            .arg(&corpus),
    );
    assert!(!r.stderr.contains("checking,"), "{}", r.stderr);
    let Some(terminal) = under_a_terminal(&corpus, false) else {
        return;
    };
    // The dev build takes more than a second on the corpus: the line is drawn, then erased.
    if let Some(last) = terminal.rfind("benchlint: checking,") {
        assert!(
            terminal[last..].contains("\r\x1b[2K"),
            "erased at the end: {terminal:?}"
        );
    } else {
        eprintln!("SKIP: the run took less than a second; the line is not drawn");
    }
    let ci = under_a_terminal(&corpus, true).unwrap();
    assert!(!ci.contains("benchlint: checking,"), "{ci}");
}
