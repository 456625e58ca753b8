//! `benchlint audit --format json` and `report.json`: the contract of DESIGN.md
//! (`schemas/audit.schema.json`). Each claim carries exactly the contract's keys (no claim
//! without `--claims`); the document adds `tool`, `version`, `claims_file`, `floor_tok_s`,
//! `ladders` (each with its replication status), `losing_runs` and `corpus` (files, rules and
//! the checklist coverage), which the schema describes.

use serde_json::{Value, json};

use super::audit_text::AuditContext;
use crate::audit::{AuditReport, ClaimOutcome};

/// Renders one JSON document.
pub fn render(report: &AuditReport, ctx: &AuditContext) -> Vec<u8> {
    let claims: Vec<Value> = report.claims.iter().map(claim).collect();
    let doc = json!({
        "tool": "benchlint",
        "version": ctx.version,
        "claims_file": ctx.claims_file,
        "floor_tok_s": finite(report.floor_tok_s),
        "claims": claims,
        "ladders": report.ladders,
        "losing_runs": report.losing_runs,
        "corpus": report.corpus,
    });
    // Ids, statements, labels and paths serialise masked; the writer escapes hidden characters.
    crate::text::json::pretty_line(&doc)
}

/// A number, or `null` when it is not finite (JSON has no NaN).
fn finite(v: f64) -> Value {
    serde_json::Number::from_f64(v).map_or(Value::Null, Value::Number)
}

/// One claim: `id`, `verdict`, `codes`, `published_value`, `restated_value`, `basis`,
/// `reasons`, always all of them.
fn claim(c: &ClaimOutcome) -> Value {
    json!({
        "id": c.id,
        "verdict": c.verdict.as_str(),
        "codes": c.codes,
        "published_value": finite(c.published_value),
        "restated_value": c.restated_value.map_or(Value::Null, finite),
        "basis": c.basis,
        "reasons": c.reasons,
    })
}
