//! Where each rule's documentation lives. benchlint has no published web home, so no output
//! names a URL that does not exist: the JSON `url` is the page's path in benchlint's own source
//! tree (`rules/M005-missing-speculative-config.md`, the pages `benchlint rules --markdown`
//! writes and `benchlint rule CODE` prints), and SARIF carries the page's text as `help`
//! instead of a `helpUri`.

use crate::rules::RuleMeta;

/// The folder of rule pages, relative to benchlint's source tree (`benchlint rules --markdown
/// rules/` writes it).
pub const RULE_DOCS_BASE: &str = "rules/";

/// The file name of a rule's page: `M005-missing-speculative-config.md`.
pub fn rule_page_name(meta: &RuleMeta) -> String {
    format!("{}-{}.md", meta.code, meta.name)
}

/// The path of a rule's page in benchlint's source tree.
pub fn rule_url(meta: &RuleMeta) -> String {
    format!("{RULE_DOCS_BASE}{}", rule_page_name(meta))
}

/// The rule family a code belongs to, by its letter.
pub fn category(code: &str) -> &'static str {
    match code.as_bytes().first() {
        Some(b'E') => "input",
        Some(b'M') => "metadata",
        Some(b'R') => "measurement",
        Some(b'L') => "labels",
        Some(b'S') => "statistics",
        Some(b'C') => "comparisons",
        _ => "other",
    }
}
