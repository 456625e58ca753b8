//! `summary` puts each result away as it is read and reads a configuration's runs back when it
//! reaches it, gathering only their figures: what it holds grows by a few hundred bytes a
//! complete result, whether every result is a configuration of its own or all are runs of one,
//! never what holding the results takes.
//! (`BENCHLINT_SCALING_BIN` measures another build.)

use std::path::{Path, PathBuf};

use crate::compare_memory::result;
use crate::scaling::exec;
use crate::scaling_shapes::args;

/// `n` complete canonical results (six levels each) in folders of a thousand files: each its
/// own configuration (its own engine version) when `distinct`, else all runs of one over ten
/// launches.
fn corpus(dir: &Path, n: usize, distinct: bool) -> PathBuf {
    let root = dir.join(format!("{}-{n}", if distinct { "distinct" } else { "one" }));
    for i in 0..n {
        let folder = root.join(format!("f{:03}", i / 1_000));
        if i % 1_000 == 0 {
            std::fs::create_dir_all(&folder).unwrap();
        }
        let version = if distinct {
            format!("0.{i}.0")
        } else {
            "0.0.0".to_string()
        };
        // Every run's figures its own: runs alike in every figure would be copies (S010).
        #[expect(clippy::cast_precision_loss, reason = "small counts")]
        let scale = 1.0 + i as f64 / 1e3;
        let launch = if distinct { i } else { i % 10 };
        let doc = result(
            &format!("r{i}"),
            &version,
            &format!("launch-{launch}"),
            scale,
        );
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
        // Measured: 250 to 400 bytes a result with every result a configuration of its own,
        // 680 with all runs of one (the list of files read and its table, where each result
        // is, sort keys up to their budget, the one configuration's figures). 1.2 and 1.7 KB
        // while freed memory stayed mapped for a second after it was freed and the loader held
        // a second copy of every path. Holding every result, as `check` does, takes 3.2 KB a
        // result of these (`check` on the bench's `distinct` shape).
        let per_result = large.saturating_sub(small) * 1024 / 12_000;
        println!("distinct {distinct}: {per_result} bytes a result");
        assert!(
            per_result <= 1_100,
            "{per_result} bytes a result between 4,000 and 16,000 results (distinct {distinct})"
        );
        std::fs::remove_dir_all(tmp.path()).unwrap();
        std::fs::create_dir_all(tmp.path()).unwrap();
    }
}
