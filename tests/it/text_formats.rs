//! The adapters on formats that are not JSON: GuideLLM reports saved as YAML (read as their
//! JSON twins, findings placed on the YAML's own lines) and MLPerf loadgen logs (one result
//! per run, the harness's verdict kept), on fixtures and, when present, the real sample.

use crate::support::watchdog;

use std::path::{Path, PathBuf};

use benchlint::corpus::{LoadedResult, Options};
use benchlint::engine::{self, Checked};
use serde_json::{Value, json};
use watchdog::{LIMIT, bin, run};

const GUIDELLM: &str = "testdata/adapters/guidellm";
const MLPERF: &str = "testdata/adapters/mlperf";
const REAL_MLPERF: &str =
    "../shared/realworld/mlperf/mlcommons__v4.1_AMD_8xMI300X_llama2-70b-99_Server_run_1";

fn check(paths: &[&Path]) -> Checked {
    let paths: Vec<PathBuf> = paths.iter().map(|p| p.to_path_buf()).collect();
    engine::check(&paths, &Options::default())
}

/// A result's canonical value without its id (which names the file).
fn body(r: &LoadedResult) -> Value {
    let mut v = (*r.value).clone();
    v.as_object_mut().unwrap().remove("id");
    v
}

#[test]
fn a_guidellm_report_saved_as_yaml_reads_as_its_json_twin() {
    let json = check(&[&Path::new(GUIDELLM).join("v0.8.1-concurrent-sweep.json")]);
    let yaml = check(&[&Path::new(GUIDELLM).join("v0.8.1-concurrent-sweep.yaml")]);
    assert_eq!(yaml.corpus.results.len(), 2);
    for (j, y) in json.corpus.results.iter().zip(&yaml.corpus.results) {
        assert_eq!(y.origin.format, "guidellm");
        assert_eq!(body(j), body(y));
        assert_eq!(j.provenance, y.provenance, "the same source pointers");
    }
    let codes = |c: &Checked| {
        let mut v: Vec<(&str, String)> = c
            .findings
            .iter()
            .map(|f| (f.rule.code, f.primary.pointer.raw().to_string()))
            .collect();
        v.sort();
        v
    };
    assert_eq!(codes(&json), codes(&yaml), "the same findings");
}

/// A line or column number of a diagnostic.
fn at_usize(v: &Value) -> usize {
    usize::try_from(v.as_u64().unwrap()).unwrap()
}

/// `check --format json` of `path`: its diagnostics.
fn diagnostics(path: &Path) -> Vec<Value> {
    let mut cmd = bin();
    cmd.args(["check", "--isolated", "--format", "json"])
        .arg(path);
    let r = run(cmd, LIMIT);
    r.assert_ran("check");
    let v: Value = serde_json::from_slice(&r.stdout).unwrap();
    v["diagnostics"].as_array().unwrap().clone()
}

#[test]
fn findings_on_a_yaml_report_point_at_its_own_lines() {
    let path = Path::new(GUIDELLM).join("v0.8.1-concurrent-sweep.yaml");
    let text = std::fs::read_to_string(&path).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let all = diagnostics(&path);
    // A finding about the corpus as a whole (the lone file checked) has no line.
    for d in all.iter().filter(|d| d["corpus"] == true) {
        assert!(d["line"].is_null() && d["column"].is_null(), "{d}");
    }
    let ds: Vec<&Value> = all.iter().filter(|d| d["corpus"] != true).collect();
    assert!(!ds.is_empty());
    for d in &ds {
        let pointer = d["pointer"].as_str().unwrap();
        let line = at_usize(&d["line"]);
        let column = at_usize(&d["column"]);
        let at = &lines[line - 1][column - 1..];
        // Each finding sits on the key its pointer ends with, or on the first key of the
        // benchmark it is about (a `- ` item).
        let last = pointer.rsplit('/').next().unwrap();
        // A field not recorded is named by its own pointer and shown on the benchmark that
        // lacks it.
        let absent = d["message"]
            .as_str()
            .is_some_and(|m| m.starts_with("not recorded: "));
        // So is one about a value no key of the file holds, named by its canonical pointer.
        let unheld = !lines.iter().any(|l| {
            l.trim_start()
                .trim_start_matches("- ")
                .starts_with(&format!("{last}:"))
        });
        if absent || unheld || last.parse::<usize>().is_ok() {
            assert!(
                lines[line - 1][..column - 1].trim_end().ends_with('-'),
                "{pointer} at {line}:{column}: {:?}",
                lines[line - 1]
            );
        } else {
            assert!(
                at.starts_with(&format!("{last}:")),
                "{pointer} at {line}:{column}: {:?}",
                lines[line - 1]
            );
        }
    }
    // The second benchmark's findings are on its own lines, after the first's.
    let second = text.find("\n- config:").unwrap();
    let second_line = text[..second].lines().count() + 1;
    assert!(ds.iter().any(|d| {
        d["pointer"].as_str().unwrap().starts_with("/benchmarks/1")
            && at_usize(&d["line"]) >= second_line
    }));
}

