//! `--format json`: the machine-readable contract of DESIGN.md (`schemas/report.schema.json`).

use serde_json::{Value, json};

use super::Prepared;

/// Renders one JSON document.
pub fn render(p: &Prepared) -> Vec<u8> {
    let diagnostics: Vec<Value> = (0..p.findings.len()).map(|i| diagnostic(p, i)).collect();
    let doc = json!({
        "tool": "benchlint",
        "version": env!("CARGO_PKG_VERSION"),
        "diagnostics": diagnostics,
        "summary": p.summary,
    });
    let mut bytes = serde_json::to_vec_pretty(&doc).expect("a JSON value serialises");
    bytes.push(b'\n');
    bytes
}

/// The JSON object of finding `i` (also one line of `--format json-lines`).
pub(super) fn diagnostic(p: &Prepared, i: usize) -> Value {
    let f = &p.findings[i];
    let pos = p.positions[i];
    let related: Vec<Value> = f
        .related
        .iter()
        .zip(&p.related_positions[i])
        .map(|(r, rp)| {
            json!({
                "path": r.path, "pointer": r.pointer,
                "line": rp.map(|x| x.line), "column": rp.map(|x| x.column),
            })
        })
        .collect();
    json!({
        "code": f.rule.code,
        "name": f.rule.name,
        "severity": f.severity.as_str(),
        "pre_rule": f.pre_rule,
        "path": f.primary.path,
        "pointer": f.primary.pointer,
        "line": pos.map(|x| x.line),
        "column": pos.map(|x| x.column),
        "message": f.message,
        "help": f.help,
        "related": related,
        "url": super::rule_url(f.rule),
    })
}
