//! A JSON Lines file read, checked and dropped a chunk of lines at a time: neither its parsed
//! documents nor, read from the file ([`crate::io::LineFile`]), its text are ever all in memory,
//! so a file of half a million lines costs what its results keep, not what its documents or
//! its text weigh. Each chunk is checked as a text of its own and what it makes is moved to the
//! file's offsets as it leaves (`shift`); findings are placed once the file is read.
//!
//! The findings are those of the whole-file read, and so is the order in which they are made,
//! which the per-file cap keeps the first of: what the parser finds of every line (broken
//! lines, non-standard tokens, repeated keys, wide integers, cut arrays, each kind in line
//! order), then the levels cut at the bound, then each document's own. Each kind is gathered
//! across the chunks, held within the cap (what lies past it in its own kind lies past it in
//! the whole), and laid end to end once the last line is read; a file that turns out not to be
//! JSON at all (no object or array, several broken lines) is one finding, as before.

use std::sync::Arc;

use rayon::prelude::*;

use crate::diagnostic::{Finding, Location, Omitted};
use crate::io::ReadError;
use crate::json::{Document, LineChunk, LineSource};
use crate::rules;
use crate::text::PathText;

use super::recognise::{Apart, DocumentRun};
use super::shift::move_findings;
use super::{
    Entry, FileOutcome, Hand, Options, beside, bound_levels, bounds, finding_at, keep_within,
    parse, select_from,
};

/// Parsed documents a chunk: large enough that a chunk's bookkeeping is nothing beside its
/// lines, small enough that a chunk of large documents stays a few megabytes.
const LINES: usize = 256;

/// The finding of a file that turned out not to be JSON at all, from where its first broken
/// line broke and the parser's words there.
pub(super) type NotJson<'n> = &'n dyn Fn(usize, &str) -> Result<Finding, ReadError>;

/// The lines of a chunk, kept while a document read from them waits to be checked.
struct Piece {
    text: String,
    base: usize,
}

/// What the parser found, by kind, across the chunks read so far, each held within the cap.
#[derive(Default)]
struct Found {
    /// Broken lines, non-standard tokens, repeated keys, wide integers, cut arrays, levels cut
    /// at the bound: the order the whole-file read makes them in.
    kinds: [Vec<Finding>; 6],
    /// What the cap left out of them: counted only once the file is known to be JSON.
    omitted: Omitted,
    /// Documents that parsed; whether one is an object or an array.
    documents: usize,
    structured: bool,
    /// Broken lines described, broken lines past that bound, and where the first broke.
    failures: usize,
    failures_omitted: usize,
    first_failure: Option<(usize, String)>,
}

impl Found {
    /// Adds what the parser found in `chunk` (and the levels of its results cut at the bound),
    /// moved to the file's offsets.
    fn add(&mut self, path: &PathText, chunk: &mut LineChunk, options: &Options) {
        let (base, parsed) = (chunk.base, &mut chunk.parsed);
        let raw = path.raw();
        self.documents += parsed.documents.len();
        self.structured |= parsed
            .documents
            .iter()
            .any(|d| d.value.is_object() || d.value.is_array());
        self.failures += parsed.failures.len();
        self.failures_omitted += parsed.failures_omitted;
        if self.first_failure.is_none()
            && let Some(f) = parsed.failures.first()
        {
            self.first_failure = Some((f.offset + base, f.message.clone()));
        }
        // A failure at the end of the file is a truncated document: the file ends where its
        // last chunk does.
        let end = if chunk.last {
            chunk.text.trim_end().len()
        } else {
            usize::MAX
        };
        let mut made = FileOutcome::default();
        parse::report_parse_problems(raw, end, parsed, &mut made);
        let nonstandard = made.findings.split_off(parsed.failures.len());
        let mut new: [Vec<Finding>; 6] = [
            made.findings,
            nonstandard,
            Vec::new(),
            Vec::new(),
            Vec::new(),
            Vec::new(),
        ];
        bounds::report_duplicates(raw, parsed, &mut new[2]);
        bounds::report_wide(raw, parsed, &mut new[3]);
        bounds::report_truncated(raw, parsed, &mut new[4]);
        for doc in &mut parsed.documents {
            new[5].extend(bound_levels(raw, doc, options));
        }
        for (kind, mut new) in self.kinds.iter_mut().zip(new) {
            move_findings(&mut new, path, base);
            let from = kind.len();
            kind.extend(new);
            select_from(kind, from, options);
            keep_within(
                kind,
                options.thresholds.max_findings_per_file,
                &mut self.omitted,
                &options.selection,
            );
        }
    }
}

