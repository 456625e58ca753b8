//! A result disguised in any of the known ways still fails the run beside a clean result; a
//! sidecar, or a summary copied without its stages, is read as what it is.

use serde_json::{Value, json};

use super::{CLEAN, check, clean_corpus, exit_of, failing_vllm};

#[test]
fn the_clean_result_passes_alone() {
    let dir = clean_corpus();
    let (code, out, _) = exit_of(&[], dir.path());
    assert_eq!(code, Some(0), "{out}");
}

#[test]
fn a_result_disguised_in_any_of_the_known_ways_still_fails_the_run() {
    let vllm = failing_vllm();
    let mut warmup = vllm.clone();
    warmup["run_number"] = json!(-1);
    let mut swept = vllm.clone();
    swept["run_number"] = json!(3);
    let mut canonical: Value =
        serde_json::from_str(&std::fs::read_to_string(format!("{CLEAN}/complete.json")).unwrap())
            .unwrap();
    canonical["outcome"] = json!("failed");
    let mut no_schema = canonical.clone();
    no_schema.as_object_mut().unwrap().remove("schema");
    let mut upper = canonical.clone();
    upper["schema"] = json!("Benchlint/result/v1");
    let mut served_nothing = canonical.clone();
    served_nothing["outcome"] = json!("ok");
    served_nothing["id"] = json!("hidden");
    let requests = served_nothing["levels"][0]["requests"].clone();
    served_nothing["levels"][0]["failed"] = requests;
    let cases: [(&str, &str, Value); 7] = [
        (
            "a failing canonical result under a sidecar's name",
            "x.meta.json",
            served_nothing,
        ),
        (
            "a failing result under a sidecar's name",
            "x.meta.json",
            vllm.clone(),
        ),
        ("a run marked as a sweep's warm-up", "run.json", warmup),
        (
            "the run saved as a sweep's array of runs",
            "runs.json",
            json!([swept]),
        ),
        ("a canonical result without `schema`", "r.json", no_schema),
        (
            "a canonical result with `Benchlint/result/v1`",
            "r.json",
            upper,
        ),
        (
            "a vLLM result wrapped in an object",
            "w.json",
            json!({"run": vllm}),
        ),
    ];
    for (what, name, value) in cases {
        let dir = clean_corpus();
        std::fs::create_dir(dir.path().join("in")).unwrap();
        std::fs::write(dir.path().join("in").join(name), value.to_string()).unwrap();
        let (code, out, err) = exit_of(&["--format", "json"], dir.path());
        let v: Value = serde_json::from_str(&out).unwrap_or(Value::Null);
        let on_it = v["diagnostics"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|d| d["path"].as_str().is_some_and(|p| p.ends_with(name)))
            .filter(|d| d["severity"] == "error")
            .count();
        // The wrapped result is not known to be a result: it is reported, as a warning.
        if name == "w.json" {
            assert!(
                out.contains("w.json"),
                "{what}: the file is not named\n{out}\n{err}"
            );
            continue;
        }
        assert_eq!(code, Some(1), "{what}: the run passed\n{out}\n{err}");
        assert!(on_it > 0, "{what}: no error on the file\n{out}");
    }
}

#[test]
fn a_sidecar_beside_its_result_is_named_as_its_own_and_alone_is_reported() {
    let dir = clean_corpus();
    let side = json!({"engine": {"name": "vllm", "version": "0.10.1"}});
    std::fs::write(dir.path().join("complete.meta.json"), side.to_string()).unwrap();
    std::fs::write(dir.path().join("orphan.meta.json"), side.to_string()).unwrap();
    let (_, out, _) = exit_of(&["--show-files"], dir.path());
    let line = |name: &str| {
        out.lines()
            .find(|l| l.ends_with(name))
            .unwrap_or_else(|| panic!("{name} not listed:\n{out}"))
            .to_string()
    };
    assert!(
        line("complete.meta.json").starts_with("sidecar of `"),
        "{out}"
    );
    assert!(
        line("complete.meta.json").contains("complete.json`"),
        "{out}"
    );
    assert!(line("orphan.meta.json").starts_with("none (E004"), "{out}");
    let c = check(&[dir.path()]);
    let orphan: Vec<String> = c
        .findings
        .iter()
        .filter(|f| f.primary.path.raw().ends_with("orphan.meta.json"))
        .map(|f| f.message.raw().clone())
        .collect();
    assert_eq!(orphan.len(), 1, "{orphan:?}");
    assert!(
        orphan[0].contains("is a sidecar, but no result it attaches to (`orphan.json`"),
        "{orphan:?}"
    );
}

/// An inference-perf summary of a run whose every request failed, as the harness writes it
/// when no stage file and no config is kept beside it (the shape of the lone failed summary
/// in `../shared/realworld`, with counts of its own).
fn failed_summary() -> Value {
    let block = json!({"mean": 0.0021, "min": 0.0009, "max": 0.04, "median": 0.0019, "p90": 0.003, "p99": 0.02});
    json!({
        "benchmark_time_seconds": 40.0,
        "load_summary": {"count": 200, "schedule_delay": block},
        "successes": {
            "count": 0,
            "latency": {"request_latency": null, "time_per_output_token": null, "time_to_first_token": null, "inter_token_latency": null},
            "throughput": {"input_tokens_per_sec": 0.0, "output_tokens_per_sec": 0.0, "total_tokens_per_sec": 0.0, "requests_per_sec": 0.0},
            "prompt_len": null, "output_len": null
        },
        "failures": {"count": 200, "request_latency": block}
    })
}

#[test]
fn a_summary_copied_without_its_stages_is_read_as_the_failed_run_it_describes() {
    let dir = clean_corpus();
    let sub = dir.path().join("failed-run");
    std::fs::create_dir(&sub).unwrap();
    std::fs::write(
        sub.join("summary_lifecycle_metrics.json"),
        failed_summary().to_string(),
    )
    .unwrap();
    let c = check(&[dir.path()]);
    let summary = c
        .corpus
        .read
        .iter()
        .find(|r| r.path.raw().ends_with("summary_lifecycle_metrics.json"))
        .unwrap();
    assert_eq!(
        (summary.read_as.as_ref(), summary.results),
        ("inference-perf", 1)
    );
    let codes: Vec<&str> = c
        .findings
        .iter()
        .filter(|f| {
            f.primary
                .path
                .raw()
                .ends_with("summary_lifecycle_metrics.json")
        })
        .map(|f| f.rule.code)
        .collect();
    assert!(codes.contains(&"R007"), "{codes:?}");
    assert!(
        !c.findings.iter().any(|f| f.rule.code == "S009"),
        "a corpus with a failed run is not curated"
    );
}

#[test]
fn the_real_lone_failed_summary_is_read_and_reported() {
    let Some(file) = crate::support::realworld::real(
        "inference-perf/jjk-g__failed-2026-05-01_llama-3.1-8b-instruct-vllm__summary_lifecycle_metrics.json",
    ) else {
        eprintln!("skipped: ../shared/realworld is absent");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(&file, dir.path().join("summary_lifecycle_metrics.json")).unwrap();
    let c = check(&[dir.path()]);
    assert_eq!(c.corpus.results.len(), 1);
    let codes: Vec<&str> = c.findings.iter().map(|f| f.rule.code).collect();
    assert!(codes.contains(&"R007"), "{codes:?}");
    assert!(!codes.contains(&"S009"), "{codes:?}");
}
