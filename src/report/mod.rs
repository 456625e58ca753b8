//! Reporters: pure functions from findings (plus the source texts they point into) to bytes.
//! One file per format.

mod absent;
mod audit_html;
mod audit_json;
mod audit_markdown;
mod audit_text;
mod ci_keys;
mod concise;
mod corpus_html;
mod corpus_markdown;
mod corpus_text;
mod fold;
mod github;
mod gitlab;
mod grouped;
mod human;
mod human_layout;
mod in_file_order;
mod json;
mod json_lines;
mod json_out;
mod junit;
mod overview;
mod pieces;
#[cfg(test)]
mod pieces_tests;
mod placing;
mod plain;
mod project;
mod regress_common;
pub mod regress_github;
pub mod regress_json;
pub mod regress_markdown;
pub mod regress_text;
#[cfg(test)]
mod regress_worst_tests;
mod rule_docs;
mod sarif;
mod snippet;
mod sources;
mod spill;
mod statistics;
mod stream;
mod svg;
#[cfg(test)]
mod test_findings;

use crate::secrets::mask;
pub use crate::secrets::mask::mask_all as mask_snippet;
pub use audit_html::render as audit_html;
pub use audit_html::write as write_audit_html;
pub use audit_json::render as audit_json;
pub use audit_json::write as write_audit_json;
pub use audit_markdown::render as audit_markdown;
pub use audit_markdown::write as write_audit_markdown;
/// A writer of one of the audit's documents.
pub type AuditWriter =
    fn(&crate::audit::AuditReport, &AuditContext, &mut dyn std::io::Write) -> std::io::Result<()>;
pub use audit_text::{AuditContext, verdict_counts as audit_verdict_counts, verdict_fails};
pub use ci_keys::{Cut as SarifCut, MAX_SARIF_RESULTS};
pub use concise::render as concise;
pub use corpus_text::corpus_counts as audit_corpus_counts;
pub use github::{render as github, summary as github_summary, write as write_github};
pub use gitlab::{render as gitlab, write as write_gitlab};
pub use grouped::{grouped, write_grouped};
pub use human::{render as human, write as write_human};
pub use in_file_order::InFileOrder;
pub use json::render as json;
pub use json_lines::render as json_lines;
pub use junit::{render as junit, write as write_junit};
pub use overview::show_files;
pub use project::Project;
pub use rule_docs::{RULE_DOCS_BASE, category, rule_page_name, rule_url};
pub use sarif::{cut as sarif_cut, render as sarif, write as write_sarif};
pub use sources::{Position, Prepared, prepare};
pub use statistics::{json as statistics_json, text as statistics_text};
pub use stream::{Stream, Streamed};
