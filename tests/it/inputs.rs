//! Inputs that are not JSON: a file no reader takes gets one finding saying what it looks like,
//! never one per line or per document; a folder of only such files does not pass; walked
//! folders read YAML reports and MLPerf loadgen logs and skip the rest silently.

use crate::support::watchdog;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use benchlint::corpus::Options;
use benchlint::engine::{self, Checked};
use serde_json::Value;
use watchdog::{LIMIT, bin, run};

fn check(paths: &[&Path]) -> Checked {
    let paths: Vec<PathBuf> = paths.iter().map(|p| p.to_path_buf()).collect();
    engine::check(&paths, &Options::default())
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

/// The input findings (E...) as (code, message).
fn input(c: &Checked) -> Vec<(&'static str, String)> {
    c.findings
        .iter()
        .filter(|f| f.rule.code.starts_with('E'))
        .map(|f| (f.rule.code, f.message.raw()))
        .collect()
}

#[test]
fn a_text_file_named_gets_one_finding_saying_what_it_looks_like() {
    let dir = tempfile::tempdir().unwrap();
    let mut csv = String::from("concurrency,tok_s,ttft_ms\n");
    let mut log = String::new();
    let mut bracketed = String::new();
    for i in 0..300 {
        let _ = writeln!(csv, "{i},{},{}", 40 * i, 12 + i);
        let _ = writeln!(log, "INFO 05-10 12:{:02}:00 engine step {i} done", i % 60);
        let _ = writeln!(
            bracketed,
            "[2025-05-10 12:00:{:02}] INFO request {i}",
            i % 60
        );
    }
    let cases = [
        (
            "sweep.csv",
            csv,
            "CSV with 3 columns (concurrency, tok_s, ttft_ms)",
        ),
        ("server.txt", log, "a log"),
        ("bracketed.log", bracketed, "a log"),
        (
            "notes.txt",
            "The run went fine.\nSee the chart.\n".to_string(),
            "text",
        ),
    ];
    for (name, text, looks) in cases {
        let path = write(dir.path(), name, &text);
        let c = check(&[&path]);
        let found = input(&c);
        assert_eq!(found.len(), 1, "{name}: {found:#?}");
        assert_eq!(found[0].0, "E002", "{name}");
        assert!(
            found[0].1.contains(&format!("it looks like {looks}")),
            "{name}: {}",
            found[0].1
        );
        assert_eq!(c.findings.len(), 1, "{name}: nothing else is said about it");
    }
}

#[test]
fn a_yaml_document_no_adapter_reads_gets_one_e004_however_many_documents() {
    let dir = tempfile::tempdir().unwrap();
    let mut text = String::new();
    for i in 0..50 {
        let _ = write!(text, "---\nstage: {i}\nrate: 1.5\n");
    }
    let path = write(dir.path(), "stages.yaml", &text);
    let found = input(&check(&[&path]));
    assert_eq!(found.len(), 1, "{found:#?}");
    assert_eq!(found[0].0, "E004");
    assert!(
        found[0].1.contains("none of the 50 documents of `")
            && found[0]
                .1
                .contains("each is a YAML document: an object with keys `stage`, `rate`"),
        "{}",
        found[0].1
    );
}

#[test]
fn llama_bench_json_is_named_for_what_it_is() {
    let dir = tempfile::tempdir().unwrap();
    let record = |n_prompt: u64, n_gen: u64, ts: f64| {
        serde_json::json!({
            "build_commit": "5c0e8a1", "build_number": 5120, "model_type": "llama 8B Q4_K - Medium",
            "model_size": 4_920_734_208_u64, "n_batch": 2048, "n_threads": 16, "n_gpu_layers": 99,
            "n_prompt": n_prompt, "n_gen": n_gen, "test_time": "2025-05-10T12:00:00Z",
            "avg_ns": 1_000_000_u64, "stddev_ns": 1000, "avg_ts": ts, "stddev_ts": 0.4
        })
    };
    let array = serde_json::json!([record(512, 0, 5120.4), record(0, 128, 88.1)]);
    let lines = format!("{}\n{}\n", record(512, 0, 5120.4), record(0, 128, 88.1));
    for (name, text) in [("bench.json", array.to_string()), ("bench.jsonl", lines)] {
        let path = write(dir.path(), name, &text);
        let found = input(&check(&[&path]));
        assert_eq!(found.len(), 1, "{name}: {found:#?}");
        assert_eq!(found[0].0, "E004", "{name}");
        assert!(
            found[0]
                .1
                .contains("llama-bench JSON: a microbenchmark of prompt processing and generation speed on one model, not a serving benchmark"),
            "{name}: {}",
            found[0].1
        );
    }
}

#[test]
fn a_folder_of_only_unreadable_files_does_not_pass() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        "unknown.json",
        r#"{"tokens_per_second": 812.4}"#,
    );
    write(dir.path(), "notes.txt", "not read in a walk\n");
    let r = run(
        {
            let mut c = bin();
            c.args(["check", "--isolated", "--format", "json"])
                .arg(dir.path());
            c
        },
        LIMIT,
    );
    r.assert_ran("check");
    assert_eq!(r.code, Some(1), "{}", r.out());
    let v: Value = serde_json::from_slice(&r.stdout).unwrap();
    let ds = v["diagnostics"].as_array().unwrap();
    assert_eq!(ds.len(), 1, "{ds:#?}");
    assert_eq!(
        (ds[0]["code"].as_str(), ds[0]["severity"].as_str()),
        (Some("E004"), Some("error"))
    );
    assert!(
        ds[0]["message"]
            .as_str()
            .unwrap()
            .contains("nothing was checked"),
        "{}",
        ds[0]["message"]
    );
    // Beside a result, the same file is a warning: the run checked something.
    std::fs::copy("testdata/bad/minimal.json", dir.path().join("minimal.json")).unwrap();
    let c = check(&[dir.path()]);
    let e004 = c.findings.iter().find(|f| f.rule.code == "E004").unwrap();
    assert_eq!(e004.severity.as_str(), "warning");
}

