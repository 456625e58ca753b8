//! Config files laid over one another: `extend = "../base.toml"` in `benchlint.toml` and
//! `--config KEY=VALUE` on the command line, merged as TOML tables before the result is checked
//! as one config.
//!
//! Decisions (README, "Configuration"):
//! - Each file is checked alone first, so a mistake points at its own file, line and column.
//! - The base comes first and each file laid over it replaces what it writes: tables
//!   (`[severity]`, `[thresholds]`, `[per-file-ignores]`) key by key, anything else (lists
//!   such as `select` or `exclude`, `[[sidecar]]`) whole. `--config` overrides come last, in
//!   the order given.
//! - `extend` and `[[sidecar]] path` are relative to the folder of the file that writes them.
//!   Globs (`[per-file-ignores]`, `[[sidecar]] files`, `exclude`) are relative to the folder of
//!   the config in force (the one found or named), so a shared base reads the same in every
//!   project that extends it.
//! - A loop (`a` extends `b` extends `a`) or a chain deeper than [`MAX_DEPTH`] is an error.
//! - A config inside the checked paths (src/config/trust.rs) extends only files inside its own
//!   folder, symlinks resolved (a file outside could be any file the runner can read, and its
//!   text would be quoted in a diagnostic), and the merged config keeps every limit of
//!   `trust`, whatever a base or an override says.

use std::path::{Path, PathBuf};

use serde::Deserialize;
use toml::{Spanned, Table, Value};

use super::{ConfigError, inside_folder, parse_with, paths, read_config};

/// Longest `extend` chain followed.
pub const MAX_DEPTH: usize = 16;

/// How messages name the `--config KEY=VALUE` overrides.
const OVERRIDE: &str = "--config";

/// The place of a config made of overrides alone: the current folder (their globs are relative
/// to it).
pub fn overrides_path() -> PathBuf {
    paths::absolute(Path::new(OVERRIDE))
}

/// Only the `extend` key of a file, with its place.
#[derive(Deserialize)]
struct ExtendKey {
    extend: Option<Spanned<String>>,
}

/// The text of the config at `path` (none: overrides alone, see [`overrides_path`]) with the
/// files it extends beneath it and `overrides` over it. `confined`: the file was found inside
/// the checked paths.
pub fn merged_text(
    path: &Path,
    confined: bool,
    overrides: &[String],
) -> Result<String, Box<ConfigError>> {
    let mut table = if path == overrides_path() {
        Table::new()
    } else {
        let mut seen = Vec::new();
        let (table, plain) = chain(path, confined, &mut seen)?;
        if overrides.is_empty() {
            // One file and nothing over it: its own text, so diagnostics quote it.
            if let Some(text) = plain {
                return Ok(text);
            }
        }
        table
    };
    for o in overrides {
        merge(&mut table, override_table(o)?);
    }
    toml::to_string(&table).map_err(|e| {
        Box::new(ConfigError {
            display: paths::display(path),
            text: None,
            span: None,
            message: format!("the merged config could not be written: {e}"),
            label: String::new(),
            help: None,
        })
    })
}

