//! Reading a JSON text: the documents it holds, and one finding for each thing the parser met
//! (a broken document, a non-standard token, a bound) or one for the whole file when it is
//! not JSON at all.

use std::collections::BTreeSet;
use std::path::Path;

use super::discover::Entry;
use super::translate::finding_at;
use super::{FileOutcome, Options, bounds, text};
use crate::diagnostic::Location;
use crate::json::{
    Apart, Document, ParsedText, SampleArray, parse_text_apart, parse_text_lean, parse_text_typed,
    parse_text_with, restore_levels,
};
use crate::model::{CLAIMS_SCHEMA, RESULT_SCHEMA, ResultDoc};
use crate::rules;
use crate::schema::{self, SchemaError};
use serde_json::Value;

/// Parses a JSON text and reports what the parser met; `None` when nothing is left to read.
pub(super) fn parse_json(
    entry: &Entry,
    file_name: &str,
    text: &str,
    options: &Options,
    out: &mut FileOutcome,
) -> Option<Vec<Document>> {
    let path = entry.display.raw();
    let parsed = parse_json_text(file_name, text, options);
    let structured = parsed
        .documents
        .iter()
        .any(|d| d.value.is_object() || d.value.is_array());
    if !structured && parsed.failures.len() > 1 {
        // No object or array parsed and the parser stopped in several places: not JSON at
        // all (a log whose lines open with `[`, read as broken arrays and lone numbers), one
        // finding for the file.
        let first = &parsed.failures[0];
        out.findings.push(text::not_json(
            path,
            text,
            first.offset,
            Some(&first.message),
        ));
        return None;
    }
    report_parse_problems(path, text.trim_end().len(), &parsed, out);
    count_omitted_failures(path, parsed.failures_omitted, options, out);
    out.cap(options);
    bounds::report_scan(path, &parsed, &mut out.findings);
    if parsed.documents.is_empty() && parsed.failures.is_empty() {
        let mut loc = Location::new(path, "");
        loc.offset = Some(0);
        out.findings.push(finding_at(
            &rules::e002_invalid_json::RULE,
            loc,
            "the file holds no JSON document (it is empty or blank)",
            Some("remove the file, or write the result into it".into()),
        ));
        return None;
    }
    Some(parsed.documents)
}

/// Parses the JSON text of the file named `file_name` as `check` does (a `.jsonl` or `.ndjson`
/// file line by line): the per-request samples of canonical results go
/// straight into numbers, and their levels into the typed model, when only the typed result is
/// kept afterwards (`Options::lean`); a caller that keeps the canonical JSON gets it whole, or
/// with the sample arrays left in the text (`Options::samples_apart`).
pub fn parse_json_text(file_name: &str, text: &str, options: &Options) -> ParsedText {
    let by_line = by_line(file_name);
    let limits = options.thresholds.json_limits();
    let claims = claims_apart(options);
    let items = items_apart(file_name, options);
    if claims.is_some() || items {
        parse_text_apart(
            text,
            by_line,
            &limits,
            (RESULT_SCHEMA, options.lean),
            (claims, items),
        )
    } else if options.lean {
        parse_text_lean(text, by_line, &limits, RESULT_SCHEMA)
    } else if options.samples_apart {
        parse_text_typed(text, by_line, &limits, RESULT_SCHEMA)
    } else {
        parse_text_with(text, by_line, &limits)
    }
}

/// Broken documents past the parser's bound were counted, not kept: each is an E002 past the
/// file's cap, counted at the severity the selection gives E002 (when it runs on `path`).
pub(super) fn count_omitted_failures(
    path: &str,
    omitted: usize,
    options: &Options,
    out: &mut FileOutcome,
) {
    if omitted > 0 && options.selection.runs_on(path, "E002") {
        let severity = options
            .selection
            .severity_of("E002")
            .unwrap_or(rules::e002_invalid_json::RULE.severity);
        out.omitted.count_n(severity, omitted);
    }
}

/// Whether `selection` runs any per-document rule (M018's search of every string), each of
/// which reads the whole document's value.
pub(super) fn document_rules_run(selection: &crate::config::Selection) -> bool {
    crate::rules::RULES.iter().any(|rule| {
        matches!(rule.check, crate::rules::Check::Document(_)) && selection.runs(rule.meta.code)
    })
}

/// Whether the file named `file_name` is read line by line (`.jsonl`, `.ndjson`).
pub(super) fn by_line(file_name: &str) -> bool {
    let lower = file_name.to_ascii_lowercase();
    Path::new(&lower)
        .extension()
        .is_some_and(|e| e == "jsonl" || e == "ndjson")
}

