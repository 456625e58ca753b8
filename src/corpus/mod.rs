//! Loading a corpus: discovery, reading, parsing (JSON, or the text formats `text` reads:
//! YAML reports, MLPerf loadgen logs), recognising each document, merging sidecars, deriving
//! from serve commands (and a per-user rate from a median TPOT), and running the per-document
//! and per-result rules, in parallel across files. Bad input becomes findings; nothing here
//! aborts the run.

mod artifacts;
pub mod beside;
mod bounds;
pub mod checklist;
mod claims;
mod derive;
mod discover;
mod documents;
mod fates;
mod guard;
#[cfg(test)]
mod levels_tests;
mod parse;
mod per_file;
mod per_user;
mod read;
mod result;
mod run_folder;
mod shared;
pub mod sidecar;
#[cfg(test)]
mod swap_tests;
mod text;
mod translate;

use rayon::prelude::*;
use serde_json::Value;

use crate::diagnostic::{Finding, Omitted};
use crate::model::{ProvenanceMap, ResultDoc};
use crate::thresholds::Thresholds;

pub use artifacts::normal as normal_path;
pub use derive::derive_settings;
pub use discover::{Entry, describe_io, discover, is_candidate};
pub use documents::beside_sidecar;
use documents::check_text;
#[cfg(test)]
pub(crate) use guard::injected as guard_injected;
pub use guard::{catch_panic, internal_error, report_internal_errors};
pub use parse::parse_json_text;
use per_file::FileOutcome;
pub use per_file::{load, load_each};
pub use read::read_text;
pub use result::emit_to_finding;
use result::{finish_result, whole_numbers_as_integers};
pub use shared::SharedParts;
pub use translate::{Origin, finding_at, translate, translate_owned};

/// How to load.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Thresholds in force.
    pub thresholds: Thresholds,
    /// Which rules run, where, at what severity (`benchlint.toml`, `--select`, ...).
    pub selection: crate::config::Selection,
    /// Sidecars attached by glob in `benchlint.toml`, merged after `<file>.meta.json`.
    pub sidecars: crate::config::GlobSidecars,
    /// Keep only what corpus-wide rules need once a result's own rules have run: per-request
    /// samples and the canonical JSON are dropped, and the configuration parts results repeat
    /// are held once (`shared`), so memory holds summaries, not documents. `check` sets it;
    /// `import`, which writes the canonical JSON, does not.
    pub lean: bool,
    /// With `lean`: the configuration parts (harness, platform, engine, model, workload) of
    /// the results kept so far, each distinct one held once and shared by every result equal to
    /// it.
    pub shared: SharedParts,
}

/// One canonical result and where it came from.
#[derive(Debug, Clone)]
pub struct LoadedResult {
    /// The file and document it was read from, and by which adapter.
    pub origin: Origin,
    /// The typed result.
    pub doc: ResultDoc,
    /// The canonical JSON (after sidecars and derivations).
    pub value: Value,
    /// Where each value came from.
    pub provenance: ProvenanceMap,
}

/// A claims document.
#[derive(Debug, Clone)]
pub struct LoadedClaims {
    /// Where it was read from.
    pub origin: Origin,
    /// The document (valid against the claims schema).
    pub value: Value,
}

/// Everything loaded from the command-line paths.
#[derive(Debug, Default)]
pub struct Corpus {
    /// Files read (results, claims, sidecars, harness companions, broken ones).
    pub files: usize,
    /// Canonical results, in path order.
    pub results: Vec<LoadedResult>,
    /// Claims documents.
    pub claims: Vec<LoadedClaims>,
    /// Findings of the loader and of per-document and per-result rules.
    pub findings: Vec<Finding>,
    /// Bugs caught while loading (a panic in the loader or a rule, see [`catch_panic`]): each
    /// makes the run exit 2 after the findings are printed.
    pub internal_errors: Vec<String>,
    /// Findings past `max_findings_per_file` or `max_findings`: counted, not stored.
    pub omitted: Omitted,
    /// Files whose findings went past `max_findings_per_file`, in path order.
    pub capped_files: Vec<String>,
    /// How each file was read, in the order found (`--show-files`, the overview).
    pub read: Vec<FileRead>,
}

/// How one file was read: by which adapters, or why by none.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileRead {
    /// The file as reached from the command line.
    pub path: crate::text::PathText,
    /// `canonical`, the adapters' names (`vllm`, `genai-bench`), `claims`, `sidecar of
    /// `r.json``, `companion of `r.json``, `artifact (named by a result)`, `skipped (...)`,
    /// or `none (E004 unknown-format)` with the rule that says why none read it: every file
    /// reached is one of these.
    pub read_as: std::borrow::Cow<'static, str>,
    /// Canonical results read from it.
    pub results: usize,
}

impl FileRead {
    /// What the loader made of `path`: `outcome`'s results and claims, or the first loader
    /// finding on it as the reason nothing was read.
    fn of(path: &str, outcome: &FileOutcome) -> Self {
        let mut formats: Vec<&'static str> =
            outcome.results.iter().map(|r| r.origin.format).collect();
        if !outcome.claims.is_empty() {
            formats.push("claims");
        }
        formats.sort_unstable();
        formats.dedup();
        // One word for most files: a corpus of 100,000 files keeps this line for each.
        let read_as = if let [one] = formats[..] {
            one.into()
        } else if !formats.is_empty() {
            formats.join(", ").into()
        } else if outcome.sidecar_of.is_some() {
            "sidecar".into()
        } else if let Some(f) = outcome.findings.iter().chain(&outcome.unknown).find(|f| {
            f.rule.code == "E003"
                && f.label
                    .as_ref()
                    .is_some_and(|l| l.raw() == "result not read")
        }) {
            format!(
                "none ({} {}: a result no adapter could read)",
                f.rule.code, f.rule.name
            )
            .into()
        } else if let Some(f) = outcome
            .findings
            .iter()
            .chain(&outcome.unknown)
            .find(|f| f.rule.code.starts_with('E') || f.rule.code.starts_with('S'))
        {
            format!("none ({} {})", f.rule.code, f.rule.name).into()
        } else {
            "none (read with its run, or not a result)".into()
        };
        // The path its results already share, when it has any: one allocation for the file.
        let path = match outcome.results.first() {
            Some(r) if r.origin.path == path => r.origin.path.clone(),
            _ => path.into(),
        };
        FileRead {
            path,
            read_as,
            results: outcome.results.len(),
        }
    }
}

impl Corpus {
    /// Frees the results on the worker threads that allocated them: freeing tens of thousands
    /// of results from one thread takes longer than a tenth of checking them.
    pub fn release(self) {
        self.results.into_par_iter().for_each(drop);
    }
}
