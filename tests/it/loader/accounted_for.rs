//! Every real file accounted for, a warm-up read as its sweep run's companion, and a claims
//! file let go still read.

use std::path::{Path, PathBuf};

use benchlint::corpus::Options;
use serde_json::json;

use super::{check, failing_vllm, unaccounted};

#[test]
fn every_real_file_is_accounted_for_and_only_named_ones_are_unread() {
    let root = Path::new(crate::support::realworld::REALWORLD);
    if !root.is_dir() {
        eprintln!("skipped: ../shared/realworld is absent");
        return;
    }
    let c = check(&[root]);
    let missing = unaccounted(&c);
    assert!(missing.is_empty(), "{}", missing.join("\n"));
    // Out of scope: llama-bench is not a serving benchmark. The others are MLPerf CM side
    // files and an InferenceX file with one sparse row, which the adapters do not read yet:
    // each is reported, none is silent.
    let allowed = [
        "llama-bench/",
        "thien-lm__MlPerfLogExample/cpu_info.json",
        "thien-lm__MlPerfLogExample/results.json",
        "thien-lm__MlPerfLogExample/mlperf_log_trace.json",
        "0604_kimik2.5-fp4-b200-vllm-agentic-lmcache__agg_bmk.json",
    ];
    let unread: Vec<String> = c
        .findings
        .iter()
        .filter(|f| matches!(f.rule.code, "E002" | "E003" | "E004"))
        .map(|f| f.primary.path.raw().to_string())
        .filter(|p| !allowed.iter().any(|a| p.contains(a)))
        .collect();
    assert!(unread.is_empty(), "{unread:#?}");
    let lone = c
        .corpus
        .read
        .iter()
        .find(|r| r.path.raw().contains("failed-2026-05-01"))
        .unwrap();
    assert_eq!(lone.results, 1, "{}", lone.read_as);
    assert!(!c.findings.iter().any(|f| f.rule.code == "S009"));
}

#[test]
fn a_warm_up_beside_its_sweeps_run_is_that_runs_companion() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(
        "testdata/adapters/vllm/sweep-warmup-companion.json",
        dir.path().join("warmup.json"),
    )
    .unwrap();
    let mut run0 = failing_vllm();
    run0["run_number"] = json!(0);
    std::fs::write(dir.path().join("run=0.json"), run0.to_string()).unwrap();
    let c = check(&[dir.path()]);
    assert_eq!(c.corpus.results.len(), 1);
    let warmup = c
        .corpus
        .read
        .iter()
        .find(|r| r.path.raw().ends_with("warmup.json"))
        .unwrap();
    assert!(
        warmup.read_as.starts_with("companion of `") && warmup.read_as.contains("run=0.json"),
        "{}",
        warmup.read_as
    );
}

/// A command that reports results only (`summary`, `capacity`, `cards`, `import`, `sidecar`)
/// lets a claims document's contents go once it is read: the file still counts as read, as
/// claims, its schema findings are the same, and the results read beside it are the same.
#[test]
fn a_claims_file_let_go_is_still_read_and_accounted_for() {
    let dir = PathBuf::from("testdata/rules/C001-mixed-precision/fail/fp8-against-nvfp4");
    let load = |drop_claims| {
        benchlint::corpus::load_results(
            std::slice::from_ref(&dir),
            &Options {
                lean: true,
                drop_claims,
                ..Options::default()
            },
        )
    };
    let (kept, dropped) = (load(false), load(true));
    assert_eq!(kept.claims.len(), 1);
    assert_eq!(dropped.claims.len(), 1);
    assert!(!kept.claims[0].claims.is_empty());
    assert!(kept.claims[0].claims.iter().all(|c| c.read.is_ok()));
    assert!(dropped.claims[0].claims.is_empty());
    let read = |c: &benchlint::model::loaded::Corpus| -> Vec<(String, String)> {
        c.read
            .iter()
            .map(|r| (r.path.raw().to_string(), r.read_as.to_string()))
            .collect()
    };
    assert_eq!(read(&kept), read(&dropped));
    assert!(
        read(&dropped)
            .iter()
            .any(|(p, as_)| p.ends_with("claims.json") && as_ == "claims")
    );
    let ids = |c: &benchlint::model::loaded::Corpus| -> Vec<String> {
        c.results.iter().map(|r| r.doc.id.clone()).collect()
    };
    assert_eq!(ids(&kept), ids(&dropped));
    assert_eq!(kept.findings.len(), dropped.findings.len());
}
