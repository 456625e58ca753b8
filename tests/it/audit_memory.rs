//! The audit's report of a corpus makes each configuration's ladder (its levels, intervals,
//! capacity and replication status) as its writers reach it, never all at once: a corpus whose
//! results are each a configuration of their own costs the audit its results, not a ladder of
//! about two kilobytes beside each.

use crate::scaling::exec;
use crate::scaling_shapes::{args, identified, jsonl};

/// Peak resident set (KiB) of `audit -o` over `n` results, each a configuration of its own,
/// and the line it ends with.
fn peak(dir: &std::path::Path, n: usize) -> (u64, String) {
    let corpus = dir.join(format!("distinct-{n}"));
    std::fs::create_dir_all(&corpus).unwrap();
    // Each a ladder of six levels, as a sweep records it.
    #[expect(clippy::cast_precision_loss, reason = "small counts")]
    jsonl(
        &corpus.join("results.jsonl"),
        (0..n).map(|i| {
            let mut doc = identified(&format!("r{i}"), i, 1000.0 + i as f64);
            doc["levels"] = [1, 2, 4, 8, 16, 32]
                .iter()
                .map(|&c| {
                    serde_json::json!({"concurrency": c, "requests": 100, "duration_s": 60.0,
                        "throughput_tok_s": {"aggregate": 100.0 * f64::from(c) + i as f64},
                        "per_user_tok_s": {"median": 90.0 / f64::from(c)},
                        "ttft_s": {"p50": 0.1}})
                })
                .collect();
            doc
        }),
    );
    let out = dir.join(format!("report-{n}"));
    let r = exec(&args(&[&"audit", &"-o", &out, &corpus]));
    let said = r.out().trim().to_string();
    println!(
        "audit, {n} results: peak {} MiB; {said}",
        r.peak_rss_kib / 1024
    );
    (r.peak_rss_kib, said)
}

#[test]
fn the_audit_makes_each_configurations_ladder_as_it_is_written() {
    let tmp = tempfile::tempdir().unwrap();
    let (small, _) = peak(tmp.path(), 4_000);
    let (large, said) = peak(tmp.path(), 16_000);
    if small == 0 {
        return;
    }
    assert!(said.contains("16000 configurations"), "{said}");
    let report = std::fs::read_to_string(tmp.path().join("report-16000/report.md")).unwrap();
    // Every configuration is in the report, each with its ladder's section.
    assert_eq!(report.matches("\nReplication: ").count(), 16_000);
    // About 2.6 KB a result here in a release build (3.5 in a debug one), most of it the kept
    // result; the ladders all made before the report was written added about 1.7 KB more
    // (4.3 KB a result in a release build).
    let per_result = large.saturating_sub(small) * 1024 / 12_000;
    println!("{per_result} bytes a result");
    assert!(
        per_result <= 4_000,
        "{per_result} bytes a result between 4,000 and 16,000 results"
    );
}
