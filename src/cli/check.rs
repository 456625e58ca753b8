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
            "benchlint: warning: no result files (.json, .jsonl) found under {}",
            shown.join(", ")
        );
    }
    // Baseline, --fail-on, --statistics, --format, --color, --output.
    ci::finish(args, &setup, checked, &paths)
}
