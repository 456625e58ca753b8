//! `benchlint regress BASE HEAD`: every verdict and exit code on the command line, the worked
//! example's table, BASE against itself, the JSON against its schema, the Markdown and GitHub
//! outputs (limits, order, neutralised file text), and rate-driven ladders of real harness
//! formats (inference-perf, GuideLLM constant rates, MLPerf Server) matched like concurrency
//! ladders, with a GuideLLM sweep NOT COMPARABLE level by level.

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::{Value, json};

use crate::support::realworld::sidecar;
use crate::support::watchdog::{Run, bin, run};

const BASE: &str = "testdata/regress/base";
const HEAD: &str = "testdata/regress/head";

fn regress(args: &[&str]) -> Run {
    regress_env(args, &[])
}

fn regress_env(args: &[&str], env: &[(&str, &Path)]) -> Run {
    let mut cmd = bin();
    cmd.arg("regress")
        .args(args)
        .env_remove("GITHUB_STEP_SUMMARY");
    for (k, v) in env {
        cmd.env(k, v);
    }
    run(cmd, Duration::from_secs(120))
}

fn json_of(args: &[&str]) -> (Value, i32) {
    let mut all = args.to_vec();
    all.extend(["--format", "json"]);
    let r = regress(&all);
    let v: Value = serde_json::from_slice(&r.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}\n{}", r.out(), r.err()));
    (v, r.code.expect("exited"))
}

