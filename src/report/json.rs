//! `--format json`: the machine-readable contract of DESIGN.md (`schemas/report.schema.json`).
//! Paths, pointers and messages are serialised masked; the writer escapes hidden characters.

use serde::Serialize;

use super::Prepared;
use crate::engine::Summary;
use crate::text::{FileText, PathText, Text};

/// The whole report. Serialised straight from borrowed findings: a corpus with hundreds of
/// thousands of findings is never copied into an intermediate JSON tree.
#[derive(Serialize)]
struct Report<'a> {
    tool: &'static str,
    version: &'static str,
    diagnostics: Diagnostics<'a>,
    summary: Summary,
}

/// The diagnostics array, each built as it is written.
struct Diagnostics<'a>(&'a Prepared);

impl Serialize for Diagnostics<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq((0..self.0.findings.len()).map(|i| diagnostic(self.0, i)))
    }
}

/// One finding, in the field order of the report schema (also one line of
/// `--format json-lines`).
#[derive(Serialize)]
pub(super) struct Diagnostic<'a> {
    code: &'static str,
    name: &'static str,
    severity: &'static str,
    pre_rule: bool,
    path: &'a PathText,
    /// Present, and `true`, on a finding about the corpus as a whole: `path` is then the
    /// corpus (a folder ends in `/`) and `line` and `column` are null.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    corpus: bool,
    pointer: &'a FileText,
    line: Option<usize>,
    column: Option<usize>,
    message: &'a Text,
    help: Option<&'a Text>,
    related: Vec<Related<'a>>,
    url: RuleUrl,
}

/// A rule's page ([`super::rule_url`]), written straight into the output rather than built as a
/// string for each finding.
pub(super) struct RuleUrl(pub &'static crate::rules::RuleMeta);

impl Serialize for RuleUrl {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(&format_args!(
            "{}{}-{}.md",
            super::RULE_DOCS_BASE,
            self.0.code,
            self.0.name
        ))
    }
}

#[derive(Serialize)]
struct Related<'a> {
    path: &'a PathText,
    pointer: &'a FileText,
    line: Option<usize>,
    column: Option<usize>,
}

/// Renders one JSON document.
pub fn render(p: &Prepared) -> Vec<u8> {
    let mut bytes = Vec::new();
    write(p, &mut bytes).expect("writing to memory cannot fail");
    bytes
}

/// Writes the same document to `out` as it is serialised, so a report of hundreds of
/// thousands of findings is never held whole in memory.
pub fn write(p: &Prepared, out: &mut dyn std::io::Write) -> std::io::Result<()> {
    let report = Report {
        tool: "benchlint",
        version: env!("CARGO_PKG_VERSION"),
        diagnostics: Diagnostics(p),
        summary: p.summary,
    };
    crate::text::json::to_writer_pretty(&mut *out, &report)?;
    out.write_all(b"\n")
}

/// The diagnostic of finding `i`.
pub(super) fn diagnostic(p: &Prepared, i: usize) -> Diagnostic<'_> {
    let f = &p.findings[i];
    let pos = p.positions[i];
    let related = f
        .related
        .iter()
        .zip(&p.related_positions[i])
        .map(|(r, rp)| Related {
            path: &r.path,
            pointer: &r.pointer,
            line: rp.map(|x| x.line),
            column: rp.map(|x| x.column),
        })
        .collect();
    Diagnostic {
        code: f.rule.code,
        name: f.rule.name,
        severity: f.severity.as_str(),
        pre_rule: f.pre_rule,
        path: &f.primary.path,
        corpus: f.corpus,
        pointer: &f.primary.pointer,
        line: pos.map(|x| x.line),
        column: pos.map(|x| x.column),
        message: &f.message,
        help: f.help.as_ref(),
        related,
        url: RuleUrl(f.rule),
    }
}
