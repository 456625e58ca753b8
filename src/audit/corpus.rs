//! The corpus sections of `benchlint audit`: an overview of what was read, the findings by file
//! and by rule (counts by severity, worst first) and the checklist coverage. Built from what
//! `check` finds ([`crate::engine::check`]), so the counts are the ones `check` prints; the
//! replication status of each configuration sits with its ladder ([`super::ConfigLadder`]).

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use super::checklist::Checklist;
use crate::diagnostic::{Finding, RuleMeta, Severity};
use crate::model::loaded::LoadedResult;
use crate::text::{FileText, PathText};

/// Findings counted by severity.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Serialize)]
pub struct SeverityCounts {
    /// At error severity.
    pub errors: usize,
    /// At warning severity.
    pub warnings: usize,
    /// At info severity (pre-rule labels included).
    pub infos: usize,
}

impl SeverityCounts {
    /// Counts one finding.
    pub fn add(&mut self, severity: Severity) {
        match severity {
            Severity::Error => self.errors += 1,
            Severity::Warning => self.warnings += 1,
            Severity::Info => self.infos += 1,
        }
    }

    /// All of them.
    pub fn total(&self) -> usize {
        self.errors + self.warnings + self.infos
    }

    /// The most severe level counted, if any.
    pub fn worst(&self) -> Option<Severity> {
        if self.errors > 0 {
            Some(Severity::Error)
        } else if self.warnings > 0 {
            Some(Severity::Warning)
        } else if self.infos > 0 {
            Some(Severity::Info)
        } else {
            None
        }
    }

    /// Worst first: more errors, then more warnings, then more infos.
    fn worse_first(&self, other: &Self) -> std::cmp::Ordering {
        (other.errors, other.warnings, other.infos).cmp(&(self.errors, self.warnings, self.infos))
    }
}

/// The findings on one file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FileRow {
    /// The file, as reached from the command line (a file name is text from an input).
    pub path: FileText,
    /// The adapters that read its results (`vllm`, `canonical`, ...); empty when it holds none.
    pub formats: Vec<&'static str>,
    /// How many results it holds.
    pub results: usize,
    /// Its findings by severity (a finding about several files counts on the one it is placed on).
    pub findings: SeverityCounts,
    /// The rule codes found on it, sorted.
    pub codes: Vec<&'static str>,
}

/// The findings of one rule.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RuleRow {
    /// Its code.
    pub code: &'static str,
    /// Its kebab-case name.
    pub name: &'static str,
    /// Its default severity.
    pub severity: Severity,
    /// Its findings by severity (a configuration, an adoption date or a softer band can move a
    /// finding from the rule's default).
    pub findings: SeverityCounts,
    /// How many files it found something on.
    pub files: usize,
}

/// What the corpus sections show.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CorpusReport {
    /// Files read (results, claims, sidecars, side files a harness writes, broken ones).
    pub files_read: usize,
    /// Canonical results loaded.
    pub results: usize,
    /// Every finding, by severity.
    pub findings: SeverityCounts,
    /// Files with results or findings, worst first.
    pub files: Vec<FileRow>,
    /// Rules with findings, worst first.
    pub rules: Vec<RuleRow>,
    /// The checklist coverage, file by file.
    pub checklist: Checklist,
}

/// The findings counted as they go past, by file, by rule and in all: what the corpus
/// sections show of them, without holding them (an audit of a large corpus would otherwise
/// keep every finding `check` lists until the report is built).
#[derive(Debug, Default)]
pub struct FindingTally {
    total: SeverityCounts,
    files: BTreeMap<PathText, FileTally>,
    rules: BTreeMap<&'static str, RuleTally>,
}

/// What is counted of one file's findings. Its codes are a sorted list, not a set: a file has
/// a few, and a set's node for each of tens of thousands of files was most of the tally.
#[derive(Debug, Default)]
struct FileTally {
    findings: SeverityCounts,
    codes: Vec<&'static str>,
}

/// What is counted of one rule's findings. The files it found something on are counted from
/// the files' own codes when the report is built, not held here a second time; only the paths
/// its findings about the corpus as a whole are placed on (one, or a few) are kept.
#[derive(Debug)]
struct RuleTally {
    rule: &'static RuleMeta,
    findings: SeverityCounts,
    corpus_paths: BTreeSet<PathText>,
}

