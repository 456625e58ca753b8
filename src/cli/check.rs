//! `benchlint check`.

use std::io::Write;
use std::path::PathBuf;

use super::{CheckArgs, Output, ci};
use crate::engine;

/// Runs `check` and renders its findings.
pub fn run(args: &CheckArgs) -> Result<Output, String> {
    let paths = if args.paths.is_empty() {
        vec![PathBuf::from(".")]
    } else {
        args.paths.clone()
    };
    // The config file, the command-line selection and the baseline (src/cli/ci.rs).
    let Some(setup) = ci::setup(args, &paths)? else {
        return Ok(ci::trouble());
    };
    let checked = engine::check(&paths, &setup.options);
    if checked.summary.files == 0 && checked.findings.is_empty() {
        // As ruff does: an empty selection is worth a word, not a failure.
        let shown: Vec<String> = paths
            .iter()
            .map(|p| crate::text::line(&p.to_string_lossy()).into_owned())
            .collect();
        let _ = writeln!(
            std::io::stderr(),
            "benchlint: warning: no result files (.json, .jsonl, .yaml, mlperf_log_*.txt) found under {}",
            shown.join(", ")
        );
    } else if checked.summary.results == 0
        && checked.corpus.claims.is_empty()
        && checked.findings.is_empty()
    {
        // Only files a harness writes beside its results: recognised, but nothing was checked.
        let shown: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
        let _ = writeln!(
            std::io::stderr(),
            "benchlint: warning: none of the {} files under {} holds a result (they are side files a harness writes beside its results); nothing was checked",
            checked.summary.files,
            shown.join(", ")
        );
    }
    // Baseline, --fail-on, --statistics, --format, --color, --output.
    ci::finish(args, &setup, checked, &paths)
}
