//! `--format sarif`: SARIF 2.1.0 for GitHub code scanning
//! (`github/codeql-action/upload-sarif`) and other SARIF viewers.
//!
//! One run; `tool.driver.rules` holds every rule that has a result, sorted by code, and each
//! result names its rule by `ruleId` and `ruleIndex`. Paths are relative to the folder
//! benchlint ran in (the repository root in CI), with forward slashes and
//! `uriBaseId: "%SRCROOT%"`; columns count Unicode code points (`columnKind`). The JSON
//! pointer is the result's logical location. `partialFingerprints` holds a line-independent
//! key (code, path, pointer); GitHub's own `primaryLocationLineHash` is left to upload-sarif.
//!
//! A finding about the corpus as a whole (S008, S009) is located on the corpus: a physical
//! location whose artifact URI is the corpus folder, ending in `/` (RFC 3986's directory
//! reference; the one file when a lone file was checked), with no region, and a logical
//! location of kind `module` named `corpus`; `properties.corpus` is `true`. The SARIF 2.1.0
//! schema accepts it (the CLI tests validate it); GitHub lists such an alert without a
//! source line.

use std::collections::BTreeMap;
use std::fmt::Write;
use std::io;

use serde_json::{Value, json};

use super::json_out::{Array, Layout, Object, push_indented};
use super::rule_docs::category;
use super::{Position, Prepared};
use crate::diagnostic::Severity;
use crate::rules::RuleMeta;
use crate::text::{FileText, PathText};

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

/// A path as a relative URI reference: forward slashes, `./` dropped, secrets masked, every
/// byte but letters, digits, `-._~` and `/` percent-encoded. A colon is encoded too, so a file
/// named `javascript:alert(1).json` is the relative reference `javascript%3Aalert%281%29.json`,
/// never a URI with a scheme. An absolute path becomes a `file://` URI.
pub fn uri(path: &PathText) -> (String, bool) {
    let slashed = path.masked().replace('\\', "/");
    let mut rel = slashed.as_str();
    while let Some(rest) = rel.strip_prefix("./") {
        rel = rest;
    }
    let absolute = rel.starts_with('/');
    let mut out = String::new();
    for b in rel.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~/".contains(&b) {
            out.push(char::from(b));
        } else {
            let _ = write!(out, "%{b:02X}");
        }
    }
    if absolute {
        (format!("file://{out}"), false)
    } else {
        (out, true)
    }
}

/// The first paragraph of a rule's documentation, at most 1,024 characters (GitHub's limit).
fn full_description(meta: &RuleMeta) -> String {
    let doc = meta.doc_text();
    // The first paragraph of prose: headings dropped.
    let first = doc
        .split("\n\n")
        .map(|p| {
            p.lines()
                .filter(|l| !l.trim_start().starts_with('#'))
                .collect::<Vec<_>>()
                .join(" ")
        })
        .find(|p| !p.trim().is_empty())
        .unwrap_or_else(|| meta.summary.to_string());
    let one_line = first.split_whitespace().collect::<Vec<_>>().join(" ");
    if one_line.chars().count() <= 1024 {
        one_line
    } else {
        let mut s: String = one_line.chars().take(1023).collect();
        s.push('…');
        s
    }
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
        "shortDescription": {"text": meta.summary},
        "fullDescription": {"text": full_description(meta)},
        "help": {"text": format!("{}\n\n{more}\n", doc.trim_end()), "markdown": markdown},
        "defaultConfiguration": {"level": level(meta.severity)},
        "properties": {"tags": tags(meta)},
    })
}

/// A pointer as a logical location's name (`/` for the whole document), secrets masked.
fn pointer_name(pointer: &FileText) -> String {
    if pointer.is_empty() {
        "/".to_string()
    } else {
        pointer.masked().into_owned()
    }
}

/// Renders the SARIF log.
pub fn render(p: &Prepared) -> Vec<u8> {
    let mut bytes = Vec::new();
    write(p, &mut bytes).expect("writing to memory cannot fail");
    bytes
}

/// Writes the SARIF log to `out` a buffer at a time. The rules are a few JSON trees; each
/// result is written by hand as it is reached ([`super::json_out`]), so a run with hundreds of
/// thousands of findings never holds them as JSON, nor goes through serde for each.
pub fn write(p: &Prepared, out: &mut dyn io::Write) -> io::Result<()> {
    const FLUSH_AT: usize = 1 << 16;
    let used: BTreeMap<&'static str, &'static RuleMeta> =
        p.findings.iter().map(|f| (f.rule.code, f.rule)).collect();
    let index: BTreeMap<&str, usize> = used.keys().enumerate().map(|(i, c)| (*c, i)).collect();
    let rules: Vec<Value> = used.values().map(|m| rule_descriptor(m)).collect();
    let tool = json!({"driver": {
        "name": "benchlint",
        "version": env!("CARGO_PKG_VERSION"),
        "semanticVersion": env!("CARGO_PKG_VERSION"),
        "rules": rules,
    }});
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
    for i in 0..p.findings.len() {
        result(results.object(), p, &index, i);
        let written = results.buffer();
        if written.len() >= FLUSH_AT {
            out.write_all(written)?;
            written.clear();
        }
    }
    results.close();
    buffer.extend_from_slice(b"\n    }\n  ]\n}\n");
    out.write_all(&buffer)
}

