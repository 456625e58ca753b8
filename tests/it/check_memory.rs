//! What `check` holds of each result: nothing the corpus-wide rules read, once the result's
//! own rules have run. Each result is put away on disk as it is read, and each corpus-wide rule
//! is called on the part of the corpus it reads, read back (a configuration's runs, a set of
//! copies, the results sharing an id). (`BENCHLINT_SCALING_BIN` measures another build.)

use std::path::Path;

use crate::scaling::exec;
use crate::scaling_shapes::{args, identified};

/// `n` files of one result each, every result its own configuration on one platform and
/// model, measured at six levels and recording what a real result records of its harness,
/// platform and engine: what each result holds is not shared with any other.
fn distinct_files(dir: &Path, n: usize) {
    std::fs::create_dir_all(dir).unwrap();
    for i in 0..n {
        #[expect(clippy::cast_precision_loss, reason = "small counts")]
        let mut doc = identified(&format!("r{i}"), i, 1000.0 + i as f64);
        doc["harness"] = serde_json::json!({"name": "fleet-bench", "version": "2.4.0",
            "revision": format!("{i:040x}"), "backend": "openai-chat"});
        doc["launch"] = serde_json::json!({"id": format!("launch-{i}"),
            "started_at": "2026-09-01T00:00:00Z"});
        doc["platform"]["description"] = format!("host {i}, one NVIDIA GB10, 200G RoCE").into();
        doc["engine"]["max_model_len"] = 32_768.into();
        doc["engine"]["max_num_seqs"] = 256.into();
        doc["engine"]["kv_cache_dtype"] = "fp8".into();
        doc["levels"] = (0..6u32)
            .map(|k| {
                let c = 1u64 << k;
                serde_json::json!({"concurrency": c, "requests": 100, "duration_s": 60.0,
                    "throughput_tok_s": {"aggregate": 100.0 * f64::from(1u32 << k) + f64::from(k)},
                    "per_user_tok_s": {"median": 90.0 / f64::from(1u32 << k)},
                    "ttft_s": {"p50": 0.1, "p99": 0.3}})
            })
            .collect();
        std::fs::write(dir.join(format!("r{i:05}.json")), doc.to_string()).unwrap();
    }
}

#[test]
fn check_holds_no_result_of_many_configurations() {
    let tmp = tempfile::tempdir().unwrap();
    let peak = |n: usize| {
        let dir = tmp.path().join(format!("distinct-{n}"));
        distinct_files(&dir, n);
        // The corpus-wide rules and the input rules: no result's own finding fills the run's
        // cap before theirs are listed.
        let r = exec(&args(&[
            &"check",
            &"--select",
            &"S,E",
            &"--format",
            &"concise",
            &dir,
        ]));
        // Every configuration has one run: S002, S003 and S004 on each, the work the rules do
        // on each part read back.
        let few_runs = r.out().lines().filter(|l| l.contains(": S002 ")).count();
        assert_eq!(few_runs, n, "one S002 a configuration at {n} results");
        r.peak_rss_kib * 1024
    };
    let (small, large) = (peak(4_000), peak(14_000));
    println!(
        "check, a configuration a result: peak {} MiB at 4,000 results, {} MiB at 14,000",
        small >> 20,
        large >> 20
    );
    if small == 0 {
        return;
    }
    // Measured (release): the build that held every result for the corpus-wide rules grew by
    // 2.5 to 2.6 KB a result on this corpus; put away, by about 200 bytes (where each was read,
    // its provenance and keys, the table of files read), a run's peak moving by up to 8 MiB
    // (840 bytes a result here). At 4,000 results the findings held until the end already fill
    // their budget in memory (8 MB), so what grows is what the run holds of each result.
    let per = large.saturating_sub(small) / 10_000;
    assert!(
        per <= 1_000,
        "{per} bytes more a result ({} MiB at 4,000 results, {} MiB at 14,000)",
        small >> 20,
        large >> 20
    );
}
