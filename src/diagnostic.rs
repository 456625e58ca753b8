//! Findings: what a rule found, where, and how bad it is.

use std::cmp::Ordering;

use crate::rules::RuleMeta;
use crate::text::{FileText, Text};

/// How bad a finding is. Ordered: `Info < Warning < Error`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// Worth knowing; never fails a build by default.
    Info,
    /// Probably wrong.
    Warning,
    /// Wrong: fails the build.
    Error,
}

impl Severity {
    /// The lowercase name used in every output format.
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
        }
    }
}

/// A place in a file: a JSON pointer inside one of its documents.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Location {
    /// The file as reached from the command-line argument, never made absolute (a file name
    /// is text from an input).
    pub path: FileText,
    /// Byte offset of the document (JSON Lines and concatenated files hold several).
    pub doc_start: usize,
    /// JSON pointer inside that document (`""` is the whole document); its keys come from the
    /// file.
    pub pointer: FileText,
    /// An exact byte offset that overrides the pointer (parse errors have no pointer).
    pub offset: Option<usize>,
}

impl Location {
    /// A pointer into the first (or only) document of `path`.
    pub fn new(path: impl Into<FileText>, pointer: impl Into<FileText>) -> Self {
        Location {
            path: path.into(),
            doc_start: 0,
            pointer: pointer.into(),
            offset: None,
        }
    }
}

/// One finding, ready to render.
#[derive(Debug, Clone)]
pub struct Finding {
    /// The rule that produced it.
    pub rule: &'static RuleMeta,
    /// Effective severity (after adoption dates and configuration).
    pub severity: Severity,
    /// Measured before the rule was adopted: labelled, not failed.
    pub pre_rule: bool,
    /// Where it points.
    pub primary: Location,
    /// Other places involved (the other files of a group, the sidecar of a conflict).
    pub related: Vec<Location>,
    /// What was found, with the numbers (the values it quotes keep their origin).
    pub message: Text,
    /// The text of the label drawn under the value.
    pub label: Option<Text>,
    /// What to do about it.
    pub help: Option<Text>,
    /// Where the primary and related locations sit in their texts, once resolved: while the
    /// file is still in memory after checking it, or when the report is prepared.
    pub placed: Option<Placed>,
}

/// A resolved place in a file's text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Position {
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
    /// First byte of the labelled text.
    pub start: usize,
    /// Length of the labelled text in bytes (one line at most).
    pub len: usize,
    /// Length of the labelled text in characters.
    pub chars: usize,
}

/// The resolved positions of a finding's locations; `None` where a file could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Placed {
    /// The primary location.
    pub primary: Option<Position>,
    /// Each related location, in order.
    pub related: Vec<Option<Position>>,
}

impl Finding {
    /// The rule's code, `M005`.
    pub fn code(&self) -> &'static str {
        self.rule.code
    }

    /// Total order used for every output: path, document, pointer, code, message.
    pub fn sort_key_cmp(&self, other: &Self) -> Ordering {
        self.primary
            .path
            .cmp(&other.primary.path)
            .then(self.primary.doc_start.cmp(&other.primary.doc_start))
            .then(self.primary.offset.cmp(&other.primary.offset))
            .then(self.primary.pointer.cmp(&other.primary.pointer))
            .then(self.rule.code.cmp(other.rule.code))
            .then(self.message.cmp(&other.message))
    }
}

/// Sorts findings into their output order and drops exact duplicates.
pub fn sort_findings(findings: &mut Vec<Finding>) {
    findings.sort_by(Finding::sort_key_cmp);
    findings.dedup_by(|a, b| {
        a.sort_key_cmp(b) == Ordering::Equal && a.related == b.related && a.severity == b.severity
    });
}
