//! What is known about a rule apart from how it checks: its code, name, default severity,
//! scope, source and documentation. Every finding names its rule by this metadata, so it sits
//! with the findings, below the rules that declare it.

use super::Severity;

/// What a rule looks at.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Scope {
    /// Reading the input itself (emitted by the loader).
    Input,
    /// One raw document, whatever its format (secrets).
    Document,
    /// One canonical result.
    Result,
    /// A group of results sharing a configuration fingerprint.
    Group,
    /// A published claim and the runs behind it.
    Claim,
}

impl Scope {
    /// The kebab-case name.
    pub fn as_str(self) -> &'static str {
        match self {
            Scope::Input => "input",
            Scope::Document => "document",
            Scope::Result => "result",
            Scope::Group => "group",
            Scope::Claim => "claim",
        }
    }
}

/// Everything known about a rule except how it checks.
#[derive(Debug)]
pub struct RuleMeta {
    /// Stable code, never reused: `M005`.
    pub code: &'static str,
    /// Kebab-case name of the flagged condition: `missing-speculative-config`.
    pub name: &'static str,
    /// Default severity.
    pub severity: Severity,
    /// What the rule looks at.
    pub scope: Scope,
    /// Adoption date (`YYYY-MM-DD`): results measured earlier get a pre-rule label instead.
    pub since: Option<&'static str>,
    /// The source document the rule comes from.
    pub source: &'static str,
    /// One-line summary (a noun phrase).
    pub summary: &'static str,
    /// Markdown documentation: what it checks, why, an example, what to do instead.
    pub doc: &'static str,
}

impl RuleMeta {
    /// The documentation with the one leading space of each `///` line removed.
    pub fn doc_text(&self) -> String {
        self.doc
            .lines()
            .map(|l| l.strip_prefix(' ').unwrap_or(l))
            .collect::<Vec<_>>()
            .join("\n")
    }
}
