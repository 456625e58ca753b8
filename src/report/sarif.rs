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
use crate::text::FileText;

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
pub fn uri(path: &FileText) -> (String, bool) {
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

fn physical(l: &Location, pos: Option<Position>) -> Value {
    let (uri, relative) = uri(&l.path);
    let mut artifact = json!({"uri": uri});
    if relative {
        artifact["uriBaseId"] = json!("%SRCROOT%");
    }
    let mut physical = json!({"artifactLocation": artifact});
    if let Some(pos) = pos {
        physical["region"] = json!({
            "startLine": pos.line,
            "startColumn": pos.column,
            "endLine": pos.line,
            "endColumn": end_column(pos),
        });
    }
    physical
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

/// The SARIF result of finding `i`.
fn result(p: &Prepared, index: &BTreeMap<&str, usize>, i: usize) -> Value {
    let f = &p.findings[i];
    let mut location = if f.corpus {
        // The corpus: its folder as an artifact (a URI ending in `/`, no region), named as a
        // logical location too.
        json!({
            "physicalLocation": physical(&f.primary, None),
            "logicalLocations": [{"name": "corpus", "fullyQualifiedName": f.primary.path.masked(), "kind": "module"}],
        })
    } else {
        json!({
            "physicalLocation": physical(&f.primary, p.positions[i]),
            "logicalLocations": [{"fullyQualifiedName": pointer_name(&f.primary.pointer), "kind": "member"}],
        })
    };
    if f.primary.doc_start > 0 {
        location["properties"] = json!({"documentOffset": f.primary.doc_start});
    }
    let mut fingerprint = format!(
        "{}:{}:{}",
        f.rule.code,
        uri(&f.primary.path).0,
        pointer_name(&f.primary.pointer)
    );
    if f.primary.doc_start > 0 {
        let _ = write!(fingerprint, "@{}", f.primary.doc_start);
    }
    let mut result = json!({
        "ruleId": f.rule.code,
        "ruleIndex": index[f.rule.code],
        "level": level(f.severity),
        "message": {"text": f.message},
        "locations": [location],
        "partialFingerprints": {"benchlint/v1": fingerprint},
    });
    if !f.related.is_empty() {
        let related: Vec<Value> = f
            .related
            .iter()
            .zip(&p.related_positions[i])
            .enumerate()
            .map(|(k, (r, rp))| {
                json!({
                    "id": k + 1,
                    "physicalLocation": physical(r, *rp),
                    "message": {"text": pointer_name(&r.pointer)},
                })
            })
            .collect();
        result["relatedLocations"] = Value::Array(related);
    }
    if f.pre_rule {
        result["properties"] = json!({"preRule": true});
    }
    if f.corpus {
        result["properties"] = json!({"corpus": true});
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uris() {
        let uri = |s: &str| uri(&FileText::from(s));
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