/// `(level, metric) -> verdict` of configuration cells whose label contains `label`.
fn verdicts(v: &Value, speculative: bool) -> Vec<(String, String, String)> {
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

fn verdict_at(v: &Value, level: &str, metric: &str) -> String {
    verdicts(v, false)
        .into_iter()
        .chain(verdicts(v, true))
        .find(|(l, m, _)| l == level && m == metric)
        .map_or_else(|| panic!("no cell at {level} {metric}"), |(_, _, v)| v)
}

/// Copies the canonical files of `from` into `to`, each passed through `edit`.
fn edited(from: &str, to: &Path, edit: impl Fn(&str, &mut Value)) {
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
fn scale(v: &mut Value, streams: u64, factor: f64) {
    for level in v["levels"].as_array_mut().unwrap() {
        if level["concurrency"] == streams {
            let agg = level["throughput_tok_s"]["aggregate"].as_f64().unwrap();
            level["throughput_tok_s"]["aggregate"] = json!(agg * factor);
            let tpot = level["tpot_ms"]["p50"].as_f64().unwrap();
            level["tpot_ms"]["p50"] = json!(tpot / factor);
        }
    }
}

#[test]
fn worked_example_table() {
    let r = regress(&[BASE, HEAD]);
    assert_eq!(r.code, Some(1), "{}", r.err());
    insta::assert_snapshot!("regress_worked_example", r.out());
    let (v, code) = json_of(&[BASE, HEAD]);
    assert_eq!(code, 1);
    // One level genuinely slower, one equivalent, one too noisy.
    for metric in ["aggregate_tok_s", "tpot_p50_ms"] {
        assert_eq!(verdict_at(&v, "16", metric), "regression");
        assert_eq!(verdict_at(&v, "1", metric), "equivalent");
        assert_eq!(verdict_at(&v, "64", metric), "inconclusive");
    }
    // The speculative configuration: inconclusive, needing dozens of launches per side.
    let spec = verdicts(&v, true);
    assert_eq!(spec.len(), 6);
    assert!(spec.iter().all(|(_, _, v)| v == "inconclusive"), "{spec:?}");
    for c in v["cells"].as_array().unwrap() {
        if c["verdict"] == "inconclusive" {
            let n = c["launches_needed_per_side"].as_u64().unwrap();
            assert!(n > 3, "{c}");
        }
    }
    let spec_needs: Vec<u64> = v["cells"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["verdict"] == "inconclusive" && c["base"]["cv"].as_f64().unwrap() > 0.1)
        .map(|c| c["launches_needed_per_side"].as_u64().unwrap())
        .collect();
    assert!(spec_needs.iter().all(|&n| n >= 24), "{spec_needs:?}");
    // The 16-stream regression is confirmed: HEAD is 8.5% slower, its interval wholly past 5%.
    let cell = v["cells"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["level"]["value"] == 16 && c["metric"] == "aggregate_tok_s")
        .unwrap();
    assert_eq!(cell["confirmed"], true);
    let change = cell["effect"]["change"].as_f64().unwrap();
    // By hand: launch medians 1210/1198/1205 against 1102/1110/1095, geometric means
    // 1204.3 and 1102.3: 1102.3 / 1204.3 − 1 = −8.47%.
    assert!((change + 0.0847).abs() < 0.0005, "{change}");
}

#[test]
fn base_against_itself_is_no_regression() {
    let r = regress(&[BASE, BASE]);
    assert_eq!(r.code, Some(0), "{}", r.out());
    let (v, code) = json_of(&[BASE, BASE]);
    assert_eq!(code, 0);
    let cells = v["cells"].as_array().unwrap();
    assert_eq!(cells.len(), 15);
    assert!(cells.iter().all(|c| c["verdict"] != "regression"));
    assert!(
        cells
            .iter()
            .all(|c| c["effect"]["change"].as_f64() == Some(0.0))
    );
}

#[test]
fn json_holds_every_launch_and_validates() {
    let schema: Value = serde_json::from_slice(
        &run(
            {
                let mut c = bin();
                c.args(["schema", "regress"]);
                c
            },
            Duration::from_secs(30),
        )
        .stdout,
    )
    .unwrap();
    let validator = jsonschema::options().build(&schema).unwrap();
    let (v, _) = json_of(&[BASE, HEAD]);
    let errors: Vec<String> = validator.iter_errors(&v).map(|e| e.to_string()).collect();
    assert!(errors.is_empty(), "{errors:?}");
    for c in v["cells"].as_array().unwrap() {
        for side in ["base", "head"] {
            let launches = c[side]["launches"].as_array().unwrap();
            assert_eq!(launches.len(), 3);
            for l in launches {
                let runs = l["runs"].as_array().unwrap();
                assert_eq!(runs.len(), 2);
                let (a, b) = (
                    runs[0]["value"].as_f64().unwrap(),
                    runs[1]["value"].as_f64().unwrap(),
                );
                // The launch is the median of its runs (of two: their mean).
                assert!((l["value"].as_f64().unwrap() - f64::midpoint(a, b)).abs() < 1e-9);
            }
        }
    }
}

#[test]
fn fail_on_policies() {
    assert_eq!(regress(&[BASE, HEAD, "--fail-on", "none"]).code, Some(0));
    assert_eq!(
        regress(&[BASE, HEAD, "--fail-on", "confirmed"]).code,
        Some(1)
    );
    // BASE against itself has noisy cells: undecided fails on them.
    assert_eq!(
        regress(&[BASE, BASE, "--fail-on", "undecided"]).code,
        Some(1)
    );
    assert_eq!(
        regress(&[BASE, BASE, "--fail-on", "regression"]).code,
        Some(0)
    );
    // A lower threshold does not turn an 8.5% slowdown into anything else.
    assert_eq!(regress(&[BASE, HEAD, "--threshold", "2%"]).code, Some(1));
    // At T = 10% the 8.5% slowdown is no regression: significant, under T.
    let (v, code) = json_of(&[BASE, HEAD, "--threshold", "10%"]);
    assert_eq!(code, 0);
    assert_eq!(
        verdict_at(&v, "16", "aggregate_tok_s"),
        "slower_within_threshold"
    );
    // Bad arguments are exit 2.
    assert_eq!(regress(&[BASE, HEAD, "--threshold", "0"]).code, Some(2));
    assert_eq!(regress(&[BASE, HEAD, "--metric", "tokens"]).code, Some(2));
    assert_eq!(
        regress(&[BASE, HEAD, "--vary", "workload.name"]).code,
        Some(2)
    );
    assert_eq!(regress(&[BASE, "no/such/folder"]).code, Some(2));
}

#[test]
fn improved_when_head_is_faster() {
    // HEAD and BASE swapped: the 16-stream level got faster.
    let (v, code) = json_of(&[HEAD, BASE]);
    assert_eq!(code, 0);
    assert_eq!(verdict_at(&v, "16", "aggregate_tok_s"), "improved");
    assert_eq!(verdict_at(&v, "16", "tpot_p50_ms"), "improved");
}

#[test]
fn slower_and_faster_within_threshold() {
    let tmp = tempfile::tempdir().unwrap();
    let (slow, fast) = (tmp.path().join("slow"), tmp.path().join("fast"));
    edited(BASE, &slow, |_, v| scale(v, 1, 1.0 / 1.045));
    edited(BASE, &fast, |_, v| scale(v, 1, 1.045));
    let (v, code) = json_of(&[BASE, slow.to_str().unwrap(), "--metric", "aggregate_tok_s"]);
    assert_eq!(code, 0);
    assert_eq!(
        verdict_at(&v, "1", "aggregate_tok_s"),
        "slower_within_threshold"
    );
    let (v, _) = json_of(&[BASE, fast.to_str().unwrap(), "--metric", "aggregate_tok_s"]);
    assert_eq!(
        verdict_at(&v, "1", "aggregate_tok_s"),
        "faster_within_threshold"
    );
}

#[test]
fn one_launch_is_not_decidable() {
    let tmp = tempfile::tempdir().unwrap();
    let (b, h) = (tmp.path().join("b"), tmp.path().join("h"));
    edited(BASE, &b, |_, _| {});
    edited(HEAD, &h, |_, _| {});
    for dir in [&b, &h] {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            if !name.contains("-l1") {
                std::fs::remove_file(p).unwrap();
            }
        }
    }
    let (v, code) = json_of(&[b.to_str().unwrap(), h.to_str().unwrap()]);
    assert_eq!(code, 0);
    let cells = v["cells"].as_array().unwrap();
    assert!(cells.iter().all(|c| c["verdict"] == "not_decidable"));
    assert!(
        cells[0]["reasons"][0]
            .as_str()
            .unwrap()
            .contains("1 launch on BASE and 1 launch on HEAD")
    );
    let r = regress(&[
        b.to_str().unwrap(),
        h.to_str().unwrap(),
        "--fail-on",
        "undecided",
    ]);
    assert_eq!(r.code, Some(1));
    assert!(r.out().contains("NOT DECIDABLE"));
}

#[test]
fn other_settings_are_not_comparable_with_their_code() {
    let tmp = tempfile::tempdir().unwrap();
    let kv = tmp.path().join("kv");
    edited(HEAD, &kv, |_, v| {
        v["engine"]["kv_cache_dtype"] = json!("fp8");
    });
    let (v, code) = json_of(&[BASE, kv.to_str().unwrap()]);
    // Nothing is left to compare: never a silent pass.
    assert_eq!(code, 2);
    assert!(
        v["summary"]["reason"]
            .as_str()
            .unwrap()
            .contains("no comparable cell")
    );
    for c in v["cells"].as_array().unwrap() {
        assert_eq!(c["verdict"], "not_comparable");
        assert_eq!(c["codes"], json!(["C008"]), "{c}");
    }
    // Varying the field makes it what is compared.
    let (v, code) = json_of(&[
        BASE,
        kv.to_str().unwrap(),
        "--vary",
        "engine.kv_cache_dtype",
    ]);
    assert_eq!(code, 1);
    assert_eq!(verdict_at(&v, "16", "aggregate_tok_s"), "regression");

    let prec = tmp.path().join("prec");
    edited(HEAD, &prec, |_, v| v["model"]["precision"] = json!("fp8"));
    let (v, _) = json_of(&[BASE, prec.to_str().unwrap()]);
    assert!(
        v["cells"]
            .as_array()
            .unwrap()
            .iter()
            .all(|c| c["codes"] == json!(["C001"]))
    );

    // Other hardware: NOT COMPARABLE, never a regression; the field is named.
    let hw = tmp.path().join("hw");
    edited(HEAD, &hw, |_, v| {
        v["platform"]["device"]["model"] = json!("NVIDIA H200");
    });
    let r = regress(&[BASE, hw.to_str().unwrap()]);
    assert_eq!(r.code, Some(2));
    assert!(
        r.out()
            .contains("platform.device.model is NVIDIA H200 on HEAD"),
        "{}",
        r.out()
    );
    assert!(r.err().contains("no comparable cell"), "{}", r.err());
    assert!(!r.out().contains("REGRESSION"));
}

#[test]
fn a_configuration_on_one_side_is_missing() {
    let tmp = tempfile::tempdir().unwrap();
    let h = tmp.path().join("h");
    edited(HEAD, &h, |_, _| {});
    for e in std::fs::read_dir(&h).unwrap() {
        let p = e.unwrap().path();
        if p.file_name().unwrap().to_string_lossy().starts_with("s-") {
            std::fs::remove_file(p).unwrap();
        }
    }
    let (v, code) = json_of(&[BASE, h.to_str().unwrap()]);
    assert_eq!(code, 1);
    let missing: Vec<&Value> = v["cells"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["verdict"] == "missing")
        .collect();
    assert_eq!(missing.len(), 6);
    assert!(
        missing[0]["reasons"][0]
            .as_str()
            .unwrap()
            .contains("on BASE only")
    );
    // An empty HEAD: no cell can be compared.
    let empty = tmp.path().join("empty");
    std::fs::create_dir_all(&empty).unwrap();
    assert_eq!(regress(&[BASE, empty.to_str().unwrap()]).code, Some(2));
}

#[test]
fn an_unreadable_input_is_an_error() {
    let tmp = tempfile::tempdir().unwrap();
    let h = tmp.path().join("h");
    edited(HEAD, &h, |_, _| {});
    std::fs::write(
        h.join("broken.json"),
        "{ \"schema\": \"benchlint/result/v1\", ",
    )
    .unwrap();
    let r = regress(&[BASE, h.to_str().unwrap()]);
    assert_eq!(r.code, Some(2));
    assert!(
        r.err().contains("HEAD: 1 input could not be read"),
        "{}",
        r.err()
    );
}

#[test]
fn markdown_lists_failing_cells_first_with_a_picture() {
    let r = regress(&[BASE, HEAD, "--format", "markdown"]);
    assert_eq!(r.code, Some(1));
    let md = r.out();
    assert!(md.len() < 1_000_000);
    let failing = md.find("### Failing cells").unwrap();
    let details = md.find("### By configuration").unwrap();
    assert!(failing < details);
    assert!(md.contains("❌ **3 cells fail --fail-on regression**"));
    // Each configuration's picture: BASE and HEAD bars with their centres.
    assert_eq!(md.matches("```text").count(), 2);
    assert!(
        md.lines()
            .any(|l| l.trim_start().starts_with("16  B ") && l.contains('●'))
    );
}

#[test]
fn github_annotations_are_capped_worst_first() {
    let tmp = tempfile::tempdir().unwrap();
    let summary = tmp.path().join("summary.md");
    let r = regress_env(
        &[BASE, HEAD, "--format", "github", "--fail-on", "undecided"],
        &[("GITHUB_STEP_SUMMARY", &summary)],
    );
    assert_eq!(r.code, Some(1));
    let out = r.out();
    let errors: Vec<&str> = out.lines().filter(|l| l.starts_with("::error")).collect();
    // 3 regressions and 9 inconclusive cells fail: 10 shown, regressions first.
    assert_eq!(errors.len(), 10);
    assert!(
        errors[..3].iter().all(|l| l.contains("REGRESSION")),
        "{out}"
    );
    assert!(
        out.lines()
            .any(|l| l.starts_with("::notice") && l.contains("2 more errors"))
    );
    assert!(out.lines().all(|l| l.starts_with("::")));
    let md = std::fs::read_to_string(&summary).unwrap();
    assert!(md.contains("### Failing cells"));
}

#[test]
fn file_text_is_neutralised_in_every_format() {
    let tmp = tempfile::tempdir().unwrap();
    let (b, h) = (tmp.path().join("b"), tmp.path().join("h"));
    let hostile = "llama\n::error::pwned | <b>x</b> `tick`";
    edited(BASE, &b, |_, v| v["model"]["name"] = json!(hostile));
    edited(HEAD, &h, |_, v| v["model"]["name"] = json!(hostile));
    let (bs, hs) = (b.to_str().unwrap(), h.to_str().unwrap());
    let gh = regress(&[bs, hs, "--format", "github", "--fail-on", "undecided"]).out();
    assert!(!gh.lines().any(|l| l.starts_with("::error::pwned")), "{gh}");
    let human = regress(&[bs, hs]).out();
    assert!(!human.lines().any(|l| l.starts_with("::")), "{human}");
    let md = regress(&[bs, hs, "--format", "markdown"]).out();
    assert!(!md.contains("<b>x</b>"), "{md}");
    assert!(!md.lines().any(|l| l.starts_with("::")));
}

/// A side of `launches` launches, each a copy of `files` (relative to `src`) with a sidecar
/// naming the launch, the engine version and the identity the harness file does not record.
fn rate_side(dir: &Path, src: &Path, files: &[&str], version: &str, identity: &Value) {
    for launch in ["l1", "l2"] {
        for f in files {
            let to = dir.join(launch).join(f);
            std::fs::create_dir_all(to.parent().unwrap()).unwrap();
            std::fs::copy(src.join(f), &to).unwrap();
        }
        let mut meta = identity.clone();
        meta["launch"] = json!({ "id": format!("{version}-{launch}") });
        meta["engine"]["version"] = json!(version);
        sidecar(&dir.join(launch).join(files[0]), &meta);
    }
}

fn rate_ladder(src: &str, files: &[&str], identity: &Value) -> Value {
    let tmp = tempfile::tempdir().unwrap();
    let (b, h) = (tmp.path().join("b"), tmp.path().join("h"));
    rate_side(&b, Path::new(src), files, "0.11.0", identity);
    rate_side(&h, Path::new(src), files, "0.11.1", identity);
    let (v, code) = json_of(&[b.to_str().unwrap(), h.to_str().unwrap()]);
    assert_eq!(code, 0, "{v}");
    v
}

fn rate_levels(v: &Value) -> Vec<(f64, String)> {
    let mut out: Vec<(f64, String)> = v["cells"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["metric"] == "aggregate_tok_s")
        .map(|c| {
            assert_eq!(c["level"]["kind"], "request_rate", "{c}");
            (
                c["level"]["value"].as_f64().unwrap(),
                c["verdict"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    out.sort_by(|a, b| a.0.total_cmp(&b.0));
    out
}

#[test]
fn rate_ladders_match_like_concurrency_ladders() {
    let id = json!({ "engine": { "name": "vllm" },
                     "platform": { "device": { "model": "NVIDIA L40S" } },
                     "model": { "precision": "bf16" } });
    // inference-perf: one run folder, two stages at 2 and 8 req/s.
    let v = rate_ladder(
        "testdata/adapters/inference-perf/older-stages-rates-in-config",
        &[
            "stage_0_lifecycle_metrics.json",
            "config.yaml",
            "stage_1_lifecycle_metrics.json",
            "summary_lifecycle_metrics.json",
        ],
        &id,
    );
    // The same launches on both sides: equivalent at 2 req/s, exactly; the 8 req/s stage
    // had failed requests, so its runs do not enter the cell (R006) and nothing is left.
    assert_eq!(
        rate_levels(&v),
        vec![(2.0, "equivalent".into()), (8.0, "not_decidable".into())]
    );
    let eight = v["cells"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["level"]["value"] == 8.0)
        .unwrap();
    let why = eight["reasons"][0].as_str().unwrap();
    assert!(
        why.contains("2 runs of BASE left out: failed requests (R006)"),
        "{why}"
    );
    // GuideLLM at fixed constant rates.
    let mut gid = id.clone();
    gid["workload"] = json!({ "name": "chat-114" });
    let v = rate_ladder("testdata/regress/rates", &["guidellm-constant.json"], &gid);
    assert_eq!(
        rate_levels(&v),
        vec![(2.0, "equivalent".into()), (4.0, "equivalent".into())]
    );
    // MLPerf Server at its target rate.
    let mut mid = id.clone();
    mid["model"]["name"] = json!("meta-llama/Llama-2-70b-chat-hf");
    mid["workload"] = json!({ "name": "open-orca" });
    let v = rate_ladder(
        "testdata/regress/rates/mlperf-server",
        &["mlperf_log_summary.txt"],
        &mid,
    );
    let levels = rate_levels(&v);
    assert_eq!(levels.len(), 1, "{levels:?}");
    assert_eq!(levels[0].1, "equivalent");
}

#[test]
fn a_guidellm_sweep_is_not_comparable_level_by_level() {
    let tmp = tempfile::tempdir().unwrap();
    let (b, h) = (tmp.path().join("b"), tmp.path().join("h"));
    let id = json!({ "engine": { "name": "vllm" },
                     "platform": { "device": { "model": "NVIDIA L40S" } },
                     "model": { "precision": "bf16" }, "workload": { "name": "chat-114" } });
    let src = Path::new("testdata/regress/rates");
    for (dir, file, version) in [
        (&b, "guidellm-sweep-base.json", "0.11.0"),
        (&h, "guidellm-sweep-head.json", "0.11.1"),
    ] {
        for launch in ["l1", "l2"] {
            let to = dir.join(launch).join("sweep.json");
            std::fs::create_dir_all(to.parent().unwrap()).unwrap();
            std::fs::copy(src.join(file), &to).unwrap();
            let mut meta = id.clone();
            meta["launch"] = json!({ "id": format!("{version}-{launch}") });
            meta["engine"]["version"] = json!(version);
            sidecar(&to, &meta);
        }
    }
    let (v, code) = json_of(&[b.to_str().unwrap(), h.to_str().unwrap()]);
    assert_eq!(code, 0, "{v}");
    let cells = v["cells"].as_array().unwrap();
    let finite: Vec<&Value> = cells
        .iter()
        .filter(|c| c["level"]["value"].is_f64())
        .collect();
    // 3.1 and 5.7 req/s on BASE, 3.3 and 6.0 on HEAD: none of them is matched.
    assert!(!finite.is_empty());
    for c in &finite {
        assert_eq!(c["verdict"], "not_comparable", "{c}");
        assert!(
            c["reasons"][0]
                .as_str()
                .unwrap()
                .contains("GuideLLM sweep chose this rate")
        );
    }
    // The synchronous and throughput runs are fixed levels: compared.
    assert!(
        cells
            .iter()
            .filter(|c| !c["level"]["value"].is_f64())
            .all(|c| c["verdict"] == "equivalent")
    );
}

#[test]
fn readme_shows_the_expected_table() {
    let readme = std::fs::read_to_string("README.md").unwrap();
    let table = regress(&[BASE, HEAD]).out();
    assert!(
        readme.contains(&table),
        "README's regress section is out of date: paste the output of `benchlint regress {BASE} {HEAD}`"
    );
}

#[test]
fn a_control_sets_the_noise_floor() {
    let tmp = tempfile::tempdir().unwrap();
    let control = tmp.path().join("control");
    // A second set of BASE launches whose first launch is 12% faster at one stream.
    edited(BASE, &control, |name, v| {
        if name.starts_with("a-l1") {
            scale(v, 1, 1.12);
        }
    });
    let (v, _) = json_of(&[BASE, HEAD, "--control", control.to_str().unwrap()]);
    assert_eq!(v["params"]["control"], true);
    let cell = v["cells"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| {
            c["level"]["value"] == 1
                && c["metric"] == "aggregate_tok_s"
                && c["base"]["cv"].as_f64().unwrap() < 0.05
        })
        .unwrap();
    assert_eq!(cell["noise_floor"]["source"], "control", "{cell}");
    let floor = cell["noise_floor"]["value"].as_f64().unwrap();
    // The pairs: +12%, 0%, 0% → max |d| is not used at P = 3; 2.77·sqrt(0.12²/6) = 13.6%.
    assert!(
        (floor - 2.77 * (0.12f64 * 0.12 / 6.0).sqrt()).abs() < 1e-6,
        "{floor}"
    );
    assert!(
        cell["reasons"][0]
            .as_str()
            .unwrap()
            .contains("below the noise floor")
    );
    assert_eq!(cell["control"]["launches"].as_array().unwrap().len(), 3);
}

#[test]
fn hostile_inputs_neither_panic_nor_hang() {
    let r = regress(&["testdata/hostile", "testdata/hostile"]);
    assert!(matches!(r.code, Some(0..=2)), "{:?} {}", r.code, r.err());
    assert!(!r.err().contains("panicked"), "{}", r.err());
}
