//! Loading a corpus: discovery, reading, parsing (JSON, or the text formats `text` reads:
//! YAML reports, MLPerf loadgen logs), recognising each document, merging sidecars, deriving
//! from serve commands (and a per-user rate from a median TPOT), and running the per-document
//! and per-result rules, in parallel across files. Bad input becomes findings; nothing here
//! aborts the run.

/// A switch a test turns on for its own thread, to hold one way the loader does a thing to
/// another (documents checked apart or in turn, claims read apart or whole, findings past the
/// cap counted or made): `$set` turns it on or off on this thread, `$get` says whether it is on.
/// Test builds only; the loader reads it under `#[cfg(test)]`.
#[cfg(test)]
macro_rules! thread_switch {
    ($(#[$meta:meta])* $name:ident, $set:ident, $get:ident) => {
        thread_local! {
            $(#[$meta])*
            static $name: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
        }

        /// Turns the switch on (`true`) or off on this thread.
        pub(super) fn $set(on: bool) {
            $name.with(|s| s.set(on));
        }

        /// Whether the switch is on on this thread.
        pub(super) fn $get() -> bool {
            $name.with(std::cell::Cell::get)
        }
    };
}

#[cfg(test)]
mod apart_tests;
mod artifacts;
mod bounds;
mod cap;
pub mod checklist;
mod claims;
#[cfg(test)]
mod claims_apart_tests;
mod derive;
mod discover;
mod documents;
#[cfg(test)]
mod drawn_text;
mod fates;
mod ghost;
#[cfg(test)]
mod handing_tests;
mod items;
#[cfg(test)]
mod items_tests;
mod lean;
#[cfg(test)]
mod levels_tests;
mod line_file;
#[cfg(test)]
mod line_file_tests;
mod lines;
mod outcome;
mod park;
#[cfg(test)]
pub(crate) use park::{PARK_AT, PARK_AT_TEST};
#[cfg(test)]
mod park_tests;
mod parse;
mod per_file;
mod per_user;
mod place;
mod recognise;
mod result;
mod run_folder;
mod settle;
mod shared;
mod shift;
#[cfg(test)]
mod swap_tests;
mod text;
mod walk;

use crate::thresholds::Thresholds;

#[cfg(test)]
pub(crate) use crate::guard::injected as guard_injected;
/// The rules whose findings say an input could not be read (unreadable, not JSON, against
/// the schema, of no known format): all that the commands which read results rather than
/// findings keep, and all the rules they run while loading.
pub const UNREADABLE: [&str; 4] = ["E001", "E002", "E003", "E004"];

/// Whether a finding of rule `code` says an input could not be read ([`UNREADABLE`]).
pub fn says_unreadable(code: &str) -> bool {
    UNREADABLE.contains(&code)
}

pub use crate::guard::{catch_panic, internal_error, report_internal_errors};
pub use crate::io::{beside, describe_io, read_text};
pub use crate::model::loaded::{Corpus, FileRead, LoadedClaims, LoadedResult};
pub use crate::model::sidecar;
pub use crate::model::translate::{
    self, Origin, finding_at, translate, translate_keyed, translate_owned,
};
pub use artifacts::normal as normal_path;
pub use cap::{count_past_cap, keep_within};
pub use derive::derive_settings;
pub use discover::{Entry, discover, is_candidate};
pub use discover::{READ_ENDINGS, discover_with, hook_files_pattern, walk_reads};
pub use documents::beside_sidecar;
use documents::{bound_levels, check_text, load_sidecar, run_document_rules, schema_finding};
pub use line_file::is_line_file;
use lines::check_lines;
use outcome::{FileOutcome, select_from};
pub use outcome::{Hand, HandTo, Handed, Handing};
pub use parse::parse_json_text;
use per_file::check_chunk;
pub use per_file::{
    load, load_each, load_each_into, load_results, load_results_into, load_streaming,
    load_streaming_into,
};
pub use place::corpus_path;
use recognise::DocumentRun;
pub use result::emit_to_finding;
use result::finish_result;
use settle::{Pending, settle_pending};
pub use shared::SharedParts;
pub use walk::{Exclude, Walk};

/// How to load.
#[derive(Debug, Clone, Default)]
#[expect(
    clippy::struct_excessive_bools,
    reason = "independent switches, each set by the commands that need it"
)]
pub struct Options {
    /// Thresholds in force.
    pub thresholds: Thresholds,
    /// Which rules run, where, at what severity (`benchlint.toml`, `--select`, ...).
    pub selection: crate::config::Selection,
    /// Sidecars attached by glob in `benchlint.toml`, merged after `<file>.meta.json`.
    pub sidecars: crate::config::GlobSidecars,
    /// What folder walks skip (`exclude`, `.gitignore`).
    pub walk: Walk,
    /// Keep only what corpus-wide rules need once a result's own rules have run: per-request
    /// samples and the canonical JSON are dropped, and the configuration parts results repeat
    /// are held once (`shared`), so memory holds summaries, not documents. Every command that
    /// reads results sets it; `import` and `sidecar`, which need each result's canonical JSON,
    /// load with [`load_streaming`] instead, one file's results at a time.
    pub lean: bool,
    /// With `lean`, for [`crate::engine`]: put each result away on disk as it is read, never
    /// holding the corpus's results ([`Corpus::put_away`] counts them), and call the
    /// corpus-wide rules on what each reads of them, read back. `check` sets it; a caller that
    /// reads [`Corpus::results`] after the run leaves it off. A result's configuration parts and
    /// where its values came from are shared as for any lean result: the rows of one document
    /// are held together until the document is read, and a finding is placed by the latter.
    pub results_on_disk: bool,
    /// Without `lean`: read each canonical result's per-request sample arrays straight into
    /// numbers all the same, leaving `[]` for each in its canonical JSON and where the array
    /// lies in the file's text ([`LoadedResult::value`], `samples_apart`), for a command that
    /// writes the JSON out (`import`) to put them back as it writes. A document of millions of
    /// samples is then held as numbers, not as JSON values (32 bytes and more each).
    pub samples_apart: bool,
    /// Let a claims document's contents go once it is read and checked against its schema (the
    /// file still counts as read, as claims): for the commands that report results only
    /// (`summary`, `capacity`, `cards`, `import`, `sidecar`), where a claims file of a claim per
    /// result was held whole, as a JSON value, to the end of the run for nothing.
    pub drop_claims: bool,
    /// With `lean`: the configuration parts (harness, platform, engine, model, workload) of
    /// the results kept so far, each distinct one held once and shared by every result equal to
    /// it.
    pub shared: SharedParts,
    /// With `lean`: each result is put away by the caller as it comes ([`load_results_into`]),
    /// so its configuration parts are left its own rather than pooled in `shared` (the pool
    /// would hold every distinct part of the corpus to the end of the run) and where its values
    /// came from is let go (nothing after the loader places a finding on a result put away).
    pub put_away: bool,
    /// The checklist fields of the audit ([`crate::audit::checklist::items`]): each result's
    /// state for each is worked out before its canonical JSON is dropped
    /// ([`LoadedResult::checklist`]), the one thing the audit asks of that JSON.
    pub checklist: Option<std::sync::Arc<[crate::audit::ChecklistItem]>>,
    /// How many documents of a JSON Lines file are read and checked at a time (0: 256). What
    /// a run finds does not depend on it; its memory does.
    pub lines_per_chunk: usize,
}

impl FileRead {
    /// What the loader made of `path`: `outcome`'s results and claims, or the first loader
    /// finding on it as the reason nothing was read.
    fn of(path: &crate::text::PathText, seen: Option<(u64, u64)>, outcome: &FileOutcome) -> Self {
        let mut formats: Vec<&'static str> = outcome
            .results
            .iter()
            .map(|r| r.origin.format)
            .chain(outcome.parked.formats().iter().copied())
            .collect();
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
            Some(r) if r.origin.path == *path => r.origin.path.clone(),
            _ => path.clone(),
        };
        FileRead {
            path,
            read_as,
            results: outcome.results.len() + outcome.parked.len(),
            seen,
        }
    }
}
