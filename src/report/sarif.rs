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

use serde_json::{Value, json};

use super::rule_docs::category;
use super::{Position, Prepared};
use crate::diagnostic::{Location, Severity};
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

/// Where a result (or a related place) is in a file, as SARIF writes it.
#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct Physical {
    artifact_location: Artifact,
    #[serde(skip_serializing_if = "Option::is_none")]
    region: Option<Region>,
}

#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct Artifact {
    uri: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    uri_base_id: Option<&'static str>,
}

#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct Region {
    start_line: usize,
    start_column: usize,
    end_line: usize,
    end_column: usize,
}

fn physical_at(uri: String, relative: bool, pos: Option<Position>) -> Physical {
    Physical {
        artifact_location: Artifact {
            uri,
            uri_base_id: relative.then_some("%SRCROOT%"),
        },
        region: pos.map(|pos| Region {
            start_line: pos.line,
            start_column: pos.column,
            end_line: pos.line,
            end_column: end_column(pos),
        }),
    }
}

fn physical(l: &Location, pos: Option<Position>) -> Physical {
    let (uri, relative) = uri(&l.path);
    physical_at(uri, relative, pos)
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

/// Writes the SARIF log to `out` as it is serialised: each result is built when it is written,
/// so a run with hundreds of thousands of findings never holds them all as JSON trees.
pub fn write(p: &Prepared, out: &mut dyn std::io::Write) -> std::io::Result<()> {
    let used: BTreeMap<&'static str, &'static RuleMeta> =
        p.findings.iter().map(|f| (f.rule.code, f.rule)).collect();
    let index: BTreeMap<&str, usize> = used.keys().enumerate().map(|(i, c)| (*c, i)).collect();
    let rules: Vec<Value> = used.values().map(|m| rule_descriptor(m)).collect();
    let log = Log {
        schema: "https://json.schemastore.org/sarif-2.1.0.json",
        version: "2.1.0",
        runs: [Run {
            tool: json!({"driver": {
                "name": "benchlint",
                "version": env!("CARGO_PKG_VERSION"),
                "semanticVersion": env!("CARGO_PKG_VERSION"),
                "rules": rules,
            }}),
            column_kind: "unicodeCodePoints",
            results: Results { p, index: &index },
        }],
    };
    crate::text::json::to_writer_pretty(&mut *out, &log)?;
    out.write_all(b"\n")
}

/// The log, in the member order SARIF viewers show.
#[derive(serde::Serialize)]
struct Log<'a> {
    #[serde(rename = "$schema")]
    schema: &'static str,
    version: &'static str,
    runs: [Run<'a>; 1],
}

#[derive(serde::Serialize)]
struct Run<'a> {
    tool: Value,
    #[serde(rename = "columnKind")]
    column_kind: &'static str,
    results: Results<'a>,
}

/// The results array, each result built as it is written.
struct Results<'a> {
    p: &'a Prepared,
    index: &'a BTreeMap<&'a str, usize>,
}

impl serde::Serialize for Results<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq((0..self.p.findings.len()).map(|i| result(self.p, self.index, i)))
    }
}

/// One result, in the member order SARIF viewers show; written as it is built, with no JSON
/// tree in between.
#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct SarifResult<'a> {
    rule_id: &'static str,
    rule_index: usize,
    level: &'static str,
    message: Message<&'a crate::text::Text>,
    locations: [ResultLocation<'a>; 1],
    partial_fingerprints: Fingerprints,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    related_locations: Vec<Related>,
    #[serde(skip_serializing_if = "Option::is_none")]
    properties: Option<Properties>,
}

#[derive(serde::Serialize)]
struct Message<T> {
    text: T,
}

#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct ResultLocation<'a> {
    physical_location: Physical,
    logical_locations: [Logical<'a>; 1],
    #[serde(skip_serializing_if = "Option::is_none")]
    properties: Option<DocumentOffset>,
}

#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct Logical<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    name: Option<&'static str>,
    fully_qualified_name: std::borrow::Cow<'a, str>,
    kind: &'static str,
}

#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct DocumentOffset {
    document_offset: usize,
}

#[derive(serde::Serialize)]
struct Fingerprints {
    #[serde(rename = "benchlint/v1")]
    v1: String,
}

#[derive(serde::Serialize)]
#[serde(rename_all = "camelCase")]
struct Related {
    id: usize,
    physical_location: Physical,
    message: Message<String>,
}

/// A result's properties: a finding about the corpus says so (and nothing else), a pre-rule
/// label says so.
enum Properties {
    PreRule(bool),
    Corpus(bool),
}

impl serde::Serialize for Properties {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = serializer.serialize_map(Some(1))?;
        match self {
            Properties::PreRule(b) => map.serialize_entry("preRule", b)?,
            Properties::Corpus(b) => map.serialize_entry("corpus", b)?,
        }
        map.end()
    }
}

/// The SARIF result of finding `i`.
fn result<'a>(p: &'a Prepared, index: &BTreeMap<&str, usize>, i: usize) -> SarifResult<'a> {
    let f = &p.findings[i];
    let (uri, relative) = uri(&f.primary.path);
    let pointer = pointer_name(&f.primary.pointer);
    let mut fingerprint = format!("{}:{uri}:{pointer}", f.rule.code);
    if f.primary.doc_start > 0 {
        let _ = write!(fingerprint, "@{}", f.primary.doc_start);
    }
    let location = if f.corpus {
        // The corpus: its folder as an artifact (a URI ending in `/`, no region), named as a
        // logical location too.
        ResultLocation {
            physical_location: physical_at(uri, relative, None),
            logical_locations: [Logical {
                name: Some("corpus"),
                fully_qualified_name: f.primary.path.masked(),
                kind: "module",
            }],
            properties: None,
        }
    } else {
        ResultLocation {
            physical_location: physical_at(uri, relative, p.positions[i]),
            logical_locations: [Logical {
                name: None,
                fully_qualified_name: pointer.into(),
                kind: "member",
            }],
            properties: None,
        }
    };
    let location = ResultLocation {
        properties: (f.primary.doc_start > 0).then_some(DocumentOffset {
            document_offset: f.primary.doc_start,
        }),
        ..location
    };
    let related_locations = f
        .related
        .iter()
        .zip(&p.related_positions[i])
        .enumerate()
        .map(|(k, (r, rp))| Related {
            id: k + 1,
            physical_location: physical(r, *rp),
            message: Message {
                text: pointer_name(&r.pointer),
            },
        })
        .collect();
    let properties = if f.corpus {
        Some(Properties::Corpus(true))
    } else if f.pre_rule {
        Some(Properties::PreRule(true))
    } else {
        None
    };
    SarifResult {
        rule_id: f.rule.code,
        rule_index: index[f.rule.code],
        level: level(f.severity),
        message: Message { text: &f.message },
        locations: [location],
        partial_fingerprints: Fingerprints { v1: fingerprint },
        related_locations,
        properties,
    }
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
}
