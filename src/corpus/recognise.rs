//! One document of a file recognised (canonical result, claims, a harness's format) and
//! checked, with what a file's documents share carried from one to the next ([`DocumentRun`]):
//! a file's documents are checked in order, all at once or, for JSON Lines, a chunk of lines at
//! a time.

use std::path::Path;

use serde_json::Value;

use crate::adapters::{self, Reading, Source};
use crate::diagnostic::{Finding, Location};
use crate::json::Document;
use crate::model::{CLAIMS_SCHEMA, ProvenanceMap, RESULT_SCHEMA};
use crate::rules;
use crate::schema;
use crate::text::PathText;

use super::shift::Before;
use super::{
    Entry, FileOutcome, Hand, Options, Origin, beside, claims, finding_at, finish_result,
    internal_error, items, load_sidecar, parse, run_document_rules, schema_finding, sidecar, text,
};

#[cfg(test)]
thread_switch!(
    /// A file's documents checked one after another on this thread, as they were before they
    /// were checked apart on the workers: the tests hold the one way to the other.
    IN_TURN,
    check_in_turn,
    checks_in_turn
);

/// What checking the documents of one file carries from one to the next.
pub(super) struct DocumentRun<'a, 'f> {
    entry: &'a Entry,
    file_name: &'a str,
    form: Option<text::Form>,
    options: &'a Options,
    folder: &'a beside::Folder<'f>,
    /// The sidecar beside the file first (the most specific), then the config's, in order.
    sides: Vec<(String, Value)>,
    /// The path every result of the file, and every finding on them, shares.
    shared: PathText,
    /// The documents no adapter reads.
    unknown: Vec<Unread>,
    /// Where results are handed a batch at a time as they are finished ([`DocumentRun::handing`]).
    hand: Hand<'a>,
    /// Whether a document of many results puts them away as it reads them
    /// ([`DocumentRun::parking`]).
    parks: bool,
}

/// How many finished results a document of many hands over at once.
const HAND_BATCH: usize = 256;

/// A document no adapter reads: its index, its start and what it looks like.
type Unread = (usize, usize, String);

/// What one document made, checked apart from its file's outcome.
pub(super) struct Apart {
    out: FileOutcome,
    unknown: Vec<Unread>,
}

impl<'a, 'f> DocumentRun<'a, 'f> {
    pub(super) fn new(
        entry: &'a Entry,
        file_name: &'a str,
        form: Option<text::Form>,
        (options, folder): (&'a Options, &'a beside::Folder<'f>),
    ) -> Self {
        let sides: Vec<(String, Value)> = load_sidecar(entry.path(), &entry.root, folder)
            .into_iter()
            .chain(options.sidecars.for_path(entry.path()))
            .collect();
        DocumentRun {
            entry,
            file_name,
            form,
            options,
            folder,
            sides,
            shared: entry.display.clone(),
            unknown: Vec::new(),
            hand: None,
            parks: false,
        }
    }

    /// Puts the results of a document of many away as they are read
    /// ([`FileOutcome::park`]), for a command that puts every result away itself: an aggregate
    /// of twenty thousand rows held them all until its last. Only for a file's whole text,
    /// whose offsets are the file's (a chunk of lines moves its results' offsets once they
    /// are made, which a result put away would miss).
    pub(super) fn parking(mut self) -> Self {
        self.parks = true;
        self
    }

    /// Puts the results `out` holds away, where this run does ([`DocumentRun::parking`]).
    fn park(&self, out: &mut FileOutcome) {
        if self.parks {
            out.park(self.options, self.hand.is_some());
        }
    }

    /// Hands the results of the file's one document to `hand` a batch at a time as they are
    /// finished (`import`, `sidecar`), rather than all once the file is read: a document of
    /// twenty thousand rows held every row's canonical JSON until then. Only for a file of one
    /// document, read whole: nothing of the file comes before its results.
    pub(super) fn handing(mut self, hand: Hand<'a>) -> Self {
        self.hand = hand;
        self
    }

    /// Hands over the results finished and not handed yet once they make a batch.
    fn hand_batch(&self, text: &str, out: &mut FileOutcome) {
        if let Some(hand) = self.hand
            && out.results.len().saturating_sub(out.handed) >= HAND_BATCH
        {
            out.hand_over(hand, (self.path(), (text, 0), false), self.options);
        }
    }

    /// The file, as reached from the command line.
    pub(super) fn path(&self) -> &'a str {
        self.entry.display.raw()
    }

