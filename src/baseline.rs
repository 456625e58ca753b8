//! The baseline: findings accepted once, suppressed afterwards, so that CI fails only on new
//! problems while the old ones are worked off.
//!
//! ```json
//! {"version": 2, "tool": "benchlint",
//!  "findings": {"results/run1.json": {"M007": ["/engine/max_num_seqs"], "R009": ["/levels/0", "/levels/1"]}}}
//! ```
//!
//! Semantics (ESLint's bulk suppressions and PHPStan's `reportUnmatchedIgnoredErrors`, keyed on
//! detekt-like signatures instead of counts):
//! - A finding is keyed by (path, code, pointer). The path is relative to the baseline file's
//!   folder with forward slashes, so the same baseline works whatever folder benchlint is run
//!   from; the pointer is the JSON pointer of the finding, and for a field not recorded the
//!   canonical pointer of that field (`/engine/version`), so that fixing one missing field
//!   while another goes missing is a new finding (line numbers play no part, so
//!   editing a file elsewhere does not unsuppress it). A list may repeat a pointer (a JSON
//!   Lines file with the same problem in several documents): each entry suppresses one finding.
//! - Version 1 files (which keyed a missing field by the object lacking it, often `""`) are
//!   still read, with a notice, and matched as they were written; `--update-baseline`
//!   rewrites them in version 2. A version this benchlint does not know is an error (exit 2).
//! - Every severity is recorded, so changing `--fail-on` later does not surface old findings.
//! - An entry that matches no finding is stale, when its file was checked in this run (or no
//!   longer exists) and its rule ran on that file. Stale entries are reported on stderr and
//!   exit 1 (so the baseline only shrinks), unless `--allow-stale-baseline`; `--exit-zero`
//!   also turns that into 0. `--update-baseline` prunes them.
//! - An entry whose path leaves the baseline's folder (the project root: `..` past it, or an
//!   absolute path) is refused, all such entries in one message, and never looked up: were
//!   it reported stale when its file is missing and kept when it exists, the CI log would
//!   tell anyone who can write a baseline which files exist on the runner. The run then fails
//!   (exit 1), whatever exists, until the entries are removed; `--update-baseline` drops them
//!   and never writes one.
//! - `--update-baseline` rewrites the file from the current findings of the files checked,
//!   keeps the entries of files not checked in this run that still exist and of rules that
//!   did not run on their file, and drops the rest.

mod apply;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::config::{Selection, paths};
use crate::diagnostic::Finding;
use crate::rules::RULES;

pub use apply::{Applied, Matching, Stale};

/// The format version this benchlint writes.
pub const VERSION: u64 = 2;

/// The older version it still reads: a missing field's entry is keyed there by the pointer of
/// the object that lacks it (`""` for a harness's file), not by the field's own pointer.
pub const OLD_VERSION: u64 = 1;

/// Largest baseline read, bytes (a baseline holds a pointer per accepted finding).
pub const LIMIT: u64 = 64 * 1024 * 1024;

type Entries = BTreeMap<String, BTreeMap<String, Vec<String>>>;

/// A baseline file, read or about to be written.
#[derive(Debug, Clone)]
pub struct Baseline {
    /// The file, as given.
    pub path: PathBuf,
    /// Its folder, absolute: entry paths are relative to it.
    dir: PathBuf,
    cwd: PathBuf,
    entries: Entries,
    /// Read from a version 1 file: its entries are matched by the pointers that version
    /// wrote, so that a baseline written before still suppresses what it did.
    old_form: bool,
    /// Entry paths outside the baseline's folder, as written, sorted: refused, never looked
    /// up.
    pub outside: Vec<String>,
}

/// Whether an entry path stays inside the baseline's folder: relative, and no `..` leaves it.
fn inside_root(key: &str) -> bool {
    let path = Path::new(key);
    if path.is_absolute()
        || key.starts_with('/')
        || key.starts_with('\\')
        || key.as_bytes().get(1) == Some(&b':')
    {
        return false;
    }
    let mut depth: usize = 0;
    for part in key.split(['/', '\\']) {
        match part {
            "" | "." => {}
            ".." => match depth.checked_sub(1) {
                Some(d) => depth = d,
                None => return false,
            },
            _ => depth += 1,
        }
    }
    true
}

