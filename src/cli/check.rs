//! `benchlint check`: `json`, `json-lines`, `concise` and `github` are written file by file as
//! the files are checked ([`Stream`]), with or without a baseline or an output file; the
//! others, `--statistics` and `--show-files` once every finding is known (src/cli/ci.rs).

use std::io::{IsTerminal, Write};
use std::path::PathBuf;

use super::ci::{self, Setup};
use super::notices;
use super::progress::{self, Progress};
use super::stdin;
use super::{CheckArgs, EXIT_CLEAN, EXIT_FINDINGS, EXIT_TROUBLE, Format, Output};
use crate::baseline::{Baseline, Matching};
use crate::diagnostic::{Finding, Severity};
use crate::engine::{self, Checked, Summary};
use crate::report::{Stream, Streamed};

/// Runs `check` and renders its findings.
pub fn run(args: &CheckArgs) -> Result<Output, String> {
    let stdin_name = args.lint.stdin_filename.as_deref();
    let mut paths = if args.paths.is_empty() {
        // `--stdin-filename` alone reads standard input, as ruff does.
        vec![PathBuf::from(if stdin_name.is_some() { "-" } else { "." })]
    } else {
        args.paths.clone()
    };
    let reads_stdin = paths.iter().filter(|p| stdin::is_stdin(p)).count();
    if reads_stdin > 1 {
        return Err("`-` (standard input) is given more than once".into());
    }
    if reads_stdin == 0 && stdin_name.is_some() {
        return Err("--stdin-filename names standard input, but `-` is not among the paths".into());
    }
    // The config is found from the name standard input goes by (the current folder without one).
    let named: Vec<PathBuf> = paths
        .iter()
        .map(|p| match (stdin::is_stdin(p), stdin_name) {
            (true, Some(name)) => name.to_path_buf(),
            (true, None) => PathBuf::from("."),
            (false, _) => p.clone(),
        })
        .collect();
    // The config file, the command-line selection and the baseline (src/cli/ci.rs).
    notices::set_verbosity(args.lint.verbosity());
    let Some(mut setup) = ci::setup(args, &named)? else {
        return Ok(ci::trouble());
    };
    // Held until the run ends: the copy is removed when it is dropped.
    let _copy = if reads_stdin == 1 {
        let copy = stdin::copy(stdin_name, setup.options.thresholds.max_file_bytes)?;
        for p in &mut paths {
            if stdin::is_stdin(p) {
                p.clone_from(&copy.file);
            }
        }
        setup.options.walk.stdin = Some((copy.file.clone(), copy.name.clone()));
        Some(copy)
    } else {
        None
    };
    let stdout_terminal = std::io::stdout().is_terminal() && args.ci.output.is_none();
    let quiet = args.lint.verbosity() != super::lint_args::Verbosity::Normal;
    if let Some(format) = streamed(args) {
        let progress = Progress::start(progress::wanted(
            std::io::stderr().is_terminal(),
            stdout_terminal,
            quiet,
            std::env::var_os("CI").as_deref(),
        ));
        return stream(args, &setup, &paths, format, &progress);
    }
    // Nothing is written before the run ends: the line is erased first.
    let progress = Progress::start(progress::wanted(
        std::io::stderr().is_terminal(),
        false,
        quiet,
        std::env::var_os("CI").as_deref(),
    ));
    let checked = engine::check(&paths, &setup.options);
    drop(progress);
    notices::report_excluded(setup.options.walk.excluded_count());
    warn_if_nothing(&paths, &checked, checked.findings.len());
    // Baseline, --fail-on, --statistics, --format, --color, --output.
    ci::finish(args, &setup, checked, &paths)
}

/// The format to write file by file, if this run's output is findings (not `--statistics` or
/// `--show-files`) in a format that can be written before the run ends.
fn streamed(args: &CheckArgs) -> Option<Streamed> {
    if args.ci.statistics || args.ci.show_files {
        return None;
    }
    match args.format {
        Format::Json => Some(Streamed::Json),
        Format::JsonLines => Some(Streamed::JsonLines),
        Format::Concise => Some(Streamed::Concise),
        // GitHub shows only the first ten annotations of each severity: they are written
        // worst first, which needs every finding (src/cli/ci.rs).
        Format::Human
        | Format::Grouped
        | Format::Sarif
        | Format::Junit
        | Format::Github
        | Format::Gitlab => None,
    }
}

/// Where each file's findings go on their way out: the baseline takes those it records, the
/// rest are counted and written.
struct Sink<'a, 'w> {
    stream: Stream<'w>,
    baseline: Option<&'a Baseline>,
    matching: Option<Matching<'a>>,
    /// Findings handed over, before the baseline.
    seen: usize,
    /// Findings written, by severity.
    counts: Summary,
    /// The worst severity written that is not a pre-rule label.
    worst: Option<Severity>,
    /// Files handed over, for the progress line.
    files: std::sync::Arc<std::sync::atomic::AtomicUsize>,
}

impl Sink<'_, '_> {
    fn file(&mut self, findings: Vec<Finding>) {
        self.files
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        self.last(findings);
    }

    /// Writes findings of the run's end (a batch of them, each file's together), not counted
    /// as a file.
    fn last(&mut self, mut findings: Vec<Finding>) {
        self.seen += findings.len();
        if let Some(b) = self.baseline {
            // The baseline file inside the corpus is not part of it.
            findings.retain(|f| !b.is_self(f.primary.path.raw()));
        }
        if let Some(m) = &mut self.matching {
            m.take(&mut findings);
        }
        engine::count(&mut self.counts, &findings);
        let worst = findings.iter().filter(|f| !f.pre_rule).map(|f| f.severity);
        self.worst = self.worst.max(worst.max());
        self.stream.write(findings);
    }
}

