//! The corpus sections of `report.html`: the overview, the findings by file and by rule (worst
//! first), the checklist coverage matrix (a coloured square per field, its state in the square's
//! title and letter, so it reads without colour too), the fields table, what each file lacks,
//! and the replication table. [`super::audit_html`] places them and holds the style sheet;
//! text from the corpus is escaped as the rest of the page is.

use super::spill::Spilling;
use std::fmt::Write as _;

use super::audit_text::{anchor, rule_page};
pub use super::corpus_text::Paths;
use super::corpus_text::{
    Owed, count, counted, coverage_head, coverage_words, formats, lacks_or_records, mark, overview,
};
use super::svg::escape;
use crate::audit::{
    AuditReport, Checklist, ConfigLadder, CorpusReport, Coverage, Ladders, SeverityCounts,
};
use crate::text::FileText;

/// An input as `<code>`.
pub(super) fn code(s: &FileText) -> String {
    format!("<code>{}</code>", s.html())
}

/// The style of the corpus sections, appended to the page's.
pub const STYLE: &str = r"
main { max-width: 1180px; }
svg.chart { max-width: 860px; }
section.ladder table, section.ladder p.capacity { max-width: 860px; }
section.claim { max-width: 900px; }
td.field, td.field code { white-space: nowrap; overflow-wrap: normal; }
ul.overview { padding-left: 1.2em; }
.scroll { overflow-x: auto; }
td.path { overflow-wrap: anywhere; min-width: 16em; }
td.zero { color: #8c959f; }
td.err { color: #cf222e; font-weight: 600; }
td.warn { color: #9a6700; font-weight: 600; }
p.note { font-size: .88em; color: #57606a; }
table.matrix { width: auto; }
table.matrix th.rule { text-align: center; font-variant-numeric: tabular-nums; padding: 4px 5px; }
table.matrix td.marks { text-align: center; white-space: nowrap; padding: 3px 3px; }
table.matrix td.num { white-space: nowrap; }
table.matrix td.path { min-width: 17em; }
table.matrix th.rule { font-size: .85em; }
table.compact { width: auto; }
.mr, .mf, .md, .ms, .mu, .mx, .mn { display: inline-block; width: 15px; height: 15px; margin: 0 1px;
  border-radius: 3px; font: 600 10px/15px ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
  text-align: center; vertical-align: middle; box-sizing: border-box; }
.mr { background: #1a7f37; color: #ffffff; }
.mf { background: #1b7c83; color: #ffffff; }
.md { background: #0969da; color: #ffffff; }
.ms { background: #8250df; color: #ffffff; }
.mu { background: #d4a72c; color: #1f2328; }
.mx { background: #ffebe9; color: #cf222e; border: 1px solid #cf222e; }
.mn { background: #f6f8fa; color: #8c959f; border: 1px dashed #d0d7de; }
ul.legend { list-style: none; padding: 0; margin: .4em 0 .8em; display: flex; flex-wrap: wrap; gap: .3em 1.2em;
  font-size: .88em; color: #3d444d; }
ul.lacks li { margin: .25em 0; }
.standing { display: inline-block; padding: 0 .5em; border-radius: 1em; font-size: .85em; font-weight: 600;
  white-space: nowrap; }
.s-replicated { background: #dafbe1; color: #116329; }
.s-pre-rule { background: #fbefff; color: #6e40c9; }
.s-needs-more { background: #fff8c5; color: #7d4e00; }
.s-unresolved { background: #ffebe9; color: #a40e26; }
.s-not-identified { background: #eaeef2; color: #3d444d; }
p.replication { border-left: 4px solid #d0d7de; padding: .3em .8em; background: #f6f8fa; max-width: 860px; box-sizing: border-box; }
";

/// The table of contents of a page with corpus sections.
pub fn contents(out: &mut String, claims: bool, corpus: bool) {
    let mut items: Vec<(&str, &str)> = Vec::new();
    if claims {
        items.extend([("summary", "Summary"), ("claims", "Claims")]);
    }
    if corpus {
        items.extend([
            ("overview", "Corpus overview"),
            ("files", "Findings by file"),
            ("rules", "Findings by rule"),
            ("checklist", "Checklist coverage"),
        ]);
    }
    items.extend([
        ("configurations", "Configurations"),
        ("losing-runs", "Losing runs"),
    ]);
    let links: Vec<String> = items
        .iter()
        .map(|(id, name)| format!("<a href=\"#{id}\">{name}</a>"))
        .collect();
    let _ = writeln!(
        out,
        "<nav class=\"meta\">Contents: {}</nav>",
        links.join(" · ")
    );
}

/// The corpus overview, findings by file and by rule, and the checklist coverage.
pub fn sections(
    out: &mut Spilling<'_>,
    report: &AuditReport,
    corpus: &CorpusReport,
    paths: &Paths,
    pages: bool,
) {
    out.push_str("<h2 id=\"overview\">Corpus overview</h2>\n<ul class=\"overview\">\n");
    for s in overview(report, corpus) {
        let _ = writeln!(out, "<li>{}</li>", escape(&s));
    }
    out.push_str("</ul>\n");
    files(out, corpus, paths);
    rules(out, corpus, pages);
    checklist(out, &corpus.checklist, paths);
}

/// Severity count cells, coloured when not zero.
fn severity_cells(c: &SeverityCounts) -> String {
    let cell = |n: usize, class: &str| {
        let class = if n == 0 { "num zero" } else { class };
        format!("<td class=\"{class}\">{}</td>", count(n))
    };
    format!(
        "{}{}{}",
        cell(c.errors, "num err"),
        cell(c.warnings, "num warn"),
        cell(c.infos, "num")
    )
}

fn files(out: &mut Spilling<'_>, corpus: &CorpusReport, paths: &Paths) {
    out.push_str("<h2 id=\"files\">Findings by file</h2>\n");
    if corpus.files.is_empty() {
        out.push_str("<p>No file holds a result or a finding.</p>\n");
        return;
    }
    out.push_str("<p>Worst first: most errors, then warnings, then infos. A finding about several files counts on the one it is placed on.</p>\n");
    out.push_str("<div class=\"scroll\"><table class=\"compact\">\n<thead><tr><th>File</th><th>Read as</th><th class=\"num\">Results</th><th class=\"num\">Errors</th><th class=\"num\">Warnings</th><th class=\"num\">Infos</th><th class=\"num\">Checklist owed</th></tr></thead>\n<tbody>\n");
    let owed = Owed::new(&corpus.checklist);
    for f in &corpus.files {
        let _ = writeln!(
            out,
            "<tr><td class=\"path\">{}</td><td>{}</td><td class=\"num\">{}</td>{}<td class=\"num\">{}</td></tr>",
            code(&paths.show(&f.path)),
            escape(&formats(f)),
            count(f.results),
            severity_cells(&f.findings),
            escape(&owed.of(&f.path)),
        );
        out.spill();
    }
    out.push_str("</tbody>\n</table></div>\n");
    if corpus.files.iter().any(|f| f.results == 0) {
        out.push_str("<p class=\"note\">Read as “—”: the file holds no result of its own (a claims file, a level or side file of a run read as one result, or a file no adapter reads; its findings say which).</p>\n");
    }
}

fn rules(out: &mut String, corpus: &CorpusReport, pages: bool) {
    out.push_str("<h2 id=\"rules\">Findings by rule</h2>\n");
    if corpus.rules.is_empty() {
        out.push_str("<p>No rule found anything.</p>\n");
        return;
    }
    out.push_str("<p>Worst first: rules with errors, then warnings, then infos, most findings first. <code>benchlint rule CODE</code> explains each.</p>\n");
    out.push_str("<table class=\"compact\">\n<thead><tr><th>Rule</th><th>Name</th><th class=\"num\">Errors</th><th class=\"num\">Warnings</th><th class=\"num\">Infos</th><th class=\"num\">Files</th></tr></thead>\n<tbody>\n");
    for r in &corpus.rules {
        let name = match rule_page(r.code, true) {
            Some((page, _)) if pages => {
                format!("<a href=\"{}\">{}</a>", escape(&page), escape(r.name))
            }
            _ => escape(r.name),
        };
        let _ = writeln!(
            out,
            "<tr><td>{}</td><td>{name}</td>{}<td class=\"num\">{}</td></tr>",
            escape(r.code),
            severity_cells(&r.findings),
            count(r.files),
        );
    }
    out.push_str("</tbody>\n</table>\n");
}

/// One square of the matrix: a short class and the mark, and a title naming the field and its
/// state where it is worth a look (not on a recorded or not-asked field: a corpus of thousands
/// of files draws tens of thousands of squares, most of them recorded).
fn square(state: Coverage, field: &str) -> String {
    let class = match state {
        Coverage::Recorded => "mr",
        Coverage::RunFolder => "mf",
        Coverage::Derived => "md",
        Coverage::Sidecar => "ms",
        Coverage::Unusable => "mu",
        Coverage::Missing => "mx",
        Coverage::NotApplicable => "mn",
    };
    if matches!(state, Coverage::Recorded | Coverage::NotApplicable) {
        return format!("<span class=\"{class}\">{}</span>", mark(state));
    }
    format!(
        "<span class=\"{class}\" title=\"{}: {}\">{}</span>",
        escape(field),
        coverage_head(state).to_lowercase(),
        mark(state)
    )
}

fn checklist(out: &mut Spilling<'_>, c: &Checklist, paths: &Paths) {
    out.push_str("<h2 id=\"checklist\">Checklist coverage</h2>\n");
    if c.files.is_empty() {
        out.push_str("<p>No file holds a result, so no checklist field was asked.</p>\n");
        return;
    }
    let codes = c.codes();
    out.push_str("<p>What each file records of the publication checklist (M001–M014): one square per field a rule asks for, in the order of the fields table below; files owing the most fields first.</p>\n<ul class=\"legend\">\n");
    for s in Coverage::ALL {
        let _ = writeln!(
            out,
            "<li>{} {}</li>",
            square(s, coverage_head(s)),
            escape(coverage_words(s))
        );
    }
    out.push_str("</ul>\n<div class=\"scroll\"><table class=\"matrix\">\n<thead><tr><th>File</th><th class=\"num\">Owed</th>");
    for code in &codes {
        let _ = write!(out, "<th class=\"rule\">{}</th>", escape(code));
    }
    out.push_str("</tr></thead>\n<tbody>\n");
    for f in &c.files {
        let _ = write!(
            out,
            "<tr><td class=\"path\">{}</td><td class=\"num\">{} of {}</td>",
            code(&paths.show(&f.path)),
            count(f.owed),
            count(f.asked)
        );
        for rule in &codes {
            let squares: String = c
                .items_of(rule)
                .into_iter()
                .map(|i| square(f.states[i], &c.items[i].field))
                .collect();
            let _ = write!(out, "<td class=\"marks\">{squares}</td>");
        }
        out.push_str("</tr>\n");
        out.spill();
    }
    out.push_str("</tbody>\n</table></div>\n");
    fields_table(out, c);
    lacks(out, c, paths);
}

fn fields_table(out: &mut String, c: &Checklist) {
    out.push_str("<p>Files by field and state:</p>\n<div class=\"scroll\"><table>\n<thead><tr><th>Rule</th><th>Field</th>");
    for s in Coverage::ALL {
        let _ = write!(
            out,
            "<th class=\"num\">{}&nbsp;{}</th>",
            square(s, coverage_head(s)),
            escape(coverage_head(s))
        );
    }
    out.push_str("</tr></thead>\n<tbody>\n");
    for (i, item) in c.items.iter().enumerate() {
        let _ = write!(
            out,
            "<tr><td>{}</td><td class=\"field\">{}</td>",
            escape(item.code),
            own_code(&item.field)
        );
        for s in Coverage::ALL {
            let n = c.files_in(i, s);
            if n == 0 {
                out.push_str("<td class=\"num zero\">—</td>");
            } else {
                let _ = write!(out, "<td class=\"num\">{}</td>", count(n));
            }
        }
        out.push_str("</tr>\n");
    }
    out.push_str("</tbody>\n</table></div>\n");
}

fn lacks(out: &mut Spilling<'_>, c: &Checklist, paths: &Paths) {
    if c.files.iter().all(|f| f.owed == 0) {
        out.push_str("<p>Every file records every field asked of it.</p>\n");
        return;
    }
    out.push_str("<p>What each file lacks (missing, or present but not usable), by rule; for a file that lacks most of them, what it records instead:</p>\n<ul class=\"lacks\">\n");
    for f in c.files.iter().filter(|f| f.owed > 0) {
        let _ = writeln!(
            out,
            "<li>{} ({}): {}.</li>",
            code(&paths.show(&f.path)),
            escape(&counted(f.results, "result", "results")),
            lacks_or_records(c, f).html()
        );
        out.spill();
    }
    out.push_str("</ul>\n");
}

/// A configuration's standing as a badge.
pub fn standing_badge(l: &ConfigLadder) -> String {
    l.replication.as_ref().map_or_else(String::new, |r| {
        format!(
            "<span class=\"standing s-{}\">{}</span>",
            r.standing.as_str(),
            escape(r.standing.words())
        )
    })
}

/// The replication table at the head of the configurations.
pub fn replication_table(out: &mut Spilling<'_>, ladders: &Ladders<'_>) {
    if ladders.iter().all(|l| l.replication.is_none()) {
        return;
    }
    out.push_str("<p>What is missing before a figure from each configuration could be published (runs and launches as the replication rules count them).</p>\n");
    out.push_str("<div class=\"scroll\"><table>\n<thead><tr><th>Configuration</th><th class=\"num\">Runs</th><th class=\"num\">Launches</th><th class=\"num\">Full ladders</th><th>Standing</th></tr></thead>\n<tbody>\n");
    for (i, l) in ladders.iter().enumerate() {
        let Some(r) = &l.replication else {
            continue;
        };
        let _ = writeln!(
            out,
            "<tr><td class=\"path\"><a href=\"#{}\">{}</a> {}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td><td>{}</td></tr>",
            anchor("config", i, &l.label.masked()),
            l.label.html(),
            own_code(&l.fingerprint),
            count(r.runs),
            count(r.launches),
            count(r.full_ladders),
            standing_badge(&l),
        );
        out.spill();
    }
    out.push_str("</tbody>\n</table></div>\n");
}

/// The replication sentence of one configuration.
pub fn replication_line(out: &mut String, l: &ConfigLadder) {
    if let Some(r) = &l.replication {
        let _ = writeln!(
            out,
            "<p class=\"replication\">Replication: {}.</p>",
            r.summary.html()
        );
    }
}

/// Benchlint's own text (a field name, a fingerprint) as `<code>`.
fn own_code(s: &str) -> String {
    format!("<code>{}</code>", escape(s))
}
