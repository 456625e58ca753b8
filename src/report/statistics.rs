//! `check --statistics`: how many findings each rule produced, most frequent first, with their
//! worst severity and the number of files they are on (ruff's `--statistics`): a text table,
//! or a JSON array with `--format json`.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;

use serde_json::json;

use super::Prepared;
use crate::diagnostic::Severity;
use crate::rules::RuleMeta;

/// One rule's line: its findings, their worst severity, and the files they are on.
struct Row {
    meta: &'static RuleMeta,
    count: usize,
    severity: Severity,
    files: BTreeSet<String>,
}

fn counts(p: &Prepared) -> Vec<Row> {
    let mut by_code: BTreeMap<&'static str, Row> = BTreeMap::new();
    for f in &p.findings {
        let row = by_code.entry(f.rule.code).or_insert(Row {
            meta: f.rule,
            count: 0,
            severity: f.severity,
            files: BTreeSet::new(),
        });
        row.count += 1;
        row.severity = row.severity.max(f.severity);
        if !row.files.contains(f.primary.path.raw()) {
            row.files.insert(f.primary.path.raw().to_string());
        }
    }
    let mut rows: Vec<Row> = by_code.into_values().collect();
    rows.sort_by(|a, b| b.count.cmp(&a.count).then(a.meta.code.cmp(b.meta.code)));
    rows
}

/// `count  files  code  severity  name` per rule, then the summary line.
pub fn text(p: &Prepared) -> Vec<u8> {
    let rows = counts(p);
    let width = rows
        .iter()
        .map(|r| r.count.to_string().len())
        .max()
        .unwrap_or(1)
        .max("count".len());
    let mut out = String::new();
    if !rows.is_empty() {
        let _ = writeln!(
            out,
            "{:>width$}  {:>5}  code  {:<8}  name",
            "count", "files", "severity"
        );
    }
    for r in rows {
        let _ = writeln!(
            out,
            "{:>width$}  {:>5}  {}  {:<8}  {}",
            r.count,
            r.files.len(),
            r.meta.code,
            r.severity.as_str(),
            r.meta.name
        );
    }
    out.push_str(&super::human::summary_line(&p.summary));
    out.push('\n');
    out.into_bytes()
}

/// `[{"code", "name", "severity", "count", "files"}]`, most frequent first.
pub fn json(p: &Prepared) -> Vec<u8> {
    let rows: Vec<serde_json::Value> = counts(p)
        .into_iter()
        .map(|r| {
            json!({
                "code": r.meta.code,
                "name": r.meta.name,
                "severity": r.severity.as_str(),
                "count": r.count,
                "files": r.files.len(),
            })
        })
        .collect();
    crate::text::json::pretty_line(&rows)
}
