//! `benchlint audit --format json` and `report.json`: the contract of DESIGN.md
//! (`schemas/audit.schema.json`). Each claim carries exactly the contract's keys (no claim
//! without `--claims`); the document adds `tool`, `version`, `claims_file`, `floor_tok_s`,
//! `ladders` (each with its replication status), `losing_runs` and `corpus` (files, rules and
//! the checklist coverage), which the schema describes.

use std::io;

use serde::Serialize;
use serde_json::{Value, json};

use super::audit_text::AuditContext;
use crate::audit::{AuditReport, ClaimOutcome, CorpusReport, Ladders, LosingRun};
use crate::text::FileText;

/// The document, its keys in the contract's order, serialised straight to its writer: a
/// report of many configurations is hundreds of megabytes, and a `Value` of it several times
/// that.
#[derive(Serialize)]
struct Document<'a> {
    tool: &'static str,
    version: &'a str,
    claims_file: Option<&'a FileText>,
    floor_tok_s: Value,
    claims: Claims<'a>,
    ladders: &'a Ladders<'a>,
    losing_runs: &'a [LosingRun],
    corpus: Option<&'a CorpusReport>,
}

/// The claims, each made into its contract's keys as it is written.
struct Claims<'a>(&'a [ClaimOutcome]);

impl Serialize for Claims<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.0.iter().map(claim))
    }
}

/// Renders one JSON document.
pub fn render(report: &AuditReport, ctx: &AuditContext) -> Vec<u8> {
    super::spill::in_memory(|sink| write(report, ctx, sink))
}

/// [`render`], written to `sink` as it is serialised.
pub fn write(report: &AuditReport, ctx: &AuditContext, sink: &mut dyn io::Write) -> io::Result<()> {
    let doc = Document {
        tool: "benchlint",
        version: &ctx.version,
        claims_file: ctx.claims_file.as_ref(),
        floor_tok_s: finite(report.floor_tok_s),
        claims: Claims(&report.claims),
        ladders: &report.ladders,
        losing_runs: &report.losing_runs,
        corpus: report.corpus.as_ref(),
    };
    // Ids, statements, labels and paths serialise masked; the writer escapes hidden characters.
    crate::text::json::to_writer_pretty(sink, &doc)?;
    sink.write_all(b"\n")
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
