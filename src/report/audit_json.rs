//! `benchlint audit --format json` and `report.json`: the contract of DESIGN.md
//! (`schemas/audit.schema.json`). Each claim carries exactly the contract's keys; the document
//! adds `tool`, `version`, `floor_tok_s`, `ladders` and `losing_runs`, which the schema allows.

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
    let mut bytes = serde_json::to_vec_pretty(&doc).expect("a JSON value serialises");
    bytes.push(b'\n');
    bytes
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
