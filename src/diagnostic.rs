//! Findings: what a rule found, where, and how bad it is.

use std::cmp::Ordering;

pub mod codec;
#[cfg(test)]
pub(crate) mod drawn;
mod order;
mod rule;

pub(crate) use order::permute;
pub use order::{
    dedup_in_order, output_order, past_first_distinct, repeats, sort_findings, sort_keeping_repeats,
};
pub use rule::{RuleMeta, Scope};

use crate::text::{FileText, PathText, Text};

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
    /// is text from an input): made once per file and shared by every location in it.
    pub path: PathText,
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
    pub fn new(path: impl Into<PathText>, pointer: impl Into<FileText>) -> Self {
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
    /// Where it points. For a finding about the corpus as a whole ([`Finding::corpus`]), the
    /// corpus: its path with no pointer.
    pub primary: Location,
    /// Whether the finding is about the corpus as a whole (S008, S009): `primary.path` is then
    /// the corpus ([`crate::corpus::corpus_path`]), a folder or the one file checked, with no
    /// line, column or snippet in any format.
    pub corpus: bool,
    /// Other places involved (the other files of a group, the sidecar of a conflict).
    pub related: Vec<Location>,
    /// What was found, with the numbers (the values it quotes keep their origin).
    pub message: Text,
    /// The text of the label drawn under the value.
    pub label: Option<Text>,
    /// What to do about it.
    pub help: Option<Text>,
    /// For a field reported as not recorded: which, so that the human and concise formats can
    /// list the absent fields of one object as one finding. Boxed: most findings have none, and
    /// inline it would be a third of every finding's size.
    pub absent: Option<Box<Absent>>,
    /// For a finding on a canonical value that no key of the file holds (a harness's file
    /// lacks it, so the finding is shown on the object that would hold it): the canonical
    /// pointer it is about (`/workload/warmup_excluded`), which names it in the machine
    /// outputs, baselines and fingerprints instead of the object's `""` that every such
    /// finding on the object shares. A boxed `String` (one thin pointer, not a `Box<str>`'s
    /// two words): most findings have none, and a finding is held by the hundred thousand.
    pub key: Option<Box<String>>,
    /// Where the primary and related locations sit in their texts, once resolved: while the
    /// file is still in memory after checking it, or when the report is prepared.
    pub placed: Option<Placed>,
}

impl Finding {
    /// The pointer that names this finding in the machine-readable outputs, baselines and
    /// fingerprints, as the file holds it (unmasked): the missing field's canonical pointer
    /// for a field not recorded, else the canonical pointer of a value the file holds no key
    /// for ([`Finding::key`]), else the primary location's pointer.
    pub fn key_pointer(&self) -> &str {
        match (&self.absent, &self.key) {
            (Some(a), _) => &a.pointer,
            (None, Some(key)) => key.as_str(),
            (None, None) => self.primary.pointer.raw(),
        }
    }

    /// [`Finding::key_pointer`] with secrets masked, for output (a canonical pointer is
    /// benchlint's own words, never the file's, so only the primary pointer is masked).
    pub fn shown_pointer(&self) -> std::borrow::Cow<'_, str> {
        match (&self.absent, &self.key) {
            (Some(a), _) => std::borrow::Cow::Borrowed(a.pointer.as_str()),
            (None, Some(key)) => std::borrow::Cow::Borrowed(key.as_str()),
            (None, None) => self.primary.pointer.masked(),
        }
    }
}

/// A field a finding says is not recorded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Absent {
    /// What it is and its canonical pointer: `the host name (`/platform/host`)`.
    pub what: Text,
    /// The field, dotted: `platform.host`.
    pub field: Text,
    /// What it is, in benchlint's words alone: `the host name`.
    pub words: String,
    /// The canonical pointer of the missing field (`/platform/host`): what the machine
    /// outputs, baselines and fingerprints key the finding by, since the place it is shown
    /// on (the object that lacks it, `""` in a harness's file) is shared by every field that
    /// object lacks.
    pub pointer: String,
    /// For a file a harness wrote: where its absent values go instead (the sidecar beside it
    /// and the command that writes one), said once under the fields one object lacks.
    pub sidecar: Option<Text>,
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

    /// The same finding in as little memory as it takes, for one held until the end of a run
    /// (the corpus-wide rules' findings): its texts joined ([`Text::compact`]), its lists
    /// trimmed. Every output reads it as it read the finding it was made from.
    #[must_use]
    pub fn compacted(mut self) -> Self {
        self.message.compact();
        for text in [&mut self.label, &mut self.help].into_iter().flatten() {
            text.compact();
        }
        self.related.shrink_to_fit();
        self
    }

    /// Total order used for every output: path, document, pointer, code, message.
    pub fn sort_key_cmp(&self, other: &Self) -> Ordering {
        self.primary
            .path
            .cmp(&other.primary.path)
            .then_with(|| self.cmp_in_file(other))
    }

    /// [`Finding::sort_key_cmp`] after the path: what orders the findings of one file. Each
    /// step is compared only when the ones before tie (a message is rarely compared at all).
    fn cmp_in_file(&self, other: &Self) -> Ordering {
        self.primary
            .doc_start
            .cmp(&other.primary.doc_start)
            .then_with(|| self.primary.offset.cmp(&other.primary.offset))
            .then_with(|| self.primary.pointer.cmp(&other.primary.pointer))
            .then_with(|| self.rule.code.cmp(other.rule.code))
            .then_with(|| self.message.cmp(&other.message))
    }
}