#[test]
fn a_loadgen_run_folder_is_one_result_read_from_the_detail_log() {
    let folder = Path::new(MLPERF).join("offline-lowered-minimums");
    let c = check(&[&folder]);
    assert_eq!(c.corpus.results.len(), 1);
    let r = &c.corpus.results[0];
    assert!(r.origin.path.raw().ends_with("mlperf_log_detail.txt"));
    assert_eq!(r.value["measured_at"], "2025-02-14T03:27:51Z");
    assert_eq!(
        r.value.pointer("/levels/0/request_rate"),
        Some(&json!("inf"))
    );
    assert_eq!(r.value.pointer("/levels/0/concurrency"), None);
    assert_eq!(r.value.pointer("/levels/0/requests"), Some(&json!(24576)));
    let validity = &r.value["harness"]["validity"];
    assert_eq!(validity["verdict"], "valid");
    assert_eq!(validity["min_duration_s"], json!(0.0));
    assert_eq!(validity["min_queries"], json!(1));
    // Offline sample latencies are queue positions, not request times.
    assert_eq!(r.value.pointer("/levels/0/e2e_s"), None);
    // Named alone, the summary is a result of its own (no date, rounded figures).
    let summary = check(&[&folder.join("mlperf_log_summary.txt")]);
    assert_eq!(summary.corpus.results.len(), 1);
    let s = &summary.corpus.results[0];
    assert_eq!(s.value["measured_at"], "1970-01-01T00:00:00Z");
    assert_eq!(
        s.value.pointer("/levels/0/throughput_tok_s/aggregate"),
        Some(&json!(3220.41))
    );
    // Both named: still one result.
    let both = check(&[
        &folder.join("mlperf_log_summary.txt"),
        &folder.join("mlperf_log_detail.txt"),
    ]);
    assert_eq!(both.corpus.results.len(), 1);
}

#[test]
fn a_summary_beside_the_detail_log_of_another_test_is_a_result_of_its_own() {
    let dir = tempfile::tempdir().unwrap();
    let folder = Path::new(MLPERF).join("offline-lowered-minimums");
    let summary = std::fs::read_to_string(folder.join("mlperf_log_summary.txt")).unwrap();
    std::fs::write(dir.path().join("mlperf_log_summary.txt"), &summary).unwrap();
    let detail = std::fs::read_to_string(folder.join("mlperf_log_detail.txt"))
        .unwrap()
        .replace("\"value\": 10.9538", "\"value\": 12.4417");
    assert!(detail.contains("12.4417"), "the fixture's figure changed");
    std::fs::write(dir.path().join("mlperf_log_detail.txt"), detail).unwrap();
    assert_eq!(check(&[dir.path()]).corpus.results.len(), 2);
}

#[test]
fn the_harness_verdict_and_its_checks_are_kept() {
    let path = Path::new(MLPERF).join("server-invalid-summary-only/mlperf_log_summary.txt");
    let c = check(&[&path]);
    let r = &c.corpus.results[0];
    let v = &r.value["harness"]["validity"];
    assert_eq!(v["verdict"], "invalid");
    assert_eq!(v["latency_constraints_met"], false);
    assert_eq!(v["ttft_limit_s"], json!(2.0));
    assert_eq!(v["tpot_limit_ms"], json!(200.0));
    assert_eq!(
        r.value.pointer("/levels/0/request_rate"),
        Some(&json!(30.0))
    );
    assert_eq!(
        r.value.pointer("/levels/0/ttft_s/p99"),
        Some(&json!(3.316_805_447))
    );
    // The typed model reads it too.
    let typed = r.doc.harness.as_ref().unwrap().validity.as_ref().unwrap();
    assert_eq!(typed.verdict, Some(benchlint::model::Verdict::Invalid));
    // A finding about the TTFT lands on the summary's own line.
    let text = std::fs::read_to_string(&path).unwrap();
    let ds = diagnostics(&path);
    let l002 = ds.iter().find(|d| d["code"] == "L002").expect("L002");
    let line = at_usize(&l002["line"]);
    assert!(
        text.lines()
            .nth(line - 1)
            .unwrap()
            .starts_with("50.00 percentile first token latency"),
        "{l002}"
    );
}

