//! Work grows with the input, not with its square: four times the findings in one file, or
//! four times the claims, takes at most about four times the CPU (the bound allows twice that;
//! a quadratic cost would take sixteen times), and a file of junk is held to the findings cap in
//! memory. CPU times (the child's user and system time, which a busy machine barely moves, unlike
//! wall time) are compared between two sizes in the same test, never against a fixed limit; the
//! runs of this file go one at a time, and each child's CPU is read from its own `/proc` entry.

use crate::support::watchdog;

use std::ffi::OsString;
use std::path::Path;
use std::sync::Mutex;
use std::time::Duration;

use serde_json::json;
use watchdog::{Run, bin, run};

/// Allowed ratio of times for four times the input: linear is 4, quadratic 16.
pub(crate) const MAX_RATIO: f64 = 8.0;

/// Held by each run: the CPU a run reports is read from this process's count for its reaped
/// children, which a run of another test in parallel would add to.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

pub(crate) fn exec(args: &[OsString]) -> Run {
    let _alone = ONE_AT_A_TIME
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let mut c = bin();
    // Another build to measure (an older release, to show a growth these tests keep out).
    if let Some(other) = std::env::var_os("BENCHLINT_SCALING_BIN") {
        let mut o = std::process::Command::new(other);
        o.envs(c.get_envs().filter_map(|(k, v)| Some((k, v?))));
        o.env_remove("GITHUB_ACTIONS").env_remove("RUST_BACKTRACE");
        c = o;
    }
    c.args(args);
    let r = run(c, Duration::from_secs(300));
    assert!(matches!(r.code, Some(0 | 1)), "{args:?}: {}", r.err());
    r
}

/// The smaller CPU time of two runs, in seconds (wall time where `/proc` is not there).
pub(crate) fn time(args: &[OsString]) -> f64 {
    (0..2)
        .map(|_| {
            let r = exec(args);
            r.cpu.unwrap_or(r.elapsed).as_secs_f64()
        })
        .fold(f64::INFINITY, f64::min)
}

/// Caps raised far above the sizes here, so every finding is kept and rendered.
pub(crate) fn uncapped(dir: &Path) -> OsString {
    let p = dir.join("uncapped.toml");
    std::fs::write(
        &p,
        "[thresholds]\nmax_findings_per_file = 100000000\nmax_findings = 100000000\n",
    )
    .unwrap();
    p.into_os_string()
}

pub(crate) fn ratio_of(small: f64, large: f64) -> f64 {
    // Process start-up is a floor both share; a tiny small run is not divided by (and CPU is
    // counted in hundredths of a second).
    large / small.max(0.05)
}

/// A JSON Lines file of `n` minimal canonical results: each misses most of the checklist, so
/// each brings a dozen findings, all in one file.
pub(crate) fn results_file(path: &Path, n: usize) {
    let mut text = String::new();
    for i in 0..n {
        let doc = json!({
            "schema": "benchlint/result/v1", "id": format!("r{i}"), "measured_at": "2026-09-01T00:00:00Z",
            "outcome": "ok",
            "levels": [{"concurrency": 1, "throughput_tok_s": {"aggregate": 10.0}}],
        });
        text.push_str(&doc.to_string());
        text.push('\n');
    }
    std::fs::write(path, text).unwrap();
}

#[test]
fn findings_in_one_file_take_linear_time_in_every_format() {
    let tmp = tempfile::tempdir().unwrap();
    let config = uncapped(tmp.path());
    let (small, large) = (
        tmp.path().join("small.jsonl"),
        tmp.path().join("large.jsonl"),
    );
    results_file(&small, 200);
    results_file(&large, 800);
    for format in ["human", "concise", "json", "sarif", "github"] {
        let t = |p: &Path| {
            time(&[
                "check".into(),
                "--config".into(),
                config.clone(),
                "--format".into(),
                format.into(),
                p.into(),
            ])
        };
        let (a, b) = (t(&small), t(&large));
        let r = ratio_of(a, b);
        println!("{format}: {a:.3} s of CPU, four times the findings {b:.3} s, ratio {r:.1}");
        assert!(
            r < MAX_RATIO,
            "{format}: {a:.3} s then {b:.3} s (ratio {r:.1})"
        );
    }
}

