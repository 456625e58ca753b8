//! Words and numbers shared by the corpus sections of the audit renderers (Markdown, HTML): the
//! overview sentence, the marks and words of the checklist coverage, the standing of a
//! configuration. Everything here returns plain text; each renderer escapes it for its own
//! format.

use super::audit_text::{AuditContext, fixed};
use crate::audit::{
    AuditReport, Checklist, CorpusReport, Coverage, FileCoverage, FileRow, Standing,
};
use crate::numbers::plural;
use crate::text::{FileText, Text};
use std::collections::BTreeMap;

/// How the corpus sections show paths: relative to the one folder given on the command line
/// (the header says so), so that a table of files reads as the corpus's own layout rather than
/// one long shared prefix; as reached from the command line otherwise. JSON keeps them whole.
#[derive(Debug, Clone, Default)]
pub struct Paths {
    base: Option<String>,
}

impl Paths {
    /// The display of `corpus`'s paths for the inputs of `ctx`.
    pub fn new(ctx: &AuditContext, corpus: &CorpusReport) -> Self {
        let [input] = ctx.inputs.as_slice() else {
            return Paths::default();
        };
        let base = format!("{}/", input.raw().trim_end_matches('/'));
        let all = corpus.files.iter().all(|f| {
            let p = f.path.raw();
            p.starts_with(&base) && p.len() > base.len()
        });
        Paths {
            base: (all && !corpus.files.is_empty()).then_some(base),
        }
    }

    /// Whether paths are shown relative to the folder given on the command line.
    pub fn relative(&self) -> bool {
        self.base.is_some()
    }

    /// `path` as shown (still text from an input).
    pub fn show(&self, path: &FileText) -> FileText {
        let raw = path.raw();
        FileText::new(
            self.base
                .as_deref()
                .and_then(|b| raw.strip_prefix(b))
                .unwrap_or(raw),
        )
    }
}

/// A count with thousands separators: `8,753`.
pub fn count(n: usize) -> String {
    #[expect(clippy::cast_precision_loss, reason = "counts of files and findings")]
    fixed(n as f64, 0)
}

/// `1 file`, `1,204 files`.
pub fn counted(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{} {many}", count(n))
    }
}

/// The mark of a coverage state in the matrix.
pub fn mark(c: Coverage) -> &'static str {
    match c {
        Coverage::Recorded => "R",
        Coverage::RunFolder => "F",
        Coverage::Derived => "D",
        Coverage::Sidecar => "S",
        Coverage::Unusable => "!",
        Coverage::Missing => "✗",
        Coverage::NotApplicable => "·",
    }
}

/// A coverage state in words, for legends and column heads.
pub fn coverage_words(c: Coverage) -> &'static str {
    match c {
        Coverage::Recorded => "recorded in the file",
        Coverage::RunFolder => {
            "from another file of the run (engine log, launch command, metadata)"
        }
        Coverage::Derived => "derived from a verbatim serve command",
        Coverage::Sidecar => "from a sidecar",
        Coverage::Unusable => {
            "present but not what the checklist asks (a tag for a digest, a retyped command)"
        }
        Coverage::Missing => "missing",
        Coverage::NotApplicable => "not asked of this file",
    }
}

/// A coverage state as a column head.
pub fn coverage_head(c: Coverage) -> &'static str {
    match c {
        Coverage::Recorded => "Recorded",
        Coverage::RunFolder => "Run folder",
        Coverage::Derived => "Derived",
        Coverage::Sidecar => "Sidecar",
        Coverage::Unusable => "Not usable",
        Coverage::Missing => "Missing",
        Coverage::NotApplicable => "Not asked",
    }
}

/// The adapters that read a file, or `—` when it holds no result.
pub fn formats(f: &FileRow) -> String {
    if f.formats.is_empty() {
        "—".into()
    } else {
        f.formats.join(", ")
    }
}

/// Each file's checklist row by path, built once per report: a row per file looked up by a
/// walk of every row made the file table quadratic in the files.
pub struct Owed<'a>(BTreeMap<&'a FileText, &'a FileCoverage>);

impl<'a> Owed<'a> {
    /// The rows of `checklist` (the first row of each path).
    pub fn new(checklist: &'a Checklist) -> Self {
        let mut rows = BTreeMap::new();
        for c in &checklist.files {
            rows.entry(&c.path).or_insert(c);
        }
        Owed(rows)
    }

    /// `28 of 33`, or `—` when the file holds no result.
    pub fn of(&self, path: &FileText) -> String {
        self.0
            .get(path)
            .map_or_else(|| "—".into(), |c| format!("{} of {}", c.owed, c.asked))
    }
}