/// The table of the file at `path` over every file it extends; its own text too when it
/// extends none.
fn chain(
    path: &Path,
    confined: bool,
    seen: &mut Vec<PathBuf>,
) -> Result<(Table, Option<String>), Box<ConfigError>> {
    let display = paths::display(path);
    let text = read_config(path)?;
    // Checked alone, so a mistake points at this file.
    parse_with(&text, path, confined)?;
    let mut table: Table = text.parse().map_err(|e: toml::de::Error| {
        ConfigError::at(
            &display,
            &text,
            e.span().unwrap_or(0..0),
            e.to_string(),
            "here",
        )
    })?;
    let dir = paths::absolute(path)
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_default();
    absolute_sidecar_paths(&mut table, &dir);
    table.remove("extend");
    let real = std::fs::canonicalize(path).unwrap_or_else(|_| paths::absolute(path));
    seen.push(real);
    let Some(extend) = toml::from_str::<ExtendKey>(&text)
        .ok()
        .and_then(|k| k.extend)
    else {
        return Ok((table, Some(text)));
    };
    let err = |message: String, label: &str| {
        ConfigError::at(&display, &text, extend.span(), message, label)
    };
    let target = dir.join(extend.get_ref());
    if confined && !inside_folder(&dir, &target) {
        return Err(err(
            "the extended file is outside the config file's folder; a config inside the checked paths extends only files inside its own folder".into(),
            "outside",
        )
        .with_help("name the config with --config to extend a file elsewhere"));
    }
    if let Ok(real) = std::fs::canonicalize(&target)
        && let Some(at) = seen.iter().position(|s| *s == real)
    {
        let mut names: Vec<String> = seen[at..].iter().map(|p| paths::display(p)).collect();
        names.push(paths::display(&real));
        return Err(err(
            format!("extend loop: {}", names.join(" extends ")),
            "extends a file of its own chain",
        ));
    }
    if seen.len() >= MAX_DEPTH {
        return Err(err(
            format!("more than {MAX_DEPTH} files extend one another"),
            "one too many",
        ));
    }
    if !target.is_file() {
        return Err(err(
            format!(
                "the extended file `{}` could not be read: {}",
                paths::display(&target),
                if target.exists() {
                    "not a regular file"
                } else {
                    "no such file"
                }
            ),
            "this file",
        ));
    }
    let (mut base, _) = chain(&target, confined, seen)?;
    merge(&mut base, table);
    Ok((base, None))
}

/// One `--config KEY=VALUE`, checked alone as a config of one line.
fn override_table(text: &str) -> Result<Table, Box<ConfigError>> {
    let err = |span, message: String| ConfigError::at(OVERRIDE, text, span, message, "here");
    let mut table: Table = text
        .parse()
        .map_err(|e: toml::de::Error| err(e.span().unwrap_or(0..0), e.message().to_string()))?;
    if table.contains_key("extend") {
        return Err(err(
            0..text.len(),
            "`extend` is not taken from --config KEY=VALUE; name the file with --config FILE"
                .into(),
        ));
    }
    parse_with(text, &overrides_path(), false)?;
    let cwd = paths::absolute(Path::new("."));
    absolute_sidecar_paths(&mut table, &cwd);
    Ok(table)
}

/// Makes each `[[sidecar]] path` absolute against `dir` (the folder of the file that wrote it),
/// so it names the same file once merged into a config elsewhere.
fn absolute_sidecar_paths(table: &mut Table, dir: &Path) {
    let Some(Value::Array(entries)) = table.get_mut("sidecar") else {
        return;
    };
    for entry in entries {
        if let Some(Value::String(p)) = entry.as_table_mut().and_then(|t| t.get_mut("path")) {
            *p = paths::slashes(&paths::normalize(&dir.join(&*p)));
        }
    }
}

/// Lays `over` over `base`: tables merged key by key, any other value replaced.
pub fn merge(base: &mut Table, over: Table) {
    for (key, value) in over {
        match (base.get_mut(&key), value) {
            (Some(Value::Table(b)), Value::Table(o)) => merge(b, o),
            (_, value) => {
                base.insert(key, value);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_merge_key_by_key_and_lists_are_replaced() {
        let mut base: Table = "select = [\"M\"]\n[severity]\nM001 = \"info\"\nR = \"warning\"\n"
            .parse()
            .unwrap();
        let over: Table = "select = [\"R\"]\n[severity]\nR = \"error\"\n"
            .parse()
            .unwrap();
        merge(&mut base, over);
        assert_eq!(base["select"].as_array().unwrap().len(), 1);
        assert_eq!(base["select"][0].as_str(), Some("R"));
        assert_eq!(base["severity"]["M001"].as_str(), Some("info"));
        assert_eq!(base["severity"]["R"].as_str(), Some("error"));
    }
}
