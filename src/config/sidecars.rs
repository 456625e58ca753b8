//! Sidecars attached by glob in `benchlint.toml` (`[[sidecar]]`): a partial canonical document
//! merged into every result read from a file the glob matches.
//!
//! Order: a `<file>.meta.json` beside the file is merged first (it is the most specific), then
//! the `[[sidecar]]` entries in the order the config file lists them. Merging fills what is
//! still absent; every disagreement (with the file, or with a sidecar merged before) is an
//! M019 finding and the value merged first is kept.

use std::path::{Path, PathBuf};

use globset::GlobMatcher;
use serde_json::Value;

use super::paths;
use super::selection::{compile_glob, glob_matches};

/// One `[[sidecar]]` entry.
#[derive(Debug, Clone)]
pub struct GlobSidecar {
    /// The glob as written.
    pub pattern: String,
    matcher: GlobMatcher,
    basename: bool,
    /// Where the values come from, as findings show it: the sidecar file, or
    /// `benchlint.toml#sidecar-N` for values written inline.
    pub display: String,
    /// The partial canonical document.
    pub value: Value,
}

impl GlobSidecar {
    /// Compiles an entry.
    pub fn new(pattern: &str, display: String, value: Value) -> Result<Self, String> {
        Ok(GlobSidecar {
            pattern: pattern.to_string(),
            matcher: compile_glob(pattern)?,
            basename: !pattern.trim_start_matches("./").contains('/'),
            display,
            value,
        })
    }

    /// Whether the glob matches `key` (a path relative to the config file's folder).
    pub fn matches(&self, key: &str) -> bool {
        glob_matches(&self.matcher, self.basename, key)
    }
}

/// Every `[[sidecar]]` entry of the config, with the folder its globs are relative to.
#[derive(Debug, Clone)]
pub struct GlobSidecars {
    /// The entries, in config order.
    pub entries: Vec<GlobSidecar>,
    base: PathBuf,
    cwd: PathBuf,
}

impl Default for GlobSidecars {
    fn default() -> Self {
        let cwd = paths::normalize(&std::env::current_dir().unwrap_or_default());
        GlobSidecars {
            entries: Vec::new(),
            base: cwd.clone(),
            cwd,
        }
    }
}

impl GlobSidecars {
    /// Entries whose globs are relative to `base`.
    pub fn new(entries: Vec<GlobSidecar>, base: &Path) -> Self {
        GlobSidecars {
            entries,
            base: paths::absolute(base),
            ..GlobSidecars::default()
        }
    }

    /// The path of a file relative to the folder the globs are relative to.
    pub fn key(&self, path: &Path) -> String {
        paths::key(&self.cwd, &self.base, path)
    }

    /// The sidecars that apply to the file at `path` (as opened), in merge order, each with
    /// the path findings show for it.
    pub fn for_path(&self, path: &Path) -> Vec<(String, Value)> {
        if self.entries.is_empty() {
            return Vec::new();
        }
        let key = self.key(path);
        self.entries
            .iter()
            .filter(|e| e.matches(&key))
            .map(|e| (e.display.clone(), e.value.clone()))
            .collect()
    }
}
