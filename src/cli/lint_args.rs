//! The options `check` shares with other linters, spelled as ruff spells them: how much it
//! says (`-q`, `-s`), what a folder walk skips (`--exclude`, `--extend-exclude`, `.gitignore`,
//! `--force-exclude`) and the name of standard input (`-`, `--stdin-filename`).

use std::path::{Path, PathBuf};

use crate::config::Config;
use crate::corpus::{Exclude, Walk};

/// The linter conventions of `check` (flattened into `CheckArgs`).
#[expect(clippy::struct_excessive_bools, reason = "command-line flags")]
#[derive(Debug, Clone, Default, clap::Args)]
pub struct LintArgs {
    /// Print the findings and nothing else: no summary line, no table of files, no warnings
    /// (errors of benchlint itself still go to stderr).
    #[arg(short, long, conflicts_with = "silent")]
    pub quiet: bool,
    /// Print nothing but errors of benchlint itself: the exit code gives the result (an
    /// `--output-file` is still written).
    #[arg(short, long)]
    pub silent: bool,
    /// Globs of files and folders a walk skips, replacing the config's `exclude`
    /// (comma-separated; relative to the current folder; a name without `/` matches anywhere).
    #[arg(long, value_name = "GLOBS", value_delimiter = ',')]
    pub exclude: Option<Vec<String>>,
    /// Globs skipped on top of `exclude` (comma-separated).
    #[arg(long, value_name = "GLOBS", value_delimiter = ',')]
    pub extend_exclude: Vec<String>,
    /// Read what `.gitignore` files name too (by default a walk inside a git work tree skips
    /// it).
    #[arg(long, overrides_with = "respect_gitignore")]
    pub no_respect_gitignore: bool,
    /// Skip what `.gitignore` files name (the default; undoes an earlier
    /// `--no-respect-gitignore` or the config's `respect-gitignore = false`).
    #[arg(long, overrides_with = "no_respect_gitignore")]
    pub respect_gitignore: bool,
    /// Apply `exclude` and `.gitignore` to files named on the command line too (for hooks
    /// that pass file names).
    #[arg(long)]
    pub force_exclude: bool,
    /// The name standard input (`-`) goes by: in findings, for config globs and
    /// `--force-exclude` (default `-`). Its format is told from its content; no sidecar is
    /// looked for beside it.
    #[arg(long, value_name = "NAME")]
    pub stdin_filename: Option<PathBuf>,
}

/// How much `check` says.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Verbosity {
    /// Findings, summary, warnings.
    Normal,
    /// Findings only.
    Quiet,
    /// Nothing but errors of the tool.
    Silent,
}

impl LintArgs {
    /// `-q`, `-s`.
    pub fn verbosity(&self) -> Verbosity {
        if self.silent {
            Verbosity::Silent
        } else if self.quiet {
            Verbosity::Quiet
        } else {
            Verbosity::Normal
        }
    }

    /// The walk: the command line's `exclude` over the config's, `extend-exclude` of both,
    /// `.gitignore` unless turned off by the last word on it (command line, then config).
    pub fn walk(&self, config: Option<&Config>) -> Result<Walk, String> {
        let cwd = crate::config::paths::absolute(Path::new("."));
        let compile = |patterns: &[String], base: &Path, from: &str| {
            patterns
                .iter()
                .map(|p| Exclude::new(p, base).map_err(|e| format!("{from}: {e}")))
                .collect::<Result<Vec<_>, String>>()
        };
        let mut exclude = Vec::new();
        if let Some(list) = &self.exclude {
            exclude.extend(compile(list, &cwd, "--exclude")?);
        } else if let Some(list) = config.and_then(|c| c.exclude.as_ref()) {
            let c = config.expect("a config with `exclude`");
            exclude.extend(compile(list, &c.dir, &c.display)?);
        }
        if let Some(c) = config {
            exclude.extend(compile(&c.extend_exclude, &c.dir, &c.display)?);
        }
        exclude.extend(compile(&self.extend_exclude, &cwd, "--extend-exclude")?);
        let respect_gitignore = if self.no_respect_gitignore {
            false
        } else if self.respect_gitignore {
            true
        } else {
            config.and_then(|c| c.respect_gitignore).unwrap_or(true)
        };
        Ok(Walk {
            exclude,
            respect_gitignore,
            force_exclude: self.force_exclude,
            ..Walk::default()
        })
    }
}