impl Baseline {
    /// An empty baseline that will be written to `path`.
    pub fn empty(path: &Path) -> Self {
        let abs = paths::absolute(path);
        Baseline {
            path: path.to_path_buf(),
            dir: abs.parent().map(Path::to_path_buf).unwrap_or_default(),
            cwd: paths::normalize(&std::env::current_dir().unwrap_or_default()),
            entries: Entries::new(),
            old_form: false,
            outside: Vec::new(),
        }
    }

    /// Reads the baseline at `path`. A missing file is an error unless `missing_ok`, when it
    /// reads as empty.
    pub fn load(path: &Path, missing_ok: bool) -> Result<Self, String> {
        let shown = paths::display(path);
        match std::fs::symlink_metadata(path) {
            Err(e) if e.kind() == std::io::ErrorKind::NotFound && missing_ok => {
                return Ok(Baseline::empty(path));
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(format!(
                    "the baseline `{shown}` does not exist; create it with `--update-baseline`"
                ));
            }
            _ => {}
        }
        // A regular file of bounded size: never a FIFO, a device or `/dev/stdin`.
        let (text, _) = crate::io::read_text(path, LIMIT)
            .map_err(|e| format!("the baseline `{shown}` could not be read: {}", e.0))?;
        let value: Value = serde_json::from_str(&text)
            .map_err(|e| format!("the baseline `{shown}` is not JSON: {e}"))?;
        let mut baseline = Baseline::empty(path);
        let (entries, version) =
            parse(&value).map_err(|m| format!("the baseline `{shown}` {m}"))?;
        baseline.entries = entries;
        baseline.old_form = version == OLD_VERSION;
        let (inside, outside): (Entries, Entries) = std::mem::take(&mut baseline.entries)
            .into_iter()
            .partition(|(path, _)| inside_root(path));
        baseline.entries = inside;
        baseline.outside = outside.into_keys().collect();
        Ok(baseline)
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.entries
            .values()
            .flat_map(BTreeMap::values)
            .map(Vec::len)
            .sum()
    }

    /// Whether it has no entry.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether the file was read in the version 1 form (matched as that version keyed
    /// findings until `--update-baseline` rewrites it).
    pub fn is_old_form(&self) -> bool {
        self.old_form
    }

    /// The pointer an entry records for `f`: the missing field's pointer for a field not
    /// recorded, the finding's own pointer otherwise; in the version 1 form, the pointer of
    /// the place the finding is shown on, as that version wrote it.
    fn pointer_of<'f>(&self, f: &'f Finding) -> &'f str {
        if self.old_form {
            f.primary.pointer.raw()
        } else {
            f.key_pointer()
        }
    }

    /// The key of a finding's file (its path as shown) under the baseline's folder.
    pub fn key(&self, shown: &str) -> String {
        paths::key(&self.cwd, &self.dir, Path::new(shown))
    }

    /// Whether the file shown as `shown` is the baseline itself.
    pub fn is_self(&self, shown: &str) -> bool {
        paths::key(&self.cwd, &self.dir, Path::new(shown))
            == paths::key(&self.cwd, &self.dir, &self.path)
    }

    /// The file of an entry, absolute.
    fn file_of(&self, key: &str) -> PathBuf {
        paths::normalize(&self.dir.join(key))
    }

    /// The baseline rewritten from `findings` (before suppression): the entries of the files
    /// in `checked` are replaced, except those of rules that did not run on their file; the
    /// entries of files not checked are kept while the file exists.
    #[must_use]
    pub fn updated<'f>(
        &self,
        findings: impl IntoIterator<Item = &'f Finding>,
        checked: &[String],
        selection: &Selection,
    ) -> Baseline {
        let checked: BTreeSet<String> = checked.iter().map(|c| self.key(c)).collect();
        let mut entries = Entries::new();
        for (path, codes) in &self.entries {
            let file = self.file_of(path);
            if !file.exists() {
                continue;
            }
            for (code, pointers) in codes {
                let known = RULES.iter().any(|r| r.meta.code == code);
                let ran = selection.runs_on(&file.to_string_lossy(), code);
                if !checked.contains(path) || (known && !ran) {
                    entries
                        .entry(path.clone())
                        .or_default()
                        .insert(code.clone(), pointers.clone());
                }
            }
        }
        for f in findings {
            let path = self.key(f.primary.path.raw());
            if !inside_root(&path) {
                // A file outside the project root is not baselined: its entry would be
                // refused on the next run.
                continue;
            }
            entries
                .entry(path)
                .or_default()
                .entry(f.rule.code.to_string())
                .or_default()
                .push(f.key_pointer().to_string());
        }
        for codes in entries.values_mut() {
            for pointers in codes.values_mut() {
                pointers.sort();
            }
        }
        // Written in the current form: entries kept from a version 1 file are copied as
        // they were (they match the same findings unless they name a missing field).
        Baseline {
            entries,
            old_form: false,
            outside: Vec::new(),
            ..self.clone()
        }
    }

    /// The file's bytes: sorted, pretty, ending in a newline. Written from the entries as they
    /// are (`version`, `tool`, then every file's codes and pointers, in sorted order), never
    /// copied into a JSON value first: a baseline of millions of findings held them twice.
    pub fn to_bytes(&self) -> Vec<u8> {
        #[derive(serde::Serialize)]
        struct File<'a> {
            version: u64,
            tool: &'static str,
            findings: &'a Entries,
        }
        crate::text::json::pretty_line(&File {
            version: VERSION,
            tool: "benchlint",
            findings: &self.entries,
        })
    }

    /// Writes the file.
    pub fn write(&self) -> Result<(), String> {
        crate::output::write_file(&self.path, &self.to_bytes())
            .map_err(|e| format!("the baseline could not be written: {e}"))
    }
}

