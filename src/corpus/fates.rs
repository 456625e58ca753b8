//! What became of each file a run reached, when it holds no result of its own: the result a
//! companion or sidecar belongs to, the finding of a companion of nothing, and the one
//! finding of a run that read no result at all, naming what it found.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use super::FileRead;
use super::discover::Skipped;
use super::translate::finding_at;
use crate::diagnostic::{Finding, Location, Severity};
use crate::rules;

/// A path as findings and `--show-files` show it.
pub(super) fn shown(path: &Path) -> String {
    let s = path.to_string_lossy();
    s.strip_prefix("./").unwrap_or(&s).to_string()
}

/// The files of the run that gave results, by path and by folder.
pub(super) struct Owners<'a> {
    files: BTreeSet<&'a str>,
    /// Each folder holding result files, with them and the format each was read as.
    folders: BTreeMap<&'a str, Vec<(&'a str, &'a str)>>,
}

fn folder_of(path: &str) -> &str {
    path.rfind('/').map_or("", |i| &path[..i])
}

/// How much two file names share, at their start and at their end: a companion belongs to
/// the result named most like it (`individual_groq_70b.json` to `summary_groq_70b.json`,
/// a sweep's `summary.json` to its `run=0.json`) when a folder holds several runs.
fn affinity(a: &str, b: &str) -> usize {
    let a = &a[folder_of(a).len()..];
    let b = &b[folder_of(b).len()..];
    let head = a.bytes().zip(b.bytes()).take_while(|(x, y)| x == y).count();
    let tail = a
        .bytes()
        .rev()
        .zip(b.bytes().rev())
        .take_while(|(x, y)| x == y)
        .count();
    head + tail
}

impl<'a> Owners<'a> {
    pub(super) fn of(read: &'a [FileRead]) -> Self {
        let mut files = BTreeSet::new();
        let mut folders: BTreeMap<&'a str, Vec<(&'a str, &'a str)>> = BTreeMap::new();
        for r in read.iter().filter(|r| r.results > 0) {
            let path = r.path.raw();
            files.insert(path);
            folders
                .entry(folder_of(path))
                .or_default()
                .push((path, r.read_as.as_ref()));
        }
        Owners { files, folders }
    }

    /// Whether the file shown as `path` gave results.
    pub(super) fn has_results(&self, path: &str) -> bool {
        self.files.contains(path)
    }

    /// The result of `candidates` a companion at `path` of `harness` belongs to: of those read
    /// by that harness's adapter (a harness's file accompanies only its own results), the one
    /// named most like the companion, the first in path order on a tie.
    fn best<'c>(
        path: &str,
        harness: &str,
        candidates: impl Iterator<Item = &'c (&'a str, &'a str)>,
    ) -> Option<&'a str>
    where
        'a: 'c,
    {
        candidates
            .filter(|(_, format)| *format == harness)
            .map(|&(file, _)| (affinity(path, file), file))
            .fold(
                None,
                |best: Option<(usize, &'a str)>, (score, file)| match best {
                    Some((s, f)) if s > score || (s == score && f <= file) => Some((s, f)),
                    _ => Some((score, file)),
                },
            )
            .map(|(_, file)| file)
    }

    /// The result a companion of `harness` at `path` belongs to: a result of its folder,
    /// else of the folder above (an export folder inside a run folder), else of a folder
    /// beside it (MLPerf's `power/` beside `run_1/`); for a configuration
    /// (`config`: a YAML file), also of a folder below it (a run's config above its stage
    /// folders). `None`: a companion of nothing.
    pub(super) fn beside(&self, path: &str, harness: &str, config: bool) -> Option<String> {
        let folder = folder_of(path);
        let found = self
            .folders
            .get(folder)
            .and_then(|c| Self::best(path, harness, c.iter()))
            .or_else(|| {
                (!folder.is_empty())
                    .then(|| self.folders.get(folder_of(folder)))
                    .flatten()
                    .and_then(|c| Self::best(path, harness, c.iter()))
            })
            .or_else(|| {
                // A folder beside it (MLPerf's `power/` beside `run_1/`).
                if folder.is_empty() {
                    return None;
                }
                let parent = folder_of(folder);
                let prefix = if parent.is_empty() {
                    String::new()
                } else {
                    format!("{parent}/")
                };
                let beside = self
                    .folders
                    .range::<str, _>((
                        std::ops::Bound::Included(prefix.as_str()),
                        std::ops::Bound::Unbounded,
                    ))
                    .take_while(|(f, _)| f.starts_with(&prefix))
                    .filter(|(f, _)| **f != folder && folder_of(f) == parent)
                    .flat_map(|(_, c)| c.iter());
                Self::best(path, harness, beside)
            })
            .or_else(|| {
                if !config {
                    return None;
                }
                let prefix = if folder.is_empty() {
                    String::new()
                } else {
                    format!("{folder}/")
                };
                let below = self
                    .folders
                    .range::<str, _>((
                        std::ops::Bound::Included(prefix.as_str()),
                        std::ops::Bound::Unbounded,
                    ))
                    .take_while(|(f, _)| f.starts_with(&prefix))
                    .flat_map(|(_, c)| c.iter());
                Self::best(path, harness, below)
            })?;
        Some(format!("`{found}`"))
    }
}

