//! `benchlint check` in CI and in a person's hands: exit codes, output formats, selection,
//! severities, per-file ignores, the config file and its diagnostics, sidecars by glob, the
//! baseline, and SARIF against the SARIF 2.1.0 schema.

mod baseline;
mod exit_codes;
mod formats;
mod selection;
mod sidecar_globs;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

const FORMATS: &str = "testdata/cli/formats";
/// The fixture's config, named on the command line: a config found inside the checked paths
/// cannot lower the input errors' severity (`config::trust`), and this one makes E005 a note.
const FORMATS_CONFIG: &str = "testdata/cli/formats/benchlint.toml";
const SELECT: &str = "testdata/cli/select";

fn bin() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_benchlint"));
    c.env("NO_COLOR", "1")
        .env_remove("GITHUB_ACTIONS")
        .env_remove("CLICOLOR_FORCE")
        .env_remove("CLICOLOR");
    c
}

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

fn run_in(dir: Option<&Path>, args: &[&str]) -> Run {
    let mut c = bin();
    c.args(args);
    if let Some(d) = dir {
        c.current_dir(d);
    }
    let out = c.output().unwrap();
    Run {
        code: out.status.code().unwrap(),
        stdout: String::from_utf8(out.stdout).unwrap(),
        stderr: String::from_utf8(out.stderr).unwrap(),
    }
}

fn run(args: &[&str]) -> Run {
    run_in(None, args)
}

/// The codes of `check --format json` with `args`.
fn codes_in(dir: Option<&Path>, args: &[&str]) -> BTreeSet<String> {
    let mut all = vec!["check", "--format", "json"];
    all.extend_from_slice(args);
    let r = run_in(dir, &all);
    assert_ne!(r.code, 2, "{}", r.stderr);
    let v: Value = serde_json::from_str(&r.stdout).expect("JSON");
    v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["code"].as_str().unwrap().to_string())
        .collect()
}

fn codes(args: &[&str]) -> BTreeSet<String> {
    codes_in(None, args)
}

fn set(items: &[&str]) -> BTreeSet<String> {
    items.iter().map(ToString::to_string).collect()
}

fn snapshot(name: &str, text: &str) {
    insta::with_settings!({ snapshot_path => "snapshots/cli", prepend_module_to_snapshot => false }, {
        insta::assert_snapshot!(name, text);
    });
}

fn write(dir: &Path, rel: &str, text: &str) -> PathBuf {
    let p = dir.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(&p, text).unwrap();
    p
}

fn fixture(name: &str) -> String {
    std::fs::read_to_string(Path::new(FORMATS).join(name)).unwrap()
}
