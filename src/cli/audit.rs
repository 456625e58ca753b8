//! `benchlint audit [PATH..] [--claims FILE]`: the corpus report, and with a claims file the
//! retractions report on top of it. Loads and checks the corpus as `check` does (the claims
//! file too, when it lies outside the paths), builds the report, and prints Markdown (default)
//! or JSON, or with `-o DIR` writes `report.md`, `report.html` and `report.json`, and the rule
//! pages they link (`rules/`, Markdown and HTML), so that every rule link resolves inside the
//! folder; printed, the report names `benchlint rule CODE` instead of a link.
//!
//! Without `--claims` the report is the corpus report: what each file records and lacks, the
//! findings by file and by rule, every configuration's ladder with its replication status, the
//! losing runs. Claims files found inside the paths are checked (their C findings count) but
//! not audited: a retractions section is written only for the claims file named.
//!
//! Exit codes: with `--claims`, 0 when every claim is upheld or pre-rule and 1 when any is
//! restated, unresolved or retracted; without, as `check`: 0 when no finding is at error level,
//! 1 otherwise. Always 2 for bad arguments, a bad config file, an unreadable or invalid claims
//! file, an output folder inside the corpus (without `--allow-inside-corpus`) or one that
//! cannot be written.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

use clap::ValueEnum;

use super::{EXIT_CLEAN, EXIT_FINDINGS, EXIT_TROUBLE, Output, output};
use crate::audit::checklist;
use crate::config::{self, GlobSidecars, Selection, paths};
use crate::corpus::{self, Options};
use crate::diagnostic::Finding;
use crate::engine;
use crate::report::{self, AuditContext};

/// The files `-o DIR` writes.
const REPORT_FILES: [&str; 3] = ["report.md", "report.html", "report.json"];

/// Arguments of `audit`.
#[derive(Debug, clap::Args)]
pub struct AuditArgs {
    /// Files and folders holding the result files (default: the current folder).
    pub paths: Vec<PathBuf>,
    /// The claims file (`benchlint/claims/v1`) whose claims to audit; it is read even when it
    /// lies outside the paths. Without it, the report is the corpus report alone.
    #[arg(long, value_name = "FILE")]
    pub claims: Option<PathBuf>,
    /// Write `report.md`, `report.html`, `report.json` and the rule pages (`rules/`) into this
    /// folder (created if needed) instead of printing the report.
    #[arg(short = 'o', long = "output", value_name = "DIR")]
    pub output: Option<PathBuf>,
    /// Service-level floor, tokens per second per user: capacity and matched-basis
    /// restatements take each configuration at the highest concurrency that clears it.
    #[arg(long, value_name = "TOK_S", default_value_t = 20.0, value_parser = parse_floor)]
    pub floor: f64,
    /// What to print when there is no `-o`.
    #[arg(long, value_enum, default_value_t = AuditFormat::Markdown)]
    pub format: AuditFormat,
    /// Allow the output folder to sit inside a folder being read.
    #[arg(long)]
    pub allow_inside_corpus: bool,
    /// The config file to use instead of the `benchlint.toml` found upward from the first
    /// path.
    #[arg(long, value_name = "FILE", conflicts_with = "isolated")]
    pub config: Option<PathBuf>,
    /// Ignore every config file.
    #[arg(long)]
    pub isolated: bool,
}

/// Output formats of `audit` on stdout.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum AuditFormat {
    /// The report as Markdown.
    Markdown,
    /// One JSON document (schemas/audit.schema.json).
    Json,
}

fn parse_floor(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v.is_finite() && v > 0.0 => Ok(v),
        _ => Err(format!(
            "`{s}` is not a positive number of tokens per second per user"
        )),
    }
}

/// Thresholds, selection and sidecars from the config file, as `check` reads them: `config`
/// when given, none with `isolated`, else the `benchlint.toml` found upward from the first
/// path; lean, as `check` loads (a caller that needs the canonical JSON turns it off).
/// `Err` with the rendered diagnostic of a bad config file.
pub(super) fn config_options(
    paths: &[PathBuf],
    config: Option<&Path>,
    isolated: bool,
) -> Result<Options, String> {
    let config = config::for_run(paths, config, isolated)
        .map_err(|e| e.render(std::io::stderr().is_terminal()))?;
    let mut options = Options {
        lean: true,
        ..Options::default()
    };
    let Some(c) = config else {
        return Ok(options);
    };
    if let Some(t) = &c.thresholds {
        options.thresholds = t.clone();
    }
    options.sidecars = GlobSidecars::new(c.sidecars.clone(), &c.dir);
    options.selection = Selection::new(
        std::slice::from_ref(&c.layer),
        c.severity.clone(),
        c.per_file_ignores.clone(),
        &c.dir,
    );
    if c.in_tree {
        options.selection = options
            .selection
            .with_protected(config::trust::protected_codes());
    }
    Ok(options)
}