/// The entries of a baseline document and its version.
fn parse(value: &Value) -> Result<(Entries, u64), String> {
    let obj = value.as_object().ok_or("is not a JSON object")?;
    let version = match obj.get("version").and_then(Value::as_u64) {
        Some(v @ (VERSION | OLD_VERSION)) => v,
        Some(v) => {
            return Err(format!(
                "has version {v}; this benchlint reads versions {OLD_VERSION} and {VERSION} (a newer benchlint wrote it: upgrade, or rewrite it with `--update-baseline`)"
            ));
        }
        None => return Err(format!("has no `version` (expected {VERSION})")),
    };
    if let Some(tool) = obj.get("tool").filter(|t| t.as_str() != Some("benchlint")) {
        return Err(format!("was written by {tool}, not benchlint"));
    }
    let files = obj
        .get("findings")
        .and_then(Value::as_object)
        .ok_or("has no `findings` object")?;
    let mut entries = Entries::new();
    for (path, codes) in files {
        let codes = codes
            .as_object()
            .ok_or_else(|| format!("entry `{path}` is not an object of codes"))?;
        for (code, pointers) in codes {
            let pointers = pointers
                .as_array()
                .and_then(|a| {
                    a.iter()
                        .map(|p| p.as_str().map(str::to_string))
                        .collect::<Option<Vec<_>>>()
                })
                .ok_or_else(|| {
                    format!("entry `{path}` / `{code}` is not a list of JSON pointers")
                })?;
            entries
                .entry(path.clone())
                .or_default()
                .insert(code.clone(), pointers);
        }
    }
    Ok((entries, version))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn entries_leaving_the_baselines_folder_are_outside() {
        for inside in [
            "a.json",
            "results/a.json",
            "./a.json",
            "a/../b.json",
            "a/b/../../c.json",
        ] {
            assert!(inside_root(inside), "{inside}");
        }
        for outside in [
            "../a.json",
            "../../../../etc/passwd",
            "/etc/passwd",
            "a/../../b.json",
            "..\\..\\x",
            "C:\\x.json",
            "\\\\server\\share",
        ] {
            assert!(!inside_root(outside), "{outside}");
        }
    }

    #[test]
    fn versions_and_shapes() {
        assert!(
            parse(&json!({"version": 3, "findings": {}}))
                .unwrap_err()
                .contains("version 3")
        );
        assert!(parse(&json!({"version": 2})).is_err());
        assert!(parse(&json!({"version": 2, "findings": {"a.json": {"M005": "/x"}}})).is_err());
        let (e, v) = parse(&json!({"version": 2, "tool": "benchlint", "findings": {"a.json": {"M005": ["/x", "/x"]}}})).unwrap();
        assert_eq!((e["a.json"]["M005"].len(), v), (2, 2));
        // The older form still reads, and says which it is.
        let (_, v) = parse(&json!({"version": 1, "findings": {"a.json": {"M007": [""]}}})).unwrap();
        assert_eq!(v, OLD_VERSION);
    }
}
