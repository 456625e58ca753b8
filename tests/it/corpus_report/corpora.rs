//! The report on whole corpora: Markdown and JSON snapshots of testdata/corpora/demo, the
//! same counts as `check`, a replicated corpus, and the real files of `../shared/realworld`
//! (when present).

use std::path::Path;

use serde_json::Value;

use super::{DEMO, REALWORLD, REPLICATED, report_json, run, snapshot, state};

#[test]
fn markdown_of_the_demo_corpus() {
    let (code, md) = run(&["audit", DEMO]);
    // The demo corpus has errors: the report says so, and the exit code is `check`'s.
    assert_eq!(code, Some(1));
    assert!(md.starts_with("# Corpus report\n"), "{md}");
    assert!(!md.contains("## Claims") && !md.contains("## Summary"));
    snapshot("demo.md", &md);
}

#[test]
fn json_of_the_demo_corpus() {
    let v = report_json(DEMO);
    assert_eq!(v["claims"], Value::Array(vec![]));
    assert_eq!(v["claims_file"], Value::Null);
    snapshot("demo.json", &serde_json::to_string_pretty(&v).unwrap());
}

/// The report counts what `check` finds, file by file and rule by rule.
#[test]
fn counts_agree_with_check() {
    for corpus in [DEMO, REPLICATED] {
        let report = report_json(corpus);
        let (_, text) = run(&["check", corpus, "--format", "json"]);
        let check: Value = serde_json::from_str(&text).unwrap();
        let corpus_json = &report["corpus"];
        for (ours, theirs) in [
            ("errors", "errors"),
            ("warnings", "warnings"),
            ("infos", "infos"),
        ] {
            assert_eq!(
                corpus_json["findings"][ours], check["summary"][theirs],
                "{corpus}: {ours}"
            );
        }
        assert_eq!(corpus_json["results"], check["summary"]["results"]);
        assert_eq!(corpus_json["files_read"], check["summary"]["files"]);
        let diagnostics = check["diagnostics"].as_array().unwrap();
        for file in corpus_json["files"].as_array().unwrap() {
            let on_file = diagnostics
                .iter()
                .filter(|d| d["path"] == file["path"])
                .count();
            let f = &file["findings"];
            let counted = ["errors", "warnings", "infos"]
                .iter()
                .map(|k| f[*k].as_u64().unwrap())
                .sum::<u64>();
            assert_eq!(counted, on_file as u64, "{}", file["path"]);
        }
        for rule in corpus_json["rules"].as_array().unwrap() {
            let of_rule = diagnostics
                .iter()
                .filter(|d| d["code"] == rule["code"])
                .count();
            let f = &rule["findings"];
            let counted = ["errors", "warnings", "infos"]
                .iter()
                .map(|k| f[*k].as_u64().unwrap())
                .sum::<u64>();
            assert_eq!(counted, of_rule as u64, "{}", rule["code"]);
        }
        // Worst first.
        let files = corpus_json["files"].as_array().unwrap();
        let key = |f: &Value| {
            let c = &f["findings"];
            (
                c["errors"].as_u64().unwrap(),
                c["warnings"].as_u64().unwrap(),
                c["infos"].as_u64().unwrap(),
            )
        };
        assert!(files.windows(2).all(|w| key(&w[0]) >= key(&w[1])));
    }
}

/// The run's cap bounds the findings a report lists, and the corpus report lists none: it
/// counts every finding `check` counts, past the cap too.
#[test]
fn counts_past_the_run_cap_agree_with_check() {
    let tmp = tempfile::tempdir().unwrap();
    let config = tmp.path().join("capped.toml");
    std::fs::write(&config, "[thresholds]\nmax_findings = 3\n").unwrap();
    let config = config.to_str().unwrap();
    let (_, text) = run(&["audit", DEMO, "--config", config, "--format", "json"]);
    let report: Value = serde_json::from_str(&text).unwrap();
    let (_, text) = run(&["check", DEMO, "--config", config, "--format", "json"]);
    let check: Value = serde_json::from_str(&text).unwrap();
    assert!(
        check["summary"]["omitted"].as_u64().unwrap() > 0,
        "the cap must bite for this test to mean anything"
    );
    let counts = &report["corpus"]["findings"];
    for key in ["errors", "warnings", "infos"] {
        assert_eq!(counts[key], check["summary"][key], "{key}");
    }
    let total = |c: &Value| {
        ["errors", "warnings", "infos"]
            .iter()
            .map(|k| c[*k].as_u64().unwrap())
            .sum::<u64>()
    };
    let by_rule: u64 = report["corpus"]["rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| total(&r["findings"]))
        .sum();
    assert_eq!(by_rule, total(counts));
}

/// A clean, replicated corpus: every configuration replicated, exit 0.
#[test]
fn a_replicated_corpus() {
    let (code, md) = run(&["audit", REPLICATED]);
    assert_eq!(code, Some(0), "{md}");
    let v = report_json(REPLICATED);
    for l in v["ladders"].as_array().unwrap() {
        let r = &l["replication"];
        assert_eq!(r["standing"], "replicated", "{}", l["label"]);
        assert_eq!(r["needs"], Value::Array(vec![]));
        assert!(r["summary"].as_str().unwrap().starts_with("replicated: "));
    }
    assert!(md.contains("Every file records every field asked of it."));
}

/// The real files: every result file has a coverage row, none is complete, nothing is pooled.
#[test]
fn the_real_files() {
    if !Path::new(REALWORLD).join("INDEX.md").is_file() {
        eprintln!("skipped: {REALWORLD} is not there");
        return;
    }
    let v = report_json(REALWORLD);
    let corpus = &v["corpus"];
    let with_results = corpus["files"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["results"].as_u64().unwrap() > 0)
        .count();
    assert_eq!(
        corpus["checklist"]["files"].as_array().unwrap().len(),
        with_results
    );
    assert!(
        corpus["checklist"]["files"]
            .as_array()
            .unwrap()
            .iter()
            .all(|f| f["owed"].as_u64().unwrap() > 0)
    );
    // The InferenceX run folders supply the engine's settings from its log.
    assert_eq!(
        state(
            &v,
            "amds_06/aiperf_artifacts/profile_export_aiperf.json",
            "engine.version"
        ),
        "run-folder"
    );
    // Files written by harnesses rarely say which device ran them: such a configuration is
    // judged by no replication rule, and its status says what is missing.
    let ladders = v["ladders"].as_array().unwrap();
    let unidentified: Vec<&Value> = ladders
        .iter()
        .filter(|l| l["replication"]["standing"] == "not-identified")
        .collect();
    assert!(!unidentified.is_empty());
    for l in &unidentified {
        let r = &l["replication"];
        assert_eq!(r["needs"], Value::Array(vec![]));
        assert!(!r["not_recorded"].as_array().unwrap().is_empty());
    }
    let (_, md) = run(&["audit", REALWORLD]);
    let line = md
        .lines()
        .find(|l| l.starts_with("- Replication: "))
        .unwrap();
    assert!(
        line.contains(&format!("{} not identified", unidentified.len())),
        "{line}"
    );
}
