//! The linter conventions of `check`, spelled as ruff spells them: `-q`/`--quiet`,
//! `-s`/`--silent`, `--config KEY=VALUE`, `extend` in the config, `exclude`/`extend-exclude`,
//! `.gitignore` (`--no-respect-gitignore`, `--force-exclude`), `BENCHLINT_OUTPUT_FORMAT`,
//! `--output-file`, standard input (`-`, `--stdin-filename`) and the man pages. Each runs the
//! built binary on a copy of `testdata/cli/lintopts` and looks at what a user sees: exit code,
//! stdout, stderr.

mod config_overrides;
mod exclusion;
mod output_and_progress;
mod quiet_and_silent;
mod standard_input;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

const FIXTURE: &str = "testdata/cli/lintopts";

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

fn bin(dir: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_benchlint"));
    c.current_dir(dir)
        .env("NO_COLOR", "1")
        .env_remove("GITHUB_ACTIONS")
        .env_remove("BENCHLINT_OUTPUT_FORMAT")
        .env_remove("CLICOLOR_FORCE");
    c
}

fn output(c: &mut Command) -> Run {
    let out = c.output().unwrap();
    Run {
        code: out.status.code().unwrap(),
        stdout: String::from_utf8(out.stdout).unwrap(),
        stderr: String::from_utf8(out.stderr).unwrap(),
    }
}

fn run(dir: &Path, args: &[&str]) -> Run {
    output(bin(dir).args(args))
}

/// A copy of the fixture in a scratch folder (outside any git work tree).
fn scratch() -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("repo");
    copy_dir(Path::new(FIXTURE), &root);
    (tmp, root)
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let target = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), target).unwrap();
        }
    }
}

/// Count of findings per code and the files they are on, from `check --format json`.
fn findings(dir: &Path, args: &[&str]) -> (BTreeMap<String, usize>, Vec<String>) {
    let mut all = vec!["check", "--format", "json"];
    all.extend_from_slice(args);
    let r = run(dir, &all);
    assert_ne!(r.code, 2, "{}", r.stderr);
    let v: Value = serde_json::from_str(&r.stdout).expect("JSON");
    let mut codes = BTreeMap::new();
    let mut files: Vec<String> = Vec::new();
    for d in v["diagnostics"].as_array().unwrap() {
        *codes
            .entry(d["code"].as_str().unwrap().to_string())
            .or_insert(0) += 1;
        let f = d["location"]["path"]
            .as_str()
            .or_else(|| d["path"].as_str())
            .unwrap_or_default()
            .to_string();
        if !files.contains(&f) {
            files.push(f);
        }
    }
    files.sort();
    (codes, files)
}

fn files_read(dir: &Path, args: &[&str]) -> Vec<String> {
    let mut all = vec!["check", "--show-files"];
    all.extend_from_slice(args);
    let r = run(dir, &all);
    assert_ne!(r.code, 2, "{}", r.stderr);
    r.stdout
        .lines()
        // `READER  PATH` (the fixture's paths hold no space).
        .filter_map(|l| l.split_whitespace().last())
        .filter(|p| p.contains('.'))
        .map(ToString::to_string)
        .collect()
}
