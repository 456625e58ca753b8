//! The part of a file a snippet shows: the line of a finding and one line on each side, cut
//! out of the file's (masked) text so that drawing a finding costs the same wherever it lies
//! in the file. miette finds lines by scanning its source from the start; given the whole
//! text, a file with 80,000 findings took 80,000 scans of the whole file.

use std::borrow::Cow;

use miette::{MietteError, MietteSpanContents, SourceCode, SourceSpan, SpanContents};

/// Longest line a snippet shows whole: a minified file's one line can be megabytes, and a
/// vLLM or SGLang JSON Lines record runs past a thousand characters. Longer lines are cut
/// around the label ([`Window::trimmed`]), as rustc and ruff do.
pub const MAX_SNIPPET_LINE: usize = 240;

/// How far from its label's start a snippet reads, either way: a window looks back over the
/// line before and forward over the line after, each at most [`MAX_SNIPPET_LINE`] bytes and a
/// line feed, then moves to a character boundary; a cut line keeps less
/// ([`TRIM_CONTEXT`] on each side of a label of at most as many bytes). Only the text this
/// near a finding needs masking ([`super::sources`]).
pub const REACH: usize = 2 * (MAX_SNIPPET_LINE + 1) + 8;

/// Bytes kept on each side of the label when a line is cut.
const TRIM_CONTEXT: usize = 60;

/// What stands for the cut part of a line.
const ELLIPSIS: &str = "…";

/// The lines around one finding, with where they sit in the whole file.
pub struct Window<'t> {
    /// The file's name, as shown.
    name: String,
    /// The window's text.
    text: Cow<'t, str>,
    /// Byte offset of the window in the file.
    offset: usize,
    /// 0-based line of the window's first line in the file.
    first_line: usize,
    /// Bytes at the start of `text` that are not in the file (the ellipsis of a cut line).
    lead: usize,
    /// The label's 0-based column in the file, when the line is cut (the window's own
    /// column would count from the cut).
    column: Option<usize>,
    /// The label's length in bytes when the line is cut (at most [`TRIM_CONTEXT`]).
    label_len: Option<usize>,
}

impl<'t> Window<'t> {
    /// The window around byte `at` of `text` (on 1-based line `line`): the line before, the
    /// line and the line after. `None` when one of them is longer than [`MAX_SNIPPET_LINE`]
    /// (found without scanning further than that bound).
    pub fn around(name: String, text: &'t str, at: usize, line: usize) -> Option<Self> {
        let bytes = text.as_bytes();
        let at = at.min(bytes.len());
        let line_start = start_of_line(bytes, at)?;
        let (start, first_line) = if line_start == 0 {
            (0, line.saturating_sub(1))
        } else {
            (
                start_of_line(bytes, line_start - 1)?,
                line.saturating_sub(2),
            )
        };
        let mut end = line_start;
        for _ in 0..2 {
            let limit = (end + MAX_SNIPPET_LINE + 1).min(bytes.len());
            match bytes[end..limit].iter().position(|&b| b == b'\n') {
                Some(i) => end += i + 1,
                None if limit == bytes.len() => {
                    end = bytes.len();
                    break;
                }
                None => return None,
            }
            if end >= bytes.len() {
                break;
            }
        }
        let (mut start, mut end) = (start, end.min(bytes.len()));
        while !text.is_char_boundary(start) {
            start -= 1;
        }
        while !text.is_char_boundary(end) {
            end += 1;
        }
        Some(Window {
            name,
            text: Cow::Borrowed(&text[start..end]),
            offset: start,
            first_line,
            lead: 0,
            column: None,
            label_len: None,
        })
    }

