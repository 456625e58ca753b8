//! `benchlint audit [PATH..] --claims FILE`: the retractions report. Loads the corpus and the
//! claims file (which may live outside the paths), decides each claim, and prints Markdown
//! (default) or JSON, or with `-o DIR` writes `report.md`, `report.html` and `report.json`,
//! and the rule pages they link (`rules/`, Markdown and HTML), so that every rule link resolves
//! inside the folder; printed, the report names `benchlint rule CODE` instead of a link.
//!
//! Exit codes: 0 every claim upheld or pre-rule; 1 any claim restated, unresolved or retracted;
//! 2 bad arguments, a bad config file, an unreadable or invalid claims file, an output folder
//! inside the corpus (without `--allow-inside-corpus`) or one that cannot be written.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

use clap::ValueEnum;

use super::{EXIT_CLEAN, EXIT_FINDINGS, EXIT_TROUBLE, Output, output};
use crate::config::{self, GlobSidecars, Selection, paths};
use crate::corpus::{self, Options};
use crate::report::{self, AuditContext};

/// The files `-o DIR` writes.
const REPORT_FILES: [&str; 3] = ["report.md", "report.html", "report.json"];

/// Arguments of `audit`.
#[derive(Debug, clap::Args)]
pub struct AuditArgs {
    /// Files and folders holding the result files (default: the current folder).
    pub paths: Vec<PathBuf>,
    /// The claims file (`benchlint/claims/v1`); it is read even when it lies outside the paths.
    #[arg(long, value_name = "FILE")]
    pub claims: PathBuf,
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
/// path. `Err` with the rendered diagnostic of a bad config file.
pub(super) fn config_options(
    paths: &[PathBuf],
    config: Option<&Path>,
    isolated: bool,
) -> Result<Options, String> {
    let config = config::for_run(paths, config, isolated)
        .map_err(|e| e.render(std::io::stderr().is_terminal()))?;
    let mut options = Options::default();
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
    let claims_file = paths::absolute(&args.claims);
    match std::fs::metadata(&args.claims) {
        Ok(m) if m.is_file() => {}
        Ok(_) => {
            return Err(format!(
                "the claims file `{}` is not a file",
                args.claims.display()
            ));
        }
        Err(e) => {
            return Err(format!(
                "the claims file `{}` cannot be read: {}",
                args.claims.display(),
                corpus::describe_io(&e)
            ));
        }
    }
    // Never into the corpus (as `import`): not under a folder being read, nor beside a file
    // being read. The claims file is one file, not a corpus: its folder is fine, but a report
    // never replaces it.
    if let Some(out) = &args.output {
        let out_abs = paths::absolute(out);
        output::check_output_dir(out, &paths, args.allow_inside_corpus)?;
        let real_claims = output::resolved(&args.claims);
        if REPORT_FILES.iter().any(|name| {
            out_abs.join(name) == claims_file || output::resolved(&out.join(name)) == real_claims
        }) {
            return Err(format!(
                "writing the report into `{}` would replace the claims file `{}`",
                out.display(),
                args.claims.display()
            ));
        }
    }
    let options = match config_options(&paths, args.config.as_deref(), args.isolated) {
        Ok(o) => o,
        Err(rendered) => {
            let _ = std::io::stderr().write_all(rendered.as_bytes());
            return Ok(Output::stdout(Vec::new(), EXIT_TROUBLE));
        }
    };
    // The claims file is read with the corpus, unless a path already reaches it.
    let mut load_paths = paths.clone();
    let reached = corpus::discover(&paths)
        .0
        .iter()
        .any(|e| paths::absolute(&e.path) == claims_file);
    if !reached {
        load_paths.push(args.claims.clone());
    }
    let mut loaded = corpus::load(&load_paths, &options);
    // Only the claims of `--claims` are audited; a claims file that yields none is unusable.
    loaded
        .claims
        .retain(|c| paths::absolute(Path::new(&c.origin.path)) == claims_file);
    if loaded.claims.is_empty() {
        let why = loaded
            .findings
            .iter()
            .find(|f| {
                f.rule.code.starts_with('E')
                    && paths::absolute(Path::new(f.primary.path.raw())) == claims_file
            })
            .map_or_else(
                || "it holds no `benchlint/claims/v1` document".to_string(),
                |f| f.message.raw(),
            );
        return Err(format!(
            "the claims file `{}` cannot be used: {why}",
            args.claims.display()
        ));
    }
    let audit = crate::claims::audit(&loaded, args.floor, &options.thresholds);
    // A bug caught on one file or rule: the report is still written, then exit 2.
    let code = if corpus::report_internal_errors(&loaded.internal_errors) {
        EXIT_TROUBLE
    } else if audit
        .claims
        .iter()
        .any(|c| report::verdict_fails(c.verdict))
    {
        EXIT_FINDINGS
    } else {
        EXIT_CLEAN
    };
    let mut ctx = AuditContext::new(
        paths.iter().map(|p| paths::slashes(p).into()).collect(),
        Some(paths::slashes(&args.claims).into()),
    );
    // The rule pages ship beside a report written to a folder, so its rule links resolve.
    ctx.rule_pages = args.output.is_some();
    let Some(dir) = &args.output else {
        let bytes = match args.format {
            AuditFormat::Markdown => report::audit_markdown(&audit, &ctx),
            AuditFormat::Json => report::audit_json(&audit, &ctx),
        };
        return Ok(Output::stdout(bytes, code));
    };
    output::create_dir(dir)?;
    let files = [
        report::audit_markdown(&audit, &ctx),
        report::audit_html(&audit, &ctx),
        report::audit_json(&audit, &ctx),
    ];
    for (name, bytes) in REPORT_FILES.iter().zip(&files) {
        output::write_file(&dir.join(name), bytes)?;
    }
    super::rule_pages::write_for_report(dir)?;
    let text = format!(
        "wrote report.md, report.html, report.json and the rule pages they link (rules/) into {}: {}\n",
        dir.display(),
        report::audit_verdict_counts(&audit)
    );
    Ok(Output::stdout(text.into_bytes(), code))
}