/// Runs `audit`.
pub fn run(args: &AuditArgs) -> Result<Output, String> {
    let paths = if args.paths.is_empty() {
        vec![PathBuf::from(".")]
    } else {
        args.paths.clone()
    };
    if let Some(missing) = paths.iter().find(|p| !p.exists()) {
        return Err(format!("`{}` does not exist", missing.display()));
    }
    if let Some(claims) = &args.claims {
        claims_readable(claims)?;
    }
    if let Some(out) = &args.output {
        output_allowed(args, out, &paths)?;
    }
    let mut options = match config_options(&paths, args.config.as_deref(), args.isolated) {
        Ok(o) => o,
        Err(rendered) => {
            let _ = std::io::stderr().write_all(rendered.as_bytes());
            return Ok(Output::stdout(Vec::new(), EXIT_TROUBLE));
        }
    };
    // The one thing the report asks of a result's canonical JSON, asked before it is dropped.
    options.checklist =
        Some(checklist::items(&options.thresholds, &|code| options.selection.runs(code)).into());
    // The claims file is read with the corpus, unless a path already reaches it.
    let mut load_paths = paths.clone();
    if let Some(claims) = &args.claims {
        let claims_file = paths::absolute(claims);
        let reached = corpus::discover(&paths)
            .0
            .iter()
            .any(|e| paths::absolute(e.path()) == claims_file);
        if !reached {
            load_paths.push(claims.clone());
        }
    }
    // The report lists no finding, it counts them: each file's findings are counted as they
    // are handed over and dropped, and the run's cap on findings listed (`max_findings`) does
    // not apply to counts. The first input error of the claims file is kept, to say why it
    // cannot be used.
    let claims_file = args.claims.as_deref().map(paths::absolute);
    let mut tally = crate::audit::corpus::FindingTally::default();
    let mut claims_errors: Vec<Finding> = Vec::new();
    let mut count = |findings: &[Finding]| {
        tally.add_all(findings);
        if let Some(claims_file) = &claims_file {
            claims_errors.extend(
                findings
                    .iter()
                    .filter(|f| {
                        f.rule.code.starts_with('E')
                            && paths::absolute(Path::new(f.primary.path.raw())) == *claims_file
                    })
                    .cloned(),
            );
        }
    };
    options.thresholds.max_findings = usize::MAX;
    let (mut checked, mut last) =
        engine::check_each(&load_paths, &options, &mut |file| count(&file));
    while let Some(batch) = last.next_batch() {
        count(&batch);
    }
    engine::close(&mut checked, &last);
    let total = tally.total();
    let errors = checked.summary.errors + total.errors;
    crate::diagnostic::sort_findings(&mut claims_errors);
    if checked.summary.results == 0 && args.claims.is_none() {
        // As `check`: an empty corpus is worth a word, and the report says the same.
        let shown: Vec<String> = paths
            .iter()
            .map(|p| crate::text::line(&p.to_string_lossy()).into_owned())
            .collect();
        let _ = writeln!(
            std::io::stderr(),
            "benchlint: warning: no result found under {}",
            shown.join(", ")
        );
    }
    let mut loaded = checked.corpus;
    // Only the claims of `--claims` are audited; a claims file that yields none is unusable.
    match &args.claims {
        Some(claims) => {
            let claims_file = paths::absolute(claims);
            loaded
                .claims
                .retain(|c| paths::absolute(Path::new(c.origin.path.raw())) == claims_file);
            if loaded.claims.is_empty() {
                return Err(unusable_claims(claims, &claims_file, &claims_errors));
            }
        }
        None => loaded.claims.clear(),
    }
    let mut audit = crate::claims::audit(&loaded, args.floor, &options.thresholds);
    let checklist = checklist::coverage(
        &loaded.results,
        &options.thresholds,
        &|path, code| options.selection.runs_on(path, code),
        &|code| options.selection.runs(code),
    );
    audit.corpus = Some(crate::audit::corpus::build(
        loaded.files,
        &loaded.results,
        tally,
        checklist,
    ));
    // A bug caught on one file or rule: the report is still written, then exit 2.
    let code = if corpus::report_internal_errors(&loaded.internal_errors) {
        EXIT_TROUBLE
    } else if args.claims.is_some() {
        if audit
            .claims
            .iter()
            .any(|c| report::verdict_fails(c.verdict))
        {
            EXIT_FINDINGS
        } else {
            EXIT_CLEAN
        }
    } else if errors > 0 {
        EXIT_FINDINGS
    } else {
        EXIT_CLEAN
    };
    let mut ctx = AuditContext::new(
        paths.iter().map(|p| paths::slashes(p).into()).collect(),
        args.claims.as_deref().map(|c| paths::slashes(c).into()),
    );
    // The rule pages ship beside a report written to a folder, so its rule links resolve.
    ctx.rule_pages = args.output.is_some();
    let Some(dir) = &args.output else {
        // Written to stdout as it is made, as into a file: a report of many configurations
        // runs to hundreds of megabytes. A write that fails (a closed pipe) stops the writing,
        // not the run: the exit code is still the audit's.
        let write: report::AuditWriter = match args.format {
            AuditFormat::Markdown => report::write_audit_markdown,
            AuditFormat::Json => report::write_audit_json,
        };
        let mut out = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
        let _ = write(&audit, &ctx, &mut out).and_then(|()| out.flush());
        return Ok(Output::stdout(Vec::new(), code));
    };
    output::create_dir(dir)?;
    // Each document is written as it is made: a report of many configurations runs to
    // hundreds of megabytes. The three are made from the report alone, so the HTML, which
    // costs about what the other two cost together, is written on a thread of its own beside
    // them (one after another, the writing was half of `audit -o`'s time on one core while
    // the other idled). A failure is told in file order.
    let write = |name: &str, write: report::AuditWriter| {
        output::write_file_with(&dir.join(name), &mut |sink| write(&audit, &ctx, sink))
    };
    // A file refused (a folder, a link where a report goes) is said before any is written.
    for name in REPORT_FILES {
        output::refuse_target(&dir.join(name))?;
    }
    let [markdown, html, json] = REPORT_FILES;
    let written = std::thread::scope(|scope| {
        let html = scope.spawn(|| write(html, report::write_audit_html));
        let markdown = write(markdown, report::write_audit_markdown);
        let json = markdown
            .as_ref()
            .map_or(Ok(()), |()| write(json, report::write_audit_json));
        let html = html
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        markdown.and(html).and(json)
    });
    written?;
    super::rule_pages::write_for_report(dir)?;
    let counts = if args.claims.is_some() {
        report::audit_verdict_counts(&audit)
    } else {
        report::audit_corpus_counts(&audit)
    };
    let text = format!(
        "wrote report.md, report.html, report.json and the rule pages they link (rules/) into {}: {counts}\n",
        dir.display(),
    );
    Ok(Output::stdout(text.into_bytes(), code))
}

