//! Where each rule's documentation lives: one constant base, used by the JSON `url`, SARIF's
//! `helpUri` and `rules/README.md`.

use crate::rules::RuleMeta;

/// The project's home page (SARIF `informationUri`).
pub const INFORMATION_URI: &str = "https://github.com/benchlint/benchlint";

/// The folder of rule pages (`benchlint rules --markdown rules/` writes it).
pub const RULE_DOCS_BASE: &str = "https://github.com/benchlint/benchlint/blob/main/rules/";

/// The file name of a rule's page: `M005-missing-speculative-config.md`.
pub fn rule_page_name(meta: &RuleMeta) -> String {
    format!("{}-{}.md", meta.code, meta.name)
}

/// The URL of a rule's page.
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
