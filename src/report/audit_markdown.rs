//! `benchlint audit` as Markdown (`report.md`, and stdout by default): the summary table, each
//! claim with its verdict, codes, reasons and basis (with `--claims`), the corpus sections
//! ([`super::corpus_markdown`]), each configuration's ladder with its intervals, capacity and
//! replication status, and the losing runs. Text from the corpus is escaped, so a statement
//! cannot break a table or inject markup.

use std::fmt::Write as _;
use std::io;

use super::audit_text::{
    AuditContext, LadderIndex, capacity_sentence, claim_value, estimate, floor_text, rule_page,
    verdict_counts, verdict_sentence,
};
use super::corpus_markdown::{self, text};
use super::spill::{self, Spilling};
use crate::audit::{AuditReport, ClaimOutcome, ConfigLadder};
use crate::text::{FileText, Text};

/// Renders the report as Markdown: with a claims file, the summary and the claims first (what
/// the report is for), then the corpus sections; without, the corpus sections alone. The
/// configurations and the losing runs close both.
pub fn render(report: &AuditReport, ctx: &AuditContext) -> Vec<u8> {
    spill::in_memory(|sink| write(report, ctx, sink))
}

/// [`render`], handed to `sink` a section at a time.
pub fn write(report: &AuditReport, ctx: &AuditContext, sink: &mut dyn io::Write) -> io::Result<()> {
    let mut out = Spilling::new(sink);
    let claims = ctx.claims_file.is_some();
    let paths = report
        .corpus
        .as_ref()
        .map(|c| corpus_markdown::Paths::new(ctx, c))
        .unwrap_or_default();
    header(&mut out, report, ctx, &paths);
    if claims {
        summary(&mut out, report);
        out.push_str("\n## Claims\n");
        let ladders = LadderIndex::new(report);
        for claim in &report.claims {
            claim_section(&mut out, &ladders, claim, ctx.rule_pages);
            out.spill();
        }
    }
    if let Some(corpus) = &report.corpus {
        corpus_markdown::overview_section(&mut out, report, corpus);
        corpus_markdown::files_section(&mut out, corpus, &paths);
        corpus_markdown::rules_section(&mut out, corpus, ctx.rule_pages);
        corpus_markdown::checklist_section(&mut out, &corpus.checklist, &paths);
        out.spill();
    }
    out.push_str("\n## Configurations\n");
    if report.ladders.is_empty() {
        out.push_str("\nNo configuration produced a ladder.\n");
    } else {
        // benchlint's own words, not text from an input.
        let _ = writeln!(out, "\n{}", crate::fingerprint::LABEL_LEGEND);
    }
    corpus_markdown::replication_table(&mut out, &report.ladders);
    for ladder in report.ladders.iter() {
        ladder_section(&mut out, &ladder, report.floor_tok_s);
        out.spill();
    }
    losing_runs(&mut out, report, &paths);
    out.finish()
}

fn header(
    out: &mut String,
    report: &AuditReport,
    ctx: &AuditContext,
    paths: &corpus_markdown::Paths,
) {
    out.push_str(if ctx.claims_file.is_some() {
        "# Retractions report\n\n"
    } else {
        "# Corpus report\n\n"
    });
    let mut line = format!("Written by benchlint {}", text(&ctx.version));
    if !ctx.inputs.is_empty() {
        let inputs: Vec<String> = ctx.inputs.iter().map(|i| i.md_code(false)).collect();
        let _ = write!(line, " from {}", inputs.join(", "));
    }
    if paths.relative() {
        line.push_str(" (paths below are relative to it)");
    }
    if let Some(c) = &ctx.claims_file {
        let _ = write!(line, " with the claims in {}", c.md_code(false));
    }
    let _ = writeln!(
        out,
        "{line}. Service-level floor: {}.",
        floor_text(report.floor_tok_s)
    );
    if ctx.claims_file.is_some() {
        let _ = writeln!(out, "\n{}", verdict_counts(report));
    }
}

fn summary(out: &mut Spilling<'_>, report: &AuditReport) {
    out.push_str("\n## Summary\n\n");
    if report.claims.is_empty() {
        out.push_str("The claims file holds no claim.\n");
        return;
    }
    out.push_str("| Claim | Published | Verdict | Restated | Codes |\n|---|---:|---|---:|---|\n");
    for c in &report.claims {
        let restated = c
            .restated_value
            .map_or_else(|| "—".to_string(), |r| text(&claim_value(c, r)));
        let codes = if c.codes.is_empty() {
            "—".to_string()
        } else {
            text(&c.codes.join(", "))
        };
        let _ = writeln!(
            out,
            "| {} | {} | **{}** | {restated} | {codes} |",
            c.id.md_code(true),
            text(&claim_value(c, c.published_value)),
            c.verdict.as_str(),
        );
        out.spill();
    }
}