/// Adds `item` to the sorted list `list` unless it is there.
fn insert_sorted<T: Ord>(list: &mut Vec<T>, item: T) {
    if let Err(at) = list.binary_search(&item) {
        list.insert(at, item);
    }
}

impl FindingTally {
    /// The tally of `findings`.
    pub fn of(findings: &[Finding]) -> Self {
        let mut tally = Self::default();
        tally.add_all(findings);
        tally
    }

    /// Counts each of `findings`.
    pub fn add_all(&mut self, findings: &[Finding]) {
        for f in findings {
            self.add(f);
        }
    }

    /// Counts one finding: in the total, on its rule, and on its file unless it is about the
    /// corpus as a whole (on no file: counted by rule and in the total, never as a row of the
    /// files).
    pub fn add(&mut self, f: &Finding) {
        self.total.add(f.severity);
        if !f.corpus {
            let t = self.files.entry(f.primary.path.clone()).or_default();
            t.findings.add(f.severity);
            insert_sorted(&mut t.codes, f.rule.code);
        }
        let row = self.rules.entry(f.rule.code).or_insert_with(|| RuleTally {
            rule: f.rule,
            findings: SeverityCounts::default(),
            corpus_paths: BTreeSet::new(),
        });
        row.findings.add(f.severity);
        if f.corpus {
            row.corpus_paths.insert(f.primary.path.clone());
        }
    }

    /// Every finding counted, by severity.
    pub fn total(&self) -> SeverityCounts {
        self.total
    }
}

/// The corpus sections of `results` and the findings counted in `tally` (as `check` reports
/// them).
pub fn build(
    files_read: usize,
    results: &[LoadedResult],
    mut tally: FindingTally,
    checklist: Checklist,
) -> CorpusReport {
    #[derive(Default)]
    struct Row {
        formats: Vec<&'static str>,
        results: usize,
        findings: SeverityCounts,
        codes: Vec<&'static str>,
    }
    // Each rule's files: those whose codes name it, and the places of its findings about the
    // corpus that are no such file.
    let mut rule_files: BTreeMap<&'static str, usize> = BTreeMap::new();
    for counted in tally.files.values() {
        for code in &counted.codes {
            *rule_files.entry(code).or_default() += 1;
        }
    }
    for (code, t) in &tally.rules {
        let elsewhere = t
            .corpus_paths
            .iter()
            .filter(|p| {
                tally
                    .files
                    .get(*p)
                    .is_none_or(|f| f.codes.binary_search(code).is_err())
            })
            .count();
        *rule_files.entry(code).or_default() += elsewhere;
    }
    let mut files: BTreeMap<&str, Row> = BTreeMap::new();
    for r in results {
        let t = files.entry(r.origin.path.raw()).or_default();
        insert_sorted(&mut t.formats, r.origin.format);
        t.results += 1;
    }
    for (path, counted) in &mut tally.files {
        let t = files.entry(path.raw()).or_default();
        t.findings = counted.findings;
        t.codes = std::mem::take(&mut counted.codes);
    }
    let mut files: Vec<FileRow> = files
        .into_iter()
        .map(|(path, t)| FileRow {
            path: FileText::new(path),
            formats: t.formats,
            results: t.results,
            findings: t.findings,
            codes: t.codes,
        })
        .collect();
    files.sort_by(|a, b| {
        a.findings
            .worse_first(&b.findings)
            .then_with(|| a.path.cmp(&b.path))
    });
    let mut rules: Vec<RuleRow> = tally
        .rules
        .into_iter()
        .map(|(code, t)| RuleRow {
            code,
            name: t.rule.name,
            severity: t.rule.severity,
            findings: t.findings,
            files: rule_files.get(code).copied().unwrap_or(0),
        })
        .collect();
    rules.sort_by(|a, b| {
        b.findings
            .worst()
            .cmp(&a.findings.worst())
            .then_with(|| b.findings.total().cmp(&a.findings.total()))
            .then_with(|| a.code.cmp(b.code))
    });
    CorpusReport {
        files_read,
        results: results.len(),
        findings: tally.total,
        files,
        rules,
        checklist,
    }
}
