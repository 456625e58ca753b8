//! `--format human`: each finding as a miette diagnostic with a snippet of the file and a
//! label on the offending value (or on the object that should hold an absent one), then, for
//! more than one file, the overview of the files ([`super::overview`]). A finding about the
//! corpus as a whole is headed `the corpus PATH:` and has no snippet. A later finding of a
//! rule already drawn in the same file is a line under the first ([`super::fold`]).

use std::fmt::{self, Write};

use miette::{Diagnostic, LabeledSpan, SourceCode};

use super::human_layout::Layout;
use super::snippet::{MAX_SNIPPET_LINE, Window};
use super::{Position, Prepared};
use crate::diagnostic::{Finding, Severity};
use crate::engine::Summary;
use crate::numbers::plural;

/// Columns the diagnostics are wrapped to.
const WIDTH: usize = 100;

/// A finding as miette draws it: every text from an input already masked and escaped
/// ([`Text::line`](crate::text::Text::line)).
struct Shown<'a> {
    /// `M007(missing-engine-limits)`, or the codes of every rule whose absent fields are shown
    /// together.
    code: String,
    /// The worst severity of the findings shown together.
    severity: Severity,
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
        Some(Box::new(&self.code))
    }

    fn severity(&self) -> Option<miette::Severity> {
        Some(match self.severity {
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

/// Files drawn at once (in parallel) before their text is written: the report is never held
/// whole, only the drawing of this many files.
const FILES_AT_ONCE: usize = 512;

/// Renders every finding as a diagnostic with its snippet, then the summary line.
pub fn render(p: &Prepared) -> Vec<u8> {
    let mut out = Vec::new();
    let _ = write(p, &mut out);
    out
}

/// Writes what [`render`] renders to `out`, a batch of files at a time.
pub fn write(p: &Prepared, out: &mut dyn std::io::Write) -> std::io::Result<()> {
    use rayon::prelude::*;
    let layout = Layout::new(WIDTH, p.color);
    // A corpus opens with its headline: where to start reading.
    out.write_all(super::overview::headline(p).as_bytes())?;
    // Findings come sorted by file; each file's run is rendered on its own (in parallel: a
    // snippet costs more than the check that found it), reading the file's text, secrets
    // masked, only while its findings are drawn.
    let runs = super::absent::file_runs(&p.findings);
    let mut shown = 0;
    for batch in runs.chunks(FILES_AT_ONCE) {
        let parts: Vec<(String, usize)> = batch
            .par_iter()
            .map(|&(from, to)| render_file(p, &layout, from, to))
            .collect();
        for (text, n) in parts {
            shown += n;
            out.write_all(text.as_bytes())?;
        }
    }
    if p.quiet {
        return Ok(());
    }
    // A corpus ends with its files, worst first: the reader sees where to start.
    let table = super::overview::table(p);
    if !table.is_empty() {
        out.write_all(table.as_bytes())?;
        out.write_all(b"\n")?;
    }
    out.write_all(summary_with_note(p, shown).as_bytes())?;
    out.write_all(b"\n")
}

/// The summary line, saying how many findings were listed when absent fields were grouped.
pub(super) fn summary_with_note(p: &Prepared, shown: usize) -> String {
    summary_of(&p.summary, p.findings.len(), shown)
}

/// The summary line of `findings` listed as `shown`.
pub(super) fn summary_of(summary: &Summary, findings: usize, shown: usize) -> String {
    let mut line = summary_line(summary);
    let note = super::absent::note(findings, shown);
    if !note.is_empty() {
        line.pop();
        line.push_str(&note);
        line.push('.');
    }
    line
}

/// The findings `from..to` of `p`, all in one file, and how many were shown.
fn render_file(p: &Prepared, layout: &Layout, from: usize, to: usize) -> (String, usize) {
    let mut out = String::new();
    let path = &p.findings[from].primary.path;
    let shown_path = path.line().into_owned();
    let corpus = p.findings[from].corpus;
    let items = super::absent::items(p, from, to, true);
    let shown_items = items.len();
    let drawn = super::fold::fold(p, items);
    // The corpus is no file to draw a snippet of. A folded finding is a line with no snippet:
    // only the lines around the drawn ones are masked.
    let at: Vec<Position> = drawn
        .iter()
        .filter_map(|d| p.positions[d.item.members[0]])
        .collect();
    // A file with no finding placed in it (one the walk refused to read) is not opened.
    let text = if corpus || at.is_empty() {
        None
    } else {
        p.masked_source(
            path.raw(),
            &p.findings[from..to],
            &p.positions[from..to],
            &at,
        )
    };
    for d in &drawn {
        let item = &d.item;
        let i = item.members[0];
        let f = &p.findings[i];
        let words = super::absent::words(p, item);
        let mut position = p.positions[i];
        // A snippet shows whole lines, unless a line is too long (a minified file's one line
        // can be megabytes): then the label's line alone, cut around the label.
        let window = match (&text, position) {
            (Some(t), Some(pos)) => t.piece_at(pos.start).map(|(base, piece)| {
                let at = pos.start - base;
                Window::around(shown_path.clone(), piece, at, pos.line)
                    .unwrap_or_else(|| {
                        Window::trimmed(
                            shown_path.clone(),
                            piece,
                            (at, pos.len),
                            pos.line,
                            pos.column,
                        )
                    })
                    .moved(base)
            }),
            _ => None,
        };
        if let (Some(w), Some(pos)) = (&window, position.as_mut()) {
            pos.len = w.label_len(pos.len);
        }
        let mut help = words.help.as_ref().map(|h| h.line().into_owned());
        if let Some(footer) = related_footer(f, &p.related_positions[i]) {
            help = Some(match help {
                Some(h) => format!("{h}\n{footer}"),
                None => footer,
            });
        }
        let shown = Shown {
            code: super::absent::code(p, item),
            severity: super::absent::severity(p, item),
            message: words.message.line().into_owned(),
            help,
            label: words.label.as_ref().map(|l| l.line().into_owned()),
            source: window.as_ref().map(|w| w as &dyn SourceCode),
            position,
        };
        if corpus {
            if i == from {
                let _ = writeln!(out, "the corpus {shown_path}:");
            }
        } else if window.is_none() {
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
        let (handler, message, help) = layout.shape(shown.severity, shown.message, shown.help);
        let shown = Shown {
            message,
            help,
            ..shown
        };
        let _ = handler.render_report(&mut out, &shown);
        out.push_str(&super::fold::also_lines(p, d, WIDTH));
        out.push('\n');
    }
    (out, shown_items)
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
