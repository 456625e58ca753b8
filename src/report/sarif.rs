//! `--format sarif`: SARIF 2.1.0 for GitHub code scanning
//! (`github/codeql-action/upload-sarif`) and other SARIF viewers.
//!
//! One run; `tool.driver.rules` holds every rule that has a result, sorted by code, and each
//! result names its rule by `ruleId` and `ruleIndex`. Paths are relative to the project root
//! ([`super::Project`]: `--project-root`, else the git work tree of the first path, else the
//! current folder), with forward slashes and `uriBaseId: "%SRCROOT%"`, whatever folder
//! benchlint ran in; a file outside the root keeps an absolute `file://` URI, never `../`.
//! Columns count Unicode code points (`columnKind`). The JSON pointer is the result's logical
//! location. `partialFingerprints` holds a line-independent key ([`super::ci_keys`]: rule,
//! project path, document index and pointer, the missing field's for a field not recorded),
//! distinct for every result; GitHub's own `primaryLocationLineHash` is left to upload-sarif.
//!
//! A finding about the corpus as a whole (S008, S009) is placed on a file of the corpus, line
//! 1 (GitHub needs a file and a `startLine` for every result), with a logical location of kind
//! `module` named `corpus` and `properties.corpus` set to `true`.
//!
//! At most [`MAX_SARIF_RESULTS`] results (GitHub rejects a run with more): past it, errors are
//! kept first, then warnings, then notes, and a last result (rule `benchlint/cut`) says how
//! many of each were left out.

use std::collections::BTreeMap;
use std::fmt::Write;
use std::io;

use serde_json::{Value, json};

use super::ci_keys::{self, Cut, MAX_SARIF_RESULTS};
use super::json_out::{Array, Layout, Object, push_indented};
use super::plain::{opening_sentences, plain_text};
use super::rule_docs::category;
use super::{Position, Prepared};
use crate::diagnostic::Severity;
use crate::rules::RuleMeta;

/// SARIF's level for a severity.
pub fn level(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Info => "note",
    }
}

/// The 1-based column just past the labelled text (at least one character wide).
pub fn end_column(pos: Position) -> usize {
    pos.column + pos.chars.max(1)
}

/// A path relative to the project root as a relative URI reference (`relative`), or an
/// absolute path as a `file://` URI: secrets masked, every byte but letters, digits, `-._~`
/// and `/` percent-encoded. A colon is encoded too, so a file named
/// `javascript:alert(1).json` is the relative reference `javascript%3Aalert%281%29.json`,
/// never a URI with a scheme; a backslash, a tab or `::` in a name is encoded as it is, never
/// turned into a `/` that would name another file.
pub fn uri(path: &str, relative: bool) -> String {
    let masked = crate::text::masked(path);
    let mut out = String::with_capacity(masked.len() + 8);
    if !relative {
        out.push_str("file://");
    }
    for b in masked.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~/".contains(&b) {
            out.push(char::from(b));
        } else {
            let _ = write!(out, "%{b:02X}");
        }
    }
    out
}

/// The URI of finding `i`'s file and whether it is relative to `%SRCROOT%`.
fn file_uri(p: &Prepared, i: usize) -> (String, bool) {
    match ci_keys::project_path(p, i) {
        Ok(rel) => (uri(&rel, true), true),
        Err(abs) => (uri(&abs, false), false),
    }
}

/// The URI of a related file.
fn related_uri(p: &Prepared, shown: &str) -> (String, bool) {
    match p.project.relative(shown) {
        Some(rel) => (uri(&rel, true), true),
        None => (uri(&p.project.absolute(shown), false), false),
    }
}

/// The complete sentences opening a rule's documentation, as plain text, at most 1,024
/// characters (GitHub's limit).
fn full_description(meta: &RuleMeta) -> String {
    opening_sentences(&meta.doc_text(), meta.summary, 1024)
}

fn tags(meta: &RuleMeta) -> Vec<&'static str> {
    let mut tags = vec![category(meta.code), meta.scope.as_str()];
    tags.dedup();
    tags
}

fn rule_descriptor(meta: &RuleMeta) -> Value {
    let doc = meta.doc_text();
    let more = format!("`benchlint rule {}` prints this page.", meta.code);
    let markdown = format!("{}\n\n{more}\n", doc.trim_end());
    json!({
        "id": meta.code,
        "name": meta.name,
        "shortDescription": {"text": plain_text(meta.summary).trim_end()},
        "fullDescription": {"text": full_description(meta)},
        "help": {"text": plain_text(&markdown), "markdown": markdown},
        "defaultConfiguration": {"level": level(meta.severity)},
        "properties": {"tags": tags(meta)},
    })
}

