//! Helpers of the regress tests: running `benchlint regress`, reading its JSON, and writing
//! variants of the worked example (`testdata/regress`).

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::{Value, json};

use super::watchdog::{Run, bin, run};

pub const BASE: &str = "testdata/regress/base";
pub const HEAD: &str = "testdata/regress/head";

pub fn regress(args: &[&str]) -> Run {
    regress_env(args, &[])
}

pub fn regress_env(args: &[&str], env: &[(&str, &Path)]) -> Run {
    let mut cmd = bin();
    cmd.arg("regress")
        .args(args)
        .env_remove("GITHUB_STEP_SUMMARY");
    for (k, v) in env {
        cmd.env(k, v);
    }
    run(cmd, Duration::from_secs(120))
}

pub fn json_of(args: &[&str]) -> (Value, i32) {
    let mut all = args.to_vec();
    all.extend(["--format", "json"]);
    let r = regress(&all);
    let v: Value = serde_json::from_slice(&r.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}\n{}", r.out(), r.err()));
    (v, r.code.expect("exited"))
}

/// `(level, metric, verdict)` of the cells of the (non-)speculative configurations.
pub fn verdicts(v: &Value, speculative: bool) -> Vec<(String, String, String)> {
    let configs = v["configurations"].as_array().unwrap();
    let fps: Vec<&str> = configs
        .iter()
        .filter(|c| c["speculative"] == speculative)
        .map(|c| c["fingerprint"].as_str().unwrap())
        .collect();
    v["cells"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| fps.contains(&c["configuration"].as_str().unwrap()))
        .map(|c| {
            (
                c["level"]["value"].to_string(),
                c["metric"].as_str().unwrap().to_string(),
                c["verdict"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

pub fn verdict_at(v: &Value, level: &str, metric: &str) -> String {
    verdicts(v, false)
        .into_iter()
        .chain(verdicts(v, true))
        .find(|(l, m, _)| l == level && m == metric)
        .map_or_else(|| panic!("no cell at {level} {metric}"), |(_, _, v)| v)
}

/// Copies the canonical files of `from` into `to`, each passed through `edit`.
pub fn edited(from: &str, to: &Path, edit: impl Fn(&str, &mut Value)) {
    std::fs::create_dir_all(to).unwrap();
    let mut names: Vec<PathBuf> = std::fs::read_dir(from)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    names.sort();
    for p in names {
        let mut v: Value = serde_json::from_str(&std::fs::read_to_string(&p).unwrap()).unwrap();
        let name = p.file_name().unwrap().to_string_lossy().into_owned();
        edit(&name, &mut v);
        std::fs::write(to.join(&name), serde_json::to_string_pretty(&v).unwrap()).unwrap();
    }
}

/// Multiplies every throughput at `streams` by `factor` (and divides TPOT by it).
pub fn scale(v: &mut Value, streams: u64, factor: f64) {
    for level in v["levels"].as_array_mut().unwrap() {
        if level["concurrency"] == streams {
            let agg = level["throughput_tok_s"]["aggregate"].as_f64().unwrap();
            level["throughput_tok_s"]["aggregate"] = json!(agg * factor);
            let tpot = level["tpot_ms"]["p50"].as_f64().unwrap();
            level["tpot_ms"]["p50"] = json!(tpot / factor);
        }
    }
}
