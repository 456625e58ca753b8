//! `benchlint.toml`: rule selection, severities, thresholds, per-file ignores and sidecars by
//! glob. Found upward from the first path checked (or named with `--config`, or ignored with
//! `--isolated`). Any mistake in it (an unknown key, an unknown rule code, a wrong type, a bad
//! glob, a sidecar that breaks the result schema) stops the run with exit 2 and a diagnostic
//! pointing at the line and column.
//!
//! ```toml
//! select = ["ALL"]                 # codes, prefixes (`M`, `M01`), rule names or "ALL"
//! extend-select = []
//! ignore = ["R014"]
//!
//! [severity]                       # per code or prefix; the most specific wins
//! "M014" = "error"
//! "R" = "warning"
//!
//! [thresholds]                     # any field of `Thresholds`
//! min_window_s = 60
//!
//! [per-file-ignores]               # globs relative to this file's folder
//! "old/**" = ["M"]
//!
//! [[sidecar]]                      # a partial canonical document for every matching file
//! files = "old/gb10/**"
//! values = { platform = { accelerator = "GB10" } }
//!
//! [[sidecar]]
//! files = "old/h200/*.json"
//! path = "sidecars/h200.json"
//! ```
//!
//! `extend = "../base.toml"` lays the file over another (src/config/layered.rs), and
//! `--config KEY=VALUE` over both; `exclude`, `extend-exclude` and `respect-gitignore` shape
//! folder walks (src/corpus/discover.rs).

mod check;
mod error;
mod layered;
pub mod paths;
pub mod raw;
pub mod selection;
pub mod sidecars;
pub mod trust;

use std::io::Write as _;
use std::path::{Path, PathBuf};

pub use check::parse;
pub use error::ConfigError;
pub use selection::{Layer, PerFileIgnore, Selection, Selector};
pub use sidecars::{GlobSidecar, GlobSidecars};

use crate::diagnostic::Severity;
use crate::thresholds::Thresholds;
use check::parse_with;

/// The config file's name.
pub const FILE_NAME: &str = "benchlint.toml";

/// A config file, checked and resolved.
#[derive(Debug, Clone)]
pub struct Config {
    /// The file, absolute.
    pub path: PathBuf,
    /// The file as messages show it.
    pub display: String,
    /// Its folder, absolute: globs and sidecar paths are relative to it.
    pub dir: PathBuf,
    /// `select`, `extend-select`, `ignore`.
    pub layer: Layer,
    /// `[severity]`.
    pub severity: Vec<(Selector, Severity)>,
    /// `[thresholds]` (every field not written keeps its default).
    pub thresholds: Option<Thresholds>,
    /// `[per-file-ignores]`.
    pub per_file_ignores: Vec<PerFileIgnore>,
    /// `[[sidecar]]`, in file order.
    pub sidecars: Vec<GlobSidecar>,
    /// Found by discovery (in the checked tree), so read with the limits of [`trust`].
    pub in_tree: bool,
    /// `exclude`: globs (relative to [`Config::dir`]) a walk skips; `None` when not written.
    pub exclude: Option<Vec<String>>,
    /// `extend-exclude`: globs skipped on top of `exclude`.
    pub extend_exclude: Vec<String>,
    /// `respect-gitignore`, when written.
    pub respect_gitignore: Option<bool>,
}

/// Largest config file read, bytes: a config is a page of settings.
pub const CONFIG_LIMIT: u64 = 1024 * 1024;

/// Largest `[[sidecar]] path` file read, bytes (as a sidecar beside a result).
pub const SIDECAR_LIMIT: u64 = 16 * 1024 * 1024;

/// The nearest `benchlint.toml` in the folder of `first` (or `first` itself when it is a
/// folder) and its ancestors.
pub fn discover(first: &Path) -> Option<PathBuf> {
    let abs = paths::absolute(first);
    let start = if abs.is_dir() {
        abs
    } else {
        abs.parent().map(Path::to_path_buf)?
    };
    start
        .ancestors()
        .map(|d| d.join(FILE_NAME))
        .find(|p| p.is_file())
}

/// The config of a run: none with `--isolated`, the file named with `--config` as written,
/// else the one discovery finds from the first path. A discovered config inside the checked
/// paths (`benchlint check submissions/` finding `submissions/x/benchlint.toml`) was written
/// by whoever wrote the corpus: it is limited as [`trust`] says, and each limit that changed
/// what it asked is written to stderr as a warning. One above them (the repository's own) is
/// used as written.
pub fn for_run(
    paths: &[PathBuf],
    explicit: Option<&Path>,
    isolated: bool,
) -> Result<Option<Config>, Box<ConfigError>> {
    let (config, notes) = for_check(paths, explicit, &[], isolated)?;
    if let Some(c) = &config {
        warn_limits(c, &notes);
    }
    Ok(config)
}

