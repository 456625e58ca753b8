//! Tokens per watt (`tok_s_per_w`) on `testdata/corpora/energy/`: three two-device platforms
//! measured over three launches each, two of them at the wall (a GB10 pair, an RTX PRO 6000
//! workstation) and one on the device rail (two H200s). Seed 004: "A wall number and a device
//! number must never appear in the same comparison." The per-watt ratio across wall and device
//! is retracted with C006 in every form of the audit report, saying why; the one within wall
//! power stands. So is one between an MLPerf Inference power run, whose wall power comes from
//! SPEC PTDaemon's samples beside its loadgen logs, and the H200s' device power.

use std::path::Path;
use std::process::Command;

use serde_json::Value;

const CORPUS: &str = "testdata/corpora/energy";
const CROSS_KIND: &str = "spark-pair-beats-h200-per-watt";
const SAME_KIND: &str = "spark-pair-beats-rtx-per-watt";

fn bin() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_benchlint"));
    c.env("NO_COLOR", "1");
    c
}

fn claim<'v>(report: &'v Value, id: &str) -> &'v Value {
    report["claims"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["id"] == id)
        .unwrap_or_else(|| panic!("no claim {id} in {report:#}"))
}

fn reasons(claim: &Value) -> String {
    claim["reasons"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_str().unwrap())
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn a_per_watt_ratio_across_wall_and_device_is_retracted_in_every_report() {
    let out = tempfile::tempdir().unwrap();
    let dir = out.path().join("report");
    let run = bin()
        .args([
            "audit",
            CORPUS,
            "--claims",
            &format!("{CORPUS}/claims.json"),
            "-o",
        ])
        .arg(&dir)
        .output()
        .unwrap();
    // A retracted claim fails the run.
    assert_eq!(run.status.code(), Some(1), "{run:?}");

    let json: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("report.json")).unwrap()).unwrap();
    let cross = claim(&json, CROSS_KIND);
    assert_eq!(cross["verdict"], "retracted", "{cross:#}");
    assert!(
        cross["codes"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c == "C006"),
        "{cross:#}"
    );
    let why = reasons(cross);
    assert!(
        why.contains("at the wall on the subject and on the device rail on the baseline"),
        "{why}"
    );
    assert!(
        why.contains("tokens per watt across them has no basis"),
        "{why}"
    );
    // No value is restated from a comparison that has no basis.
    assert!(cross["restated_value"].is_null(), "{cross:#}");

    let same = claim(&json, SAME_KIND);
    assert_ne!(same["verdict"], "retracted", "{same:#}");
    assert_eq!(same["verdict"], "upheld", "{same:#}");
    assert!(
        !same["codes"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c == "C006"),
        "{same:#}"
    );

    let md = std::fs::read_to_string(dir.join("report.md")).unwrap();
    let section = md
        .split(CROSS_KIND)
        .skip(1)
        .collect::<Vec<_>>()
        .join(CROSS_KIND);
    assert!(section.contains("C006"), "{md}");
    assert!(
        section.contains("a wall number and a device number never belong in one comparison"),
        "{md}"
    );

    let html = std::fs::read_to_string(dir.join("report.html")).unwrap();
    assert!(html.contains(CROSS_KIND) && html.contains("C006"), "{html}");
    assert!(
        html.contains("a wall number and a device number never belong in one comparison"),
        "the HTML report says why"
    );
}

