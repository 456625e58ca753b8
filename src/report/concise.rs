//! `--format concise`: one line per finding, `path:line:column: CODE severity: message` (the
//! fields one object lacks on one line, [`super::absent`]); a finding about the corpus as a
//! whole is `corpus: CODE severity: message`, the corpus's path with no line or column. The
//! path and every value a message quotes are on that line whatever they hold (line breaks
//! and control characters written as escapes, secrets masked).

use std::fmt::Write;

use super::Prepared;

/// Renders one line per finding and a summary line.
pub fn render(p: &Prepared) -> Vec<u8> {
    let mut out = String::new();
    // Nothing drains, so nothing can fail.
    let shown = lines(p, &mut out, &mut |_| Ok(())).unwrap_or_default();
    if !p.quiet {
        out.push_str(&super::human::summary_with_note(p, shown));
        out.push('\n');
    }
    out.into_bytes()
}

/// Writes the lines of `p`'s findings (no summary) to `out`, handing `out` to `drain` whenever
/// it passes [`super::spill::CHUNK`] bytes, so a writer of many findings holds a chunk of them,
/// not all; returns how many lines. A failed `drain` stops the lines.
pub(super) fn lines(
    p: &Prepared,
    out: &mut String,
    drain: &mut dyn FnMut(&mut String) -> std::io::Result<()>,
) -> std::io::Result<usize> {
    let items = super::absent::all_items(p);
    for item in &items {
        if out.len() >= super::spill::CHUNK {
            drain(out)?;
        }
        let i = item.members[0];
        let f = &p.findings[i];
        out.push_str(&f.primary.path.line());
        if !f.corpus {
            let (line, column) = p.positions[i].map_or((1, 1), |p| (p.line, p.column));
            let _ = write!(out, ":{line}:{column}");
        }
        let words = super::absent::words(p, item);
        let _ = writeln!(
            out,
            ": {} {}{}: {}",
            f.rule.code,
            f.severity.as_str(),
            if f.pre_rule { " (pre-rule)" } else { "" },
            words.message.line()
        );
    }
    Ok(items.len())
}
