//! Corpus-wide passes stay near linear whatever the results share: results that share start
//! time, launch and repeat (copy detection), claims whose sides resolve over many
//! configurations of one platform and model (the claims analysis and its noise floor), one claim
//! naming thousands of ids (C015), many small files in the audit report's tables, import names
//! that meet, and sidecar's list of files without results. Each test times two sizes four times
//! apart and bounds the ratio ([`MAX_RATIO`]: linear is 4, quadratic 16); each growth it keeps
//! out was quadratic before. `BENCHLINT_SCALING_BIN` measures another build instead.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::scaling::{MAX_RATIO, exec, ratio_of, time, uncapped};

/// Asserts that the run at the larger size took at most [`MAX_RATIO`] times the smaller.
pub(crate) fn assert_linear(what: &str, small: f64, large: f64) {
    let r = ratio_of(small, large);
    println!("{what}: {small:.3} s of CPU, four times the input {large:.3} s, ratio {r:.1}");
    assert!(
        r < MAX_RATIO,
        "{what}: {small:.3} s then {large:.3} s (ratio {r:.1})"
    );
}

/// An identified result: one configuration per `config` (engine versions differ), all on one
/// platform and model, so every configuration is a candidate control of every comparison.
pub(crate) fn identified(id: &str, config: usize, aggregate: f64) -> Value {
    json!({
        "schema": "benchlint/result/v1", "id": id, "measured_at": "2026-09-01T00:00:00Z",
        "outcome": "ok",
        "platform": {"device": {"model": "NVIDIA GB10"}},
        "engine": {"name": "vllm", "version": format!("0.{config}.0")},
        "model": {"name": "org/model-8b", "precision": "fp8"},
        "workload": {"name": "prose"},
        "levels": [{"concurrency": 1, "requests": 100, "duration_s": 60.0,
                    "throughput_tok_s": {"aggregate": aggregate}, "ttft_s": {"p50": 0.1}}],
    })
}

pub(crate) fn jsonl(path: &Path, docs: impl Iterator<Item = Value>) {
    let mut text = String::new();
    for d in docs {
        text.push_str(&d.to_string());
        text.push('\n');
    }
    std::fs::write(path, text).unwrap();
}

pub(crate) fn args(items: &[&dyn AsRef<std::ffi::OsStr>]) -> Vec<OsString> {
    items.iter().map(|s| s.as_ref().to_os_string()).collect()
}

/// Undated, launch-less results at one load (as llmperf and vLLM files without a timestamp
/// read), every tenth a copy of the one before: `n / 10` copies, each found.
fn undated(dir: &Path, n: usize) -> PathBuf {
    let path = dir.join(format!("undated-{n}.jsonl"));
    #[expect(clippy::cast_precision_loss, reason = "small counts")]
    jsonl(
        &path,
        (0..n).map(|i| {
            let figure = if i % 10 == 9 { i - 1 } else { i };
            json!({
                "schema": "benchlint/result/v1", "id": format!("r{i}"),
                "measured_at": "1970-01-01T00:00:00Z", "outcome": "ok",
                "levels": [{"concurrency": 8, "requests": 300, "duration_s": 60.0,
                            "throughput_tok_s": {"aggregate": 2000.0},
                            "ttft_s": {"p50": 0.1 + figure as f64 * 1e-6}}],
            })
        }),
    );
    path
}

