//! Results put away in a temporary file as they are read and read back one at a time, for a
//! command that walks the corpus in an order of its own (`summary`: configuration by
//! configuration) and would otherwise hold every result until the end.
//!
//! What is put away is what a reading command asks of a result: where it was read from and its
//! typed document, written in MessagePack with field names (the document's optional fields are
//! left out when absent, so the format must name what it holds). Numbers come back exactly:
//! MessagePack keeps a float's eight bytes and an integer as an integer. The provenance of
//! each value, the canonical JSON and the audit's checklist are not put away: a result read
//! back is for its figures and settings, never for placing a finding.

use super::LoadedResult;
use crate::io::{Spool, Ticket};
use crate::model::ResultDoc;
use crate::model::translate::Origin;

/// Results put away, each read back by its number (the order they were put away in).
#[derive(Debug, Default)]
pub struct ResultSpool {
    spool: Spool,
    tickets: Vec<Ticket>,
    /// The adapters' names the results were read by: a result holds its index here.
    formats: Vec<&'static str>,
}

impl ResultSpool {
    /// A spool whose temporary file is made in `folder` rather than the system's temporary
    /// folder; where none can be made there, the results are held in memory.
    pub fn in_folder(folder: &std::path::Path) -> Self {
        ResultSpool {
            spool: Spool::in_folder(folder),
            ..ResultSpool::default()
        }
    }

    /// How many results were put away.
    pub fn len(&self) -> usize {
        self.tickets.len()
    }

    /// Whether none was.
    pub fn is_empty(&self) -> bool {
        self.tickets.is_empty()
    }

    /// The adapters' names of the results put away.
    pub fn formats(&self) -> &[&'static str] {
        &self.formats
    }

    /// Puts `result` away (its origin and document); its number is the count before it.
    pub fn put(&mut self, result: &LoadedResult) -> Result<usize, String> {
        let format = if let Some(k) = self.formats.iter().position(|f| *f == result.origin.format) {
            k
        } else {
            self.formats.push(result.origin.format);
            self.formats.len() - 1
        };
        let path = result.origin.path.raw().as_bytes();
        let mut bytes = Vec::with_capacity(path.len() + 1_024);
        bytes.extend_from_slice(&u64::try_from(path.len()).unwrap_or(u64::MAX).to_le_bytes());
        bytes.extend_from_slice(path);
        let start = u64::try_from(result.origin.doc_start).unwrap_or(u64::MAX);
        bytes.extend_from_slice(&start.to_le_bytes());
        bytes.extend_from_slice(&u64::try_from(format).unwrap_or(u64::MAX).to_le_bytes());
        rmp_serde::encode::write_named(&mut bytes, &result.doc)
            .map_err(|e| format!("a result could not be put away: {e}"))?;
        self.tickets.push(self.spool.put(bytes));
        Ok(self.tickets.len() - 1)
    }

    /// Result `k` as it was put away: its origin and document, with no provenance, canonical
    /// JSON or checklist.
    pub fn get(&self, k: usize) -> Result<LoadedResult, String> {
        self.read(k, |rest| {
            let mut doc: ResultDoc = rmp_serde::from_slice(rest).map_err(|e| unreadable(&e))?;
            // Packed again, as a kept result's levels are.
            doc.levels.pack();
            Ok(doc)
        })
    }

    /// [`ResultSpool::get`] of what says what a result is and where it was read, without what
    /// it measured: its document without its levels, artifacts, cost and notes, which are
    /// passed over as they are read (most of the reading, for a ladder of many levels).
    pub fn get_setup(&self, k: usize) -> Result<LoadedResult, String> {
        self.read(k, |rest| {
            let parts: Parts<Unread> = rmp_serde::from_slice(rest).map_err(|e| unreadable(&e))?;
            Ok(parts.into_doc().0)
        })
    }