#[test]
fn accuracy_runs_and_side_files_are_companions() {
    // Alone, an accuracy run's files are companions of nothing: one finding each says so, and
    // the run, which read no result, fails.
    let c = check(&[&Path::new(MLPERF).join("accuracy-mode")]);
    assert!(c.corpus.results.is_empty());
    let said: Vec<String> = c
        .findings
        .iter()
        .map(|f| format!("{} {:?} {}", f.rule.code, f.severity, f.message))
        .collect();
    assert_eq!(said.len(), 2, "{said:#?}");
    assert!(
        said.iter().all(|m| m.starts_with("E004 Error")
            && m.contains("is a file mlperf writes beside its results")),
        "{said:#?}"
    );
}

#[test]
fn the_real_loadgen_run_is_one_server_result_at_its_target_qps() {
    let folder = Path::new(REAL_MLPERF);
    if !folder.is_dir() {
        println!("skipping: {REAL_MLPERF} not found");
        return;
    }
    let c = check(&[folder]);
    assert_eq!(c.corpus.results.len(), 1);
    let r = &c.corpus.results[0];
    assert_eq!(
        r.value.pointer("/levels/0/request_rate"),
        Some(&json!(73.5))
    );
    assert_eq!(
        r.value.pointer("/levels/0/achieved_request_rate"),
        Some(&json!(73.6649))
    );
    assert_eq!(
        r.value.pointer("/levels/0/throughput_tok_s/aggregate"),
        Some(&json!(21028.2))
    );
    assert_eq!(
        r.value.pointer("/levels/0/ttft_s/p99"),
        Some(&json!(1.604_171_041))
    );
    assert_eq!(
        r.value.pointer("/levels/0/tpot_ms/p50"),
        Some(&json!(143.943_044))
    );
    assert_eq!(r.value["harness"]["version"], "4.1");
    assert_eq!(r.value["harness"]["revision"], "379ee5345a");
    assert_eq!(r.value["harness"]["validity"]["verdict"], "valid");
    assert_eq!(
        r.value["harness"]["validity"]["min_duration_s"],
        json!(600.0)
    );
    assert!(
        !c.findings.iter().any(|f| f.rule.code.starts_with('E')),
        "no input finding"
    );
}

#[test]
fn import_writes_canonical_files_for_yaml_reports_and_loadgen_logs() {
    let out = tempfile::tempdir().unwrap();
    let mut cmd = bin();
    cmd.arg("import")
        .arg(Path::new(GUIDELLM).join("v0.8.1-concurrent-sweep.yaml"))
        .arg(Path::new(MLPERF).join("offline-lowered-minimums"))
        .arg("-o")
        .arg(out.path());
    let r = run(cmd, LIMIT);
    assert_eq!(r.code, Some(0), "{}", r.err());
    assert!(r.out().starts_with("imported 3 results"), "{}", r.out());
    let written: Vec<PathBuf> = std::fs::read_dir(out.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| !p.to_string_lossy().ends_with(".provenance.json"))
        .collect();
    assert_eq!(written.len(), 3);
    // The canonical files read back as they were mapped, with no input finding.
    let c = check(&[out.path()]);
    assert_eq!(c.corpus.results.len(), 3);
    assert!(
        c.corpus
            .results
            .iter()
            .all(|r| r.origin.format == "canonical")
    );
    assert!(!c.findings.iter().any(|f| f.rule.code.starts_with('E')));
    let mlperf = c
        .corpus
        .results
        .iter()
        .find(|r| r.doc.id.contains("mlperf_log_detail"))
        .unwrap();
    assert_eq!(
        mlperf.value["harness"]["validity"]["min_duration_s"],
        json!(0.0)
    );
}
