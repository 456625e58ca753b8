//! The findings known only once every file is read (the corpus-wide rules') are held on disk
//! and come back in output order; a report that needs every finding before it writes (the human
//! report, SARIF, JUnit, grouped, GitHub, GitLab, `--statistics`) keeps those the run's cap
//! lists and counts the rest as they pass, so a corpus whose configurations each draw several
//! corpus-wide findings costs its results, not their findings.

use crate::scaling::exec;
use crate::scaling_shapes::{args, distinct_results};

/// Peak resident set (KiB) and the summary line of `check --format FORMAT` over `n` results,
/// each a configuration of its own, with the run's cap at 50 findings.
fn peak(dir: &std::path::Path, n: usize, format: &str) -> (u64, String) {
    let corpus = dir.join(format!("distinct-{n}"));
    std::fs::create_dir_all(&corpus).unwrap();
    distinct_results(&corpus.join("results.jsonl"), n);
    let config = dir.join("cap.toml");
    std::fs::write(&config, "[thresholds]\nmax_findings = 50\n").unwrap();
    let r = exec(&args(&[
        &"check",
        &"--exit-zero",
        &"--config",
        &config,
        &"--format",
        &format,
        &corpus,
    ]));
    let summary = r
        .out()
        .lines()
        .chain(r.err().lines())
        .find(|l| l.starts_with("Found "))
        .unwrap_or_default()
        .to_string();
    println!(
        "{format}, {n} results: peak {} MiB; {summary}",
        r.peak_rss_kib / 1024
    );
    (r.peak_rss_kib, summary)
}

#[test]
fn findings_past_the_run_cap_are_counted_not_held_by_a_report_that_waits_for_all() {
    let tmp = tempfile::tempdir().unwrap();
    let (small, _) = peak(tmp.path(), 4_000, "human");
    let (large, summary) = peak(tmp.path(), 16_000, "human");
    if small == 0 {
        return;
    }
    // Every configuration draws three corpus-wide findings (S002, S003, S004), all but the
    // first 50 findings of the run past the cap.
    assert!(summary.contains("16000 results"), "{summary}");
    assert!(summary.contains("past the finding caps"), "{summary}");
    // Each result kept for the corpus-wide rules costs about 1.4 KB here; holding every
    // corpus-wide finding until the list was cut added about 1.6 KB more.
    let per_result = large.saturating_sub(small) * 1024 / 12_000;
    println!("{per_result} bytes a result");
    assert!(
        per_result <= 2_200,
        "{per_result} bytes a result between 4,000 and 16,000 results"
    );
}
