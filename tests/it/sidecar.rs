//! `benchlint sidecar`: the skeleton of each file's sidecar (snapshots), the round trip (a
//! skeleton completed with realistic values makes the checklist findings go away, on a file of
//! ours and on a real vLLM file), where skeletons are written and what is refused, and the help
//! of a missing checklist item on a harness's file.

mod help_and_secrets;
mod round_trip;
mod skeletons;
mod where_written;

use std::path::Path;
use std::process::Command;

use serde_json::Value;

const VLLM: &str = "testdata/sidecar/vllm/qwen3-8b-fp8.jsonl";
const CANONICAL: &str = "testdata/sidecar/canonical/typed-command.jsonl";

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

fn run_in(dir: Option<&Path>, args: &[&str]) -> Run {
    let mut c = Command::new(env!("CARGO_BIN_EXE_benchlint"));
    c.env("NO_COLOR", "1").args(args);
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

fn snapshot(name: &str, text: &str) {
    insta::with_settings!({ snapshot_path => "snapshots/sidecar", prepend_module_to_snapshot => false }, {
        insta::assert_snapshot!(name, text);
    });
}

/// `check --format json` of `file`: its diagnostics.
fn diagnostics(file: &Path) -> Vec<Value> {
    let r = run(&[
        "check",
        "--format",
        "json",
        "--isolated",
        &file.to_string_lossy(),
    ]);
    assert_ne!(r.code, 2, "{}", r.stderr);
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    v["diagnostics"].as_array().unwrap().clone()
}