/// The JSON Lines text of `source` (`len` bytes) read `size` documents at a time, as
/// [`parse_json_text`] reads it whole.
pub(super) fn line_chunks<'a, S: crate::json::LineSource>(
    (source, len): (S, usize),
    limits: &'a crate::json::Limits,
    options: &Options,
    size: usize,
) -> crate::json::LineChunks<'a, S> {
    let capture = (options.lean || options.samples_apart).then_some((RESULT_SCHEMA, options.lean));
    crate::json::parse_line_chunks(source, len, limits, capture, size)
        .reading_apart(claims_apart(options))
}

/// A claims document's `claims` read a claim at a time ([`super::claims::read_apart`]) rather
/// than parsed whole: a claims file of a claim per result would otherwise be a tree about ten
/// times its text. Only where the results are read typed (lean or with their samples apart),
/// and only when no per-document rule (M018's search of every string) is to read the whole
/// document's value.
fn claims_apart(options: &Options) -> Option<Apart> {
    #[cfg(test)]
    if super::claims::reads_whole() {
        return None;
    }
    may_read_apart(options).then_some(Apart {
        schema: CLAIMS_SCHEMA,
        key: "claims",
    })
}

/// Whether an array of a document may be read an item at a time under `options`: only where
/// the results are read typed (lean or with their samples apart), and only when no per-document
/// rule (M018's search of every string) is to read the whole document's value.
fn may_read_apart(options: &Options) -> bool {
    reads_typed(options) && !document_rules_run(&options.selection)
}

/// Whether the results are read typed (lean, or with their samples apart): no caller keeps a
/// document's whole canonical JSON.
fn reads_typed(options: &Options) -> bool {
    options.lean || options.samples_apart
}

/// Whether a document of the file named `file_name` that is an array (a sweep's aggregate of a
/// row per run, a list of runs, a list of per-request records) is read an item at a time
/// ([`super::items`]) rather than parsed whole: twenty thousand rows of an InferenceX aggregate
/// made a tree of twelve times the file's text. Where the results are read typed (lean or with
/// their samples apart), as for a claims file's claims ([`claims_apart`]), but whatever the
/// document rules: M018 reads each item where it lies. Never for a file read line by line or a
/// sidecar, whose documents are read whole.
fn items_apart(file_name: &str, options: &Options) -> bool {
    #[cfg(test)]
    if super::items::reads_whole() {
        return false;
    }
    reads_typed(options) && !by_line(file_name) && !super::sidecar::is_sidecar_name(file_name)
}

/// The result schema's errors for the canonical document `value` whose per-request sample
/// arrays `samples` were read straight into numbers (`[]` in `value`): the validator's on the
/// rest, and the schema's minimum checked on the numbers, in the validator's order and words.
pub(super) fn result_schema_errors(value: &Value, samples: &[SampleArray]) -> Vec<SchemaError> {
    with_sample_errors(
        schema::validate(schema::Kind::Result, value),
        value,
        samples,
    )
}

/// The result schema's errors for the canonical document `doc` of the file `text`, as
/// [`result_schema_errors`] gives them for the document read whole. Levels read into the
/// typed model were checked against the schema as they were read: the rest of the document is
/// asked of the validator, and should it find anything, the levels are put back into the
/// document and the whole of it asked again, so every error is the validator's, in its order.
pub(super) fn document_schema_errors(doc: &mut Document, text: &str) -> Vec<SchemaError> {
    if doc.levels.is_some() {
        if schema::result_valid_outside_levels(&doc.value) {
            return with_sample_errors(Vec::new(), &doc.value, &doc.samples);
        }
        whole_levels(doc, text);
    }
    result_schema_errors(&doc.value, &doc.samples)
}

/// Puts the levels of `doc` read into the typed model back into its `value`, as written.
pub(super) fn whole_levels(doc: &mut Document, text: &str) {
    if let Some(typed) = doc.levels.take() {
        restore_levels(&mut doc.value, &typed, &doc.samples, text);
    }
}

/// `errors` (the validator's on `value`), with those of the sample arrays `samples` read into
/// numbers, checked as numbers.
fn with_sample_errors(
    mut errors: Vec<SchemaError>,
    value: &Value,
    samples: &[SampleArray],
) -> Vec<SchemaError> {
    // Levels past the bound were dropped before validation: their samples are not checked.
    let levels = value
        .get("levels")
        .and_then(Value::as_array)
        .map_or(0, Vec::len);
    let before = errors.len();
    for s in samples.iter().filter(|s| s.level < levels) {
        // Nearly every array has no negative number: one tight pass says so, and only an
        // array that has one is walked again for the errors.
        if s.values.iter().all(|v| *v >= 0.0) {
            continue;
        }
        for (j, v) in s.values.iter().enumerate() {
            let at = || format!("/levels/{}/samples/{}/{j}", s.level, s.metric);
            errors.extend(schema::sample_error(s.metric, at, *v));
        }
    }
    if errors.len() > before {
        schema::sort_errors(&mut errors);
    }
    errors
}