/// A pointer as a logical location's name (`/` for the whole document), secrets masked.
fn pointer_name(pointer: &str) -> String {
    if pointer.is_empty() {
        "/".to_string()
    } else {
        crate::text::masked(pointer).into_owned()
    }
}

/// The id of the last result of a cut run, which says what was left out.
pub const CUT_RULE: &str = "benchlint/cut";

/// Renders the SARIF log.
pub fn render(p: &Prepared) -> Vec<u8> {
    let mut bytes = Vec::new();
    write(p, &mut bytes).expect("writing to memory cannot fail");
    bytes
}

/// What the SARIF log of `p` leaves out past [`MAX_SARIF_RESULTS`] (`None`: nothing).
pub fn cut(p: &Prepared) -> Option<Cut> {
    let (_, cut) = ci_keys::keep_worst(p, MAX_SARIF_RESULTS - 1);
    (cut.total() > 0).then_some(cut)
}

/// The descriptor of [`CUT_RULE`].
fn cut_descriptor() -> Value {
    let text = "GitHub code scanning rejects a SARIF run of more than 25,000 results, so benchlint writes at most 24,999 findings (errors first, then warnings, then notes) and this result, which says how many of each were left out. Every format but SARIF lists them all.";
    json!({
        "id": CUT_RULE,
        "name": "results-left-out",
        "shortDescription": {"text": "Findings left out of this SARIF run past GitHub's limit of 25,000 results."},
        "fullDescription": {"text": text},
        "help": {
            "text": format!("{text}\n\nRun `benchlint check --format json` for every finding.\n"),
            "markdown": format!("{text}\n\nRun `benchlint check --format json` for every finding.\n"),
        },
        "defaultConfiguration": {"level": "warning"},
        "properties": {"tags": ["benchlint"]},
    })
}

/// Writes the SARIF log to `out` a buffer at a time. The rules are a few JSON trees; each
/// result is written by hand as it is reached ([`super::json_out`]), so a run with many
/// findings never holds them as JSON, nor goes through serde for each.
pub fn write(p: &Prepared, out: &mut dyn io::Write) -> io::Result<()> {
    const FLUSH_AT: usize = 1 << 16;
    let (kept, cut) = ci_keys::keep_worst(p, MAX_SARIF_RESULTS - 1);
    let used: BTreeMap<&'static str, &'static RuleMeta> = kept
        .iter()
        .map(|&i| (p.findings[i].rule.code, p.findings[i].rule))
        .collect();
    let index: BTreeMap<&str, usize> = used.keys().enumerate().map(|(i, c)| (*c, i)).collect();
    let mut rules: Vec<Value> = used.values().map(|m| rule_descriptor(m)).collect();
    if cut.total() > 0 {
        rules.push(cut_descriptor());
    }
    let tool = json!({"driver": {
        "name": "benchlint",
        "version": env!("CARGO_PKG_VERSION"),
        "semanticVersion": env!("CARGO_PKG_VERSION"),
        "rules": rules,
    }});
    // Fingerprints over every finding, so that the cut does not renumber twins.
    let fingerprints = ci_keys::fingerprints(p);
    // The log, in the member order SARIF viewers show; one run.
    let mut buffer = Vec::with_capacity(FLUSH_AT + (FLUSH_AT >> 2));
    buffer.extend_from_slice(
        b"{\n  \"$schema\": \"https://json.schemastore.org/sarif-2.1.0.json\",\n  \"version\": \"2.1.0\",\n  \"runs\": [\n    {\n      \"tool\": ",
    );
    let mut tree = Vec::new();
    crate::text::json::to_writer_pretty(&mut tree, &tool)?;
    push_indented(&mut buffer, &tree, b"      ");
    buffer
        .extend_from_slice(b",\n      \"columnKind\": \"unicodeCodePoints\",\n      \"results\": ");
    // The results array sits three levels deep: the log, its `runs` array, the run.
    let mut results = Array::open(&mut buffer, Layout::Pretty, 3);
    for &i in &kept {
        result(results.object(), p, &index, &fingerprints, i);
        let written = results.buffer();
        if written.len() >= FLUSH_AT {
            out.write_all(written)?;
            written.clear();
        }
    }
    if cut.total() > 0 {
        cut_result(results.object(), p, &cut, used.len());
    }
    results.close();
    buffer.extend_from_slice(b"\n    }\n  ]\n}\n");
    out.write_all(&buffer)
}

