//! `benchlint check`: the machine-readable formats and `concise` are written file by file as
//! the files are checked ([`Stream`]); the others, and any run with a baseline, an
//! output file, `--statistics` or `--show-files`, once every finding is known.

use std::io::Write;
use std::path::PathBuf;

use super::ci::{self, Setup};
use super::{CheckArgs, EXIT_CLEAN, EXIT_FINDINGS, EXIT_TROUBLE, Format, Output};
use crate::engine::{self, Checked};
use crate::report::{Stream, Streamed};

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
    if let Some(format) = streamed(args, &setup) {
        return Ok(stream(args, &setup, &paths, format));
    }
    let checked = engine::check(&paths, &setup.options);
    warn_if_nothing(&paths, &checked, checked.findings.len());
    // Baseline, --fail-on, --statistics, --format, --color, --output.
    ci::finish(args, &setup, checked, &paths)
}

/// The format to write file by file, if this run can be: to stdout, with no baseline (it
/// needs every finding to tell which entries are stale) and findings, not a summary of them.
fn streamed(args: &CheckArgs, setup: &Setup) -> Option<Streamed> {
    let ci = &args.ci;
    if ci.output.is_some() || ci.statistics || ci.show_files || setup.baseline.is_some() {
        return None;
    }
    match args.format {
        Format::Json => Some(Streamed::Json),
        Format::JsonLines => Some(Streamed::JsonLines),
        Format::Concise => Some(Streamed::Concise),
        Format::Github => Some(Streamed::Github),
        Format::Human | Format::Grouped | Format::Sarif | Format::Junit => None,
    }
}

/// Checks `paths`, writing each file's findings to stdout as soon as they are known, then the
/// run's last findings and the summary; decides the exit code as [`ci::finish`] does.
fn stream(args: &CheckArgs, setup: &Setup, paths: &[PathBuf], format: Streamed) -> Output {
    let mut out = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
    let mut stream = Stream::start(format, &mut out, setup.options.thresholds.max_file_bytes);
    let mut checked = engine::check_each(paths, &setup.options, &mut |file| stream.write(file));
    warn_if_nothing(paths, &checked, checked.handed + checked.findings.len());
    let per_file = setup
        .config
        .as_ref()
        .is_some_and(|c| !c.per_file_ignores.is_empty() || !c.sidecars.is_empty());
    if per_file {
        let files: Vec<String> = crate::corpus::discover(paths)
            .0
            .into_iter()
            .map(|e| e.display)
            .collect();
        ci::warn_unmatched_globs(setup, &files);
    }
    let threshold = args.ci.fail_on.severity();
    let failing = checked.worst_handed.is_some_and(|s| s >= threshold)
        || checked
            .findings
            .iter()
            .any(|f| !f.pre_rule && f.severity >= threshold)
        || checked.corpus.omitted.any_at_least(threshold);
    stream.write(std::mem::take(&mut checked.findings));
    stream.finish(&checked.summary);
    drop(out);
    ci::report_omitted(&checked.corpus, &setup.options.thresholds);
    // A bug caught on one file or rule: every other finding is still printed, then exit 2.
    let code = if crate::corpus::report_internal_errors(&checked.corpus.internal_errors) {
        EXIT_TROUBLE
    } else if failing && !args.ci.exit_zero {
        EXIT_FINDINGS
    } else {
        EXIT_CLEAN
    };
    checked.corpus.release();
    Output::stdout(Vec::new(), code)
}

/// A run that found nothing to check is worth a word on stderr, not a failure (as ruff does).
fn warn_if_nothing(paths: &[PathBuf], checked: &Checked, findings: usize) {
    if checked.summary.files == 0 && findings == 0 {
        let shown: Vec<String> = paths
            .iter()
            .map(|p| crate::text::line(&p.to_string_lossy()).into_owned())
            .collect();
        let _ = writeln!(
            std::io::stderr(),
            "benchlint: warning: no result files (.json, .jsonl, .yaml, mlperf_log_*.txt) found under {}",
            shown.join(", ")
        );
    } else if checked.summary.results == 0 && checked.corpus.claims.is_empty() && findings == 0 {
        // Only files a harness writes beside its results: recognised, but nothing was checked.
        let shown: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
        let _ = writeln!(
            std::io::stderr(),
            "benchlint: warning: none of the {} files under {} holds a result (they are side files a harness writes beside its results); nothing was checked",
            checked.summary.files,
            shown.join(", ")
        );
    }
}