#[test]
fn side_files_named_alone_are_companions_of_nothing_and_said_so() {
    let dir = tempfile::tempdir().unwrap();
    let conf = write(
        dir.path(),
        "user.conf",
        "*.Server.target_qps = 73.5\nllama2-70b.Server.min_query_count = 100\n",
    );
    let freeze = write(dir.path(), "pip_freeze.raw", "numpy==1.26.4\nvllm==0.4.3\n");
    // Each is a companion of nothing: one warning apiece, naming what it is.
    let c = check(&[&conf, &freeze]);
    let found = input(&c);
    assert_eq!(found.len(), 2, "{found:#?}");
    assert!(
        found
            .iter()
            .all(|(code, m)| *code == "E004"
                && m.contains("is a file mlperf writes beside its results")),
        "{found:#?}"
    );
    let r = run(
        {
            let mut c = bin();
            c.args(["check", "--isolated"]).arg(&conf).arg(&freeze);
            c
        },
        LIMIT,
    );
    // Named on their own, the user is told what they are; a walk that reads nothing fails.
    assert_eq!(r.code, Some(0));
    assert!(
        r.out().contains("nothing was checked from it"),
        "{}",
        r.out()
    );
}

#[test]
fn walked_folders_read_yaml_reports_and_loadgen_logs_and_skip_the_rest_silently() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::copy(
        "testdata/adapters/guidellm/v0.8.1-concurrent-sweep.yaml",
        root.join("benchmarks.yaml"),
    )
    .unwrap();
    let run1 = root.join("Offline/performance/run_1");
    std::fs::create_dir_all(&run1).unwrap();
    for f in ["mlperf_log_summary.txt", "mlperf_log_detail.txt"] {
        std::fs::copy(
            Path::new("testdata/adapters/mlperf/offline-lowered-minimums").join(f),
            run1.join(f),
        )
        .unwrap();
    }
    write(
        root,
        "config.yaml",
        "load:\n  type: poisson\n  stages: [{rate: 1, duration: 60}]\n",
    );
    write(root, "broken-config.yml", "a: [1, 2\n");
    write(root, "notes.txt", "not a result\n");
    write(root, "sweep.csv", "a,b\n1,2\n");
    write(&run1, "user.conf", "*.Offline.target_qps = 11\n");
    let c = check(&[root]);
    assert!(input(&c).is_empty(), "{:#?}", input(&c));
    let formats: Vec<&str> = c.corpus.results.iter().map(|r| r.origin.format).collect();
    assert_eq!(formats, ["mlperf", "guidellm", "guidellm"], "{formats:?}");
    // The run's two logs are one result, read from the detail log.
    assert!(
        c.corpus.results[0]
            .origin
            .path
            .raw()
            .ends_with("mlperf_log_detail.txt")
    );
    // A walked YAML that looks like a report but does not parse is reported.
    write(
        root,
        "bad-report.yaml",
        "benchmarks:\n- metrics: {ttft: [1, 2}\n",
    );
    let found = input(&check(&[root]));
    assert_eq!(found.len(), 1, "{found:#?}");
    assert!(
        found[0].1.contains("YAML that could not be read"),
        "{}",
        found[0].1
    );
}

#[test]
fn an_unparsable_yaml_named_on_the_command_line_is_one_finding_at_the_error() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(
        dir.path(),
        "report.yaml",
        "benchmarks:\n- a: 1\n  b: [1, 2\n  c: 3\n",
    );
    let c = check(&[&path]);
    let found = input(&c);
    assert_eq!(found.len(), 1, "{found:#?}");
    assert_eq!(found[0].0, "E002");
    let f = &c.findings[0];
    assert!(f.primary.offset.is_some_and(|o| o > "benchmarks:\n".len()));
}

#[test]
fn a_file_a_result_names_as_its_artifact_is_not_an_unknown_format_whatever_its_name() {
    let dir = tempfile::tempdir().unwrap();
    let mut result: Value = serde_json::from_str(
        &std::fs::read_to_string("testdata/corpora/demo/gb10-pair/prose-r1.json").unwrap(),
    )
    .unwrap();
    result["artifacts"] = serde_json::json!({
        "quality_gate": {"path": "gate.out", "passed": true, "score": 0.96},
        "power_trace": {"path": "scores/power.json", "kind": "wall"}
    });
    let result = write(dir.path(), "run.json", &result.to_string());
    let gate = write(
        dir.path(),
        "gate.out",
        r#"{"task": "gsm8k", "accuracy": 0.96}"#,
    );
    std::fs::create_dir(dir.path().join("scores")).unwrap();
    write(
        dir.path(),
        "scores/power.json",
        r#"{"watts": [410.5, 412.0]}"#,
    );
    write(dir.path(), "scores/stray.json", r#"{"watts": [1.0]}"#);
    let e004 = |c: &Checked| -> Vec<String> {
        c.findings
            .iter()
            .filter(|f| f.rule.code == "E004")
            .map(|f| f.primary.path.raw().replace('\\', "/"))
            .collect()
    };
    // Named on the command line, a file of any name a result points at is its artifact.
    assert_eq!(e004(&check(&[&result, &gate])), Vec::<String>::new());
    // Walked, a JSON artifact is recognised and the stray file beside it is not.
    let walked = e004(&check(&[dir.path()]));
    assert_eq!(walked.len(), 1, "{walked:?}");
    assert!(walked[0].ends_with("scores/stray.json"), "{walked:?}");
}
