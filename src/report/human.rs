//! `--format human`: each finding as a miette diagnostic with a snippet of the file and a
//! label on the offending value (or on the object that should hold an absent one).

use std::fmt::{self, Write};

use miette::{
    Diagnostic, GraphicalReportHandler, GraphicalTheme, LabeledSpan, NamedSource, SourceCode,
};

use super::{Position, Prepared};
use crate::diagnostic::{Finding, Severity};
use crate::engine::Summary;

struct Shown<'a> {
    finding: &'a Finding,
    source: Option<&'a NamedSource<String>>,
    position: Option<Position>,
    footer: Option<String>,
}

impl fmt::Debug for Shown<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.finding.message)
    }
}

impl fmt::Display for Shown<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.finding.message)
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
        let help = self.finding.help.as_deref();
        match (help, &self.footer) {
            (None, None) => None,
            (Some(h), None) => Some(Box::new(h)),
            (None, Some(f)) => Some(Box::new(f.as_str())),
            (Some(h), Some(f)) => Some(Box::new(format!("{h}\n{f}"))),
        }
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        self.source.map(|s| s as &dyn SourceCode)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        self.source?;
        let pos = self.position?;
        let label = self.finding.label.clone();
        Some(Box::new(std::iter::once(
            LabeledSpan::new_primary_with_span(label, (pos.start, pos.len)),
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
    let path = p.findings[from].primary.path.as_str();
    let named = p
        .masked_source(path, &p.findings[from..to])
        .map(|text| NamedSource::new(path, text).with_language("json"));
    for i in from..to {
        let f = &p.findings[i];
        let footer = related_footer(f, &p.related_positions[i]);
        // A snippet shows whole lines: a minified file's one line can be megabytes, so such a
        // finding is shown by line and column alone.
        let long = p.positions[i].is_some_and(|pos| {
            named
                .as_ref()
                .is_some_and(|n| lines_too_long(n.inner(), pos.start))
        });
        let shown = Shown {
            finding: f,
            source: if long { None } else { named.as_ref() },
            position: p.positions[i],
            footer,
        };
        if shown.source.is_none() {
            match (long, p.positions[i]) {
                (true, Some(pos)) => {
                    let _ = writeln!(
                        out,
                        "{}:{}:{}: (the line is over {MAX_SNIPPET_LINE} bytes long; not shown)",
                        f.primary.path, pos.line, pos.column
                    );
                }
                _ => {
                    let _ = writeln!(out, "{}:", f.primary.path);
                }
            }
        }
        let _ = handler.render_report(&mut out, &shown);
        out.push('\n');
    }
    out
}

/// Longest line a snippet shows.
const MAX_SNIPPET_LINE: usize = 1000;

/// Whether the line holding byte `at`, or a line beside it (the snippet's context), is longer
/// than [`MAX_SNIPPET_LINE`].
fn lines_too_long(text: &str, at: usize) -> bool {
    let bytes = text.as_bytes();
    let at = at.min(bytes.len());
    let start = bytes[..at]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    let before = if start == 0 {
        0
    } else {
        bytes[..start - 1]
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1)
    };
    // Three lines from `before`: the one above, this one and the one below.
    let mut line_start = before;
    for _ in 0..3 {
        let end = bytes[line_start..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(bytes.len(), |i| line_start + i);
        if end - line_start > MAX_SNIPPET_LINE {
            return true;
        }
        if end >= bytes.len() {
            break;
        }
        line_start = end + 1;
    }
    false
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
                r.path,
                p.line,
                p.column,
                pointer_text(&r.pointer)
            ),
            None => format!("  also: {} ({})", r.path, pointer_text(&r.pointer)),
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
    let suppressed = if s.suppressed > 0 {
        format!(" ({} suppressed by the baseline)", s.suppressed)
    } else {
        String::new()
    };
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
