//! The floor for the performance bench: discover, read and parse every file exactly as
//! `benchlint check` does (same walker, same reader, same parser with the same bounds, the
//! per-request samples of canonical results read straight into numbers, same threads), with
//! no recognition, no schema validation and no rules.
//!
//! Usage: `cargo run --release --example parse_only -- PATH..`

use std::path::PathBuf;

use rayon::prelude::*;

fn main() {
    let paths: Vec<PathBuf> = std::env::args().skip(1).map(PathBuf::from).collect();
    let (entries, _) = benchlint::corpus::discover(&paths);
    // `check`'s options: default thresholds, only the typed result kept.
    let options = benchlint::corpus::Options {
        lean: true,
        ..benchlint::corpus::Options::default()
    };
    let limit = options.thresholds.max_file_bytes;
    let (documents, bytes): (usize, usize) = entries
        .par_iter()
        .map(|e| match benchlint::corpus::read_text(e.path(), limit) {
            Ok((text, _)) => {
                let name = e
                    .path()
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default();
                (
                    benchlint::corpus::parse_json_text(&name, &text, &options)
                        .documents
                        .len(),
                    text.len(),
                )
            }
            Err(_) => (0, 0),
        })
        .reduce(|| (0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
    println!(
        "parsed {documents} documents, {bytes} bytes, from {} files",
        entries.len()
    );
}