/// Checks `paths`, writing each file's findings as soon as they are known (to stdout, or to
/// memory for `--output`), then the run's last findings and the summary; the baseline and the
/// exit code as [`ci::finish`] has them. `--update-baseline` needs every finding before the
/// new baseline is written: the findings are then held until the run ends.
fn stream(
    args: &CheckArgs,
    setup: &Setup,
    paths: &[PathBuf],
    format: Streamed,
    progress: &Progress,
) -> Result<Output, String> {
    let ci = &args.ci;
    let mut files = ci::files_checked(setup, paths);
    if let Some(b) = &setup.baseline {
        files.retain(|f| !b.is_self(f));
    }
    // Into the output file as the run goes, as to stdout: staged beside it and renamed over it
    // once complete, never held whole (a report of a quarter of a million findings is 150 MB).
    let mut staged = ci
        .output
        .as_deref()
        .map(super::output::Staged::create)
        .transpose()
        .map_err(|e| format!("the report could not be written: {e}"))?;
    let mut stdout;
    let mut nowhere = std::io::sink();
    let out: &mut dyn Write = if let Some(staged) = &mut staged {
        staged
    } else if args.lint.silent {
        &mut nowhere
    } else {
        stdout = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
        &mut stdout
    };
    let max_file_bytes = setup.options.thresholds.max_file_bytes;
    let updated;
    let mut sink = Sink {
        stream: Stream::start(format, out, max_file_bytes),
        baseline: setup.baseline.as_ref(),
        matching: None,
        seen: 0,
        counts: Summary::default(),
        worst: None,
        files: progress.files.clone(),
    };
    if args.lint.quiet {
        sink.stream.quiet();
    }
    let (mut checked, mut last, held_last) =
        if let (Some(b), true) = (&setup.baseline, ci.update_baseline) {
            let mut held: Vec<Vec<Finding>> = Vec::new();
            let (checked, mut last) =
                engine::check_each(paths, &setup.options, &mut |file| held.push(file));
            held.push(last.by_ref().collect());
            for file in &mut held {
                file.retain(|f| !b.is_self(f.primary.path.raw()));
            }
            updated = b.updated(held.iter().flatten(), &files, &setup.options.selection);
            updated.write()?;
            notices::wrote_baseline(&updated);
            sink.matching = Some(updated.matching());
            let held_last = held.pop().unwrap_or_default();
            for file in held {
                sink.file(file);
            }
            (checked, last, Some(held_last))
        } else {
            sink.matching = setup.baseline.as_ref().map(Baseline::matching);
            let (checked, last) =
                engine::check_each(paths, &setup.options, &mut |file| sink.file(file));
            (checked, last, None)
        };
    // The findings known only at the end, in listing order, a batch at a time.
    let mut unread = None;
    if let Some(findings) = held_last {
        sink.last(findings);
    } else {
        let mut ordered = crate::report::InFileOrder::new(&mut last, max_file_bytes);
        while let Some(batch) = ordered.next_batch() {
            sink.last(batch);
        }
        unread = ordered.failure().map(str::to_string);
    }
    engine::close(&mut checked, &last);
    if let Some(failure) = unread {
        checked.corpus.internal_errors.push(format!(
            "{failure}; the findings listed are incomplete (is the temporary folder full?)"
        ));
    }
    warn_if_nothing(paths, &checked, sink.seen);
    let mut summary = checked.summary;
    summary.errors += sink.counts.errors;
    summary.warnings += sink.counts.warnings;
    summary.infos += sink.counts.infos;
    let stale = match sink.matching.take() {
        Some(m) => {
            let applied = m.finish(&files, &setup.options.selection);
            summary.suppressed = applied.suppressed;
            applied.stale
        }
        None => Vec::new(),
    };
    if let (false, Some(b)) = (stale.is_empty(), &setup.baseline) {
        notices::report_stale(b, &stale, ci.allow_stale_baseline);
    }
    let threshold = ci.fail_on.severity();
    let failing = sink.worst.is_some_and(|s| s >= threshold)
        || checked.corpus.omitted.any_at_least(threshold)
        || (!stale.is_empty() && !ci.allow_stale_baseline);
    sink.stream.finish(&summary);
    notices::report_excluded(setup.options.walk.excluded_count());
    notices::report_omitted(&checked.corpus, &setup.options.thresholds);
    // A bug caught on one file or rule: every other finding is still printed, then exit 2.
    let code = if crate::corpus::report_internal_errors(&checked.corpus.internal_errors) {
        EXIT_TROUBLE
    } else if failing && !ci.exit_zero {
        EXIT_FINDINGS
    } else {
        EXIT_CLEAN
    };
    checked.corpus.release();
    if let Some(staged) = staged {
        staged
            .commit()
            .map_err(|e| format!("the report could not be written: {e}"))?;
    }
    Ok(Output::stdout(Vec::new(), code))
}

/// A run that found nothing to check is worth a word on stderr, not a failure (as ruff does).
fn warn_if_nothing(paths: &[PathBuf], checked: &Checked, findings: usize) {
    if !notices::says_warnings() {
        return;
    }
    if checked.summary.files == 0 && findings == 0 {
        let shown: Vec<String> = paths
            .iter()
            .map(|p| crate::text::line(&p.to_string_lossy()).into_owned())
            .collect();
        let _ = writeln!(
            std::io::stderr(),
            "benchlint: warning: no result files ({}, mlperf_log_*.txt) found under {}",
            crate::corpus::READ_ENDINGS.join(", "),
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
