//! Checking the text of a config file into a [`Config`]: every key, code, glob, threshold and
//! sidecar, each mistake pointing at its place.

use std::ops::Range;
use std::path::Path;

use serde_json::Value;

use super::error::ConfigError;
use super::raw::RawConfig;
use super::{
    Config, GlobSidecar, Layer, PerFileIgnore, SIDECAR_LIMIT, Selector, inside_folder, paths, raw,
};
use crate::diagnostic::Severity;

/// Most `[[sidecar]]` entries a config may list (a real one lists a handful).
pub const MAX_SIDECAR_ENTRIES: usize = 100;

/// Most bytes the `[[sidecar]]` entries may hold in all, written as JSON, each entry counted.
pub const MAX_SIDECAR_BYTES: u64 = 16 * 1024 * 1024;

/// Checks the text of the config file at `path` (sidecar paths are read relative to it), as
/// a config named on the command line.
pub fn parse(text: &str, path: &Path) -> Result<Config, Box<ConfigError>> {
    parse_with(text, path, false)
}

/// Checks the text of the config file at `path`; `confined`: its sidecar files must resolve
/// inside its folder.
pub(super) fn parse_with(
    text: &str,
    path: &Path,
    confined: bool,
) -> Result<Config, Box<ConfigError>> {
    let display = paths::display(path);
    let abs = paths::absolute(path);
    let dir = abs.parent().map(Path::to_path_buf).unwrap_or_default();
    let raw: RawConfig = toml::from_str(text).map_err(|e| {
        let span = e.span().unwrap_or(0..0);
        let message = e.message().trim_end().replace('\n', "; ");
        ConfigError::at(&display, text, span, message, "here")
    })?;
    let err = |span: Range<usize>, message: String, label: &str| {
        ConfigError::at(&display, text, span, message, label)
    };
    let selectors = |list: &[toml::Spanned<String>]| -> Result<Vec<Selector>, Box<ConfigError>> {
        list.iter()
            .map(|s| Selector::parse(s.get_ref()).map_err(|m| err(s.span(), m, "not a rule code")))
            .collect()
    };
    let layer = Layer {
        select: raw.select.as_deref().map(selectors).transpose()?,
        extend_select: selectors(&raw.extend_select)?,
        ignore: selectors(&raw.ignore)?,
    };
    let mut severity = Vec::new();
    for (k, v) in &raw.severity {
        let sel = Selector::parse(k.get_ref()).map_err(|m| err(k.span(), m, "not a rule code"))?;
        severity.push((sel, Severity::from(*v.get_ref())));
    }
    let mut per_file_ignores = Vec::new();
    for (glob, codes) in &raw.per_file_ignores {
        let sels = selectors(codes)?;
        let p = PerFileIgnore::new(glob.get_ref(), sels)
            .map_err(|m| err(glob.span(), m, "bad glob"))?;
        per_file_ignores.push(p);
    }
    let mut sidecars = Vec::new();
    // Each sidecar file is read and checked once, however many entries name it; what the
    // entries hold is bounded in count and in bytes, since every matching result is merged
    // with a copy of each.
    let mut read_once: std::collections::BTreeMap<std::path::PathBuf, Value> =
        std::collections::BTreeMap::new();
    let mut held_bytes = 0u64;
    if let Some(entry) = raw.sidecar.get(MAX_SIDECAR_ENTRIES) {
        return Err(err(
            entry.span(),
            format!(
                "more than {MAX_SIDECAR_ENTRIES} [[sidecar]] entries; benchlint merges a copy of each into every result it matches, and reads no more"
            ),
            "one too many",
        )
        .with_help("attach several files with one glob, or put the values in one sidecar"));
    }
    for (i, entry) in raw.sidecar.iter().enumerate() {
        let s = entry.get_ref();
        let (value, shown, span) = match (&s.values, &s.path) {
            (Some(_), Some(p)) => {
                return Err(err(
                    p.span(),
                    "a [[sidecar]] takes `values` or `path`, not both".into(),
                    "remove one",
                ));
            }
            (None, None) => {
                return Err(err(
                    entry.span(),
                    "a [[sidecar]] needs `values` (inline) or `path` (a JSON file)".into(),
                    "this entry",
                ));
            }
            (Some(values), None) => {
                let json = raw::table_to_json(values.get_ref()).ok_or_else(|| {
                    err(
                        values.span(),
                        "sidecar values must be JSON values (no nan or inf)".into(),
                        "here",
                    )
                })?;
                (json, format!("{display}#sidecar-{}", i + 1), values.span())
            }
            (None, Some(p)) => {
                let file = dir.join(p.get_ref());
                if confined && !inside_folder(&dir, &file) {
                    return Err(err(
                        p.span(),
                        "the sidecar is outside the config file's folder; a config inside the checked paths reads sidecars only inside its own folder".into(),
                        "outside",
                    )
                    .with_help("move the sidecar next to the config, or name the config with --config"));
                }
                let key = std::fs::canonicalize(&file).unwrap_or_else(|_| file.clone());
                let json = if let Some(json) = read_once.get(&key) {
                    json.clone()
                } else {
                    let side_text = crate::io::read_text(&file, SIDECAR_LIMIT)
                        .map(|(t, _)| t)
                        .map_err(|e| {
                            err(
                                p.span(),
                                format!("the sidecar could not be read: {}", e.0),
                                "this file",
                            )
                        })?;
                    let json: Value = serde_json::from_str(&side_text).map_err(|e| {
                        err(
                            p.span(),
                            format!("the sidecar is not JSON: {e}"),
                            "this file",
                        )
                    })?;
                    read_once.insert(key, json.clone());
                    json
                };
                (json, paths::display(&file), p.span())
            }
        };
        if !value.is_object() {
            return Err(err(
                span,
                "a sidecar must be a JSON object (a partial result)".into(),
                "not an object",
            ));
        }
        held_bytes +=
            serde_json::to_string(&value).map_or(0, |t| u64::try_from(t.len()).unwrap_or(u64::MAX));
        if held_bytes > MAX_SIDECAR_BYTES {
            return Err(err(
                span,
                format!(
                    "the [[sidecar]] entries hold more than {} MiB in all (each entry counted, a file named twice twice); benchlint merges a copy of each into every result it matches",
                    MAX_SIDECAR_BYTES / (1024 * 1024)
                ),
                "past the bound here",
            )
            .with_help("attach several files with one glob, or keep sidecars to the values results lack"));
        }
        let mut value = value;
        crate::model::sidecar::prepare(&mut value);
        if let Some(e) = crate::schema::validate(crate::schema::Kind::Sidecar, &value).first() {
            let at = if e.pointer.is_empty() {
                "/"
            } else {
                &e.pointer
            };
            return Err(err(
                span,
                format!(
                    "the sidecar breaks the result schema at `{at}`: {}",
                    e.message
                ),
                "this sidecar",
            )
            .with_help(
                "a sidecar is a partial `benchlint/result/v1` document: `benchlint schema result`",
            ));
        }
        let g = GlobSidecar::new(s.files.get_ref(), shown, value)
            .map_err(|m| err(s.files.span(), m, "bad glob"))?;
        sidecars.push(g);
    }
    let globs = |list: &[toml::Spanned<String>]| -> Result<Vec<String>, Box<ConfigError>> {
        list.iter()
            .map(|g| {
                super::selection::compile_glob(g.get_ref())
                    .map(|_| g.get_ref().clone())
                    .map_err(|m| err(g.span(), m, "bad glob"))
            })
            .collect()
    };
    let exclude = raw.exclude.as_deref().map(globs).transpose()?;
    let extend_exclude = globs(&raw.extend_exclude)?;
    Ok(Config {
        exclude,
        extend_exclude,
        respect_gitignore: raw.respect_gitignore,
        path: abs,
        display,
        dir,
        layer,
        severity,
        thresholds: raw.thresholds,
        per_file_ignores,
        sidecars,
        in_tree: false,
    })
}
