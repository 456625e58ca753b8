//! `benchlint regress BASE HEAD`: every verdict and exit code on the command line, the worked
//! example's table, BASE against itself, `--fail-on`, `--threshold`, `--vary`, `--control`.

use std::time::Duration;

use serde_json::{Value, json};

use crate::support::regress::{BASE, HEAD, edited, json_of, regress, scale, verdict_at, verdicts};
use crate::support::watchdog::{bin, run};

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