#[test]
fn check_reports_c006_on_the_cross_kind_claim_only() {
    let run = bin()
        .args(["check", CORPUS, "--format", "json", "--select", "C006"])
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&run.stdout).unwrap();
    let found: Vec<&Value> = v["diagnostics"].as_array().unwrap().iter().collect();
    assert_eq!(found.len(), 1, "{v:#}");
    assert_eq!(found[0]["path"], format!("{CORPUS}/claims.json"));
    // The finding points at the two levels whose power kinds differ.
    let related: Vec<String> = found[0]["related"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["pointer"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(
        related,
        ["/levels/2/power_w/kind", "/levels/2/power_w/kind"],
        "{v:#}"
    );
}

#[test]
fn an_unlabelled_level_power_gives_no_tokens_per_watt() {
    // A copy of the corpus whose H200 runs do not say where their power was measured.
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path();
    copy_tree(Path::new(CORPUS), root);
    for entry in std::fs::read_dir(root.join("h200-x2")).unwrap().flatten() {
        let p = entry.path();
        if p.extension().is_some_and(|e| e == "json") {
            let mut doc: Value =
                serde_json::from_str(&std::fs::read_to_string(&p).unwrap()).unwrap();
            for level in doc["levels"].as_array_mut().unwrap() {
                level["power_w"].as_object_mut().unwrap().remove("kind");
            }
            std::fs::write(&p, serde_json::to_string_pretty(&doc).unwrap()).unwrap();
        }
    }
    let run = bin()
        .args(["audit"])
        .arg(root)
        .arg("--claims")
        .arg(root.join("claims.json"))
        .args(["--format", "json"])
        .output()
        .unwrap();
    let json: Value = serde_json::from_slice(&run.stdout).unwrap();
    let cross = claim(&json, CROSS_KIND);
    assert_eq!(cross["verdict"], "unresolved", "{cross:#}");
    let why = reasons(cross);
    assert!(
        why.contains("without saying wall or device (L005)"),
        "{why}"
    );
    // Each unlabelled level is L005 in `check`.
    let check = bin()
        .args(["check"])
        .arg(root.join("h200-x2"))
        .args(["--format", "json", "--select", "L005"])
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&check.stdout).unwrap();
    let n = v["diagnostics"].as_array().unwrap().len();
    // Three runs of five levels each.
    assert_eq!(n, 15, "{v:#}");
}

#[test]
fn a_per_watt_ratio_between_an_mlperf_power_run_and_device_power_is_retracted() {
    let mlperf = "testdata/adapters/mlperf/singlestream-power";
    let run = bin()
        .args(["audit", mlperf, &format!("{CORPUS}/h200-x2"), "--claims"])
        .arg("testdata/corpora/mlperf-power/claims.json")
        .args(["--format", "json"])
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(1), "{run:?}");
    let json: Value = serde_json::from_slice(&run.stdout).unwrap();
    let cross = claim(&json, "edge-box-beats-h200-per-watt");
    assert_eq!(cross["verdict"], "retracted", "{cross:#}");
    assert!(
        cross["codes"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c == "C006"),
        "{cross:#}"
    );
    let why = reasons(cross);
    assert!(
        why.contains("at the wall on the subject and on the device rail on the baseline"),
        "{why}"
    );
    // The runs reproduce the published 3.66: 62.2186 tok/s over 86.41 W at the wall against
    // the H200s' 0.1968 tok/s per W; the comparison, not the arithmetic, has no basis.
    assert!(why.contains("0.72 against 0.1968 tok/s per W"), "{why}");
    assert!(cross["restated_value"].is_null(), "{cross:#}");

    // `check` places the finding on both power kinds: the H200 level's and, for the MLPerf
    // run, loadgen's power window in the detail log.
    let check = bin()
        .args(["check", mlperf, &format!("{CORPUS}/h200-x2")])
        .arg("testdata/corpora/mlperf-power/claims.json")
        .args(["--format", "json", "--select", "C006"])
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&check.stdout).unwrap();
    let found = v["diagnostics"].as_array().unwrap();
    assert_eq!(found.len(), 1, "{v:#}");
    let related: Vec<(String, String)> = found[0]["related"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["path"].as_str().unwrap().to_string(),
                r["pointer"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert!(
        related.contains(&(
            format!("{mlperf}/performance/run_1/mlperf_log_detail.txt"),
            "/power_begin".to_string()
        )),
        "{related:?}"
    );
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap().flatten() {
        let p = e.path();
        let dest = to.join(e.file_name());
        if p.is_dir() {
            copy_tree(&p, &dest);
        } else {
            std::fs::copy(&p, &dest).unwrap();
        }
    }
}
