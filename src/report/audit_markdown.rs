//! `benchlint audit` as Markdown (`report.md`, and stdout by default): the summary table, each
//! claim with its verdict, codes, reasons and basis, each configuration's ladder with its
//! intervals and capacity, and the losing runs. Text from the corpus is escaped, so a
//! statement cannot break a table or inject markup.

use std::fmt::Write as _;

use super::audit_text::{
    AuditContext, capacity_sentence, claim_value, estimate, floor_text, ladders_of, one_line,
    rule_page, verdict_counts, verdict_sentence,
};
use super::corpus_markdown;
use crate::audit::{AuditReport, ClaimOutcome, ConfigLadder};

/// Renders the report as Markdown: with a claims file, the summary and the claims first (what
/// the report is for), then the corpus sections; without, the corpus sections alone. The
/// configurations and the losing runs close both.
pub fn render(report: &AuditReport, ctx: &AuditContext) -> Vec<u8> {
    let mut out = String::new();
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
        for claim in &report.claims {
            claim_section(&mut out, report, claim);
        }
    }
    if let Some(corpus) = &report.corpus {
        corpus_markdown::overview_section(&mut out, report, corpus);
        corpus_markdown::files_section(&mut out, corpus, &paths);
        corpus_markdown::rules_section(&mut out, corpus);
        corpus_markdown::checklist_section(&mut out, &corpus.checklist, &paths);
    }
    out.push_str("\n## Configurations\n");
    if report.ladders.is_empty() {
        out.push_str("\nNo configuration produced a ladder.\n");
    }
    corpus_markdown::replication_table(&mut out, &report.ladders);
    for ladder in &report.ladders {
        ladder_section(&mut out, ladder, report.floor_tok_s);
    }
    losing_runs(&mut out, report, &paths);
    out.into_bytes()
}

/// Text with the characters that could make markup escaped (`\`, `[`, `]`, `<`, `>`, `&`, `|`,
/// `` ` ``), on one line: safe in a paragraph, a list item and a table cell.
pub(crate) fn text(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in one_line(s).chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '\\' | '[' | ']' | '|' | '`' => {
                out.push('\\');
                out.push(c);
            }
            _ => out.push(c),
        }
    }
    out
}

/// Text as inline code, on one line, outside a table.
pub(super) fn code(s: &str) -> String {
    let s = one_line(s);
    if s.contains('`') {
        format!("`` {s} ``")
    } else {
        format!("`{s}`")
    }
}

/// Text as inline code in a table cell: `|` escaped (GFM removes the backslash inside code
/// spans in tables, and only there).
pub(super) fn cell_code(s: &str) -> String {
    code(&s.replace('|', "\\|"))
}

/// A sentence from the analysis, whose `` `...` `` spans (result ids, labels) stay code and
/// whose other text is escaped; with an odd number of backticks, all of it is text.
pub(super) fn inline(s: &str) -> String {
    let parts: Vec<&str> = s.split('`').collect();
    if parts.len().is_multiple_of(2) {
        return text(s);
    }
    parts
        .iter()
        .enumerate()
        .map(|(i, p)| {
            if i % 2 == 1 && !p.is_empty() {
                code(p)
            } else {
                text(p)
            }
        })
        .collect()
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
        let inputs: Vec<String> = ctx.inputs.iter().map(|i| code(i)).collect();
        let _ = write!(line, " from {}", inputs.join(", "));
    }
    if paths.base().is_some() {
        line.push_str(" (paths below are relative to it)");
    }
    if let Some(c) = &ctx.claims_file {
        let _ = write!(line, " with the claims in {}", code(c));
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

fn summary(out: &mut String, report: &AuditReport) {
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
            cell_code(&c.id),
            text(&claim_value(c, c.published_value)),
            c.verdict.as_str(),
        );
    }
}

fn claim_section(out: &mut String, report: &AuditReport, c: &ClaimOutcome) {
    let _ = writeln!(out, "\n### {}\n", code(&c.id));
    if let Some(s) = c.statement.as_deref().filter(|s| !s.trim().is_empty()) {
        let _ = writeln!(out, "> {}\n", text(s));
    }
    let _ = writeln!(
        out,
        "Verdict: **{}** — {}\n",
        c.verdict.as_str(),
        text(&verdict_sentence(c))
    );
    if c.codes.is_empty() {
        out.push_str("Codes: none.\n");
    } else {
        let codes: Vec<String> = c
            .codes
            .iter()
            .map(|code| match rule_page(code) {
                Some((page, name)) => format!("[{} {}]({page})", text(code), text(name)),
                None => text(code),
            })
            .collect();
        let _ = writeln!(out, "Codes: {}.", codes.join(", "));
    }
    if !c.reasons.is_empty() {
        out.push_str("\nReasons:\n\n");
        for r in &c.reasons {
            let _ = writeln!(out, "- {}", inline(r));
        }
    }
    if let Some(b) = c.basis.as_deref().filter(|b| !b.trim().is_empty()) {
        let _ = writeln!(out, "\nBasis: {}.", inline(b.trim_end_matches('.')));
    }
    let ids = |v: &[String]| v.iter().map(|i| code(i)).collect::<Vec<_>>().join(", ");
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
    let ladders = ladders_of(report, c);
    if !ladders.is_empty() {
        let names: Vec<String> = ladders.iter().map(|(_, l)| text(&l.label)).collect();
        let _ = writeln!(out, "\nConfigurations: {}.", names.join("; "));
    }
}

fn ladder_section(out: &mut String, l: &ConfigLadder, floor: f64) {
    let _ = writeln!(out, "\n### {} ({})\n", text(&l.label), code(&l.fingerprint));
    if !l.results.is_empty() {
        let ids: Vec<String> = l.results.iter().map(|i| code(i)).collect();
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

fn losing_runs(out: &mut String, report: &AuditReport, paths: &corpus_markdown::Paths) {
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
        let notes = r.notes.as_deref().map_or_else(|| "—".to_string(), text);
        let _ = writeln!(
            out,
            "| {} | {} | {} | {notes} |",
            cell_code(&r.id),
            text(&r.outcome),
            cell_code(paths.show(&r.path))
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Active characters are escaped, line breaks removed.
    #[test]
    fn text_escapes_markdown() {
        assert_eq!(text("a|b <i>&\n[x](y)"), "a\\|b &lt;i&gt;&amp; \\[x\\](y)");
        assert_eq!(cell_code("a|b"), "`a\\|b`");
        assert_eq!(code("a|b"), "`a|b`");
        assert_eq!(inline("on `a|b`: x|y"), "on `a|b`: x\\|y");
        assert_eq!(inline("odd ` tick"), "odd \\` tick");
        assert_eq!(code("a`b"), "`` a`b ``");
    }
}
