//! A result as the loader hands it on: the typed document, where it was read from and where
//! each value came from; claims documents; and the corpus they make up. Rules, claims and
//! replication see results only through these types, so they sit below the loader that builds
//! them.

pub mod spool;

use rayon::prelude::*;
use serde_json::Value;

use super::translate::Origin;
use super::{ProvenanceMap, ResultDoc};
use crate::diagnostic::{Finding, Omitted};

/// One canonical result and where it came from.
#[derive(Debug, Clone)]
pub struct LoadedResult {
    /// The file and document it was read from, and by which adapter.
    pub origin: Origin,
    /// The typed result.
    pub doc: ResultDoc,
    /// The canonical JSON (after sidecars and derivations); `null` once a lean load has let it
    /// go.
    pub value: Canonical,
    /// Where each value came from.
    pub provenance: ProvenanceMap,
    /// The state of each checklist field of the audit (`corpus::Options::checklist`), worked
    /// out while the canonical JSON was there to ask: a lean result drops it.
    pub checklist: Option<Box<[super::Coverage]>>,
}

/// A result's canonical JSON, held boxed and dropped to nothing once a lean load lets it go: a
/// `Value` inline is 72 bytes, kept for every result of the corpus, mostly as `null`. It reads
/// as the `Value` it holds, and as `null` when it holds none.
///
/// A result loaded to be written out (`import`) may hold its per-request sample arrays apart:
/// the JSON holds `[]` for each, and [`Canonical::samples_apart`] says where each array lies in
/// the text of the file the result was read from, for [`crate::json::WithSamples`] to write
/// them back as it writes the rest. The JSON alone, read as a `Value`, lacks them.
#[derive(Debug, Clone, Default)]
pub struct Canonical(Option<Box<Held>>);

/// What a [`Canonical`] holds.
#[derive(Debug, Clone)]
struct Held {
    value: Value,
    apart: Vec<crate::json::SampleSpan>,
}

/// What an empty [`Canonical`] reads as.
static NULL: Value = Value::Null;

impl Canonical {
    /// None held: reads as `null`.
    pub fn none() -> Self {
        Canonical(None)
    }

    /// `value`, whose sample arrays at `apart` were left in the file's text.
    pub fn with_samples_apart(value: Value, apart: Vec<crate::json::SampleSpan>) -> Self {
        if value.is_null() {
            return Canonical(None);
        }
        Canonical(Some(Box::new(Held { value, apart })))
    }

    /// Where the sample arrays held apart lie in the file's text (none unless made with
    /// [`Canonical::with_samples_apart`]).
    pub fn samples_apart(&self) -> &[crate::json::SampleSpan] {
        self.0.as_deref().map_or(&[], |h| &h.apart)
    }

    /// Moves where the sample arrays held apart lie by `by` bytes: from a chunk of the file's
    /// text to the whole file's.
    pub fn move_samples_apart(&mut self, by: usize) {
        if let Some(held) = self.0.as_deref_mut() {
            for s in &mut held.apart {
                s.start += by;
                s.end += by;
            }
        }
    }

    /// The JSON held, taken out (`null` when none), and where its sample arrays held apart lie.
    pub fn into_parts(self) -> (Value, Vec<crate::json::SampleSpan>) {
        self.0
            .map_or((Value::Null, Vec::new()), |h| (h.value, h.apart))
    }

    /// The JSON held, taken out (`null` when none), without the sample arrays held apart.
    pub fn into_value(self) -> Value {
        self.into_parts().0
    }
}

impl From<Value> for Canonical {
    fn from(value: Value) -> Self {
        Canonical::with_samples_apart(value, Vec::new())
    }
}

impl std::ops::Deref for Canonical {
    type Target = Value;

    fn deref(&self) -> &Value {
        self.0.as_deref().map_or(&NULL, |h| &h.value)
    }
}

impl std::ops::DerefMut for Canonical {
    fn deref_mut(&mut self) -> &mut Value {
        &mut self
            .0
            .get_or_insert_with(|| {
                Box::new(Held {
                    value: Value::Null,
                    apart: Vec::new(),
                })
            })
            .value
    }
}

/// A claims document, its claims read into the typed model when it is loaded: held as JSON
/// values until the end of the run, a claim took about 1.4 KB.
#[derive(Debug, Clone)]
pub struct LoadedClaims {
    /// Where it was read from.
    pub origin: Origin,
    /// Its claims, in order.
    pub claims: Vec<ClaimItem>,
}

/// One claim of a claims document.
#[derive(Debug, Clone)]
pub struct ClaimItem {
    /// Its `id` as written, when that is a string.
    pub id: Option<String>,
    /// The claim read as the typed model, or why it could not be (`serde_json`'s words).
    pub read: Result<super::claim::Claim, String>,
}

impl LoadedClaims {
    /// The claims document `value` read from `origin`: each item of its `claims` array (none
    /// when it has no such array).
    pub fn read(origin: Origin, value: &Value) -> Self {
        let claims = value
            .get("claims")
            .and_then(Value::as_array)
            .map(|items| items.iter().map(ClaimItem::read).collect())
            .unwrap_or_default();
        LoadedClaims { origin, claims }
    }
}

impl ClaimItem {
    /// The claim `raw`, as a claims document writes it.
    pub fn read(raw: &Value) -> Self {
        ClaimItem {
            id: raw.get("id").and_then(Value::as_str).map(str::to_string),
            read: <super::claim::Claim as serde::Deserialize>::deserialize(raw)
                .map_err(|e| e.to_string()),
        }
    }
}

/// Everything loaded from the command-line paths.
#[derive(Debug, Default)]
pub struct Corpus {
    /// Files read (results, claims, sidecars, harness companions, broken ones).
    pub files: usize,
    /// Canonical results, in path order.
    pub results: Vec<LoadedResult>,
    /// Canonical results put away on disk as they were read rather than held in `results`
    /// (`check`: [`crate::corpus::Options::put_away`]), counted.
    pub put_away: usize,
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
    /// The device and inode of the file the walk saw and the loader read (`None` when the walk
    /// refused it): a report quoting the file reads only this one, never a file put at its
    /// path since.
    pub seen: Option<(u64, u64)>,
}

impl Corpus {
    /// Frees the results on the worker threads that allocated them: freeing tens of thousands
    /// of results from one thread takes longer than a tenth of checking them.
    pub fn release(self) {
        self.results.into_par_iter().for_each(drop);
    }
}
