//! `report.html`: the audit as one self-contained page, the same content as the Markdown, with
//! an inline SVG ladder chart per configuration and a bar chart per ratio claim. No script, no
//! external stylesheet, font or image, no network: an inline `<style>` and a Content Security
//! Policy that forbids anything else.

use std::fmt::Write as _;
use std::io;

use super::audit_text::{
    AuditContext, LadderIndex, anchor, capacity_sentence, claim_value, estimate, floor_text,
    is_ratio, rule_page, verdict_counts, verdict_sentence,
};
use super::corpus_html::{self, code};
use super::spill::{self, Spilling};
use super::svg::{escape, ladder_chart, ratio_chart, unplotted};
use crate::audit::{AuditReport, ClaimOutcome, ConfigLadder, Verdict};
use crate::text::{FileText, Text};

const STYLE: &str = r"
:root { color-scheme: light; }
body { margin: 0; background: #f6f8fa; color: #1f2328;
  font: 15px/1.5 system-ui, -apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif; }
main { max-width: 820px; margin: 0 auto; padding: 24px 20px 48px; background: #ffffff; }
h1 { font-size: 1.7em; margin: 0 0 .3em; }
h2 { font-size: 1.3em; margin: 1.8em 0 .6em; padding-bottom: .2em; border-bottom: 1px solid #d0d7de; }
h3 { font-size: 1.08em; margin: 1.6em 0 .4em; }
p { margin: .45em 0; }
.meta { color: #57606a; }
code { font: .9em ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; background: #eff1f3;
  padding: .05em .3em; border-radius: 4px; overflow-wrap: anywhere; }
table { border-collapse: collapse; margin: .6em 0; font-size: .92em; width: 100%; }
th, td { border: 1px solid #d0d7de; padding: 4px 8px; text-align: left; vertical-align: top; }
th { background: #f6f8fa; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
blockquote { margin: .5em 0; padding: .2em .9em; border-left: 4px solid #d0d7de; color: #3d444d; }
ul { margin: .3em 0; padding-left: 1.4em; }
.verdict { display: inline-block; padding: 0 .5em; border-radius: 1em; font-size: .85em;
  font-weight: 600; color: #ffffff; vertical-align: middle; }
.v-upheld { background: #1a7f37; }
.v-restated { background: #9a6700; }
.v-unresolved { background: #57606a; }
.v-retracted { background: #cf222e; }
.v-pre-rule { background: #8250df; }
section.claim + section.claim, section.ladder + section.ladder { border-top: 1px solid #eaeef2; }
figure { margin: .8em 0; }
figcaption { font-size: .85em; color: #57606a; }
svg.chart { display: block; max-width: 100%; height: auto; background: #ffffff; }
svg.chart text { font-family: system-ui, -apple-system, 'Segoe UI', Roboto, Arial, sans-serif; fill: #1f2328; }
svg.chart text.title { fill: #57606a; }
svg.chart text.value { font-weight: 600; }
svg.chart text.halo { paint-order: stroke; stroke: #ffffff; stroke-width: 3px; stroke-linejoin: round; }
.key { display: inline-block; width: .8em; height: .8em; border-radius: 50%; vertical-align: -.05em;
  border: 1.5px solid #0969da; background: #0969da; margin: 0 .25em 0 .8em; }
.key:first-of-type { margin-left: 0; }
.key.k-below { background: #ffffff; }
.key.k-capacity { background: #1a7f37; border-color: #1a7f37; outline: 1.5px solid #1a7f37; outline-offset: 1.5px; }
.key.k-marginal { background: #bc4c00; border-color: #bc4c00; }
td.id { white-space: nowrap; }
p.capacity { background: #f6f8fa; border-left: 4px solid #1a7f37; padding: .3em .8em; }
footer { margin-top: 2.5em; font-size: .85em; color: #57606a; }
";

/// Renders the report as one HTML page, in the order of the Markdown: with a claims file, the
/// summary and the claims first, then the corpus sections; without, the corpus sections alone;
/// the configurations and the losing runs close both.
pub fn render(report: &AuditReport, ctx: &AuditContext) -> Vec<u8> {
    spill::in_memory(|sink| write(report, ctx, sink))
}

/// [`render`], handed to `sink` a section at a time.
pub fn write(report: &AuditReport, ctx: &AuditContext, sink: &mut dyn io::Write) -> io::Result<()> {
    let claims = ctx.claims_file.is_some();
    let title = if claims {
        "Retractions report"
    } else {
        "Corpus report"
    };
    let mut out = Spilling::new(sink);
    out.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    out.push_str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
    out.push_str("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'\">\n");
    let _ = writeln!(
        out,
        "<meta name=\"generator\" content=\"benchlint {}\">",
        escape(&ctx.version)
    );
    let _ = write!(out, "<title>{title}</title>\n<style>");
    out.push_str(STYLE);
    if report.corpus.is_some() {
        out.push_str(corpus_html::STYLE);
    }
    let _ = write!(out, "</style>\n</head>\n<body>\n<main>\n<h1>{title}</h1>\n");
    let paths = report
        .corpus
        .as_ref()
        .map(|c| corpus_html::Paths::new(ctx, c))
        .unwrap_or_default();
    header(&mut out, report, ctx, &paths);
    if report.corpus.is_some() {
        corpus_html::contents(&mut out, claims, true);
    }
    if claims {
        summary(&mut out, report);
        out.push_str("<h2 id=\"claims\">Claims</h2>\n");
        let ladders = LadderIndex::new(report);
        for (i, claim) in report.claims.iter().enumerate() {
            claim_section(&mut out, &ladders, i, claim, ctx.rule_pages);
            out.spill();
        }
    }
    if let Some(corpus) = &report.corpus {
        corpus_html::sections(&mut out, report, corpus, &paths, ctx.rule_pages);
        out.spill();
    }
    out.push_str("<h2 id=\"configurations\">Configurations</h2>\n");
    if report.ladders.is_empty() {
        out.push_str("<p>No configuration produced a ladder.</p>\n");
    } else {
        let _ = writeln!(
            out,
            "<p>{}</p>",
            Text::own(crate::fingerprint::LABEL_LEGEND).html()
        );
    }
    corpus_html::replication_table(&mut out, &report.ladders);
    for (i, ladder) in report.ladders.iter().enumerate() {
        ladder_section(&mut out, i, &ladder, report.floor_tok_s);
        out.spill();
    }
    losing_runs(&mut out, report, &paths);
    let verdicts = if claims {
        " Verdicts: upheld, restated (on a matched basis), unresolved, retracted, pre-rule (measured before the rule was adopted: labelled, not failed)."
    } else {
        ""
    };
    let _ = writeln!(
        out,
        "<footer>Written by benchlint {}. Intervals are 95% intervals over launch means (within one launch when a level rests on one).{verdicts}</footer>",
        escape(&ctx.version)
    );
    out.push_str("</main>\n</body>\n</html>\n");
    out.finish()
}

fn badge(v: Verdict) -> String {
    format!("<span class=\"verdict v-{0}\">{0}</span>", v.as_str())
}

fn header(out: &mut String, report: &AuditReport, ctx: &AuditContext, paths: &corpus_html::Paths) {
    let mut line = format!("Written by benchlint {}", escape(&ctx.version));
    if !ctx.inputs.is_empty() {
        let inputs: Vec<String> = ctx.inputs.iter().map(code).collect();
        let _ = write!(line, " from {}", inputs.join(", "));
    }
    if paths.relative() {
        line.push_str(" (paths below are relative to it)");
    }
    if let Some(c) = &ctx.claims_file {
        let _ = write!(line, " with the claims in {}", code(c));
    }
    let _ = writeln!(
        out,
        "<p class=\"meta\">{line}. Service-level floor: {}.</p>",
        escape(&floor_text(report.floor_tok_s))
    );
    if ctx.claims_file.is_some() {
        let _ = writeln!(out, "<p>{}</p>", escape(&verdict_counts(report)));
    }
}

fn summary(out: &mut Spilling<'_>, report: &AuditReport) {
    out.push_str("<h2 id=\"summary\">Summary</h2>\n");
    if report.claims.is_empty() {
        out.push_str("<p>The claims file holds no claim.</p>\n");
        return;
    }
    out.push_str("<table class=\"summary\">\n<thead><tr><th>Claim</th><th class=\"num\">Published</th><th>Verdict</th><th class=\"num\">Restated</th><th>Codes</th></tr></thead>\n<tbody>\n");
    for (i, c) in report.claims.iter().enumerate() {
        let restated = c
            .restated_value
            .map_or_else(|| "—".to_string(), |r| escape(&claim_value(c, r)));
        let codes = if c.codes.is_empty() {
            "—".to_string()
        } else {
            escape(&c.codes.join(", "))
        };
        let _ = writeln!(
            out,
            "<tr><td><a href=\"#{}\">{}</a></td><td class=\"num\">{}</td><td>{}</td><td class=\"num\">{restated}</td><td>{codes}</td></tr>",
            anchor("claim", i, &c.id.masked()),
            code(&c.id),
            escape(&claim_value(c, c.published_value)),
            badge(c.verdict),
        );
        out.spill();
    }
    out.push_str("</tbody>\n</table>\n");
}

fn claim_section(
    out: &mut String,
    ladders_held: &LadderIndex<'_>,
    i: usize,
    c: &ClaimOutcome,
    pages: bool,
) {
    let _ = writeln!(
        out,
        "<section class=\"claim\" id=\"{}\">",
        anchor("claim", i, &c.id.masked())
    );
    let _ = writeln!(out, "<h3>{} {}</h3>", code(&c.id), badge(c.verdict));
    if let Some(s) = c.statement.as_ref().filter(|s| !s.raw().trim().is_empty()) {
        let _ = writeln!(out, "<blockquote>{}</blockquote>", s.html());
    }
    let _ = writeln!(
        out,
        "<p>Verdict: <strong>{}</strong> — {}</p>",
        c.verdict.as_str(),
        verdict_sentence(c).html()
    );
    if is_ratio(c) {
        let _ = writeln!(
            out,
            "<figure>\n{}<figcaption>The ratio as published beside the audited value; the dashed line is a tie (1.00×).</figcaption>\n</figure>",
            ratio_chart(c)
        );
    }
    if c.codes.is_empty() {
        out.push_str("<p>Codes: none.</p>\n");
    } else {
        let codes: Vec<String> = c
            .codes
            .iter()
            .map(|code| match rule_page(code, true) {
                Some((page, name)) if pages => format!(
                    "<a href=\"{}\">{} {}</a>",
                    escape(&page),
                    escape(code),
                    escape(name)
                ),
                Some((_, name)) => format!(
                    "{} {} (<code>benchlint rule {}</code>)",
                    escape(code),
                    escape(name),
                    escape(code)
                ),
                None => escape(code),
            })
            .collect();
        let _ = writeln!(out, "<p>Codes: {}.</p>", codes.join(", "));
    }
    if !c.reasons.is_empty() {
        out.push_str("<p>Reasons:</p>\n<ul>\n");
        for r in &c.reasons {
            let _ = writeln!(out, "<li>{}</li>", r.html());
        }
        out.push_str("</ul>\n");
    }
    if let Some(b) = c.basis.as_ref().map(Text::raw) {
        let b = b.trim_end_matches('.');
        if !b.trim().is_empty() {
            let _ = writeln!(out, "<p>Basis: {}.</p>", Text::quoting(b).html());
        }
    }
    let ids = |v: &[FileText]| v.iter().map(code).collect::<Vec<_>>().join(", ");
    let mut runs = Vec::new();
    if !c.subject.is_empty() {
        runs.push(format!("subject {}", ids(&c.subject)));
    }
    if !c.baseline.is_empty() {
        runs.push(format!("baseline {}", ids(&c.baseline)));
    }
    if !runs.is_empty() {
        let _ = writeln!(out, "<p>Runs: {}.</p>", runs.join("; "));
    }
    let ladders = ladders_held.of(c);
    if !ladders.is_empty() {
        let names: Vec<String> = ladders
            .iter()
            .map(|(j, l)| {
                format!(
                    "<a href=\"#{}\">{}</a>",
                    anchor("config", *j, &l.label.masked()),
                    l.label.html()
                )
            })
            .collect();
        let _ = writeln!(out, "<p>Configurations: {}.</p>", names.join("; "));
    }
    out.push_str("</section>\n");
}

fn ladder_section(out: &mut String, i: usize, l: &ConfigLadder, floor: f64) {
    let _ = writeln!(
        out,
        "<section class=\"ladder\" id=\"{}\">",
        anchor("config", i, &l.label.masked())
    );
    let _ = writeln!(
        out,
        "<h3>{} <code>{}</code> {}</h3>",
        l.label.html(),
        escape(&l.fingerprint),
        corpus_html::standing_badge(l)
    );
    if !l.results.is_empty() {
        let ids: Vec<String> = l.results.iter().map(code).collect();
        let _ = writeln!(out, "<p>Results: {}.</p>", ids.join(", "));
    }
    corpus_html::replication_line(out, l);
    // A ladder of one level is a point, not a curve: its table says all a chart would.
    if l.points.len() >= 2 {
        let below_zero = l.points.iter().any(|p| {
            [p.aggregate_tok_s, p.per_user_tok_s]
                .iter()
                .flatten()
                .any(|e| e.low < 0.0)
        });
        let clipped = if below_zero {
            " An interval that runs below zero stops at the axis, without a cap."
        } else {
            ""
        };
        let missing = unplotted(l);
        let missing = if missing.is_empty() {
            String::new()
        } else {
            let levels: Vec<String> = missing.iter().map(ToString::to_string).collect();
            format!(
                " Not plotted (an aggregate or a per-user rate is missing): {}.",
                levels.join(", ")
            )
        };
        let _ = writeln!(
            out,
            "<figure>\n{}<figcaption>Each point is a level, labelled with its load (streams in flight, or requests sent per second); whiskers are 95% intervals, drawn where wider than the point.{clipped}{missing}<br><span class=\"key\"></span>clears the floor<span class=\"key k-below\"></span>below the floor<span class=\"key k-capacity\"></span>capacity<span class=\"key k-marginal\"></span>marginal</figcaption>\n</figure>",
            ladder_chart(l, floor)
        );
    }
    if l.points.is_empty() {
        out.push_str("<p>No level with figures.</p>\n");
    } else {
        out.push_str("<table>\n<thead><tr><th class=\"num\">Level</th><th class=\"num\">Aggregate tok/s (95% CI)</th><th class=\"num\">Per-user tok/s (95% CI)</th><th class=\"num\">Runs</th><th class=\"num\">Launches</th></tr></thead>\n<tbody>\n");
        for p in &l.points {
            let _ = writeln!(
                out,
                "<tr><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td></tr>",
                p.key,
                escape(&estimate(p.aggregate_tok_s.as_ref(), 1)),
                escape(&estimate(p.per_user_tok_s.as_ref(), 1)),
                p.runs,
                p.launches
            );
        }
        out.push_str("</tbody>\n</table>\n");
    }
    let _ = writeln!(
        out,
        "<p class=\"capacity\">{}</p>",
        escape(&capacity_sentence(l, floor))
    );
    out.push_str("</section>\n");
}

fn losing_runs(out: &mut Spilling<'_>, report: &AuditReport, paths: &corpus_html::Paths) {
    out.push_str("<h2 id=\"losing-runs\">Losing runs</h2>\n");
    if report.losing_runs.is_empty() {
        out.push_str(if report.ladders.is_empty() {
            "<p>None: no result was read.</p>\n"
        } else {
            "<p>None: every result produced figures. A corpus without a failed, aborted or does-not-fit result may have been curated (S009).</p>\n"
        });
        return;
    }
    let n = report.losing_runs.len();
    let _ = writeln!(
        out,
        "<p>{n} {} that did not produce figures, reported as results (seed 004: publish the losing configurations).</p>",
        if n == 1 { "result" } else { "results" }
    );
    out.push_str("<table>\n<thead><tr><th>Result</th><th>Outcome</th><th>File</th><th>Notes</th></tr></thead>\n<tbody>\n");
    for r in &report.losing_runs {
        let notes = r
            .notes
            .as_ref()
            .map_or_else(|| "—".to_string(), FileText::html);
        let _ = writeln!(
            out,
            "<tr><td class=\"id\">{}</td><td class=\"id\">{}</td><td>{}</td><td>{notes}</td></tr>",
            code(&r.id),
            escape(&r.outcome),
            code(&paths.show(&r.path))
        );
        out.spill();
    }
    out.push_str("</tbody>\n</table>\n");
}
