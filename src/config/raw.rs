//! `benchlint.toml` as written: every key, with the spans errors point at.

use std::collections::BTreeMap;

use serde::Deserialize;
use toml::Spanned;

use crate::diagnostic::Severity;
use crate::thresholds::Thresholds;

/// The whole file. Unknown keys are errors.
#[derive(Debug, Default, Deserialize)]
#[serde(default, deny_unknown_fields, rename_all = "kebab-case")]
pub struct RawConfig {
    /// Replaces the default selection (`["ALL"]`).
    pub select: Option<Vec<Spanned<String>>>,
    /// Adds to the selection.
    pub extend_select: Vec<Spanned<String>>,
    /// Removes from the selection.
    pub ignore: Vec<Spanned<String>>,
    /// Severity per code or prefix.
    pub severity: BTreeMap<Spanned<String>, Spanned<SeverityName>>,
    /// Overrides of the rules' thresholds (`Thresholds` field names).
    pub thresholds: Option<Thresholds>,
    /// Glob (relative to the config file's folder) to codes or prefixes.
    pub per_file_ignores: BTreeMap<Spanned<String>, Vec<Spanned<String>>>,
    /// Sidecars attached by glob.
    pub sidecar: Vec<Spanned<RawSidecar>>,
    /// Another config file this one is laid over (relative to this file's folder).
    pub extend: Option<Spanned<String>>,
    /// Globs of files and folders a walk skips (replaces the `exclude` of an extended file).
    pub exclude: Option<Vec<Spanned<String>>>,
    /// Globs skipped on top of `exclude`.
    pub extend_exclude: Vec<Spanned<String>>,
    /// Whether walks skip what `.gitignore` files name (default true).
    pub respect_gitignore: Option<bool>,
}

/// A `[[sidecar]]` entry.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RawSidecar {
    /// Glob of the result files it applies to (relative to the config file's folder).
    pub files: Spanned<String>,
    /// A JSON sidecar file (relative to the config file's folder).
    pub path: Option<Spanned<String>>,
    /// The partial canonical document, inline.
    pub values: Option<Spanned<toml::Table>>,
}

/// A severity as the config file writes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SeverityName {
    /// `"error"`.
    Error,
    /// `"warning"`.
    Warning,
    /// `"info"`.
    Info,
}

impl From<SeverityName> for Severity {
    fn from(s: SeverityName) -> Severity {
        match s {
            SeverityName::Error => Severity::Error,
            SeverityName::Warning => Severity::Warning,
            SeverityName::Info => Severity::Info,
        }
    }
}

/// A TOML value as JSON (datetimes become their RFC 3339 text); `None` for a float that JSON
/// cannot hold (`nan`, `inf`).
pub fn toml_to_json(value: &toml::Value) -> Option<serde_json::Value> {
    use serde_json::Value as J;
    Some(match value {
        toml::Value::String(s) => J::String(s.clone()),
        toml::Value::Integer(i) => J::from(*i),
        toml::Value::Float(f) => J::Number(serde_json::Number::from_f64(*f)?),
        toml::Value::Boolean(b) => J::Bool(*b),
        toml::Value::Datetime(d) => J::String(d.to_string()),
        toml::Value::Array(items) => {
            J::Array(items.iter().map(toml_to_json).collect::<Option<_>>()?)
        }
        toml::Value::Table(t) => table_to_json(t)?,
    })
}

/// A TOML table as a JSON object.
pub fn table_to_json(table: &toml::Table) -> Option<serde_json::Value> {
    let mut map = serde_json::Map::new();
    for (k, v) in table {
        map.insert(k.clone(), toml_to_json(v)?);
    }
    Some(serde_json::Value::Object(map))
}