/// The documents of a file checked in order, each with the lines it was read from, and the
/// results handed over a chunk of lines at a time.
struct Checker<'r, 'a, 'f> {
    run: DocumentRun<'a, 'f>,
    options: &'a Options,
    hand: Hand<'r>,
    /// Where the findings of the last document checked begin: no cap has cut them yet.
    last: usize,
}

impl Checker<'_, '_, '_> {
    /// Checks the documents of `waiting`, `count` being the file's documents so far, and hands
    /// their results over with the lines they were read from; the last of them is the file's
    /// last document when `file_ends`. The documents are checked on the workers at once, each
    /// into an outcome of its own, and the outcomes added to the file's in the documents'
    /// order, capped as each is: what checking them one after another gives.
    fn check(
        &mut self,
        waiting: &mut Vec<(Document, Arc<Piece>)>,
        (count, file_ends): (usize, bool),
        out: &mut FileOutcome,
    ) {
        #[cfg(test)]
        if super::recognise::checks_in_turn() {
            self.check_in_turn(waiting, (count, file_ends), out);
            return;
        }
        let path = self.run.path();
        let last = waiting.len().checked_sub(1).filter(|_| file_ends);
        // Once the findings kept fill the file's cap, every finding a document makes lies past
        // it: counted unmade, but for the file's last document's (see `FileOutcome::past_cap`).
        out.cap(self.options);
        let full = out.selected.0 >= self.options.thresholds.max_findings_per_file
            && !super::cap::makes_every_finding();
        let run = &self.run;
        let apart: Vec<Apart> = waiting
            .par_iter_mut()
            .enumerate()
            .map(|(i, (doc, piece))| {
                run.check_apart(
                    doc,
                    (&piece.text, piece.base),
                    count,
                    full && Some(i) != last,
                )
            })
            .collect();
        let mut lines: Option<Arc<Piece>> = None;
        for ((_, piece), apart) in waiting.drain(..).zip(apart) {
            if let Some(done) = lines.take_if(|l| !Arc::ptr_eq(l, &piece)) {
                self.hand_over(path, &done, out);
            }
            out.cap(self.options);
            self.last = out.findings.len();
            self.run.absorb(apart, out);
            lines = Some(piece);
        }
        if let Some(done) = lines {
            self.hand_over(path, &done, out);
        }
        out.park(self.options, self.hand.is_some());
    }

    /// [`Checker::check`] one document after another on this thread, each into the file's
    /// outcome: what checking them apart must give (tests).
    #[cfg(test)]
    fn check_in_turn(
        &mut self,
        waiting: &mut Vec<(Document, Arc<Piece>)>,
        (count, file_ends): (usize, bool),
        out: &mut FileOutcome,
    ) {
        let path = self.run.path();
        let cap = self.options.thresholds.max_findings_per_file;
        let mut lines: Option<Arc<Piece>> = None;
        let last = waiting.len().checked_sub(1).filter(|_| file_ends);
        for (i, (mut doc, piece)) in waiting.drain(..).enumerate() {
            if let Some(done) = lines.take_if(|l| !Arc::ptr_eq(l, &piece)) {
                self.hand_over(path, &done, out);
            }
            out.cap(self.options);
            self.last = out.findings.len();
            out.past_cap =
                Some(i) != last && out.selected.0 >= cap && !super::cap::makes_every_finding();
            self.run
                .check(&mut doc, (&piece.text, piece.base), count, out);
            out.past_cap = false;
            lines = Some(piece);
        }
        if let Some(done) = lines {
            self.hand_over(path, &done, out);
        }
        out.park(self.options, self.hand.is_some());
    }

    /// Hands the results not handed yet over (`import`), read from `piece`'s lines, as the
    /// lines are checked: the file's results are never all held with their canonical JSON.
    fn hand_over(&self, path: &str, piece: &Piece, out: &mut FileOutcome) {
        if let Some(hand) = self.hand {
            out.hand_over(hand, (path, (&piece.text, piece.base), false), self.options);
        }
    }
}

