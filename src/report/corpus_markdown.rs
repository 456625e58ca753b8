//! The corpus sections of `report.md`: the overview, the findings by file and by rule (worst
//! first), the checklist coverage matrix with its legend, the fields table and what each file
//! lacks, and the replication table of the configurations. [`super::audit_markdown`] places
//! them; text from the corpus (paths, field names) is escaped as the rest of the report is.

use std::fmt::Write as _;

use super::spill::Spilling;

use super::audit_text::rule_page;
pub use super::corpus_text::Paths;
use super::corpus_text::{
    Owed, count, counted, coverage_head, coverage_words, formats, lacks_or_records, mark, overview,
};
use crate::audit::{AuditReport, Checklist, ConfigLadder, CorpusReport, Coverage, Ladders};
use crate::text::Text;

/// Benchlint's own words as Markdown text (no code spans: backticks escaped).
pub(super) fn text(s: &str) -> String {
    Text::own(s.replace('`', "'")).md(false)
}

/// `## Overview`: what was read and found, in sentences.
pub fn overview_section(out: &mut String, report: &AuditReport, corpus: &CorpusReport) {
    out.push_str("\n## Corpus overview\n\n");
    for s in overview(report, corpus) {
        let _ = writeln!(out, "- {}", text(&s));
    }
}

/// `## Findings by file`, worst first.
pub fn files_section(out: &mut Spilling<'_>, corpus: &CorpusReport, paths: &Paths) {
    out.push_str("\n## Findings by file\n\n");
    if corpus.files.is_empty() {
        out.push_str("No file holds a result or a finding.\n");
        return;
    }
    out.push_str(
        "Worst first: most errors, then warnings, then infos. A finding about several files counts on the one it is placed on.\n\n",
    );
    out.push_str("| File | Read as | Results | Errors | Warnings | Infos | Checklist owed |\n|---|---|---:|---:|---:|---:|---:|\n");
    let owed = Owed::new(&corpus.checklist);
    for f in &corpus.files {
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} | {} |",
            paths.show(&f.path).md_code(true),
            text(&formats(f)),
            count(f.results),
            count(f.findings.errors),
            count(f.findings.warnings),
            count(f.findings.infos),
            owed.of(&f.path),
        );
        out.spill();
    }
    if corpus.files.iter().any(|f| f.results == 0) {
        out.push_str("\nRead as —: the file holds no result of its own (a claims file, a level or side file of a run read as one result, or a file no adapter reads; its findings say which).\n");
    }
}

/// `## Findings by rule`, worst first.
pub fn rules_section(out: &mut String, corpus: &CorpusReport, pages: bool) {
    out.push_str("\n## Findings by rule\n\n");
    if corpus.rules.is_empty() {
        out.push_str("No rule found anything.\n");
        return;
    }
    out.push_str("Worst first: rules with errors, then warnings, then infos, most findings first. `benchlint rule CODE` explains each.\n\n");
    out.push_str(
        "| Rule | Name | Errors | Warnings | Infos | Files |\n|---|---|---:|---:|---:|---:|\n",
    );
    for r in &corpus.rules {
        // A link only to a page shipped beside the report (`audit -o`); the text above names
        // `benchlint rule CODE` for a printed report.
        let name = match rule_page(r.code, false) {
            Some((page, _)) if pages => format!("[{}]({page})", text(r.name)),
            _ => text(r.name),
        };
        let _ = writeln!(
            out,
            "| {} | {name} | {} | {} | {} | {} |",
            text(r.code),
            count(r.findings.errors),
            count(r.findings.warnings),
            count(r.findings.infos),
            count(r.files),
        );
    }
}