    /// Recognises the document `doc` of `text`, one of the `doc_count` documents of the file
    /// (the count so far, once past one, when the file is read a chunk at a time: an adapter
    /// asks only whether a document is alone), and checks what it holds. `text` starts at byte
    /// `base` of the file (a chunk of its lines): what the check makes is moved to the file's
    /// offsets ([`Before::move_since`]). Checking a file's documents one after another so is the
    /// tests' reference for checking them apart ([`DocumentRun::check_apart`]).
    #[cfg(test)]
    pub(super) fn check(
        &mut self,
        doc: &mut Document,
        (text, base): (&str, usize),
        doc_count: usize,
        out: &mut FileOutcome,
    ) {
        // Findings are kept within the file's bound as they are made, not after.
        out.cap(self.options);
        let mut unknown = std::mem::take(&mut self.unknown);
        self.check_moved(doc, (text, base), doc_count, out, &mut unknown);
        self.unknown = unknown;
    }

    /// Checks the document `doc` of `text` (at byte `base` of the file) as [`DocumentRun::check`]
    /// does, into an outcome of its own, so that the documents of a chunk of lines are checked
    /// on several workers at once; [`DocumentRun::absorb`] then adds each outcome to the file's,
    /// in the documents' order. `past_cap`: every finding it makes lies past the file's cap and
    /// is counted unmade ([`FileOutcome::past_cap`]).
    pub(super) fn check_apart(
        &self,
        doc: &mut Document,
        (text, base): (&str, usize),
        doc_count: usize,
        past_cap: bool,
    ) -> Apart {
        let mut apart = Apart {
            out: FileOutcome {
                past_cap,
                light: super::outcome::Light::on(self.shared.clone(), base),
                ..FileOutcome::default()
            },
            unknown: Vec::new(),
        };
        self.check_moved(
            doc,
            (text, base),
            doc_count,
            &mut apart.out,
            &mut apart.unknown,
        );
        apart
    }

    /// Adds what [`DocumentRun::check_apart`] made of a document to the file's outcome `out`, as
    /// if the document had been checked there.
    pub(super) fn absorb(&mut self, apart: Apart, out: &mut FileOutcome) {
        out.absorb(apart.out);
        self.unknown.extend(apart.unknown);
    }

    /// [`DocumentRun::check`] after the cap: what the check adds to `out` and `unknown` moved to
    /// the file's offsets.
    fn check_moved(
        &self,
        doc: &mut Document,
        (text, base): (&str, usize),
        doc_count: usize,
        out: &mut FileOutcome,
        unknown: &mut Vec<Unread>,
    ) {
        let before = Before::mark(out);
        let from = unknown.len();
        self.check_in(doc, text, doc_count, out, unknown);
        before.move_since(out, &self.shared, base);
        for u in &mut unknown[from..] {
            u.1 += base;
        }
    }

