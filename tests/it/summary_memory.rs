//! `summary` puts each result away as it is read and reads a configuration's runs back when it
//! reaches it, gathering only their figures: what it holds grows by a few hundred bytes a
//! result, whether every result is a configuration of its own or all are runs of one.
//! (`BENCHLINT_SCALING_BIN` measures another build.)

use std::path::{Path, PathBuf};

use crate::scaling::exec;
use crate::scaling_shapes::{args, identified};

/// `n` results in folders of a thousand files: each its own configuration when `distinct`,
/// else all runs of one over ten launches, six levels each.
fn corpus(dir: &Path, n: usize, distinct: bool) -> PathBuf {
    let root = dir.join(format!("{}-{n}", if distinct { "distinct" } else { "one" }));
    for i in 0..n {
        let folder = root.join(format!("f{:03}", i / 1_000));
        if i % 1_000 == 0 {
            std::fs::create_dir_all(&folder).unwrap();
        }
        let mut doc = identified(&format!("r{i}"), if distinct { i } else { 0 }, 0.0);
        doc["launch"] = serde_json::json!({"id": format!("launch-{}", i % 10)});
        // Every run's figures its own: runs alike in every figure would be copies (S010).
        #[expect(clippy::cast_precision_loss, reason = "small counts")]
        let wiggle = i as f64 / 1_000.0;
        doc["levels"] = [1, 2, 4, 8, 16, 32]
            .iter()
            .map(|&c| {
                serde_json::json!({"concurrency": c, "requests": 100, "duration_s": 60.0,
                    "throughput_tok_s": {"aggregate": 100.0 * f64::from(c) + wiggle},
                    "per_user_tok_s": {"median": 90.0 / f64::from(c)},
                    "ttft_s": {"p50": 0.1}})
            })
            .collect();
        std::fs::write(folder.join(format!("r{i}.json")), doc.to_string()).unwrap();
    }
    root
}

/// Peak resident set (KiB) of `summary --format csv` over `corpus`, and its output's lines.
fn peak(corpus: &Path) -> (u64, usize) {
    let r = exec(&args(&[&"summary", &"--format", &"csv", &corpus]));
    let lines = r.out().lines().count();
    println!(
        "summary of {}: peak {} MiB, {lines} lines",
        corpus.display(),
        r.peak_rss_kib / 1024
    );
    (r.peak_rss_kib, lines)
}

#[test]
fn summary_holds_a_few_hundred_bytes_a_result() {
    let tmp = tempfile::tempdir().unwrap();
    for distinct in [true, false] {
        let (small, small_lines) = peak(&corpus(tmp.path(), 4_000, distinct));
        let (large, large_lines) = peak(&corpus(tmp.path(), 16_000, distinct));
        if small == 0 {
            return;
        }
        // A row a configuration and level, after the header.
        let rows = |n: usize| 1 + if distinct { n * 6 } else { 6 };
        assert_eq!((small_lines, large_lines), (rows(4_000), rows(16_000)));
        // Measured: 800 to 1,350 bytes a result (the list of files read and its table, where
        // each result is, sort keys up to their budget, a configuration's figures, and the
        // allocator's pages over about 560 bytes of heap). While every rule ran in the load,
        // 500 to 600: the rules' memos, a few megabytes whatever the corpus, were freed and
        // reused and hid half the growth (the build before it grows by 1.35 KB a result here
        // with only the rules `summary` now runs selected). A kept result is 2.5 KB of heap;
        // holding every result to the end, as `summary` did, took 1.45 KB a result of these
        // with every rule's memos hiding some of it.
        let per_result = large.saturating_sub(small) * 1024 / 12_000;
        println!("distinct {distinct}: {per_result} bytes a result");
        assert!(
            per_result <= 1_700,
            "{per_result} bytes a result between 4,000 and 16,000 results (distinct {distinct})"
        );
        std::fs::remove_dir_all(tmp.path()).unwrap();
        std::fs::create_dir_all(tmp.path()).unwrap();
    }
}