/// Whether two findings say the same thing at the same place.
pub(super) fn same_finding(a: &Finding, b: &Finding) -> bool {
    a.rule.code == b.rule.code
        && a.primary.doc_start == b.primary.doc_start
        && a.primary.pointer.raw() == b.primary.pointer.raw()
        && a.message.raw() == b.message.raw()
}

/// The warning of a companion with no result of its run read: it is accounted for, and says
/// where its result should have been.
pub(super) fn companion_of_nothing(path: &str, harness: &str) -> Finding {
    let mut f = finding_at(
        &rules::e004_unknown_format::RULE,
        Location::new(path, ""),
        format!(
            "`{path}` is a file {harness} writes beside its results, but no result is read beside it in this run (in its folder, below or above it); nothing was checked from it"
        ),
        Some("check the run's result file with it, or move the file out of the corpus".into()),
    );
    f.label = Some("companion of nothing".into());
    f
}

/// Files of other kinds read for a word on what they are, at most (bytes each).
const PEEK_LIMIT: u64 = 1024 * 1024;

/// The one error of a run that walked folders and read no result: what it found instead.
pub(super) fn read_nothing(args: &[PathBuf], read: &[FileRead], skipped: &Skipped) -> Finding {
    let mut kinds: BTreeMap<String, Vec<&str>> = BTreeMap::new();
    for r in read {
        let kind = r
            .read_as
            .split_once(" of ")
            .map_or(r.read_as.as_ref(), |(what, _)| what);
        kinds
            .entry(kind.to_string())
            .or_default()
            .push(r.path.raw());
    }
    let mut found: Vec<String> = kinds
        .iter()
        .map(|(kind, files)| format!("{} {}", files.len(), plural(kind, files.len())))
        .collect();
    // Files a walk does not read: named for what they are when they are the reports of a
    // benchmark other than serving (`trtllm-bench`), counted otherwise.
    let mut named: BTreeMap<&'static str, Vec<String>> = BTreeMap::new();
    for file in &skipped.first {
        let what = crate::io::read_text(file, PEEK_LIMIT)
            .ok()
            .and_then(|(text, _)| crate::adapters::non_serving_text(&text));
        if let Some(what) = what {
            named.entry(what).or_default().push(shown(file));
        }
    }
    let mut others = skipped.count;
    for (what, files) in &named {
        others -= files.len();
        let mut s = format!(
            "{} file{} that {} ",
            files.len(),
            s(files.len()),
            if files.len() == 1 { "is" } else { "are each" }
        );
        s.push_str(what);
        let _ = write!(s, " ({})", list(files));
        found.push(s);
    }
    if others > 0 {
        found.push(format!(
            "{others} file{} of other kinds that benchlint does not read",
            s(others)
        ));
    }
    let place = crate::corpus::corpus_path(args);
    let mut f = finding_at(
        &rules::e004_unknown_format::RULE,
        Location::new(place.as_str(), ""),
        format!(
            "no result was read under `{place}`, so nothing was checked: it holds {}",
            found.join("; ")
        ),
        Some("point benchlint at the folder of the results (JSON, JSON Lines, YAML reports, MLPerf loadgen logs), or export them from the harness".into()),
    );
    f.severity = Severity::Error;
    f.corpus = true;
    f.label = Some("nothing read".into());
    f
}

fn s(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}

/// `n` files of a fate as `--show-files` words it (`sidecar`, `skipped (...)`, `none (...)`).
fn plural(kind: &str, n: usize) -> String {
    let (head, tail) = kind.split_once(' ').unwrap_or((kind, ""));
    let head = match head {
        "none" => "unread file",
        "companion" => "companion",
        "sidecar" => "sidecar",
        "skipped" => "skipped file",
        other => other,
    };
    let mut out = format!("{head}{}", s(n));
    if !tail.is_empty() {
        let _ = write!(out, " {tail}");
    }
    out
}

fn list(files: &[String]) -> String {
    let mut shown: Vec<String> = files.iter().take(3).map(|f| format!("`{f}`")).collect();
    if files.len() > 3 {
        shown.push("…".into());
    }
    shown.join(", ")
}