#[test]
fn copies_among_undated_results_are_found_in_linear_time() {
    let tmp = tempfile::tempdir().unwrap();
    let config = uncapped(tmp.path());
    let run = |n: usize| {
        let path = undated(tmp.path(), n);
        let a = args(&[&"check", &"--config", &config, &"--select", &"S010"]);
        let a = [a, args(&[&"--format", &"json", &path])].concat();
        let r = exec(&a);
        let d: Value = serde_json::from_str(&r.out()).unwrap();
        let copies = d["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|f| f["code"] == "S010")
            .count();
        assert_eq!(copies, n / 10, "one S010 per copy at {n} results");
        time(&a)
    };
    let (small, large) = (run(1_000), run(4_000));
    assert_linear("S010 over undated results", small, large);
}

/// A JSON Lines file of `n` results, `r0` to `r{n-1}`, each its own configuration on one
/// platform and model ([`identified`]).
pub(crate) fn distinct_results(path: &Path, n: usize) {
    #[expect(clippy::cast_precision_loss, reason = "small counts")]
    jsonl(
        path,
        (0..n).map(|i| identified(&format!("r{i}"), i, 1000.0 + i as f64)),
    );
}

/// `n` results, each its own configuration on one platform and model, and a claims file of
/// one ratio claim per result (each against the next).
pub(crate) fn claims_corpus(dir: &Path, n: usize) -> PathBuf {
    let corpus = dir.join(format!("claims-{n}"));
    std::fs::create_dir_all(&corpus).unwrap();
    distinct_results(&corpus.join("results.jsonl"), n);
    let claims: Vec<Value> = (0..n)
        .map(|i| {
            json!({"id": format!("c{i}"), "kind": "ratio", "metric": "aggregate_tok_s", "value": 1.001,
                   "subject": {"results": [format!("r{}", (i + 1) % n)], "concurrency": 1},
                   "baseline": {"results": [format!("r{i}")], "concurrency": 1}})
        })
        .collect();
    std::fs::write(
        corpus.join("claims.json"),
        json!({"schema": "benchlint/claims/v1", "claims": claims}).to_string(),
    )
    .unwrap();
    corpus
}

#[test]
fn claims_over_many_configurations_take_linear_time() {
    let tmp = tempfile::tempdir().unwrap();
    let config = uncapped(tmp.path());
    let (small, large) = (
        claims_corpus(tmp.path(), 150),
        claims_corpus(tmp.path(), 600),
    );
    let check = |dir: &Path| {
        time(&args(&[
            &"check",
            &"--config",
            &config,
            &"--format",
            &"json",
            &dir,
        ]))
    };
    assert_linear(
        "check with a claim per result",
        check(&small),
        check(&large),
    );
    let audit = |dir: &Path| {
        time(&args(&[
            &"audit",
            &"--config",
            &config,
            &"--claims",
            &dir.join("claims.json"),
            &dir.join("results.jsonl"),
        ]))
    };
    assert_linear(
        "audit --claims with a claim per result",
        audit(&small),
        audit(&large),
    );
}

/// One claim naming `n` ids, the first half the ten results of the corpus over and over, the
/// rest absent (C015 points at the first absent one, found after every present id). Every id is
/// as long as the others and shares their first hundred characters, so that telling two apart
/// costs what it costs in a real sweep's ids.
fn one_long_claim(dir: &Path, n: usize) -> PathBuf {
    let corpus = dir.join(format!("long-claim-{n}"));
    std::fs::create_dir_all(&corpus).unwrap();
    let present = n / 2;
    let head = "x".repeat(100);
    let id = |kind: char, i: usize| format!("{head}-{kind}{i:07}");
    jsonl(
        &corpus.join("results.jsonl"),
        (0..10).map(|i| identified(&id('p', i), 0, 1000.0)),
    );
    let ids: Vec<String> = (0..n)
        .map(|i| {
            if i < present {
                id('p', i % 10)
            } else {
                id('a', i)
            }
        })
        .collect();
    let claims = json!({"schema": "benchlint/claims/v1", "claims": [
        {"id": "c", "kind": "figure", "metric": "aggregate_tok_s", "value": 1000,
         "subject": {"results": ids, "concurrency": 1}}]});
    std::fs::write(corpus.join("claims.json"), claims.to_string()).unwrap();
    corpus
}

#[test]
fn a_claim_of_many_absent_ids_takes_linear_time() {
    let tmp = tempfile::tempdir().unwrap();
    let config = uncapped(tmp.path());
    let t = |dir: &Path| {
        let a = args(&[&"check", &"--config", &config, &"--format", &"json", &dir]);
        let d: Value = serde_json::from_str(&exec(&a).out()).unwrap();
        let c015: Vec<&Value> = d["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|f| f["code"] == "C015")
            .collect();
        assert_eq!(c015.len(), 1, "{c015:?}");
        time(&a)
    };
    let (small, large) = (
        one_long_claim(tmp.path(), 6_000),
        one_long_claim(tmp.path(), 24_000),
    );
    assert_linear("C015 on a claim of many ids", t(&small), t(&large));
}

/// `n` small canonical files, one result each.
fn tiny_files(dir: &Path, n: usize) -> PathBuf {
    let corpus = dir.join(format!("tiny-{n}"));
    std::fs::create_dir_all(&corpus).unwrap();
    for i in 0..n {
        let doc = json!({
            "schema": "benchlint/result/v1", "id": format!("r{i}"), "measured_at": "2026-09-01T00:00:00Z",
            "outcome": "ok", "levels": [{"concurrency": 1, "throughput_tok_s": {"aggregate": 10.0}}],
        });
        std::fs::write(corpus.join(format!("r{i:05}.json")), doc.to_string()).unwrap();
    }
    corpus
}

#[test]
fn the_audit_report_of_many_files_takes_linear_time() {
    let tmp = tempfile::tempdir().unwrap();
    let config = uncapped(tmp.path());
    let (small, large) = (tiny_files(tmp.path(), 500), tiny_files(tmp.path(), 2_000));
    let mut k = 0;
    let mut t = |dir: &Path| {
        // Every writer (Markdown, HTML, JSON) into a new folder each run.
        let mut best = f64::INFINITY;
        for _ in 0..2 {
            k += 1;
            let out = tmp.path().join(format!("out-{k}"));
            let r = exec(&args(&[&"audit", &"--config", &config, &"-o", &out, &dir]));
            best = best.min(r.cpu.unwrap_or(r.elapsed).as_secs_f64());
        }
        best
    };
    let (a, b) = (t(&small), t(&large));
    assert_linear("audit -o on many small files", a, b);
}

/// `n` files in one folder whose names share their first 204 characters and end in `run=N`
/// (`middle`: whose names differ only in the middle, so that every one is cut to the same name
/// and told apart by a suffix).
fn long_names(dir: &Path, n: usize, middle: bool) -> PathBuf {
    let corpus = dir.join(format!("names-{n}-{middle}"));
    std::fs::create_dir_all(&corpus).unwrap();
    let head = "sweep_".repeat(34);
    for i in 0..n {
        let doc = json!({
            "schema": "benchlint/result/v1", "id": format!("r{i}"), "measured_at": "2026-09-01T00:00:00Z",
            "outcome": "ok", "levels": [{"concurrency": 1, "throughput_tok_s": {"aggregate": 10.0}}],
        });
        let name = if middle {
            format!("{}{i:05}{}.json", "a".repeat(120), "b".repeat(120))
        } else {
            format!("{head}run={i}.json")
        };
        std::fs::write(corpus.join(name), doc.to_string()).unwrap();
    }
    corpus
}

#[test]
fn import_names_keep_their_ends_and_take_linear_time() {
    let tmp = tempfile::tempdir().unwrap();
    let mut k = 0;
    let mut t = |dir: &Path, middle: bool| {
        let mut best = f64::INFINITY;
        for _ in 0..2 {
            k += 1;
            let out = tmp.path().join(format!("import-{k}"));
            let r = exec(&args(&[&"import", &"-o", &out, &dir]));
            // User time: the names are worked out there, and the system time of writing two
            // files a result moves by seconds with the kernel's writeback of the run before
            // (ratios of 3 to 9.6 for the same build, run beside the rest of the suite).
            best = best.min(r.user_cpu.or(r.cpu).unwrap_or(r.elapsed).as_secs_f64());
            let names: Vec<String> = std::fs::read_dir(&out)
                .unwrap()
                .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
                .filter(|n| !n.ends_with(".provenance.json"))
                .collect();
            // What tells the runs apart is kept: `run=7` ends the name of run 7's file, and
            // no name needed a suffix to be unique.
            let unique: std::collections::BTreeSet<&String> = names.iter().collect();
            assert_eq!(unique.len(), names.len());
            for name in names.iter().filter(|_| !middle) {
                let stem = name.strip_suffix(".json").unwrap();
                assert!(stem.len() <= 150, "{name}");
                let run = stem.rsplit("run_").next().unwrap();
                assert!(run.parse::<usize>().is_ok(), "{name}");
            }
        }
        best
    };
    for middle in [false, true] {
        let (small, large) = (
            long_names(tmp.path(), 400, middle),
            long_names(tmp.path(), 1_600, middle),
        );
        let (a, b) = (t(&small, middle), t(&large, middle));
        assert_linear(&format!("import of long names (middle {middle})"), a, b);
    }
}

/// `n` results in one file and `n` files that are not JSON.
fn broken_beside_results(dir: &Path, n: usize) -> PathBuf {
    let corpus = dir.join(format!("broken-{n}"));
    std::fs::create_dir_all(&corpus).unwrap();
    jsonl(
        &corpus.join("results.jsonl"),
        (0..n).map(|i| identified(&format!("r{i}"), 0, 1000.0)),
    );
    for i in 0..n {
        std::fs::write(corpus.join(format!("broken-{i:05}.json")), "{").unwrap();
    }
    corpus
}

#[test]
fn sidecar_skips_take_linear_time() {
    let tmp = tempfile::tempdir().unwrap();
    let t = |dir: &Path| time(&args(&[&"sidecar", &dir]));
    let (small, large) = (
        broken_beside_results(tmp.path(), 500),
        broken_beside_results(tmp.path(), 2_000),
    );
    assert_linear("sidecar beside many broken files", t(&small), t(&large));
}

#[test]
fn the_claims_analysis_is_made_once_for_every_c_rule() {
    // Fifteen C rules report from one analysis: all of them together cost about what one does
    // (each made its own analysis before, fifteen times the cost).
    let tmp = tempfile::tempdir().unwrap();
    let config = uncapped(tmp.path());
    let corpus = claims_corpus(tmp.path(), 300);
    let t = |select: &str| {
        time(&args(&[
            &"check",
            &"--config",
            &config,
            &"--select",
            &select,
            &"--format",
            &"json",
            &corpus,
        ]))
    };
    let (one, all) = (t("C001"), t("C"));
    let r = ratio_of(one, all);
    println!("C001 alone {one:.3} s of CPU, every C rule {all:.3} s, ratio {r:.1}");
    assert!(
        r < 3.0,
        "C001 alone {one:.3} s, every C rule {all:.3} s (ratio {r:.1})"
    );
}