/// One canonical result written on one line (as a minifier or `json.dumps` without indent
/// writes it) whose level holds `n` per-request samples.
fn one_line_result(path: &Path, n: usize) {
    let samples: Vec<f64> = (0..n)
        .map(|i| 0.1 + f64::from(u32::try_from(i % 97).unwrap()) / 1000.0)
        .collect();
    let doc = json!({
        "schema": "benchlint/result/v1", "id": "one-line", "measured_at": "2026-09-01T00:00:00Z",
        "outcome": "ok",
        "levels": [{"concurrency": 1, "requests": n, "throughput_tok_s": {"aggregate": 10.0},
                    "samples": {"ttft_s": samples}}],
    });
    std::fs::write(path, doc.to_string()).unwrap();
}

/// The human report masks the lines its snippets show, and a one-line file's line is all of
/// it: every word of a long sample array is read, and each read searched on to the array's end
/// (a 6 MB file took three minutes). Four times the samples take about four times as long.
#[test]
fn a_one_line_result_is_drawn_in_linear_time() {
    let tmp = tempfile::tempdir().unwrap();
    let (small, large) = (tmp.path().join("small"), tmp.path().join("large"));
    for (dir, n) in [(&small, 25_000), (&large, 100_000)] {
        std::fs::create_dir_all(dir).unwrap();
        one_line_result(&dir.join("result.json"), n);
    }
    let t = |p: &Path| time(&["check".into(), "--exit-zero".into(), p.into()]);
    let (a, b) = (t(&small), t(&large));
    let r = ratio_of(a, b);
    println!("human: {a:.3} s of CPU, four times the samples {b:.3} s, ratio {r:.1}");
    assert!(
        r < MAX_RATIO,
        "human: {a:.3} s then {b:.3} s (ratio {r:.1})"
    );
}

/// A claims file of `n` claims naming results that are not in the corpus (C015 on each).
fn claims_file(path: &Path, n: usize) {
    let claims: Vec<_> = (0..n)
        .map(|i| json!({"id": format!("c{i}"), "kind": "figure", "metric": "aggregate_tok_s", "value": 500,
                        "subject": {"results": [format!("missing-{i}")], "concurrency": 32}}))
        .collect();
    std::fs::write(
        path,
        serde_json::to_string_pretty(&json!({"schema": "benchlint/claims/v1", "claims": claims}))
            .unwrap(),
    )
    .unwrap();
}

#[test]
fn claims_take_linear_time() {
    let tmp = tempfile::tempdir().unwrap();
    let config = uncapped(tmp.path());
    let (small, large) = (tmp.path().join("small.json"), tmp.path().join("large.json"));
    claims_file(&small, 500);
    claims_file(&large, 2000);
    for format in ["human", "json"] {
        let t = |p: &Path| {
            time(&[
                "check".into(),
                "--config".into(),
                config.clone(),
                "--format".into(),
                format.into(),
                p.into(),
            ])
        };
        let (a, b) = (t(&small), t(&large));
        let r = ratio_of(a, b);
        println!("claims, {format}: {a:.3} s of CPU, four times the claims {b:.3} s, ratio {r:.1}");
        assert!(
            r < MAX_RATIO,
            "{format}: {a:.3} s then {b:.3} s (ratio {r:.1})"
        );
    }
}

/// A file of junk lines is one finding (it is not JSON), and a JSON Lines file of a hundred
/// thousand broken lines keeps at most the cap: memory does not follow the number of lines.
#[test]
fn broken_lines_are_counted_past_the_cap_not_stored() {
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("broken.jsonl");
    let mut text = String::from("{\"a\": 1}\n");
    for i in 0..100_000 {
        text.push_str("{\"broken\": ");
        text.push_str(&i.to_string());
        text.push_str(",\n");
    }
    std::fs::write(&path, &text).unwrap();
    let r = exec(&[
        "check".into(),
        "--isolated".into(),
        "--format".into(),
        "json".into(),
        path.into(),
    ]);
    let d: serde_json::Value = serde_json::from_str(&r.out()).unwrap();
    let listed = d["diagnostics"].as_array().unwrap().len();
    let summary = &d["summary"];
    assert!(listed <= 1_000, "{listed} listed");
    let counted = summary["errors"].as_u64().unwrap() + summary["warnings"].as_u64().unwrap();
    assert!(
        counted >= 100_000 || listed == 1,
        "every broken line counted (or the file is one finding): {summary}"
    );
    if listed > 1 {
        assert!(summary["omitted"].as_u64().unwrap() > 0, "{summary}");
        assert!(r.err().contains("past the caps"), "{}", r.err());
    }
    assert_eq!(r.code, Some(1), "the omitted errors still fail the run");
    if r.peak_rss_kib > 0 {
        assert!(
            r.peak_rss_kib < 400 * 1024,
            "peak {} KiB for a {} KB file",
            r.peak_rss_kib,
            text.len() / 1024
        );
    }
}
