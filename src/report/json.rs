//! `--format json`: the machine-readable contract of DESIGN.md (`schemas/report.schema.json`).

use serde::Serialize;

use super::Prepared;
use crate::engine::Summary;

/// The whole report. Serialised straight from borrowed findings: a corpus with hundreds of
/// thousands of findings is never copied into an intermediate JSON tree.
#[derive(Serialize)]
struct Report<'a> {
    tool: &'static str,
    version: &'static str,
    diagnostics: Vec<Diagnostic<'a>>,
    summary: Summary,
}

/// One finding, in the field order of the report schema (also one line of
/// `--format json-lines`).
#[derive(Serialize)]
pub(super) struct Diagnostic<'a> {
    code: &'static str,
    name: &'static str,
    severity: &'static str,
    pre_rule: bool,
    path: &'a str,
    pointer: &'a str,
    line: Option<usize>,
    column: Option<usize>,
    message: &'a str,
    help: Option<&'a str>,
    related: Vec<Related<'a>>,
    url: String,
}

#[derive(Serialize)]
struct Related<'a> {
    path: &'a str,
    pointer: &'a str,
    line: Option<usize>,
    column: Option<usize>,
}

/// Renders one JSON document.
pub fn render(p: &Prepared) -> Vec<u8> {
    let report = Report {
        tool: "benchlint",
        version: env!("CARGO_PKG_VERSION"),
        diagnostics: (0..p.findings.len()).map(|i| diagnostic(p, i)).collect(),
        summary: p.summary,
    };
    let mut bytes = serde_json::to_vec_pretty(&report).expect("the report serialises");
    bytes.push(b'\n');
    bytes
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
        pointer: &f.primary.pointer,
        line: pos.map(|x| x.line),
        column: pos.map(|x| x.column),
        message: &f.message,
        help: f.help.as_deref(),
        related,
        url: super::rule_url(f.rule),
    }
}
