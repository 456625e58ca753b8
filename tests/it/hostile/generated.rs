//! Hostile input generated into a temporary folder: deep nesting, a million samples or
//! levels, a ten-megabyte line, a 300-megabyte file.

use std::io::Write;
use std::path::Path;
use std::time::Duration;

use super::{MINIMAL, assert_input_errors, check, check_with, code, results, write};
use crate::support::watchdog::{LIMIT, bin, run};

// ---------------------------------------------------------------------------------------------
// Generated: nesting, size, counts.

#[test]
fn deep_nesting_is_reported_not_recursed() {
    let dir = tempfile::tempdir().unwrap();
    let arrays = write(
        dir.path(),
        "arrays.json",
        &("[".repeat(100_000) + &"]".repeat(100_000)),
    );
    let objects = write(
        dir.path(),
        "objects.json",
        &("{\"a\":".repeat(100_000) + "1" + &"}".repeat(100_000)),
    );
    let open = write(dir.path(), "unclosed.json", &"[{\"a\":".repeat(100_000));
    for p in [&arrays, &objects, &open] {
        let (_, ds) = check(&[p]);
        assert_input_errors(
            &ds,
            &[(
                "E002",
                "arrays and objects are nested more than 64 levels deep (the `max_depth` bound); the document was not parsed",
            )],
        );
        // At the bracket that opens level 65.
        let column = if p == &objects {
            64 * 5 + 1
        } else if p == &open {
            32 * 6 + 1
        } else {
            65
        };
        assert_eq!(ds[0]["column"].as_u64(), Some(column), "{p:?}: {}", ds[0]);
    }
    // Raised past the parser's own limit, the parser's 128 levels is the bound, said as clearly.
    let cfg = write(
        dir.path(),
        "benchlint.toml",
        "[thresholds]\nmax_depth = 1000\n",
    );
    let mid = write(
        dir.path(),
        "mid.json",
        &("[".repeat(500) + &"]".repeat(500)),
    );
    let (_, ds) = check_with(&[&mid], &["--config", cfg.to_str().unwrap()]);
    assert_input_errors(
        &ds,
        &[(
            "E002",
            "nested more than 128 levels deep (the parser's limit); the document was not parsed",
        )],
    );
}

#[test]
fn the_scanners_do_not_recurse() {
    // A million levels on a 256 KiB stack: any recursion per level would overflow it.
    let handle = std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(|| {
            let deep = "[{\"k\":".repeat(1_000_000);
            let segments = benchlint::json::split_documents(&deep, false);
            assert_eq!(segments.len(), 1);
            assert_eq!(benchlint::json::split_documents(&deep, true).len(), 1);
            let span = benchlint::json::locate(&deep, 0, &"/0/k".repeat(1000)).unwrap();
            assert!(span.exact);
            let _ = benchlint::json::locate(&deep, 0, "/0/missing");
            assert_eq!(
                benchlint::json::position(&deep, deep.len()),
                (1, deep.len() + 1)
            );
            let parsed = benchlint::json::parse_text(&deep, false);
            assert!(parsed.documents.is_empty() && parsed.failures.len() == 1);
            let closed = "[".repeat(1_000_000) + &"]".repeat(1_000_000);
            let found = benchlint::json::scan(
                &closed,
                &benchlint::json::Limits {
                    max_depth: usize::MAX,
                    max_array_items: 1,
                    ..benchlint::json::Limits::default()
                },
            );
            assert_eq!(found.too_deep, None);
        })
        .unwrap();
    handle
        .join()
        .expect("no stack overflow in split_documents, locate, position or scan");
}

/// Samples written per chunk.
const CHUNK: usize = 200_000;

/// Writes a canonical result whose one level holds `n` TTFT samples, in one line.
fn samples_file(path: &Path, n: usize) {
    let mut f = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
    write!(
        f,
        "{MINIMAL}, \"levels\": [{{\"concurrency\": 1, \"samples\": {{\"ttft_s\": [0.25"
    )
    .unwrap();
    let chunk = ",0.25".repeat(CHUNK);
    let rest = n - 1;
    for _ in 0..rest / CHUNK {
        f.write_all(chunk.as_bytes()).unwrap();
    }
    f.write_all(&chunk.as_bytes()[..(rest % CHUNK) * 5])
        .unwrap();
    f.write_all(b"]}}]}\n").unwrap();
}

