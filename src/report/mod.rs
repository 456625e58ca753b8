//! Reporters: pure functions from findings (plus the source texts they point into) to bytes.
//! One file per format.

mod absent;
mod audit_html;
mod audit_json;
mod audit_markdown;
mod audit_text;
mod concise;
mod corpus_html;
mod corpus_markdown;
mod corpus_text;
mod fold;
mod github;
mod human;
mod human_layout;
mod json;
mod json_lines;
mod json_out;
mod junit;
mod mask;
mod overview;
mod regress_common;
pub mod regress_github;
pub mod regress_json;
pub mod regress_markdown;
pub mod regress_text;
mod rule_docs;
mod sarif;
mod snippet;
mod sources;
mod statistics;
mod stream;
mod svg;
#[cfg(test)]
mod test_findings;

pub use audit_html::render as audit_html;
pub use audit_json::render as audit_json;
pub use audit_markdown::render as audit_markdown;
pub use audit_text::{AuditContext, verdict_counts as audit_verdict_counts, verdict_fails};
pub use concise::render as concise;
pub use corpus_text::corpus_counts as audit_corpus_counts;
pub use github::render as github;
pub use human::{render as human, write as write_human};
pub use json::render as json;
pub use json_lines::render as json_lines;
pub use junit::{render as junit, write as write_junit};
pub use mask::mask_all as mask_snippet;
pub use overview::{grouped, show_files, write_grouped};
pub use rule_docs::{RULE_DOCS_BASE, category, rule_page_name, rule_url};
pub use sarif::{render as sarif, write as write_sarif};
pub use sources::{Position, Prepared, prepare};
pub use statistics::{json as statistics_json, text as statistics_text};
pub use stream::{Stream, Streamed};
