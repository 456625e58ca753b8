//! The part of a file a snippet shows: the line of a finding and one line on each side, cut
//! out of the file's (masked) text so that drawing a finding costs the same wherever it lies
//! in the file. miette finds lines by scanning its source from the start; given the whole
//! text, a file with 80,000 findings took 80,000 scans of the whole file.

use miette::{MietteError, MietteSpanContents, SourceCode, SourceSpan, SpanContents};

/// Longest line a snippet shows: a minified file's one line can be megabytes.
pub const MAX_SNIPPET_LINE: usize = 1000;

/// The lines around one finding, with where they sit in the whole file.
pub struct Window<'t> {
    /// The file's name, as shown.
    name: String,
    /// The window's text.
    text: &'t str,
    /// Byte offset of the window in the file.
    offset: usize,
    /// 0-based line of the window's first line in the file.
    first_line: usize,
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
            text: &text[start..end],
            offset: start,
            first_line,
        })
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
            .ok_or(MietteError::OutOfBounds)?;
        let local = SourceSpan::new(local_offset.into(), span.len());
        let inner = self
            .text
            .read_span(&local, context_lines_before, context_lines_after)?;
        let at = inner.span();
        Ok(Box::new(
            MietteSpanContents::new_named(
                self.name.clone(),
                inner.data(),
                SourceSpan::new((at.offset() + self.offset).into(), at.len()),
                inner.line() + self.first_line,
                inner.column(),
                inner.line_count(),
            )
            .with_language("json"),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_hold_three_lines_and_refuse_long_ones() {
        let text = "a\nbb\nccc\ndddd\n";
        let w = Window::around("f".into(), text, 5, 3).unwrap();
        assert_eq!((w.text, w.offset, w.first_line), ("bb\nccc\ndddd\n", 2, 1));
        let w = Window::around("f".into(), text, 0, 1).unwrap();
        assert_eq!((w.text, w.first_line), ("a\nbb\n", 0));
        let long = format!("x\n{}\ny", "z".repeat(2000));
        assert!(Window::around("f".into(), &long, 1, 1).is_none());
        assert!(Window::around("f".into(), &long, 1500, 2).is_none());
        assert!(Window::around("f".into(), &long, long.len() - 1, 3).is_none());
    }
}