    /// [`DocumentRun::check`], in the offsets of `text`.
    fn check_in(
        &self,
        doc: &mut Document,
        text: &str,
        doc_count: usize,
        out: &mut FileOutcome,
        unknown: &mut Vec<Unread>,
    ) {
        let (entry, file_name, folder) = (self.entry, self.file_name, self.folder);
        let path = entry.display.raw();
        let sides = &self.sides;
        let shared = &self.shared;
        let options = self.options;
        run_document_rules(
            path,
            doc,
            &options.selection,
            &mut out.findings,
            &mut out.internal,
        );
        let doc_start = doc.start;
        let origin = |format: &'static str| Origin {
            path: shared.clone(),
            doc_start,
            format,
        };
        let declared = doc.value.get("schema").and_then(Value::as_str);
        if declared != Some(RESULT_SCHEMA) {
            // Only a canonical result's levels are read into the typed model.
            parse::whole_levels(doc, text);
        }
        let declared = doc.value.get("schema").and_then(Value::as_str);
        match declared {
            Some(RESULT_SCHEMA) => {
                // `[]` stands for each sample array read into numbers, checked as numbers;
                // levels read into the typed model were checked as they were read.
                let errors = parse::document_schema_errors(doc, text);
                if errors.is_empty() {
                    // Sidecars never merge `levels` (`sidecar::NOT_MERGED`); should one hold
                    // levels that are merged, it meets the levels and sample arrays as written.
                    if sides.iter().any(|(_, s)| s.get("levels").is_some()) {
                        parse::whole_levels(doc, text);
                        crate::json::restore_samples(&mut doc.value, &doc.samples, text);
                        doc.samples.clear();
                    }
                    let value = std::mem::take(&mut doc.value);
                    let samples = std::mem::take(&mut doc.samples);
                    let levels = doc.levels.take().map(|t| t.levels);
                    finish_result(
                        entry,
                        origin("canonical"),
                        (value, samples, levels),
                        ProvenanceMap::default(),
                        (sides, folder),
                        self.options,
                        out,
                    );
                } else {
                    out.findings
                        .extend(errors.iter().map(|e| schema_finding(path, doc.start, e)));
                }
            }
            Some(CLAIMS_SCHEMA) => {
                match claims::read(path, doc, text, origin("claims"), options.drop_claims) {
                    claims::ClaimsRead::Read(loaded, found) => {
                        out.findings.extend(found);
                        out.claims.push(loaded);
                    }
                    claims::ClaimsRead::Invalid(errors) => out
                        .findings
                        .extend(errors.iter().map(|e| schema_finding(path, doc.start, e))),
                    claims::ClaimsRead::Internal(message) => out.internal.push(internal_error(
                        "reading a claims document",
                        &format!("`{path}`"),
                        &message,
                    )),
                }
            }
            // `benchlint import` writes one beside each result: not a result, not unknown.
            Some("benchlint/provenance/v1") => {}
            Some(other) if other.starts_with("benchlint/") => {
                let mut f = finding_at(
                    &rules::e003_schema_violation::RULE,
                    Location {
                        path: path.into(),
                        doc_start: doc.start,
                        pointer: "/schema".into(),
                        offset: None,
                    },
                    format!(
                        "unknown schema \"{other}\"; this version reads \"{RESULT_SCHEMA}\" and \"{CLAIMS_SCHEMA}\""
                    ),
                    Some("use a schema this version knows, or upgrade benchlint".into()),
                );
                f.label = Some("unknown schema".into());
                out.findings.push(f);
            }
            _ => {
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
        match items::recognise(text, doc, source)? {
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

    /// The one finding of the file for its documents no adapter reads, once all are checked.
    pub(super) fn finish(self, doc_count: usize, out: &mut FileOutcome) {
        let path = self.entry.display.raw();
        let unknown = self.unknown;
        let (form, entry) = (self.form, self.entry);
        // One finding for the file, however many of its documents no adapter reads; a walked
        // YAML file that is not a result is skipped silently, as any other file of the folder.
        let walked_yaml = form == Some(text::Form::Yaml) && !entry.named;
        if walked_yaml {
            out.skipped |= !unknown.is_empty();
        } else if let Some(f) = text::unknown_documents(path, form, &unknown, doc_count) {
            out.unknown.push(f);
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