/// Reads the JSON Lines file `entry` from `source` (its text, `len` bytes) a chunk of lines at a
/// time, checking each document once the file is known to be JSON and whether it holds one
/// document or more, and handing the results over (`hand`) as their lines are checked. A line
/// that can no longer be read is the error returned, what was made of the file being the
/// caller's to drop; `not_json` describes a file that turns out not to be JSON at all.
pub(super) fn check_lines<S: LineSource + Send>(
    (entry, source, len): (&Entry, S, usize),
    (file_name, not_json): (&str, NotJson<'_>),
    (options, folder, hand): (&Options, &beside::Folder<'_>, Hand<'_>),
    out: &mut FileOutcome,
) -> Result<(), ReadError> {
    let path = entry.display.raw();
    // Made before the file's first line (a byte order mark): first in the whole-file order.
    let before = std::mem::take(&mut out.findings);
    out.selected.0 = 0;
    let limits = options.thresholds.json_limits();
    let mut found = Found::default();
    let mut checker = Checker {
        run: DocumentRun::new(entry, file_name, None, (options, folder)),
        options,
        hand,
        last: 0,
    };
    let mut waiting: Vec<(Document, Arc<Piece>)> = Vec::new();
    let size = match options.lines_per_chunk {
        0 => LINES,
        n => n,
    };
    let mut chunks = parse::line_chunks((source, len), &limits, options, size);
    let mut next = chunks.next();
    while let Some(chunk) = next {
        let mut chunk = chunk.map_err(ReadError)?;
        found.add(&entry.display, &mut chunk, options);
        let piece = Arc::new(Piece {
            text: std::mem::take(&mut chunk.text),
            base: chunk.base,
        });
        let documents = std::mem::take(&mut chunk.parsed.documents);
        waiting.extend(documents.into_iter().map(|d| (d, Arc::clone(&piece))));
        next = if found.structured && found.documents > 1 {
            // The next chunk is read and parsed while this one's documents are checked.
            let so_far = (found.documents, chunk.last);
            rayon::join(
                || chunks.next(),
                || checker.check(&mut waiting, so_far, out),
            )
            .0
        } else {
            chunks.next()
        };
    }
    if !found.structured && found.failures > 1 {
        // Not JSON at all: one finding for the file, as the whole-file read makes it.
        let (offset, message) = found.first_failure.unwrap_or_default();
        let mut findings = before;
        findings.push(not_json(offset, &message)?);
        out.findings = findings;
        return Ok(());
    }
    out.omitted.add(found.omitted);
    parse::count_omitted_failures(path, found.failures_omitted, options, out);
    let mut empty = Vec::new();
    if found.documents == 0 && found.failures == 0 {
        let mut loc = Location::new(path, "");
        loc.offset = Some(0);
        empty.push(finding_at(
            &rules::e002_invalid_json::RULE,
            loc,
            "the file holds no JSON document (it is empty or blank)",
            Some("remove the file, or write the result into it".into()),
        ));
    }
    checker.check(&mut waiting, (found.documents, true), out);
    // The whole-file order: the parser's findings, the levels cut, then each document's, the
    // last document's left for the file's last cap as the whole-file read leaves them.
    let mut tail = out.findings.split_off(checker.last.min(out.findings.len()));
    let documents = std::mem::take(&mut out.findings);
    let [failures, nonstandard, repeated, wide, cut, levels] = found.kinds;
    let mut findings = before;
    for kind in [
        failures,
        nonstandard,
        repeated,
        wide,
        cut,
        empty,
        levels,
        documents,
    ] {
        findings.extend(kind);
    }
    select_from(&mut findings, 0, options);
    keep_within(
        &mut findings,
        options.thresholds.max_findings_per_file,
        &mut out.omitted,
        &options.selection,
    );
    out.selected.0 = findings.len();
    findings.append(&mut tail);
    out.findings = findings;
    checker.run.finish(found.documents, out);
    Ok(())
}