/// Whether every finding is on one path: the findings of one file, as the loader and the
/// streamed writers hand them over, are then ordered without comparing their paths at all.
pub(crate) fn one_path(findings: &[Finding]) -> bool {
    findings
        .windows(2)
        .all(|w| w[0].primary.path == w[1].primary.path)
}

/// Findings past a cap (`max_findings_per_file`, `max_findings`): counted by severity, never
/// stored. The summary's counts and the exit code include them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Omitted {
    /// At error severity.
    pub errors: usize,
    /// At warning severity.
    pub warnings: usize,
    /// At info severity (pre-rule labels included).
    pub infos: usize,
    /// Of the infos, pre-rule labels (they never fail a run).
    pub pre_rule: usize,
}

impl Omitted {
    /// Counts one finding.
    pub fn count(&mut self, severity: Severity, pre_rule: bool) {
        match severity {
            Severity::Error => self.errors += 1,
            Severity::Warning => self.warnings += 1,
            Severity::Info => self.infos += 1,
        }
        if pre_rule {
            self.pre_rule += 1;
        }
    }

    /// Counts `n` findings of one severity.
    pub fn count_n(&mut self, severity: Severity, n: usize) {
        match severity {
            Severity::Error => self.errors += n,
            Severity::Warning => self.warnings += n,
            Severity::Info => self.infos += n,
        }
    }

    /// Adds another count.
    pub fn add(&mut self, other: Omitted) {
        self.errors += other.errors;
        self.warnings += other.warnings;
        self.infos += other.infos;
        self.pre_rule += other.pre_rule;
    }

    /// All of them.
    pub fn total(&self) -> usize {
        self.errors + self.warnings + self.infos
    }

    /// Whether any, pre-rule labels aside, is at `threshold` or above.
    pub fn any_at_least(&self, threshold: Severity) -> bool {
        match threshold {
            Severity::Error => self.errors > 0,
            Severity::Warning => self.errors + self.warnings > 0,
            Severity::Info => self.total() > self.pre_rule,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn permute_puts_each_item_where_the_order_says() {
        let order = [3, 0, 4, 1, 2, 6, 5, 7];
        let mut items: Vec<char> = "abcdefgh".chars().collect();
        permute(&mut items, &order);
        let expected: Vec<char> = order
            .iter()
            .map(|&i| "abcdefgh".as_bytes()[i] as char)
            .collect();
        assert_eq!(items, expected);
    }

    #[test]
    fn a_finding_stays_small() {
        // A heavy corpus holds a quarter of a million corpus-wide findings until the end of a
        // run: what is rare (an absent field) is boxed, a path is one shared pointer.
        assert!(
            size_of::<Finding>() <= 288,
            "a finding takes {} bytes",
            size_of::<Finding>()
        );
        assert!(size_of::<Location>() <= 64);
    }

    #[test]
    fn a_compacted_finding_orders_and_reads_as_before() {
        let rule = &crate::rules::s003_single_launch::RULE;
        let make = || Finding {
            rule,
            severity: Severity::Error,
            pre_rule: false,
            primary: Location::new("runs/a.json", "/launch/id"),
            corpus: false,
            related: Vec::with_capacity(8),
            message: crate::text!("one launch (`{}`) over {} runs", "pool-1", 3usize),
            label: Some(crate::text!("launch `{}`", "pool-1")),
            help: Some(Text::from("restart the engine")),
            absent: None,
            key: None,
            placed: None,
        };
        let held = make().compacted();
        let made = make();
        assert_eq!(held.sort_key_cmp(&made), Ordering::Equal);
        assert_eq!(held.message.line(), made.message.line());
        assert_eq!(held.label, made.label);
        assert_eq!(held.related.capacity(), 0);
        let mut both = vec![made, held];
        sort_findings(&mut both);
        assert_eq!(both.len(), 1, "a compacted copy is still a duplicate");
    }
}