/// What a file lacks, by rule (`` M001 `platform.host`, `platform.description`; M002 ... ``);
/// when it lacks more fields than it records, what it records instead, with where each came
/// from. Field names between backticks, for the renderers' code spans.
pub fn lacks_or_records(checklist: &Checklist, file: &FileCoverage) -> Text {
    let list = |keep: &dyn Fn(Coverage) -> bool,
                note: &dyn Fn(Coverage) -> Option<&'static str>| {
        let mut by_rule: Vec<String> = Vec::new();
        for code in checklist.codes() {
            let fields: Vec<String> = checklist
                .items_of(code)
                .into_iter()
                .filter(|&i| keep(file.states[i]))
                .map(|i| {
                    let field = format!("`{}`", checklist.items[i].field);
                    match note(file.states[i]) {
                        Some(n) => format!("{field} ({n})"),
                        None => field,
                    }
                })
                .collect();
            if !fields.is_empty() {
                by_rule.push(format!("{code} {}", fields.join(", ")));
            }
        }
        by_rule.join("; ")
    };
    let owed = file.owed;
    let present = file.asked - owed;
    Text::own(if owed <= present {
        format!(
            "lacks {}",
            list(&Coverage::is_owed, &|c| (c == Coverage::Unusable)
                .then_some("not usable"))
        )
    } else if present == 0 {
        format!("lacks every field asked of it ({})", count(owed))
    } else {
        format!(
            "records only {}; lacks the other {}",
            list(&Coverage::is_present, &|c| Some(source_word(c))),
            counted(owed, "field asked", "fields asked")
        )
    })
}

/// Where a present value came from, in a word or two.
fn source_word(c: Coverage) -> &'static str {
    match c {
        Coverage::Recorded => "recorded",
        Coverage::RunFolder => "run folder",
        Coverage::Derived => "derived",
        Coverage::Sidecar => "sidecar",
        Coverage::Unusable => "not usable",
        Coverage::Missing => "missing",
        Coverage::NotApplicable => "not asked",
    }
}

/// The overview of the corpus, in sentences.
pub fn overview(report: &AuditReport, corpus: &CorpusReport) -> Vec<String> {
    let with_results = corpus.files.iter().filter(|f| f.results > 0).count();
    let mut out = vec![format!(
        "Read {}: {} in {}, in {}.",
        counted(corpus.files_read, "file", "files"),
        counted(corpus.results, "result", "results"),
        counted(with_results, "file", "files"),
        counted(report.ladders.len(), "configuration", "configurations"),
    )];
    let f = corpus.findings;
    out.push(if f.total() == 0 {
        "No findings.".to_string()
    } else {
        format!(
            "Findings: {}, {}, {} from {}, on {}.",
            counted(f.errors, "error", "errors"),
            counted(f.warnings, "warning", "warnings"),
            counted(f.infos, "info", "infos"),
            counted(corpus.rules.len(), "rule", "rules"),
            counted(
                corpus
                    .files
                    .iter()
                    .filter(|r| r.findings.total() > 0)
                    .count(),
                "file",
                "files"
            ),
        )
    });
    let c = &corpus.checklist;
    if !c.files.is_empty() {
        let asked: usize = c.files.iter().map(|f| f.asked).sum();
        let owed: usize = c.files.iter().map(|f| f.owed).sum();
        let complete = c.files.iter().filter(|f| f.owed == 0).count();
        out.push(format!(
            "Checklist (M001–M014): {} of {} fields owed across the files; {} of {} complete.",
            count(owed),
            count(asked),
            count(complete),
            counted(c.files.len(), "file", "files"),
        ));
    }
    if !report.ladders.is_empty() {
        out.push(format!("Replication: {}.", standings(report)));
    }
    out
}

/// `2 replicated, 3 need more runs, 30 not identified`.
pub fn standings(report: &AuditReport) -> String {
    let all = [
        Standing::Replicated,
        Standing::PreRule,
        Standing::NeedsMore,
        Standing::Unresolved,
        Standing::NotIdentified,
    ];
    // One walk of the ladders: a report's ladders may be made as they are read.
    let mut counts = [0usize; 5];
    for l in report.ladders.iter() {
        if let Some(at) = l
            .replication
            .as_ref()
            .and_then(|r| all.iter().position(|s| *s == r.standing))
        {
            counts[at] += 1;
        }
    }
    let parts: Vec<String> = all
        .iter()
        .zip(counts)
        .filter(|&(_, n)| n > 0)
        .map(|(s, n)| format!("{} {}", count(n), standing_phrase(*s, n)))
        .collect();
    if parts.is_empty() {
        "no configuration judged".into()
    } else {
        parts.join(", ")
    }
}

fn standing_phrase(s: Standing, n: usize) -> &'static str {
    match (s, n == 1) {
        (Standing::Replicated, _) => "replicated",
        (Standing::PreRule, _) => "short only of a pre-rule count",
        (Standing::NeedsMore, true) => "needs more runs",
        (Standing::NeedsMore, false) => "need more runs",
        (Standing::Unresolved, _) => "not yet resolved",
        (Standing::NotIdentified, _) => "not identified",
    }
}

/// The one line `audit -o DIR` prints after writing a corpus report.
pub fn corpus_counts(report: &AuditReport) -> String {
    let Some(corpus) = &report.corpus else {
        return String::new();
    };
    let f = corpus.findings;
    format!(
        "{}, {}; {}, {}, {}; {} ({})",
        counted(corpus.files_read, "file", "files"),
        counted(corpus.results, "result", "results"),
        counted(f.errors, "error", "errors"),
        counted(f.warnings, "warning", "warnings"),
        counted(f.infos, "info", "infos"),
        plural(report.ladders.len(), "configuration", "configurations"),
        standings(report)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_are_grouped() {
        assert_eq!(count(8753), "8,753");
        assert_eq!(counted(1, "file", "files"), "1 file");
        assert_eq!(counted(1204, "file", "files"), "1,204 files");
    }
}