    /// The line holding the label at byte `at` (`len` bytes, on 1-based `line` and
    /// `column`) alone, cut to [`TRIM_CONTEXT`] bytes on each side of the label, an ellipsis
    /// where it was cut: for lines too long for [`Window::around`]. Scans no further than
    /// the kept bytes.
    pub fn trimmed(
        name: String,
        text: &'t str,
        (at, len): (usize, usize),
        line: usize,
        column: usize,
    ) -> Self {
        let bytes = text.as_bytes();
        let at = at.min(bytes.len());
        // A label on a whole record (the `{` of a one-line object) is drawn on its start.
        let len = len.min(TRIM_CONTEXT);
        let label_end = (at + len).min(bytes.len());
        let mut from = at.saturating_sub(TRIM_CONTEXT);
        // Too close to the start for an ellipsis to stand in: keep from the start.
        if from < ELLIPSIS.len() {
            from = 0;
        }
        if let Some(i) = bytes[from..at].iter().rposition(|&b| b == b'\n') {
            from += i + 1;
        }
        let mut to = (label_end + TRIM_CONTEXT).min(bytes.len());
        if let Some(i) = bytes[label_end..to]
            .iter()
            .position(|&b| b == b'\n' || b == b'\r')
        {
            to = label_end + i;
        }
        while !text.is_char_boundary(from) {
            from -= 1;
        }
        while !text.is_char_boundary(to) {
            to += 1;
        }
        let cut_before = from > 0 && bytes[from - 1] != b'\n';
        let cut_after = to < bytes.len() && bytes[to] != b'\n' && bytes[to] != b'\r';
        let mut shown = String::with_capacity(to - from + 2 * ELLIPSIS.len() + 1);
        if cut_before {
            shown.push_str(ELLIPSIS);
        }
        shown.push_str(&text[from..to]);
        if cut_after {
            shown.push_str(ELLIPSIS);
        }
        shown.push('\n');
        Window {
            name,
            text: Cow::Owned(shown),
            offset: from,
            first_line: line.saturating_sub(1),
            lead: if cut_before { ELLIPSIS.len() } else { 0 },
            column: Some(column.saturating_sub(1)),
            label_len: Some(label_end - at),
        }
    }
}

/// The start of the line holding byte `at`, looking back no further than
/// [`MAX_SNIPPET_LINE`] bytes (`None` beyond: the line is too long to show).
fn start_of_line(bytes: &[u8], at: usize) -> Option<usize> {
    let from = at.saturating_sub(MAX_SNIPPET_LINE + 1);
    match bytes[from..at].iter().rposition(|&b| b == b'\n') {
        Some(i) => Some(from + i + 1),
        None if from == 0 => Some(0),
        None => None,
    }
}

impl Window<'_> {
    /// The same window, cut from a piece of the file that starts at byte `by`.
    #[must_use]
    pub fn moved(mut self, by: usize) -> Self {
        self.offset += by;
        self
    }

    /// The length to draw a label of `len` bytes with: shortened on a cut line.
    pub fn label_len(&self, len: usize) -> usize {
        self.label_len.map_or(len, |l| l.min(len))
    }
}

impl SourceCode for Window<'_> {
    fn read_span<'a>(
        &'a self,
        span: &SourceSpan,
        context_lines_before: usize,
        context_lines_after: usize,
    ) -> Result<Box<dyn SpanContents<'a> + 'a>, MietteError> {
        let local_offset = span
            .offset()
            .checked_sub(self.offset)
            .ok_or(MietteError::OutOfBounds)?
            + self.lead;
        // A label running past a cut line ends at the cut.
        let room = self.text.len().saturating_sub(local_offset + 1);
        let local = SourceSpan::new(local_offset.into(), span.len().min(room));
        let inner = self
            .text
            .read_span(&local, context_lines_before, context_lines_after)?;
        let at = inner.span();
        // In file terms: the ellipsis before a cut occupies the bytes just before the cut.
        let start = (at.offset() + self.offset)
            .checked_sub(self.lead)
            .ok_or(MietteError::OutOfBounds)?;
        Ok(Box::new(
            MietteSpanContents::new_named(
                self.name.clone(),
                inner.data(),
                SourceSpan::new(start.into(), at.len()),
                inner.line() + self.first_line,
                self.column.unwrap_or(inner.column()),
                inner.line_count(),
            )
            .with_language("json"),
        ))
    }
}

