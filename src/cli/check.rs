//! `benchlint check`.

use std::io::{IsTerminal, Write};
use std::path::PathBuf;

use super::{CheckArgs, EXIT_CLEAN, EXIT_FINDINGS, Format, Output};
use crate::corpus::Options;
use crate::diagnostic::Severity;
use crate::{engine, report};

/// Runs `check` and renders its findings.
pub fn run(args: &CheckArgs) -> Result<Output, String> {
    let mut options = Options::default();
    if let Some(limit) = args.max_file_size {
        options.thresholds.max_file_bytes = limit;
    }
    let paths = if args.paths.is_empty() { vec![PathBuf::from(".")] } else { args.paths.clone() };
    let checked = engine::check(&paths, &options);
    if checked.summary.files == 0 && checked.findings.is_empty() {
        // As ruff does: an empty selection is worth a word, not a failure.
        let shown: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
        let _ = writeln!(std::io::stderr(), "benchlint: warning: no result files (.json, .jsonl) found under {}", shown.join(", "));
    }
    let failing = checked.findings.iter().any(|f| f.severity >= Severity::Error);
    let color = args.format == Format::Human && std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none();
    let prepared = report::prepare(checked.findings, checked.summary, options.thresholds.max_file_bytes, color);
    let bytes = match args.format {
        Format::Human => report::human(&prepared),
        Format::Concise => report::concise(&prepared),
        Format::Json => report::json(&prepared),
    };
    Ok(Output::stdout(bytes, if failing { EXIT_FINDINGS } else { EXIT_CLEAN }))
}
