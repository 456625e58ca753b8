//! `--format human`: each finding as a miette diagnostic with a snippet of the file and a
//! label on the offending value (or on the object that should hold an absent one).

use std::fmt::{self, Write};

use miette::{Diagnostic, GraphicalReportHandler, GraphicalTheme, LabeledSpan, SourceCode};

use super::snippet::{MAX_SNIPPET_LINE, Window};
use super::{Position, Prepared};
use crate::diagnostic::{Finding, Severity};
use crate::engine::Summary;

/// A finding as miette draws it: every text from an input already masked and escaped
/// ([`Text::line`](crate::text::Text::line)).
struct Shown<'a> {
    finding: &'a Finding,
    message: String,
    help: Option<String>,
    label: Option<String>,
    source: Option<&'a dyn SourceCode>,
    position: Option<Position>,
}

impl fmt::Debug for Shown<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl fmt::Display for Shown<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Shown<'_> {}

impl Diagnostic for Shown<'_> {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        let f = self.finding;
        let pre = if f.pre_rule { ", pre-rule" } else { "" };
        Some(Box::new(format!("{}({}{pre})", f.rule.code, f.rule.name)))
    }

    fn severity(&self) -> Option<miette::Severity> {
        Some(match self.finding.severity {
            Severity::Error => miette::Severity::Error,
            Severity::Warning => miette::Severity::Warning,
            Severity::Info => miette::Severity::Advice,
        })
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.help
            .as_deref()
            .map(|h| Box::new(h) as Box<dyn fmt::Display>)
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        self.source
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        self.source?;
        let pos = self.position?;
        Some(Box::new(std::iter::once(
            LabeledSpan::new_primary_with_span(self.label.clone(), (pos.start, pos.len)),
        )))
    }
}

/// Renders every finding as a diagnostic with its snippet, then the summary line.
pub fn render(p: &Prepared) -> Vec<u8> {
    use rayon::prelude::*;
    let theme = if p.color {
        GraphicalTheme::unicode()
    } else {
        GraphicalTheme::unicode_nocolor()
    };
    let handler = GraphicalReportHandler::new_themed(theme)
        .with_width(100)
        .with_links(false);
    // Findings come sorted by file; each file's run is rendered on its own (in parallel: a
    // snippet costs more than the check that found it), reading the file's text, secrets
    // masked, only while its findings are drawn.
    let mut runs: Vec<(usize, usize)> = Vec::new();
    let mut start = 0;
    for i in 1..=p.findings.len() {
        if i == p.findings.len() || p.findings[i].primary.path != p.findings[start].primary.path {
            runs.push((start, i));
            start = i;
        }
    }
    let parts: Vec<String> = runs
        .par_iter()
        .map(|&(from, to)| render_file(p, &handler, from, to))
        .collect();
    let mut out = parts.concat();
    out.push_str(&summary_line(&p.summary));
    out.push('\n');
    out.into_bytes()
}

/// The findings `from..to` of `p`, all in one file.
fn render_file(p: &Prepared, handler: &GraphicalReportHandler, from: usize, to: usize) -> String {
    let mut out = String::new();
    let path = &p.findings[from].primary.path;
    let shown_path = path.line().into_owned();
    let text = p.masked_source(path.raw(), &p.findings[from..to], &p.positions[from..to]);
    for i in from..to {
        let f = &p.findings[i];
        let position = p.positions[i];
        // A snippet shows whole lines: a minified file's one line can be megabytes, so such a
        // finding is shown by line and column alone.
        let window = match (&text, position) {
            (Some(t), Some(pos)) => Window::around(shown_path.clone(), t, pos.start, pos.line),
            _ => None,
        };
        let mut help = f.help.as_ref().map(|h| h.line().into_owned());
        if let Some(footer) = related_footer(f, &p.related_positions[i]) {
            help = Some(match help {
                Some(h) => format!("{h}\n{footer}"),
                None => footer,
            });
        }
        let shown = Shown {
            finding: f,
            message: f.message.line().into_owned(),
            help,
            label: f.label.as_ref().map(|l| l.line().into_owned()),
            source: window.as_ref().map(|w| w as &dyn SourceCode),
            position,
        };
        if window.is_none() {
            match (text.is_some(), position) {
                (true, Some(pos)) => {
                    let _ = writeln!(
                        out,
                        "{shown_path}:{}:{}: (the line is over {MAX_SNIPPET_LINE} bytes long; not shown)",
                        pos.line, pos.column
                    );
                }
                _ => {
                    let _ = writeln!(out, "{shown_path}:");
                }
            }
        }
        let _ = handler.render_report(&mut out, &shown);
        out.push('\n');
    }
    out
}

fn related_footer(f: &Finding, positions: &[Option<Position>]) -> Option<String> {
    if f.related.is_empty() {
        return None;
    }
    let lines: Vec<String> = f
        .related
        .iter()
        .zip(positions)
        .map(|(r, p)| match p {
            Some(p) => format!(
                "  also: {}:{}:{} ({})",
                r.path.line(),
                p.line,
                p.column,
                pointer_text(&r.pointer.line())
            ),
            None => format!(
                "  also: {} ({})",
                r.path.line(),
                pointer_text(&r.pointer.line())
            ),
        })
        .collect();
    Some(format!("related:\n{}", lines.join("\n")))
}

fn pointer_text(p: &str) -> &str {
    if p.is_empty() { "/" } else { p }
}

/// `Found 3 errors, 1 warning and 0 infos in 12 files (14 results).` or `All checks passed`.
pub fn summary_line(s: &Summary) -> String {
    let plural =
        |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    let scope = format!(
        "{} ({})",
        plural(s.files, "file", "files"),
        plural(s.results, "result", "results")
    );
    let mut suppressed = if s.suppressed > 0 {
        format!(" ({} suppressed by the baseline)", s.suppressed)
    } else {
        String::new()
    };
    if s.omitted > 0 {
        let _ = write!(
            suppressed,
            " ({} of them past the finding caps: counted, not listed)",
            s.omitted
        );
    }
    if s.errors + s.warnings + s.infos == 0 {
        return format!("All checks passed: {scope}{suppressed}.");
    }
    format!(
        "Found {}, {} and {} in {scope}{suppressed}.",
        plural(s.errors, "error", "errors"),
        plural(s.warnings, "warning", "warnings"),
        plural(s.infos, "info", "infos")
    )
}