    /// [`ResultSpool::get`] without the artifacts, cost and notes: what a result is and what
    /// it measured, for a rule that reads a configuration's runs (a configuration of thousands
    /// of runs is read back whole while its rules judge it, and these were a quarter of its heap).
    pub fn get_run(&self, k: usize) -> Result<LoadedResult, String> {
        self.read(k, |rest| {
            let parts: Parts<crate::model::Levels> =
                rmp_serde::from_slice(rest).map_err(|e| unreadable(&e))?;
            let (mut doc, levels) = parts.into_doc();
            doc.levels = levels;
            // Packed again, as a kept result's levels are.
            doc.levels.pack();
            Ok(doc)
        })
    }

    /// Result `k`, its document read from its bytes by `doc`.
    fn read(
        &self,
        k: usize,
        doc: impl FnOnce(&[u8]) -> Result<ResultDoc, String>,
    ) -> Result<LoadedResult, String> {
        let ticket = self
            .tickets
            .get(k)
            .ok_or_else(|| format!("no result {k} was put away"))?;
        let bytes = self
            .spool
            .take(ticket)
            .map_err(|e| format!("a result put away could not be read back: {e}"))?;
        let cut = || "a result put away was read back cut short".to_string();
        let word = |at: usize| -> Result<usize, String> {
            let b = bytes.get(at..at + 8).ok_or_else(cut)?;
            let v = u64::from_le_bytes(b.try_into().map_err(|_| cut())?);
            usize::try_from(v).map_err(|_| cut())
        };
        let len = word(0)?;
        let path = bytes.get(8..8 + len).ok_or_else(cut)?;
        let path = std::str::from_utf8(path).map_err(|_| cut())?;
        let doc_start = word(8 + len)?;
        let format = *self.formats.get(word(16 + len)?).ok_or_else(cut)?;
        let rest = bytes.get(24 + len..).ok_or_else(cut)?;
        let doc = doc(rest)?;
        Ok(LoadedResult {
            origin: Origin {
                path: path.into(),
                doc_start,
                format,
            },
            doc,
            value: super::Canonical::none(),
            provenance: crate::model::ProvenanceMap::default(),
            checklist: None,
        })
    }
}

/// The error of a document put away that cannot be read back.
fn unreadable(e: &rmp_serde::decode::Error) -> String {
    format!("a result put away could not be read back: {e}")
}

/// What [`ResultSpool::get_setup`] and [`ResultSpool::get_run`] read of a document put away:
/// every field of a [`ResultDoc`] but its artifacts, cost and notes, which are skipped, and its
/// levels read as `L` ([`Unread`]: skipped too).
#[derive(serde::Deserialize)]
#[serde(bound = "L: serde::Deserialize<'de> + Default")]
struct Parts<L> {
    schema: String,
    id: String,
    measured_at: String,
    outcome: crate::model::Outcome,
    #[serde(default)]
    harness: Option<std::sync::Arc<crate::model::Harness>>,
    #[serde(default)]
    launch: Option<std::sync::Arc<crate::model::Launch>>,
    #[serde(default)]
    repeat: Option<u64>,
    #[serde(default)]
    platform: Option<std::sync::Arc<crate::model::Platform>>,
    #[serde(default)]
    engine: Option<std::sync::Arc<crate::model::Engine>>,
    #[serde(default)]
    model: Option<std::sync::Arc<crate::model::Model>>,
    #[serde(default)]
    workload: Option<std::sync::Arc<crate::model::Workload>>,
    #[serde(default)]
    labels: Option<std::sync::Arc<crate::model::SmallMap<String>>>,
    #[serde(default)]
    levels: L,
}

impl<L> Parts<L> {
    /// The document of these parts, without levels, and the levels read.
    fn into_doc(self) -> (ResultDoc, L) {
        let doc = ResultDoc {
            schema: self.schema,
            id: self.id,
            measured_at: self.measured_at,
            outcome: self.outcome,
            harness: self.harness,
            launch: self.launch,
            repeat: self.repeat,
            platform: self.platform,
            engine: self.engine,
            model: self.model,
            workload: self.workload,
            labels: self.labels,
            ..ResultDoc::default()
        };
        (doc, self.levels)
    }
}

/// A part of a document put away that is passed over, not read.
#[derive(Default)]
struct Unread;

impl<'de> serde::Deserialize<'de> for Unread {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        serde::de::IgnoredAny::deserialize(d).map(|_| Unread)
    }
}