/// `Err` when the claims file is not a readable file.
fn claims_readable(claims: &Path) -> Result<(), String> {
    match std::fs::metadata(claims) {
        Ok(m) if m.is_file() => Ok(()),
        Ok(_) => Err(format!(
            "the claims file `{}` is not a file",
            claims.display()
        )),
        Err(e) => Err(format!(
            "the claims file `{}` cannot be read: {}",
            claims.display(),
            corpus::describe_io(&e)
        )),
    }
}

/// Never into the corpus (as `import`): not under a folder being read, nor beside a file being
/// read. The claims file is one file, not a corpus: its folder is fine, but a report never
/// replaces it.
fn output_allowed(args: &AuditArgs, out: &Path, paths: &[PathBuf]) -> Result<(), String> {
    output::check_output_dir(out, paths, args.allow_inside_corpus)?;
    if let Some(claims) = &args.claims {
        let out_abs = paths::absolute(out);
        let claims_file = paths::absolute(claims);
        let real_claims = output::resolved(claims);
        if REPORT_FILES.iter().any(|name| {
            out_abs.join(name) == claims_file || output::resolved(&out.join(name)) == real_claims
        }) {
            return Err(format!(
                "writing the report into `{}` would replace the claims file `{}`",
                out.display(),
                claims.display()
            ));
        }
    }
    Ok(())
}

/// Why a claims file yielded no claims: its first input error, or that it holds none.
fn unusable_claims(claims: &Path, claims_file: &Path, findings: &[Finding]) -> String {
    let why = findings
        .iter()
        .find(|f| {
            f.rule.code.starts_with('E')
                && paths::absolute(Path::new(f.primary.path.raw())) == claims_file
        })
        .map_or_else(
            || "it holds no `benchlint/claims/v1` document".to_string(),
            |f| f.message.raw(),
        );
    format!(
        "the claims file `{}` cannot be used: {why}",
        claims.display()
    )
}