/// The last result of a cut run: how many findings of each severity were left out, at the
/// worst severity left out, on the first file with a finding, line 1.
fn cut_result(mut o: Object, p: &Prepared, cut: &Cut, rule_index: usize) {
    o.str("ruleId", CUT_RULE);
    o.number("ruleIndex", Some(rule_index));
    o.str("level", level(cut.worst()));
    let mut message = o.object("message");
    message.str(
        "text",
        &format!(
            "{} findings were left out of this SARIF run ({}): GitHub code scanning accepts at most {MAX_SARIF_RESULTS} results per run. `benchlint check --format json` lists every finding.",
            cut.total(),
            cut.words()
        ),
    );
    message.close();
    let mut locations = o.array("locations");
    let mut location = locations.object();
    let (file, relative) = file_uri(p, 0);
    physical(&mut location, &file, relative, Some(line_one()));
    location.close();
    locations.close();
    let mut fingerprints = o.object("partialFingerprints");
    fingerprints.str("benchlint/v2", CUT_RULE);
    fingerprints.close();
    o.close();
}

/// Line 1, column 1: where a finding about the corpus as a whole is shown in its file.
fn line_one() -> Position {
    Position {
        line: 1,
        column: 1,
        start: 0,
        len: 0,
        chars: 1,
    }
}

/// Writes into `o`, and closes, the SARIF result of finding `i`, in the member order SARIF
/// viewers show.
fn result(
    mut o: Object,
    p: &Prepared,
    index: &BTreeMap<&str, usize>,
    fingerprints: &[String],
    i: usize,
) {
    let f = &p.findings[i];
    let (primary_uri, relative) = file_uri(p, i);
    let pointer = pointer_name(f.key_pointer());
    o.str("ruleId", f.rule.code);
    o.number("ruleIndex", Some(index[f.rule.code]));
    o.str("level", level(f.severity));
    let mut message = o.object("message");
    message.text("text", &f.message);
    message.close();
    let mut locations = o.array("locations");
    let mut location = locations.object();
    let logical = if f.corpus {
        // On a file of the corpus, line 1, and named as the corpus.
        physical(&mut location, &primary_uri, relative, Some(line_one()));
        let mut logical = location.array("logicalLocations");
        let mut named = logical.object();
        named.str("name", "corpus");
        named.str("fullyQualifiedName", &f.primary.path.masked());
        named.str("kind", "module");
        named.close();
        logical
    } else {
        // GitHub needs a line: a file that could not be read again is shown at line 1.
        physical(
            &mut location,
            &primary_uri,
            relative,
            Some(p.positions[i].unwrap_or_else(line_one)),
        );
        let mut logical = location.array("logicalLocations");
        let mut member = logical.object();
        member.str("fullyQualifiedName", &pointer);
        member.str("kind", "member");
        member.close();
        logical
    };
    logical.close();
    if f.primary.doc_start > 0 {
        let mut properties = location.object("properties");
        properties.number("documentOffset", Some(f.primary.doc_start));
        properties.close();
    }
    location.close();
    locations.close();
    let mut fingerprint = o.object("partialFingerprints");
    fingerprint.str("benchlint/v2", &fingerprints[i]);
    fingerprint.close();
    if !f.related.is_empty() {
        let mut related = o.array("relatedLocations");
        for (k, (r, rp)) in f.related.iter().zip(&p.related_positions[i]).enumerate() {
            let mut place = related.object();
            place.number("id", Some(k + 1));
            let (related_uri, relative) = related_uri(p, r.path.raw());
            physical(&mut place, &related_uri, relative, *rp);
            let mut message = place.object("message");
            message.str("text", &pointer_name(r.pointer.raw()));
            message.close();
            place.close();
        }
        related.close();
    }
    // A finding about the corpus says so (and nothing else), a pre-rule label says so.
    if f.corpus || f.pre_rule {
        let mut properties = o.object("properties");
        properties.bool(if f.corpus { "corpus" } else { "preRule" }, true);
        properties.close();
    }
    o.close();
}

/// The `physicalLocation` member of `o`: where a result (or a related place) is in a file.
fn physical(o: &mut Object, uri: &str, relative: bool, pos: Option<Position>) {
    let mut physical = o.object("physicalLocation");
    let mut artifact = physical.object("artifactLocation");
    artifact.str("uri", uri);
    if relative {
        artifact.str("uriBaseId", "%SRCROOT%");
    }
    artifact.close();
    if let Some(pos) = pos {
        let mut region = physical.object("region");
        region.number("startLine", Some(pos.line));
        region.number("startColumn", Some(pos.column));
        region.number("endLine", Some(pos.line));
        region.number("endColumn", Some(end_column(pos)));
        region.close();
    }
    physical.close();
}

#[cfg(test)]
#[path = "sarif_tests.rs"]
mod tests;