/// Writes each limit put on a config inside the checked paths to stderr, as a warning.
pub fn warn_limits(config: &Config, notes: &[String]) {
    for n in notes {
        let _ = writeln!(
            std::io::stderr(),
            "benchlint: warning: {}: {}",
            crate::text::line(&config.display),
            n
        );
    }
}

/// The config of a run, as [`for_run`] finds it, with `overrides` (`--config KEY=VALUE`, in
/// order) laid over it; with the limits a config inside the checked paths was held to, one
/// sentence each (for the caller to say, or not under `--quiet`). With `--isolated`, only the
/// overrides.
pub fn for_check(
    paths: &[PathBuf],
    explicit: Option<&Path>,
    overrides: &[String],
    isolated: bool,
) -> Result<(Option<Config>, Vec<String>), Box<ConfigError>> {
    let file = if isolated {
        None
    } else if let Some(p) = explicit {
        Some((p.to_path_buf(), false))
    } else {
        paths.first().and_then(|p| discover(p)).map(|found| {
            let in_tree = inside_checked(&found, paths);
            (found, in_tree)
        })
    };
    if file.is_none() && overrides.is_empty() {
        return Ok((None, Vec::new()));
    }
    let (path, in_tree) = file.unwrap_or_else(|| (layered::overrides_path(), false));
    let text = layered::merged_text(&path, in_tree, overrides)?;
    let mut config = parse_with(&text, &path, in_tree)?;
    let notes = if in_tree {
        config.limit_in_tree()
    } else {
        Vec::new()
    };
    Ok((Some(config), notes))
}

/// Reads and checks the config file at `path`, named with `--config`: used as written.
pub fn load(path: &Path) -> Result<Config, Box<ConfigError>> {
    let text = layered::merged_text(path, false, &[])?;
    parse_with(&text, path, false)
}

/// Reads and checks a config file found inside the checked paths: its sidecar files must lie in its own
/// folder, and it is limited as [`trust`] says. Returns the config and what was overridden.
pub fn load_in_tree(path: &Path) -> Result<(Config, Vec<String>), Box<ConfigError>> {
    let text = layered::merged_text(path, true, &[])?;
    let mut config = parse_with(&text, path, true)?;
    let notes = config.limit_in_tree();
    Ok((config, notes))
}

/// The config file's text: a regular file of at most [`CONFIG_LIMIT`] bytes (a FIFO, a device
/// or `/dev/stdin` is refused from its metadata, never opened).
pub(super) fn read_config(path: &Path) -> Result<String, Box<ConfigError>> {
    crate::io::read_text(path, CONFIG_LIMIT)
        .map(|(t, _)| t)
        .map_err(|e| {
            Box::new(ConfigError {
                display: paths::display(path),
                text: None,
                span: None,
                message: format!("the config file could not be read: {}", e.0),
                label: String::new(),
                help: None,
            })
        })
}

/// Whether the config file `found` lies inside one of the checked `paths` (a folder, or the
/// folder of a file argument), symlinks resolved.
fn inside_checked(found: &Path, paths: &[PathBuf]) -> bool {
    let Some(dir) = std::fs::canonicalize(found)
        .ok()
        .and_then(|f| f.parent().map(Path::to_path_buf))
    else {
        return true;
    };
    paths.iter().any(|p| {
        let root = if p.is_dir() {
            p.clone()
        } else {
            p.parent()
                .filter(|x| !x.as_os_str().is_empty())
                .map_or_else(|| PathBuf::from("."), Path::to_path_buf)
        };
        std::fs::canonicalize(root).is_ok_and(|r| dir.starts_with(r))
    })
}

/// Whether `file` (followed through symlinks, when it exists) lies inside `dir`.
fn inside_folder(dir: &Path, file: &Path) -> bool {
    let (Ok(real_dir), Ok(real_file)) = (std::fs::canonicalize(dir), std::fs::canonicalize(file))
    else {
        // A file that does not exist is reported when it is read; lexically outside is outside.
        return paths::normalize(file).starts_with(paths::normalize(dir));
    };
    real_file.starts_with(real_dir)
}

#[cfg(test)]
mod tests;