/// Puts the sample arrays read straight into numbers into the typed result, where the
/// canonical JSON holds `[]` for each (levels cut at the bound have none).
pub(super) fn fill_samples(doc: &mut ResultDoc, samples: Vec<SampleArray>) {
    for s in samples {
        let Some(level) = doc.levels.get_mut(s.level) else {
            continue;
        };
        let into = level.samples.get_or_insert_with(Default::default);
        let slot = match s.metric {
            "ttft_s" => &mut into.ttft_s,
            "tpot_ms" => &mut into.tpot_ms,
            "per_user_tok_s" => &mut into.per_user_tok_s,
            _ => &mut into.output_tokens,
        };
        *slot = Some(s.values);
    }
}

pub(super) fn report_parse_problems(
    path: &str,
    end: usize,
    parsed: &crate::json::ParsedText,
    out: &mut FileOutcome,
) {
    for f in &parsed.failures {
        let mut loc = Location::new(path, "");
        loc.offset = Some(f.offset);
        let truncated = f.offset >= end || f.message.contains("EOF");
        let mut finding = finding_at(
            &rules::e002_invalid_json::RULE,
            loc,
            format!(
                "{}{}",
                f.message,
                if truncated {
                    " (the document is truncated)"
                } else {
                    ""
                }
            ),
            Some("fix the JSON, or re-export the result from the harness".into()),
        );
        finding.label = Some("parsing stopped here".into());
        out.findings.push(finding);
    }
    // One finding per document, at its first non-standard token.
    let mut seen = BTreeSet::new();
    for (i, n) in parsed.nonstandard.iter().enumerate() {
        let doc_start = parsed
            .documents
            .iter()
            .rev()
            .find(|d| d.start <= n.offset)
            .map_or(0, |d| d.start);
        if !seen.insert(doc_start) {
            continue;
        }
        let more = parsed.nonstandard[i + 1..]
            .iter()
            .take_while(|m| {
                parsed
                    .documents
                    .iter()
                    .rev()
                    .find(|d| d.start <= m.offset)
                    .map_or(0, |d| d.start)
                    == doc_start
            })
            .count();
        let mut loc = Location::new(path, "");
        loc.offset = Some(n.offset);
        let mut finding = finding_at(
            &rules::e005_nonstandard_json::RULE,
            loc,
            format!(
                "bare `{}` is not JSON; read as the string \"{}\"{}",
                n.token,
                n.token,
                if more > 0 {
                    format!(" ({more} more in this document)")
                } else {
                    String::new()
                }
            ),
            Some(
                "write null for a value that was not measured, or a string such as \"inf\"".into(),
            ),
        );
        finding.label = Some("not JSON".into());
        out.findings.push(finding);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::{Limits, parse_text_typed, restore_samples};

    /// The errors of the typed check and of the validator on the whole document agree.
    #[test]
    fn samples_checked_as_numbers_give_the_validators_errors() {
        let text = r#"{"schema": "benchlint/result/v1", "id": "x", "outcome": "ok",
            "measured_at": "yesterday",
            "levels": [
              {"concurrency": 1, "samples": {"ttft_s": [0.5, -1, 2, -0.25, 0, 1, 2, 3, 4, 5, -7],
                                             "tpot_ms": [-3], "extra": [1]}},
              {"concurrency": 2, "samples": {"output_tokens": [1, -2], "per_user_tok_s": [1, "x"]}},
              {"concurrency": 3, "samples": {"tpot_ms": [-1]}}
            ]}"#;
        let mut parsed = parse_text_typed(text, false, &Limits::default(), RESULT_SCHEMA);
        let doc = parsed.documents.remove(0);
        assert_eq!(doc.samples.len(), 4, "{:?}", doc.samples);
        let mut whole = doc.value.clone();
        restore_samples(&mut whole, &doc.samples, text);
        let typed = result_schema_errors(&doc.value, &doc.samples);
        assert_eq!(typed, schema::validate(schema::Kind::Result, &whole));
        assert!(
            typed
                .iter()
                .any(|e| e.pointer == "/levels/0/samples/ttft_s/10")
        );
        // Levels cut at the bound: their samples are not checked, as the validator does not
        // see them.
        let mut two = doc.value.clone();
        two["levels"].as_array_mut().unwrap().truncate(2);
        whole["levels"].as_array_mut().unwrap().truncate(2);
        assert_eq!(
            result_schema_errors(&two, &doc.samples),
            schema::validate(schema::Kind::Result, &whole)
        );
    }
}
