//! A claims file costs `check` its claims and their findings, not their analyses: the C rules
//! report findings, and each claim's analysis (its claim, sides, comparisons and restatement,
//! about three kilobytes with the strings it copies) is dropped once the findings of the C
//! rules that run are taken from it.
//! The bound compares two runs of one build (the corpus with and without its claims file),
//! never a fixed figure; `BENCHLINT_SCALING_BIN` measures another build.

use std::ffi::OsString;
use std::path::PathBuf;

use crate::scaling::exec;
use crate::scaling_shapes::claims_corpus;

const MIB: u64 = 1024;

/// Results in the corpus, each its own configuration, and claims, one a result.
const CLAIMS: usize = 8000;

/// The claims corpus in a temporary folder, and a folder of its results without the claims
/// file.
fn corpus_and_bare() -> (tempfile::TempDir, PathBuf, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let corpus = claims_corpus(tmp.path(), CLAIMS);
    let bare = tmp.path().join("bare");
    std::fs::create_dir_all(&bare).unwrap();
    std::fs::copy(corpus.join("results.jsonl"), bare.join("results.jsonl")).unwrap();
    (tmp, corpus, bare)
}

/// Asserts that the run with the claims file peaked at most `bound_kib` KiB a claim above the
/// run without it (peaks in KiB).
fn assert_per_claim(with: u64, without: u64, bound_kib: f64) {
    #[expect(clippy::cast_precision_loss, reason = "memory in KiB")]
    let per_claim_kib = with.saturating_sub(without) as f64 / CLAIMS as f64;
    println!("{per_claim_kib:.2} KiB a claim");
    assert!(
        per_claim_kib <= bound_kib,
        "with claims: peak {} MiB, without: {} MiB ({per_claim_kib:.2} KiB a claim)",
        with / MIB,
        without / MIB
    );
}

fn peak(args: &[OsString]) -> u64 {
    let r = exec(args);
    println!("{args:?}: peak {} MiB", r.peak_rss_kib / MIB);
    r.peak_rss_kib
}

#[test]
fn a_claim_per_result_costs_its_findings_not_its_analysis() {
    let (_tmp, corpus, bare) = corpus_and_bare();
    // One C rule, which finds nothing here: the analysis is made all the same (every C rule
    // reports from it), and what the run holds beyond the results is the claims and what
    // is kept of their analyses.
    let run = |dir: &std::path::Path| {
        peak(&[
            "check".into(),
            "--exit-zero".into(),
            "--select".into(),
            "C015".into(),
            "--format".into(),
            "json".into(),
            dir.as_os_str().to_os_string(),
        ])
    };
    let without = run(&bare);
    if without == 0 {
        return; // no `/proc` to read the peak from
    }
    let with = run(&corpus);
    // Each claim's share: the claim as read and what its analysis is kept to, 0.4 to 0.6 KiB.
    // With M018 not selected the claims file is read a claim at a time; read as a tree, about
    // 3 KiB; with each analysis kept whole, about 8; with the six C findings each claim's
    // analysis makes kept for C rules that do not run, about 5.
    assert_per_claim(with, without, 1.5);
}

/// The audit makes each claim's outcome from its analysis and drops the analysis then: it
/// holds the outcomes (what its report says of each claim), never every analysis beside them.
#[test]
fn the_audit_holds_each_claims_outcome_not_its_analysis() {
    let (tmp, corpus, bare) = corpus_and_bare();
    let out = tmp.path().join("out");
    let run = |dir: &std::path::Path, claims: Option<&std::path::Path>| {
        let _ = std::fs::remove_dir_all(&out);
        let mut args: Vec<OsString> = vec!["audit".into(), "-o".into(), out.clone().into()];
        if let Some(c) = claims {
            args.extend(["--claims".into(), c.as_os_str().to_os_string()]);
        }
        args.push(dir.as_os_str().to_os_string());
        peak(&args)
    };
    let without = run(&bare, None);
    if without == 0 {
        return; // no `/proc` to read the peak from
    }
    let with = run(&corpus, Some(&corpus.join("claims.json")));
    // About 4 KiB a claim with the outcomes made from the analyses one at a time, 5 to 5.7
    // since the audit without claims no longer holds its ladders (the run without the claims
    // file, which this compares against, holds less); about 7.5 with every analysis held
    // until the last outcome was made, against the same run.
    assert_per_claim(with, without, 6.2);
}

/// The C findings of a claims file of a claim per result (six a claim here, 48,000) are written
/// a batch at a time, each batch placed and sorted by where it lies and the batches merged back
/// through a temporary file: never every finding of the file at once, as when the findings
/// known last were written a whole file at a time.
#[test]
fn a_file_that_draws_many_findings_is_written_a_batch_at_a_time() {
    let (tmp, corpus, bare) = corpus_and_bare();
    // Every finding listed (the run's cap raised), each file's own still capped.
    let config = tmp.path().join("list-all.toml");
    std::fs::write(&config, "[thresholds]\nmax_findings = 100000000\n").unwrap();
    let config = config.into_os_string();
    let args = |dir: &std::path::Path| -> Vec<OsString> {
        vec![
            "check".into(),
            "--exit-zero".into(),
            "--config".into(),
            config.clone(),
            "--format".into(),
            "json".into(),
            dir.as_os_str().to_os_string(),
        ]
    };
    let without = peak(&args(&bare));
    let listed = exec(&args(&corpus));
    // Listed top to bottom in the claims file, as a file's findings always are, though they
    // were sorted a batch at a time.
    let report: serde_json::Value = serde_json::from_slice(&listed.stdout).unwrap();
    let places: Vec<(u64, u64)> = report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| {
            d["path"]
                .as_str()
                .is_some_and(|p| p.ends_with("claims.json"))
        })
        .map(|d| (d["line"].as_u64().unwrap(), d["column"].as_u64().unwrap()))
        .collect();
    assert!(
        places.len() >= 6 * CLAIMS,
        "six C findings a claim: {}",
        places.len()
    );
    assert!(
        places.is_sorted(),
        "the claims file's findings out of place order"
    );
    if without == 0 {
        return; // no `/proc` to read the peak from
    }
    let with = listed.peak_rss_kib;
    println!("with claims: peak {} MiB", with / MIB);
    assert_per_claim(with, without, 6.0);
}
