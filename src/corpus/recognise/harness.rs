//! A document of a harness's format (no schema of benchlint's): read by the adapter that
//! recognises it, an array the parser left apart read an item at a time ([`items`]), and a
//! document no adapter reads described, or reported when it looks like a result.

use std::path::Path;

use serde_json::Value;

use super::{DocumentRun, Unread};
use crate::adapters::{self, Reading, Source};
use crate::corpus::{
    FileOutcome, Origin, finding_at, finish_result, internal_error, items, sidecar,
};
use crate::diagnostic::{Finding, Location};
use crate::json::Document;
use crate::model::RESULT_SCHEMA;
use crate::rules;
use crate::schema;

impl DocumentRun<'_, '_> {
    /// Reads the document `doc` of `text`, one of the file's `doc_count`, with the adapter that
    /// recognises it; one no adapter reads goes to `unknown`, or is an error when it looks
    /// like a result.
    pub(super) fn read_harness(
        &self,
        doc: &mut Document,
        text: &str,
        doc_count: usize,
        out: &mut FileOutcome,
        unknown: &mut Vec<Unread>,
    ) {
        let (entry, file_name, folder) = (self.entry, self.file_name, self.folder);
        let path = entry.display.raw();
        let (sides, options) = (&self.sides, self.options);
        let doc_start = doc.start;
        let origin = |format: &'static str| Origin {
            path: self.shared.clone(),
            doc_start,
            format,
        };
        let source = Source {
            path,
            file_name,
            doc_index: doc.index,
            doc_count,
            folder: Some(folder),
            alone: entry.alone,
        };
        // An array the parser left out of the value: its items, one at a time.
        if items::is_apart(doc) {
            match self.read_items(doc, text, &source, out) {
                Ok(true) => return,
                Ok(false) => {}
                Err(message) => {
                    out.internal.push(internal_error(
                        "reading an array an item at a time",
                        &format!("`{path}`"),
                        &message,
                    ));
                    return;
                }
            }
        }
        // Read no further once its results are taken: a document of many rows lets
        // each go once its result is made.
        let unread = match adapters::read_letting_go(&mut doc.value, &source) {
            Some((name, Reading::Results(mapped))) => {
                for m in mapped {
                    finish_result(
                        entry,
                        origin(name),
                        (m.value, Vec::new(), None),
                        m.provenance,
                        (sides, folder),
                        options,
                        out,
                    );
                    self.hand_batch(text, out);
                    self.park(out);
                }
                false
            }
            Some((name, Reading::Companion)) => {
                out.companion.get_or_insert(name);
                false
            }
            Some((_, Reading::NotMine)) => false,
            None => true,
        };
        if unread {
            if let Some(what) = adapters::looks_like_result(&doc.value) {
                out.findings.push(unreadable_result(path, doc.start, &what));
            } else if sidecar::is_sidecar_name(file_name) && is_sidecar(&doc.value) {
                out.unknown
                    .push(sidecar_of_nothing(path, doc.start, entry.path()));
            } else {
                unknown.push((doc.index, doc.start, adapters::describe_unread(&doc.value)));
            }
        }
    }

    /// Reads the array `doc` of `text`, left out of its value, an item at a time
    /// ([`items`]): `Ok(true)` once its results are finished or it is named a companion,
    /// `Ok(false)` when no adapter reads it and its value is now the whole array, to be read
    /// as any other document is.
    fn read_items(
        &self,
        doc: &mut Document,
        text: &str,
        source: &Source<'_>,
        out: &mut FileOutcome,
    ) -> Result<bool, String> {
        let doc_start = doc.start;
        let origin = |format: &'static str| Origin {
            path: self.shared.clone(),
            doc_start,
            format,
        };
        match items::recognise(
            text,
            doc,
            source,
            (self.path(), &self.options.selection),
            out,
        )? {
            items::Recognised::Results { name, items, map } => {
                items::read_results(text, doc, source, (&items, map), |m| {
                    finish_result(
                        self.entry,
                        origin(name),
                        (m.value, Vec::new(), None),
                        m.provenance,
                        (&self.sides, self.folder),
                        self.options,
                        out,
                    );
                    self.hand_batch(text, out);
                    self.park(out);
                })?;
                Ok(true)
            }
            items::Recognised::Companion(name) => {
                out.companion.get_or_insert(name);
                Ok(true)
            }
            items::Recognised::Whole => Ok(false),
        }
    }
}

/// Whether `value` is a valid sidecar (a partial canonical document).
fn is_sidecar(value: &Value) -> bool {
    let mut partial = value.clone();
    sidecar::prepare(&mut partial);
    partial.is_object() && schema::validate(schema::Kind::Sidecar, &partial).is_empty()
}

/// The place of a finding about a whole document: its start in the file.
fn whole_document(path: &str, doc_start: usize) -> Location {
    Location {
        path: path.into(),
        doc_start,
        pointer: "".into(),
        offset: None,
    }
}

/// The error of a document that looks like a result (of a harness, or of benchlint) that no
/// adapter could read: a result that cannot be read fails the run, never passes as a warning.
fn unreadable_result(path: &str, doc_start: usize, what: &str) -> Finding {
    let mut f = finding_at(
        &rules::e003_schema_violation::RULE,
        whole_document(path, doc_start),
        format!(
            "`{path}` looks like {what}, but no adapter could read it (a value out of range, a key missing, renamed or added, or the document wrapped in something else): this result was not checked"
        ),
        Some(crate::text::Text::own(format!(
            "write it as the harness does, or as `{RESULT_SCHEMA}` (`benchlint schema result`); a result that cannot be read fails the run"
        ))),
    );
    f.label = Some("result not read".into());
    f
}

/// The warning of a sidecar with no result in the run to attach to.
fn sidecar_of_nothing(path: &str, doc_start: usize, file: &Path) -> Finding {
    let owners: Vec<String> = sidecar::owners(file)
        .iter()
        .filter_map(|o| o.file_name().map(|n| format!("`{}`", n.to_string_lossy())))
        .collect();
    let mut f = finding_at(
        &rules::e004_unknown_format::RULE,
        whole_document(path, doc_start),
        format!(
            "`{path}` is a sidecar, but no result it attaches to ({}) is read in this run; nothing was merged from it",
            owners.join(" or ")
        ),
        Some("check the result beside it too, or move the sidecar out of the corpus".into()),
    );
    f.label = Some("sidecar of nothing".into());
    f
}
