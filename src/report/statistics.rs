//! `check --statistics`: how many findings each rule produced, most frequent first (ruff's
//! `--statistics`): a text table, or a JSON array with `--format json`.

use std::collections::BTreeMap;
use std::fmt::Write;

use serde_json::json;

use super::Prepared;
use crate::rules::RuleMeta;

fn counts(p: &Prepared) -> Vec<(&'static RuleMeta, usize)> {
    let mut by_code: BTreeMap<&'static str, (&'static RuleMeta, usize)> = BTreeMap::new();
    for f in &p.findings {
        by_code.entry(f.rule.code).or_insert((f.rule, 0)).1 += 1;
    }
    let mut rows: Vec<(&'static RuleMeta, usize)> = by_code.into_values().collect();
    rows.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.code.cmp(b.0.code)));
    rows
}

/// `count  code  name` per rule, then the summary line.
pub fn text(p: &Prepared) -> Vec<u8> {
    let rows = counts(p);
    let width = rows
        .iter()
        .map(|(_, n)| n.to_string().len())
        .max()
        .unwrap_or(1);
    let mut out = String::new();
    for (meta, n) in rows {
        let _ = writeln!(out, "{n:>width$}  {}  {}", meta.code, meta.name);
    }
    out.push_str(&super::human::summary_line(&p.summary));
    out.push('\n');
    out.into_bytes()
}

/// `[{"code", "name", "count"}]`, most frequent first.
pub fn json(p: &Prepared) -> Vec<u8> {
    let rows: Vec<serde_json::Value> = counts(p)
        .into_iter()
        .map(|(m, n)| json!({"code": m.code, "name": m.name, "count": n}))
        .collect();
    crate::text::json::pretty_line(&rows)
}
