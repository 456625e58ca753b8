//! One document of a file recognised (canonical result, claims, a harness's format) and
//! checked, with what a file's documents share carried from one to the next ([`DocumentRun`]):
//! a file's documents are checked in order, all at once or, for JSON Lines, a chunk of lines at
//! a time.

use serde_json::Value;

use crate::diagnostic::Location;
use crate::json::Document;
use crate::model::{CLAIMS_SCHEMA, ProvenanceMap, RESULT_SCHEMA};
use crate::rules;
use crate::text::PathText;

use super::shift::Before;
use super::{
    Entry, FileOutcome, Hand, Options, Origin, beside, claims, finding_at, finish_result,
    internal_error, items, load_sidecar, parse, run_document_rules, schema_finding, text,
};

mod harness;

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
        let (entry, folder) = (self.entry, self.folder);
        let path = entry.display.raw();
        let sides = &self.sides;
        let shared = &self.shared;
        let options = self.options;
        // An array read an item at a time has its rules run on each item as it is read.
        if !items::is_apart(doc) {
            run_document_rules(path, doc, &options.selection, out);
        }
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
            _ => self.read_harness(doc, text, doc_count, out, unknown),
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
