//! A JSON Lines file read, checked and dropped a chunk of lines at a time: the file's text stays
//! in memory (findings are placed in it), its parsed documents never all at once, so a file of
//! half a million lines costs what its results keep, not what its documents weigh.
//!
//! The findings are those of the whole-file read, and so is the order in which they are made,
//! which the per-file cap keeps the first of: what the parser finds of every line (broken
//! lines, non-standard tokens, repeated keys, wide integers, cut arrays, each kind in line
//! order), then the levels cut at the bound, then each document's own. Each kind is gathered
//! across the chunks, held within the cap (what lies past it in its own kind lies past it in
//! the whole), and laid end to end once the last line is read; a file that turns out not to be
//! JSON at all (no object or array, several broken lines) is one finding, as before.

use crate::diagnostic::{Finding, Location, Omitted};
use crate::json::{Document, ParsedText};
use crate::rules;

use super::{
    DocumentRun, Entry, FileOutcome, Hand, Options, beside, bound_levels, bounds, finding_at,
    keep_within, parse, select_from, text,
};

/// Parsed documents a chunk: large enough that a chunk's bookkeeping is nothing beside its
/// lines, small enough that a chunk of large documents stays a few megabytes.
const LINES: usize = 256;

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
    /// Adds what the parser found in `chunk` (and the levels of its results cut at the bound).
    fn add(&mut self, path: &str, text: &str, chunk: &mut ParsedText, options: &Options) {
        self.documents += chunk.documents.len();
        self.structured |= chunk
            .documents
            .iter()
            .any(|d| d.value.is_object() || d.value.is_array());
        self.failures += chunk.failures.len();
        self.failures_omitted += chunk.failures_omitted;
        if self.first_failure.is_none()
            && let Some(f) = chunk.failures.first()
        {
            self.first_failure = Some((f.offset, f.message.clone()));
        }
        let mut parsed = FileOutcome::default();
        parse::report_parse_problems(path, text, chunk, &mut parsed);
        let nonstandard = parsed.findings.split_off(chunk.failures.len());
        let mut new: [Vec<Finding>; 6] = [
            parsed.findings,
            nonstandard,
            Vec::new(),
            Vec::new(),
            Vec::new(),
            Vec::new(),
        ];
        bounds::report_duplicates(path, chunk, &mut new[2]);
        bounds::report_wide(path, chunk, &mut new[3]);
        bounds::report_truncated(path, chunk, &mut new[4]);
        for doc in &mut chunk.documents {
            new[5].extend(bound_levels(path, doc, options));
        }
        for (kind, new) in self.kinds.iter_mut().zip(new) {
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

/// Reads the JSON Lines file `entry` (its text `text`) a chunk of lines at a time, checking
/// each document once the file is known to be JSON and whether it holds one document or more.
pub(super) fn check_lines(
    (entry, text): (&Entry, &str),
    file_name: &str,
    (options, folder, hand): (&Options, &beside::Folder<'_>, Hand<'_>),
    out: &mut FileOutcome,
) {
    let path = entry.display.raw();
    // Made before the file's first line (a byte order mark): first in the whole-file order.
    let before = std::mem::take(&mut out.findings);
    out.selected.0 = 0;
    let limits = options.thresholds.json_limits();
    let mut found = Found::default();
    let mut run = DocumentRun::new((entry, text), file_name, None, (options, folder));
    let mut waiting: Vec<Document> = Vec::new();
    // Where the findings of the last document checked begin: no cap has cut them yet.
    let mut last = 0;
    let mut check = |doc: &mut Document, count: usize, out: &mut FileOutcome| {
        out.cap(options);
        last = out.findings.len();
        run.check(doc, count, out);
    };
    for mut chunk in parse::line_chunks(text, &limits, options, LINES) {
        found.add(path, text, &mut chunk, options);
        waiting.append(&mut chunk.documents);
        if found.structured && found.documents > 1 {
            for mut doc in waiting.drain(..) {
                check(&mut doc, found.documents, out);
            }
            // Written out (`import`) as the lines are checked: the file's results are never
            // all held with their canonical JSON.
            if let Some(hand) = hand {
                out.hand_over(hand, (path, text, false), options);
            }
        }
    }
    if !found.structured && found.failures > 1 {
        // Not JSON at all: one finding for the file, as the whole-file read makes it.
        let (offset, message) = found.first_failure.unwrap_or_default();
        let mut findings = before;
        findings.push(text::not_json(path, text, offset, Some(&message)));
        out.findings = findings;
        return;
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
    for mut doc in waiting {
        check(&mut doc, found.documents, out);
    }
    // The whole-file order: the parser's findings, the levels cut, then each document's, the
    // last document's left for the file's last cap as the whole-file read leaves them.
    let mut tail = out.findings.split_off(last.min(out.findings.len()));
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
    run.finish(found.documents, out);
}