fn claim_section(out: &mut String, ladders_held: &LadderIndex<'_>, c: &ClaimOutcome, pages: bool) {
    let _ = writeln!(out, "\n### {}\n", c.id.md_code(false));
    if let Some(s) = c.statement.as_ref().filter(|s| !s.raw().trim().is_empty()) {
        let _ = writeln!(out, "> {}\n", s.md());
    }
    let _ = writeln!(
        out,
        "Verdict: **{}** — {}\n",
        c.verdict.as_str(),
        verdict_sentence(c).md(false)
    );
    if c.codes.is_empty() {
        out.push_str("Codes: none.\n");
    } else {
        let codes: Vec<String> = c
            .codes
            .iter()
            .map(|code| match rule_page(code, false) {
                Some((page, name)) if pages => {
                    format!("[{} {}]({page})", text(code), text(name))
                }
                Some((_, name)) => {
                    format!(
                        "{} {} (`benchlint rule {}`)",
                        text(code),
                        text(name),
                        text(code)
                    )
                }
                None => text(code),
            })
            .collect();
        let _ = writeln!(out, "Codes: {}.", codes.join(", "));
    }
    if !c.reasons.is_empty() {
        out.push_str("\nReasons:\n\n");
        for r in &c.reasons {
            let _ = writeln!(out, "- {}", r.md(false));
        }
    }
    if let Some(b) = c.basis.as_ref().map(Text::raw) {
        let b = b.trim_end_matches('.');
        if !b.trim().is_empty() {
            let _ = writeln!(out, "\nBasis: {}.", Text::quoting(b).md(false));
        }
    }
    let ids = |v: &[FileText]| {
        v.iter()
            .map(|i| i.md_code(false))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut runs = Vec::new();
    if !c.subject.is_empty() {
        runs.push(format!("subject {}", ids(&c.subject)));
    }
    if !c.baseline.is_empty() {
        runs.push(format!("baseline {}", ids(&c.baseline)));
    }
    if !runs.is_empty() {
        let _ = writeln!(out, "\nRuns: {}.", runs.join("; "));
    }
    let ladders = ladders_held.of(c);
    if !ladders.is_empty() {
        let names: Vec<String> = ladders.iter().map(|(_, l)| l.label.md()).collect();
        let _ = writeln!(out, "\nConfigurations: {}.", names.join("; "));
    }
}

fn ladder_section(out: &mut String, l: &ConfigLadder, floor: f64) {
    let _ = writeln!(
        out,
        "\n### {} ({})\n",
        l.label.md(),
        FileText::from(l.fingerprint.as_str()).md_code(false)
    );
    if !l.results.is_empty() {
        let ids: Vec<String> = l.results.iter().map(|i| i.md_code(false)).collect();
        let _ = writeln!(out, "Results: {}.\n", ids.join(", "));
    }
    corpus_markdown::replication_line(out, l);
    if l.points.is_empty() {
        out.push_str("No level with figures.\n\n");
    } else {
        out.push_str(
            "| Level | Aggregate tok/s (95% CI) | Per-user tok/s (95% CI) | Runs | Launches |\n|---:|---:|---:|---:|---:|\n",
        );
        for p in &l.points {
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} | {} |",
                p.key,
                estimate(p.aggregate_tok_s.as_ref(), 1),
                estimate(p.per_user_tok_s.as_ref(), 1),
                p.runs,
                p.launches
            );
        }
        out.push('\n');
    }
    let _ = writeln!(out, "{}", capacity_sentence(l, floor));
}

fn losing_runs(out: &mut Spilling<'_>, report: &AuditReport, paths: &corpus_markdown::Paths) {
    out.push_str("\n## Losing runs\n\n");
    if report.losing_runs.is_empty() {
        out.push_str(if report.ladders.is_empty() {
            "None: no result was read.\n"
        } else {
            "None: every result produced figures. A corpus without a failed, aborted or does-not-fit result may have been curated (S009).\n"
        });
        return;
    }
    let n = report.losing_runs.len();
    let _ = writeln!(
        out,
        "{n} {} that did not produce figures, reported as results (seed 004: publish the losing configurations).\n",
        if n == 1 { "result" } else { "results" }
    );
    out.push_str("| Result | Outcome | File | Notes |\n|---|---|---|---|\n");
    for r in &report.losing_runs {
        let notes = r
            .notes
            .as_ref()
            .map_or_else(|| "—".to_string(), FileText::md);
        let _ = writeln!(
            out,
            "| {} | {} | {} | {notes} |",
            r.id.md_code(true),
            text(&r.outcome),
            paths.show(&r.path).md_code(true)
        );
        out.spill();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Active characters are escaped, line breaks written out.
    #[test]
    fn text_escapes_markdown() {
        assert_eq!(text("a|b <i>&\n[x](y)"), "a\\|b &lt;i&gt;&amp; \\[x\\](y)");
        assert_eq!(FileText::from("a|b").md_code(true), "`a\\|b`");
        assert_eq!(FileText::from("a|b").md_code(false), "`a|b`");
        assert_eq!(Text::quoting("on `a|b`: x|y").md(false), "on `a|b`: x\\|y");
        assert_eq!(Text::quoting("odd ` tick").md(false), "odd \\` tick");
        assert_eq!(FileText::from("a`b").md_code(false), "``a`b``");
    }
}
