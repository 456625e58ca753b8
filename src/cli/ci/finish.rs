//! The end of a `check` that holds every finding until its report: the baseline applied, the
//! exit code decided, and the report rendered or written as it is made (to stdout or into the
//! `-o` file), with the GitHub step summary where one is asked for.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

use super::super::notices::{report_omitted, report_stale, wrote_baseline};
use super::super::{CheckArgs, EXIT_CLEAN, EXIT_FINDINGS, EXIT_TROUBLE, Format, Output};
use super::{Setup, color_for, files_checked};
use crate::config::paths;
use crate::engine::{self, Checked};
use crate::report;

/// Applies the baseline, decides the exit code and renders the report.
pub fn finish(
    args: &CheckArgs,
    setup: &Setup,
    checked: Checked,
    paths: &[PathBuf],
) -> Result<Output, String> {
    let ci = &args.ci;
    let selection = &setup.options.selection;
    let files = files_checked(setup, paths);
    let Checked {
        mut corpus,
        mut findings,
        ..
    } = checked;
    let mut suppressed = 0;
    let mut stale = Vec::new();
    if let Some(b) = &setup.baseline {
        findings.retain(|f| !b.is_self(f.primary.path.raw()));
        let files: Vec<String> = files.iter().filter(|f| !b.is_self(f)).cloned().collect();
        if ci.update_baseline {
            let updated = b.updated(&findings, &files, selection);
            updated.write()?;
            wrote_baseline(&updated);
            suppressed = updated.apply(&mut findings, &files, selection).suppressed;
        } else {
            let applied = b.apply(&mut findings, &files, selection);
            suppressed = applied.suppressed;
            stale = applied.stale;
        }
    }
    let mut summary = engine::summarise(&corpus, &findings);
    summary.suppressed = suppressed;
    if let (false, Some(b)) = (stale.is_empty(), &setup.baseline) {
        report_stale(b, &stale, ci.allow_stale_baseline);
    }
    let outside = setup
        .baseline
        .as_ref()
        .is_some_and(|b| !b.outside.is_empty() && !ci.update_baseline);
    if let (true, Some(b)) = (outside, &setup.baseline) {
        super::super::notices::report_outside(b);
    }
    let threshold = ci.fail_on.severity();
    let failing = findings
        .iter()
        .any(|f| !f.pre_rule && f.severity >= threshold)
        || corpus.omitted.any_at_least(threshold)
        || (!stale.is_empty() && !ci.allow_stale_baseline)
        || outside;
    report_omitted(&corpus, &setup.options.thresholds);
    // A bug caught on one file or rule: every other finding is still printed, then exit 2.
    let code = if crate::corpus::report_internal_errors(&corpus.internal_errors) {
        EXIT_TROUBLE
    } else if failing && !ci.exit_zero {
        EXIT_FINDINGS
    } else {
        EXIT_CLEAN
    };
    // The baseline file inside the corpus is not part of it, in the file list either.
    let mut read = std::mem::take(&mut corpus.read);
    if let Some(b) = &setup.baseline {
        read.retain(|r| !b.is_self(r.path.raw()));
    }
    corpus.release();
    let color = args.format == Format::Human
        && ci.output.is_none()
        && color_for(ci.color, std::io::stdout().is_terminal());
    let mut prepared = report::prepare(
        findings,
        summary,
        setup.options.thresholds.max_file_bytes,
        color,
    );
    prepared.files = read;
    prepared.quiet = args.lint.quiet;
    if args.lint.silent && ci.output.is_none() {
        return Ok(Output::stdout(Vec::new(), code));
    }
    prepared.project = report::Project::new(
        ci.project_root.as_deref(),
        paths.first().map(PathBuf::as_path),
    );
    prepared.fail_on = threshold;
    if args.format == Format::Sarif
        && !ci.statistics
        && !ci.show_files
        && let Some(cut) = report::sarif_cut(&prepared)
    {
        super::super::notices::sarif_cut(&cut);
    }
    if args.format == Format::Github && !ci.statistics && !ci.show_files {
        step_summary(&prepared)?;
    }
    // SARIF, JUnit, grouped, GitHub, GitLab and the human report go straight to stdout as they are written: a
    // corpus with a million findings would otherwise hold a gigabyte of report before printing
    // it. (JSON, JSON Lines and concise are written file by file: src/cli/check.rs.)
    let writer: Option<WriteReport> = match args.format {
        _ if ci.statistics || ci.show_files => None,
        Format::Sarif => Some(report::write_sarif),
        Format::Junit => Some(report::write_junit),
        Format::Grouped => Some(report::write_grouped),
        // Worst first, so written once every finding is known, but not built whole first.
        Format::Github => Some(report::write_github),
        Format::Gitlab => Some(report::write_gitlab),
        // The human report's files' drawings are written a batch at a time.
        Format::Human => Some(report::write_human),
        _ => None,
    };
    if let (Some(write), Some(out)) = (writer, &ci.output) {
        // Into the file as it is written, as to stdout.
        crate::output::write_file_with(out, &mut |sink| write(&prepared, sink))
            .map_err(|e| format!("the report could not be written: {e}"))?;
        return Ok(Output::stdout(Vec::new(), code));
    }
    if let Some(write) = writer {
        let mut out = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
        // A closed pipe (`benchlint check --format sarif | head`) is not an error.
        let _ = write(&prepared, &mut out).and_then(|()| out.flush());
        return Ok(Output::stdout(Vec::new(), code));
    }
    let bytes = if ci.show_files {
        report::show_files(&prepared)
    } else if ci.statistics {
        if args.format == Format::Json {
            report::statistics_json(&prepared)
        } else {
            report::statistics_text(&prepared)
        }
    } else {
        render(args.format, &prepared)
    };
    if let Some(out) = &ci.output {
        crate::output::write_file(out, &bytes)
            .map_err(|e| format!("the report could not be written: {e}"))?;
        return Ok(Output::stdout(Vec::new(), code));
    }
    Ok(Output::stdout(bytes, code))
}

/// With `$GITHUB_STEP_SUMMARY` set (a GitHub Actions step), appends the Markdown summary of
/// every finding to that file, as GitHub's own actions do.
fn step_summary(prepared: &report::Prepared) -> Result<(), String> {
    let Some(file) = std::env::var_os("GITHUB_STEP_SUMMARY").filter(|f| !f.is_empty()) else {
        return Ok(());
    };
    let bytes = report::github_summary(prepared);
    std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(&file)
        .and_then(|mut f| f.write_all(&bytes))
        .map_err(|e| {
            format!(
                "the step summary `{}` could not be written: {}",
                paths::display(Path::new(&file)),
                crate::corpus::describe_io(&e)
            )
        })
}

/// A report writer that writes as it builds.
type WriteReport = fn(&report::Prepared, &mut dyn Write) -> std::io::Result<()>;

/// The report in `format`.
fn render(format: Format, prepared: &report::Prepared) -> Vec<u8> {
    match format {
        Format::Human => report::human(prepared),
        Format::Concise => report::concise(prepared),
        Format::Grouped => report::grouped(prepared),
        Format::Json => report::json(prepared),
        Format::JsonLines => report::json_lines(prepared),
        Format::Sarif => report::sarif(prepared),
        Format::Github => report::github(prepared),
        Format::Junit => report::junit(prepared),
        Format::Gitlab => report::gitlab(prepared),
    }
}
