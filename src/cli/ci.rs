//! What `check` needs to sit in CI: rule selection and the config file, the fail threshold,
//! the baseline, statistics, colour and the output file.
//!
//! Exit codes: 0 nothing at or above `--fail-on` (pre-rule labels never fail); 1 findings at
//! or above it, or stale baseline entries; 2 bad arguments, a bad config file or baseline, or
//! an output file that cannot be written. `--exit-zero` turns 1 into 0, never 2.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

use clap::ValueEnum;

use super::lint_args::Verbosity;
use super::notices::warn_unmatched_globs;
use super::{CheckArgs, EXIT_TROUBLE, Format, Output};
use crate::baseline::Baseline;
use crate::config::{self, GlobSidecars, Layer, Selection, paths, selection::parse_list};
use crate::corpus::Options;
use crate::diagnostic::Severity;

mod finish;

pub use finish::finish;

/// The `check` options for CI and for people (flattened into `CheckArgs`).
#[expect(clippy::struct_excessive_bools, reason = "command-line flags")]
#[derive(Debug, Clone, Default, clap::Args)]
pub struct CiArgs {
    /// Rules to run instead of the config's selection (codes, prefixes, rule names or ALL;
    /// comma-separated).
    #[arg(long, value_name = "RULES", value_delimiter = ',')]
    pub select: Option<Vec<String>>,
    /// Rules to run in addition to the selection.
    #[arg(long, value_name = "RULES", value_delimiter = ',')]
    pub extend_select: Vec<String>,
    /// Rules not to run. At equal specificity `--ignore` wins over `--select`; a more
    /// specific code or prefix wins over a less specific one.
    #[arg(long, value_name = "RULES", value_delimiter = ',')]
    pub ignore: Vec<String>,
    /// Lowest severity that makes the run fail (exit 1).
    #[arg(long, value_enum, value_name = "SEVERITY", default_value_t = FailOn::Error)]
    pub fail_on: FailOn,
    /// Exit 0 even when findings fail the run (a broken config or argument still exits 2).
    #[arg(long)]
    pub exit_zero: bool,
    /// Print how many findings each rule produced instead of the findings (text, or JSON with
    /// `--format json`).
    #[arg(long)]
    pub statistics: bool,
    /// Print each file found with what read it (`canonical`, the adapter, or why none did)
    /// instead of the findings.
    #[arg(long, conflicts_with = "statistics")]
    pub show_files: bool,
    /// The config file to use instead of the `benchlint.toml` found upward from the first
    /// path, or a `KEY = VALUE` pair in TOML laid over the config (repeatable:
    /// `--config 'thresholds.min_window_s = 60'`).
    #[arg(long, value_name = "FILE|KEY=VALUE")]
    pub config: Vec<String>,
    /// Ignore every config file.
    #[arg(long)]
    pub isolated: bool,
    /// Suppress the findings recorded in this baseline file; its entries that match nothing
    /// any more fail the run.
    #[arg(long, value_name = "FILE")]
    pub baseline: Option<PathBuf>,
    /// Write the current findings into the `--baseline` file (created if missing, pruned of
    /// stale entries).
    #[arg(long, requires = "baseline")]
    pub update_baseline: bool,
    /// Report stale baseline entries as a warning instead of failing.
    #[arg(long, requires = "baseline")]
    pub allow_stale_baseline: bool,
    /// When to colour the human format: auto (a terminal, unless `NO_COLOR` is set), always
    /// or never.
    #[arg(long, value_enum, value_name = "WHEN", default_value_t = ColorChoice::Auto)]
    pub color: ColorChoice,
    /// The folder the paths of `--format sarif`, `gitlab`, `github` and `junit` are relative
    /// to (default: the git work tree holding the first path, else the current folder).
    #[arg(long, value_name = "DIR")]
    pub project_root: Option<PathBuf>,
    /// Write the report to this file instead of stdout (`--output` is accepted too).
    #[arg(
        short = 'o',
        long = "output-file",
        alias = "output",
        value_name = "FILE"
    )]
    pub output: Option<PathBuf>,
}

/// `--fail-on`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, ValueEnum)]
pub enum FailOn {
    /// Errors only.
    #[default]
    Error,
    /// Warnings and errors.
    Warning,
    /// Any finding.
    Info,
}

impl FailOn {
    pub(super) fn severity(self) -> Severity {
        match self {
            FailOn::Error => Severity::Error,
            FailOn::Warning => Severity::Warning,
            FailOn::Info => Severity::Info,
        }
    }
}

/// `--color`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, ValueEnum)]
pub enum ColorChoice {
    /// Colour when writing to a terminal and `NO_COLOR` is not set.
    #[default]
    Auto,
    /// Always colour (the human format).
    Always,
    /// Never colour.
    Never,
}

fn env_set(name: &str) -> Option<bool> {
    std::env::var_os(name).map(|v| !v.is_empty() && v != "0")
}

/// Whether to colour a stream: `--color`, then `NO_COLOR`, `CLICOLOR_FORCE`, `CLICOLOR=0`,
/// then whether it is a terminal.
pub fn color_for(choice: ColorChoice, is_terminal: bool) -> bool {
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            if env_set("NO_COLOR") == Some(true) {
                false
            } else if env_set("CLICOLOR_FORCE") == Some(true) {
                true
            } else if env_set("CLICOLOR") == Some(false) {
                false
            } else {
                is_terminal
            }
        }
    }
}

pub use super::setup::Setup;