/// The lines of `text` the snippets at `drawn` (their labels' offsets) can read, sorted, not
/// overlapping, each from the start of a line to the end of one (its line feed not included):
/// the line of each label, the line before and the line after, as the text's own line feeds
/// place them. A snippet reads no further from its label than [`REACH`] bytes, so a longer line
/// counts only that far, but is then widened to the whole line, once however many labels share
/// it. Masking never moves a line feed unless it masks one, and then the whole text is masked
/// ([`crate::secrets::mask::mask_within`]), so these are the snippets' lines.
pub(super) fn shown_regions(text: &str, drawn: &[usize]) -> Vec<(usize, usize)> {
    let bytes = text.as_bytes();
    let mut near: Vec<(usize, usize)> = drawn
        .iter()
        .map(|&at| {
            let at = at.min(bytes.len());
            let low = at.saturating_sub(REACH);
            let own_line = line_start(bytes, low, at);
            let from = own_line.map_or(low, |s| {
                s.checked_sub(1)
                    .map_or(0, |before| line_start(bytes, low, before).unwrap_or(low))
            });
            let high = (at + REACH).min(bytes.len());
            let to = line_end(&bytes[..high], at)
                .and_then(|end| line_end(&bytes[..high], (end + 1).min(high)))
                .unwrap_or(high);
            (from, to)
        })
        .collect();
    near.sort_unstable();
    let mut out: Vec<(usize, usize)> = Vec::new();
    for (from, to) in near {
        // Within the region before, which ends at a line's end: nothing to add. Searched for
        // its line's end all the same, each label on a long line cost the rest of the line.
        if out.last().is_some_and(|&(_, end)| to <= end) {
            continue;
        }
        // Back to the start of the line, looking no further back than the region before.
        let floor = out.last().map_or(0, |&(_, end)| end);
        let from = if from <= floor {
            floor
        } else {
            line_start(bytes, floor, from).unwrap_or(floor)
        };
        let to = line_end(bytes, to).unwrap_or(bytes.len());
        match out.last_mut() {
            // Touching the region before (or starting on the line it ends): one region.
            Some(last) if from <= last.1 => last.1 = last.1.max(to),
            _ => out.push((from, to)),
        }
    }
    out
}

/// The start of the line holding byte `at`, looking back no further than `floor` (`None`
/// when no line feed lies in `floor..at`, unless `floor` is the text's start).
fn line_start(bytes: &[u8], floor: usize, at: usize) -> Option<usize> {
    match bytes[floor..at].iter().rposition(|&b| b == b'\n') {
        Some(i) => Some(floor + i + 1),
        None if floor == 0 => Some(0),
        None => None,
    }
}

/// The index of the line feed ending the line that holds byte `at` of `bytes`, `None` when
/// there is none up to the end of `bytes`.
fn line_end(bytes: &[u8], at: usize) -> Option<usize> {
    bytes[at..].iter().position(|&b| b == b'\n').map(|i| at + i)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_hold_three_lines_and_refuse_long_ones() {
        let text = "a\nbb\nccc\ndddd\n";
        let w = Window::around("f".into(), text, 5, 3).unwrap();
        assert_eq!(
            (w.text.as_ref(), w.offset, w.first_line),
            ("bb\nccc\ndddd\n", 2, 1)
        );
        let w = Window::around("f".into(), text, 0, 1).unwrap();
        assert_eq!((w.text.as_ref(), w.first_line), ("a\nbb\n", 0));
        let long = format!("x\n{}\ny", "z".repeat(2000));
        assert!(Window::around("f".into(), &long, 1, 1).is_none());
        assert!(Window::around("f".into(), &long, 1500, 2).is_none());
        assert!(Window::around("f".into(), &long, long.len() - 1, 3).is_none());
    }

    #[test]
    fn long_lines_are_cut_around_the_label() {
        let line = format!(
            "{{\"a\": \"{}\", \"key\": 7, \"b\": \"{}\"}}",
            "x".repeat(2000),
            "y".repeat(2000)
        );
        let text = format!("{line}\n{line}\n");
        let at = line.find('7').unwrap() + line.len() + 1;
        let w = Window::trimmed("f".into(), &text, (at, 1), 2, 2010);
        assert!(
            w.text.starts_with("…") && w.text.ends_with("…\n"),
            "{}",
            w.text
        );
        assert!(w.text.contains("\"key\": 7"));
        assert!(w.text.len() < 2 * TRIM_CONTEXT + 10);
        // The label maps back to its byte in the file, and its column is the file's.
        let span = w.read_span(&SourceSpan::new(at.into(), 1), 0, 0).unwrap();
        assert_eq!(span.line(), 1);
        assert_eq!(span.column(), 2009);
        let local = at - w.offset + w.lead;
        assert_eq!(&w.text[local..=local], "7");
        // A label near the start of the line keeps the start, uncut.
        let w = Window::trimmed("f".into(), &text, (1, 3), 1, 2);
        assert!(
            w.text.starts_with("{\"a\"") && w.text.ends_with("…\n"),
            "{}",
            w.text
        );
    }
}