/// Writes into `o`, and closes, the SARIF result of finding `i`, in the member order SARIF viewers show.
fn result(mut o: Object, p: &Prepared, index: &BTreeMap<&str, usize>, i: usize) {
    let f = &p.findings[i];
    let (primary_uri, relative) = uri(&f.primary.path);
    let pointer = pointer_name(&f.primary.pointer);
    o.str("ruleId", f.rule.code);
    o.number("ruleIndex", Some(index[f.rule.code]));
    o.str("level", level(f.severity));
    let mut message = o.object("message");
    message.text("text", &f.message);
    message.close();
    let mut locations = o.array("locations");
    let mut location = locations.object();
    let logical = if f.corpus {
        // The corpus: its folder as an artifact (a URI ending in `/`, no region), named as a
        // logical location too.
        physical(&mut location, &primary_uri, relative, None);
        let mut logical = location.array("logicalLocations");
        let mut named = logical.object();
        named.str("name", "corpus");
        named.str("fullyQualifiedName", &f.primary.path.masked());
        named.str("kind", "module");
        named.close();
        logical
    } else {
        physical(&mut location, &primary_uri, relative, p.positions[i]);
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
    let mut fingerprint = format!("{}:{primary_uri}:{pointer}", f.rule.code);
    if f.primary.doc_start > 0 {
        let _ = write!(fingerprint, "@{}", f.primary.doc_start);
    }
    let mut fingerprints = o.object("partialFingerprints");
    fingerprints.str("benchlint/v1", &fingerprint);
    fingerprints.close();
    if !f.related.is_empty() {
        let mut related = o.array("relatedLocations");
        for (k, (r, rp)) in f.related.iter().zip(&p.related_positions[i]).enumerate() {
            let mut place = related.object();
            place.number("id", Some(k + 1));
            let (related_uri, relative) = uri(&r.path);
            physical(&mut place, &related_uri, relative, *rp);
            let mut message = place.object("message");
            message.str("text", &pointer_name(&r.pointer));
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
mod tests {
    use super::*;

    #[test]
    fn uris() {
        let uri = |s: &str| uri(&PathText::from(s));
        assert_eq!(
            uri("./results/a b.json"),
            ("results/a%20b.json".to_string(), true)
        );
        assert_eq!(uri("r\\x.json"), ("r/x.json".to_string(), true));
        assert_eq!(
            uri("/abs/x.json"),
            ("file:///abs/x.json".to_string(), false)
        );
        assert_eq!(uri("é.json").0, "%C3%A9.json");
        assert_eq!(
            uri("javascript:alert(1).json").0,
            "javascript%3Aalert%281%29.json"
        );
        assert_eq!(
            uri("r/sk-proj-ABCDEFGHIJKLMNOPQRSTUVWX1234.json").0,
            "r/%3Credacted%3E"
        );
    }

    #[test]
    fn the_log_is_what_serde_json_prints_for_it_and_validates_its_members() {
        let p = super::super::test_findings::prepared();
        let bytes = render(&p);
        super::super::json_out::is_as_serde_prints(&bytes).unwrap();
        let log: Value = serde_json::from_slice(&bytes).unwrap();
        let results = log["runs"][0]["results"].as_array().unwrap();
        assert_eq!(results.len(), p.findings.len());
        // The corpus-wide finding: no region, a logical location of kind `module`.
        let corpus = &results[3];
        assert_eq!(corpus["properties"], json!({"corpus": true}));
        assert_eq!(
            corpus["locations"][0]["logicalLocations"][0]["kind"],
            "module"
        );
        assert!(
            corpus["locations"][0]["physicalLocation"]
                .get("region")
                .is_none()
        );
        // A pre-rule label, related places numbered from 1, a secret masked everywhere.
        assert_eq!(results[1]["properties"], json!({"preRule": true}));
        assert_eq!(results[2]["relatedLocations"][1]["id"], 2);
        assert!(
            !String::from_utf8(bytes)
                .unwrap()
                .contains("sk-proj-Q9vLx2mT7rB4nK8wE1yZ5cH3jD6fA0gP")
        );
    }

    #[test]
    fn an_empty_log_closes_its_results_on_the_same_line() {
        let mut p = super::super::test_findings::prepared();
        p.findings.clear();
        p.positions.clear();
        p.related_positions.clear();
        let bytes = render(&p);
        super::super::json_out::is_as_serde_prints(&bytes).unwrap();
        assert!(
            String::from_utf8(bytes)
                .unwrap()
                .contains("\"results\": []")
        );
    }
}