fn cli_layer(ci: &CiArgs) -> Result<Layer, String> {
    let list = |flag: &str, items: &[String]| -> Result<Vec<config::Selector>, String> {
        let mut out = Vec::new();
        for item in items {
            out.extend(parse_list(item).map_err(|m| format!("{flag}: {m}"))?);
        }
        Ok(out)
    };
    Ok(Layer {
        select: ci
            .select
            .as_deref()
            .map(|s| list("--select", s))
            .transpose()?,
        extend_select: list("--extend-select", &ci.extend_select)?,
        ignore: list("--ignore", &ci.ignore)?,
    })
}

/// The values of `--config`: at most one file, and the `KEY = VALUE` overrides in order. A
/// value that names an existing file is the file; else one with `=` is an override.
fn config_args(
    values: &[String],
    isolated: bool,
) -> Result<(Option<PathBuf>, Vec<String>), String> {
    let mut file: Option<PathBuf> = None;
    let mut overrides = Vec::new();
    for v in values {
        if !Path::new(v).is_file() && v.contains('=') {
            overrides.push(v.clone());
        } else if isolated {
            return Err(format!(
                "--config `{v}`: --isolated reads no config file (a `KEY = VALUE` override is still taken)"
            ));
        } else if let Some(first) = &file {
            return Err(format!(
                "--config names two files (`{}` and `{v}`); give one, and lay values over it with --config KEY=VALUE",
                first.display()
            ));
        } else {
            file = Some(PathBuf::from(v));
        }
    }
    Ok((file, overrides))
}

/// Reads the config file and the baseline and resolves the selection. `Ok(None)` when the
/// config file is wrong: its diagnostic is already on stderr.
pub fn setup(args: &CheckArgs, paths: &[PathBuf]) -> Result<Option<Setup>, String> {
    let ci = &args.ci;
    if ci.statistics && !matches!(args.format, Format::Human | Format::Concise | Format::Json) {
        return Err("--statistics works with --format human, concise or json".into());
    }
    if let Some(root) = ci.project_root.as_deref().filter(|r| !r.is_dir()) {
        return Err(format!(
            "--project-root `{}` is not a folder",
            crate::text::line(&paths::display(root))
        ));
    }
    let cli = cli_layer(ci)?;
    let mut options = Options {
        lean: true,
        results_on_disk: true,
        ..Options::default()
    };
    let (file, overrides) = config_args(&ci.config, ci.isolated)?;
    let config = match config::for_check(paths, file.as_deref(), &overrides, ci.isolated) {
        Ok((c, notes)) => {
            if let (Some(c), true) = (&c, args.lint.verbosity() == Verbosity::Normal) {
                config::warn_limits(c, &notes);
            }
            c
        }
        Err(e) => {
            let color = color_for(ci.color, std::io::stderr().is_terminal());
            let _ = std::io::stderr().write_all(e.render(color).as_bytes());
            return Ok(None);
        }
    };
    options.walk = args.lint.walk(config.as_ref())?;
    let base = config
        .as_ref()
        .map_or_else(|| paths::absolute(Path::new(".")), |c| c.dir.clone());
    let mut layers = Vec::new();
    if let Some(c) = &config {
        layers.push(c.layer.clone());
        if let Some(t) = &c.thresholds {
            options.thresholds = t.clone();
        }
        options.sidecars = GlobSidecars::new(c.sidecars.clone(), &base);
    }
    layers.push(cli);
    let (severity, per_file) = config
        .as_ref()
        .map(|c| (c.severity.clone(), c.per_file_ignores.clone()))
        .unwrap_or_default();
    options.selection = Selection::new(&layers, severity, per_file, &base);
    if config.as_ref().is_some_and(|c| c.in_tree) {
        options.selection = options
            .selection
            .with_protected(config::trust::protected_codes());
    }
    if let Some(limit) = args.max_file_size {
        options.thresholds.max_file_bytes = limit;
    }
    let baseline = ci
        .baseline
        .as_deref()
        .map(|b| Baseline::load(b, ci.update_baseline))
        .transpose()?;
    if let Some(b) = baseline.as_ref().filter(|b| b.is_old_form()) {
        super::notices::old_baseline(b, ci.update_baseline);
    }
    Ok(Some(Setup {
        options,
        config,
        baseline,
    }))
}

/// The files a run checks, as its findings name them, when the baseline or the config's globs
/// need them (empty otherwise), after warning of each glob that matches none of them.
pub(super) fn files_checked(setup: &Setup, paths: &[PathBuf]) -> Vec<String> {
    let needs_files = setup.baseline.is_some()
        || setup
            .config
            .as_ref()
            .is_some_and(|c| !c.per_file_ignores.is_empty() || !c.sidecars.is_empty());
    let files: Vec<String> = if needs_files {
        // The run's walk, with a count of its own: the run's note counts what it skipped once.
        let walk = crate::corpus::Walk {
            excluded: std::sync::Arc::default(),
            ..setup.options.walk.clone()
        };
        crate::corpus::discover_with(paths, &walk)
            .0
            .into_iter()
            .map(|e| e.display.raw().to_string())
            .collect()
    } else {
        Vec::new()
    };
    warn_unmatched_globs(
        setup,
        &files,
        &crate::corpus::corpus_path(&setup.options.walk.shown(paths)),
    );
    files
}

/// The exit code for a config file that stopped the run.
pub fn trouble() -> Output {
    Output::stdout(Vec::new(), EXIT_TROUBLE)
}
