//! What CI services require of the outputs, checked as those services check them: SARIF that
//! GitHub code scanning accepts (a file URI and a line for every result, no `../`, distinct
//! fingerprints, equal whichever folder benchlint ran in and however the paths were spelled,
//! at most 25,000 results; the SARIF 2.1.0 schema and Microsoft's SARIF multitool), GitHub
//! annotations worst first with a step summary, GitLab Code Quality against a schema written
//! from GitLab's documentation, JUnit with unique (classname, name) pairs, and file names that
//! no output turns into another file's name.

mod annotations_and_junit;
mod code_scanning;
mod names_and_pointers;
mod sarif_validation;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::Value;

use crate::support::watchdog::{Run, bin, run};

const DEMO: &str = "testdata/corpora/demo";
const ENERGY: &str = "testdata/corpora/energy";
const SARIF_SCHEMA: &str = "../shared/thirdparty/sarif-schema-2.1.0.json";
const REALWORLD: &str = "../shared/realworld";

fn check_in(dir: &Path, args: &[&str]) -> Run {
    let mut c = bin();
    c.current_dir(dir)
        .env_remove("GITHUB_STEP_SUMMARY")
        .arg("check")
        .args(args);
    let r = run(c, Duration::from_secs(300));
    assert!(matches!(r.code, Some(0 | 1)), "{args:?}: {}", r.err());
    r
}

fn abs(p: &str) -> PathBuf {
    std::fs::canonicalize(p).unwrap()
}

/// The results of a SARIF log, after checking what GitHub requires of each: a non-empty file
/// URI (not a folder), relative and without `../`, a region with `startLine`, and a
/// fingerprint no other result has.
fn github_accepts(sarif: &str) -> Vec<Value> {
    let log: Value = serde_json::from_str(sarif).unwrap();
    let results = log["runs"][0]["results"].as_array().unwrap().clone();
    assert!(results.len() <= 25_000);
    let mut fingerprints = BTreeSet::new();
    for r in &results {
        let physical = &r["locations"][0]["physicalLocation"];
        let uri = physical["artifactLocation"]["uri"].as_str().unwrap();
        assert!(
            !uri.is_empty()
                && !uri.ends_with('/')
                && !uri.starts_with("../")
                && !uri.contains("/../"),
            "a file URI GitHub takes: {uri:?}"
        );
        assert!(
            !uri.starts_with("file:"),
            "relative to the project root: {uri}"
        );
        assert!(
            physical["region"]["startLine"]
                .as_u64()
                .is_some_and(|l| l >= 1),
            "{r}"
        );
        let fp = r["partialFingerprints"]["benchlint/v2"]
            .as_str()
            .unwrap()
            .to_string();
        assert!(!fp.contains('@'), "no byte offset in a fingerprint: {fp}");
        assert!(fingerprints.insert(fp.clone()), "two results share {fp}");
    }
    results
}
