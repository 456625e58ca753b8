//! The floor for the performance bench: discover, read and parse every file exactly as
//! `benchlint check` does (same walker, same reader, same parser with the same resource
//! limits, same one-document-per-line rule for `.jsonl` and `.ndjson`, same threads), with no
//! recognition, no schema validation and no rules.
//!
//! Usage: `cargo run --release --example parse_only -- PATH..`

use std::path::{Path, PathBuf};

use rayon::prelude::*;

fn main() {
    let paths: Vec<PathBuf> = std::env::args().skip(1).map(PathBuf::from).collect();
    let (entries, _) = benchlint::corpus::discover(&paths);
    let thresholds = benchlint::thresholds::Thresholds::default();
    let limits = thresholds.json_limits();
    let (documents, bytes): (usize, usize) = entries
        .par_iter()
        .map(
            |e| match benchlint::corpus::read_text(&e.path, thresholds.max_file_bytes) {
                Ok((text, _)) => {
                    let lower = e.path.to_string_lossy().to_ascii_lowercase();
                    let by_line = Path::new(&lower)
                        .extension()
                        .is_some_and(|x| x == "jsonl" || x == "ndjson");
                    let parsed = benchlint::json::parse_text_with(&text, by_line, &limits);
                    (parsed.documents.len(), text.len())
                }
                Err(_) => (0, 0),
            },
        )
        .reduce(|| (0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
    println!(
        "parsed {documents} documents, {bytes} bytes, from {} files",
        entries.len()
    );
}