#[test]
fn a_million_samples_are_cut_at_the_bound() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("samples.json");
    samples_file(&p, 1_000_001);
    // Only the input rules: the subject is reading, not what R017 makes of a million samples.
    let (r, ds) = check_with(&[&p], &["--select", "E"]);
    assert_input_errors(
        &ds,
        &[(
            "E001",
            "this array holds 1000001 items, over the bound of 1000000 (`max_array_items`); only the first 1000000 were read",
        )],
    );
    assert_eq!(
        results(&r),
        1,
        "the result is read with its first million samples"
    );
    println!(
        "1,000,001 samples: {:?}, peak RSS {} MiB",
        r.elapsed,
        r.peak_rss_kib / 1024
    );
}

#[test]
fn a_million_levels_are_cut_at_the_bound() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("levels.json");
    let mut f = std::io::BufWriter::new(std::fs::File::create(&p).unwrap());
    write!(f, "{MINIMAL}, \"levels\": [{{\"concurrency\": 1}}").unwrap();
    for _ in 1..1_000_000 {
        f.write_all(b",{\"concurrency\":1}").unwrap();
    }
    f.write_all(b"]}\n").unwrap();
    drop(f);
    let (r, ds) = check_with(&[&p], &["--select", "E"]);
    assert_input_errors(
        &ds,
        &[(
            "E001",
            "the result has 1000000 levels, over the bound of 1000 (`max_levels`); only the first 1000 were read and checked",
        )],
    );
    let d = ds.iter().find(|d| code(d) == "E001").unwrap();
    assert_eq!(d["pointer"], "/levels");
    assert_eq!(results(&r), 1);
    println!(
        "1,000,000 levels: {:?}, peak RSS {} MiB",
        r.elapsed,
        r.peak_rss_kib / 1024
    );
}

#[test]
fn a_ten_megabyte_line() {
    let dir = tempfile::tempdir().unwrap();
    let notes = "x".repeat(10 * 1024 * 1024);
    let p = write(
        dir.path(),
        "long-line.json",
        &format!("{MINIMAL}, \"levels\": [{{\"concurrency\": \"1\"}}], \"notes\": \"{notes}\"}}"),
    );
    let (r, ds) = check(&[&p]);
    assert_input_errors(
        &ds,
        &[("E003", "schema violation at `/levels/0/concurrency`")],
    );
    assert!(r.elapsed < Duration::from_secs(30));
    // The human report never prints the 10 MB line as a snippet: only its part around the
    // label, cut with an ellipsis.
    let mut cmd = bin();
    cmd.args(["check", "--isolated"]).arg(&p);
    let h = run(cmd, LIMIT);
    h.assert_ran("human");
    assert!(
        h.stdout.len() < 64 * 1024,
        "human report of {} bytes",
        h.stdout.len()
    );
    assert!(
        h.out().contains("long-line.json:1:") && h.out().contains("…\n"),
        "{}",
        h.out()
    );
}

const HUGE: u64 = 300 * 1024 * 1024;

#[test]
fn a_300_megabyte_file() {
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("huge.json");
    samples_file(&p, usize::try_from(HUGE / 5).unwrap());
    let size = std::fs::metadata(&p).unwrap().len();
    assert!(size >= HUGE, "{size}");
    // Over the default limit: refused from its size alone, never read.
    let (r, ds) = check(&[&p]);
    assert_input_errors(
        &ds,
        &[(
            "E001",
            &format!("file is {size} bytes, over the 268435456-byte limit"),
        )],
    );
    assert!(
        r.peak_rss_kib < 64 * 1024 || r.peak_rss_kib == 0,
        "peak RSS {} KiB: the file was read",
        r.peak_rss_kib
    );
    // Raised: read, its samples cut at the bound before parsing, so memory follows the bound.
    if cfg!(debug_assertions) {
        println!(
            "skipped: reading the 300 MB file with --max-file-size raised takes over a minute in a debug build \
             (the byte scans run at opt-level 0); `cargo test --release --test hostile` runs it"
        );
        return;
    }
    let (r, ds) = check_with(
        &[&p],
        &["--isolated", "--max-file-size", &(size + 1).to_string()],
    );
    assert_input_errors(
        &ds,
        &[(
            "E001",
            "over the bound of 1000000 (`max_array_items`); only the first 1000000 were read",
        )],
    );
    println!(
        "300 MB with the limit raised: {:?}, peak RSS {} MiB",
        r.elapsed,
        r.peak_rss_kib / 1024
    );
    // The text itself (300 MiB) plus the first million samples: nowhere near the 3+ GiB a
    // parsed 60-million-item array would take.
    assert!(
        r.peak_rss_kib < 1024 * 1024,
        "peak RSS {} MiB",
        r.peak_rss_kib / 1024
    );
}