/// `## Checklist coverage`: the matrix (files by the fields of M001–M014), its legend, the
/// fields table and what each file lacks.
pub fn checklist_section(out: &mut Spilling<'_>, checklist: &Checklist, paths: &Paths) {
    out.push_str("\n## Checklist coverage\n\n");
    if checklist.files.is_empty() {
        out.push_str("No file holds a result, so no checklist field was asked.\n");
        return;
    }
    let codes = checklist.codes();
    out.push_str("Each cell holds one mark per field the rule asks for, in the order of the fields table below: ");
    let legend: Vec<String> = Coverage::ALL
        .iter()
        .map(|c| format!("{} {}", own_code(mark(*c), false), text(coverage_words(*c))))
        .collect();
    let _ = writeln!(
        out,
        "{}. Files owing the most fields first.\n",
        legend.join(", ")
    );
    let _ = writeln!(
        out,
        "| File | Owed | {} |",
        codes
            .iter()
            .map(|c| text(c))
            .collect::<Vec<_>>()
            .join(" | ")
    );
    let _ = writeln!(out, "|---|---:|{}", ":-:|".repeat(codes.len()));
    for f in &checklist.files {
        let cells: Vec<String> = codes
            .iter()
            .map(|c| {
                let marks: String = checklist
                    .items_of(c)
                    .into_iter()
                    .map(|i| mark(f.states[i]))
                    .collect();
                own_code(&marks, true)
            })
            .collect();
        let _ = writeln!(
            out,
            "| {} | {} of {} | {} |",
            paths.show(&f.path).md_code(true),
            count(f.owed),
            count(f.asked),
            cells.join(" | ")
        );
        out.spill();
    }
    fields_table(out, checklist);
    lacks(out, checklist, paths);
}

/// Per field, how many files stand in each state.
fn fields_table(out: &mut String, checklist: &Checklist) {
    out.push_str("\nFiles by field and state:\n\n| Rule | Field |");
    for c in Coverage::ALL {
        let _ = write!(out, " {} |", coverage_head(c));
    }
    out.push_str("\n|---|---|");
    out.push_str(&"---:|".repeat(Coverage::ALL.len()));
    out.push('\n');
    for (i, item) in checklist.items.iter().enumerate() {
        let _ = write!(
            out,
            "| {} | {} |",
            text(item.code),
            own_code(&item.field, true)
        );
        for c in Coverage::ALL {
            let n = checklist.files_in(i, c);
            if n == 0 {
                out.push_str(" — |");
            } else {
                let _ = write!(out, " {} |", count(n));
            }
        }
        out.push('\n');
    }
}

/// Each file's owed fields, by rule: what a sidecar (`benchlint sidecar FILE`) must supply; for
/// a file that lacks most of them, what it records instead.
fn lacks(out: &mut Spilling<'_>, checklist: &Checklist, paths: &Paths) {
    if checklist.files.iter().all(|f| f.owed == 0) {
        out.push_str("\nEvery file records every field asked of it.\n");
        return;
    }
    out.push_str("\nWhat each file lacks (missing, or present but not usable), by rule; for a file that lacks most of them, what it records instead:\n\n");
    for f in checklist.files.iter().filter(|f| f.owed > 0) {
        let _ = writeln!(
            out,
            "- {} ({}): {}.",
            paths.show(&f.path).md_code(false),
            counted(f.results, "result", "results"),
            lacks_or_records(checklist, f).md(false)
        );
        out.spill();
    }
}

/// The replication table at the head of `## Configurations`.
pub fn replication_table(out: &mut Spilling<'_>, ladders: &Ladders<'_>) {
    if ladders.iter().all(|l| l.replication.is_none()) {
        return;
    }
    out.push_str("\nWhat is missing before a figure from each configuration could be published (runs and launches as the replication rules count them).\n\n");
    out.push_str(
        "| Configuration | Runs | Launches | Full ladders | Standing |\n|---|---:|---:|---:|---|\n",
    );
    for l in ladders.iter() {
        let Some(r) = &l.replication else {
            continue;
        };
        let _ = writeln!(
            out,
            "| {} {} | {} | {} | {} | {} |",
            l.label.md(),
            own_code(&l.fingerprint, true),
            count(r.runs),
            count(r.launches),
            count(r.full_ladders),
            text(r.standing.words()),
        );
        out.spill();
    }
}

/// The replication sentence of one configuration.
pub fn replication_line(out: &mut String, l: &ConfigLadder) {
    if let Some(r) = &l.replication {
        let _ = writeln!(out, "Replication: {}.\n", r.summary.md(false));
    }
}

/// Benchlint's own text (a mark, a field name, a fingerprint) as a code span.
fn own_code(s: &str, in_table: bool) -> String {
    Text::own(format!("`{s}`")).md(in_table)
}
