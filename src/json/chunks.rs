//! A JSON Lines text read a bounded number of documents at a time ([`parse_line_chunks`]), each
//! chunk with its own lines and everything [`super::parse_text_with`] finds in them: a file of a
//! million lines is never a million parsed documents at once, nor, read from a file a line at a
//! time, a text held whole; and what is found is what the whole-text read finds, in the same
//! order.

use super::scan::{Limits, scan, scan_capturing};
use super::segment::line_segment;
use super::tolerant::{Apart, ParsedText, Reading};

/// The text a chunk gathers before the next document starts a chunk of its own, whatever its
/// number of documents: a chunk of large documents stays about a megabyte of text, and the few
/// chunks in flight at once (one checked while the next is read) a few megabytes in all.
const CHUNK_BYTES: usize = 1 << 20;

/// Where the lines of a JSON Lines text come from.
pub trait LineSource {
    /// Appends the next line, with its `\n` if it has one, to `text`: how many bytes, none at
    /// the end of the text; or why the line could not be read.
    fn append_line(&mut self, text: &mut String) -> Result<usize, String>;

    /// Reads the next line into `line` (cleared first); `false` at the end of the text.
    fn read_line(&mut self, line: &mut String) -> Result<bool, String> {
        line.clear();
        Ok(self.append_line(line)? > 0)
    }
}

impl<S: LineSource + ?Sized> LineSource for &mut S {
    fn append_line(&mut self, text: &mut String) -> Result<usize, String> {
        (**self).append_line(text)
    }
}

/// The lines of a text held in memory.
pub struct TextLines<'t>(pub &'t str);

impl LineSource for TextLines<'_> {
    fn append_line(&mut self, text: &mut String) -> Result<usize, String> {
        let end = self.0.find('\n').map_or(self.0.len(), |i| i + 1);
        text.push_str(&self.0[..end]);
        self.0 = &self.0[end..];
        Ok(end)
    }
}

/// Some lines of a JSON Lines text, with what was read in them.
#[derive(Debug, Default)]
pub struct LineChunk {
    /// The lines, as the text holds them.
    pub text: String,
    /// Byte offset of the first of them in the whole text.
    pub base: usize,
    /// What was read in them; its offsets are `text`'s.
    pub parsed: ParsedText,
    /// Whether the whole text ends where this chunk does.
    pub last: bool,
}

/// The chunks of a JSON Lines text, in order ([`parse_line_chunks`]).
pub struct LineChunks<'a, S> {
    source: S,
    reading: Reading,
    limits: &'a Limits,
    schema: Option<&'a str>,
    index: usize,
    size: usize,
    /// The chunk being gathered.
    chunk: LineChunk,
    /// Where the next line starts in the whole text.
    next: usize,
    /// No line is read any more: the end of the text, the bound on arrays and objects, or an
    /// error.
    done: bool,
    error: Option<String>,
    handed_last: bool,
}

/// Reads the lines of `source` (a text of `len` bytes) as [`super::parse_text_with`] (or, with
/// `capture`, as [`super::parse_text_typed`] or [`super::parse_text_lean`]) does with its JSON
/// Lines hint, `size` parsed documents a chunk (fewer where they pass a megabyte of text). Every chunk but the first starts at a document
/// that parsed, so a line that did not parse sits in the chunk of the document before it, where
/// the whole-text read looks for it (a repeated key in a broken line is told with that
/// document's). Indices are the whole text's; at least one chunk is given, empty for an empty
/// text. A line that cannot be read ends the chunks with its error.
pub fn parse_line_chunks<'a, S: LineSource>(
    source: S,
    len: usize,
    limits: &'a Limits,
    capture: Option<(&'a str, bool)>,
    size: usize,
) -> LineChunks<'a, S> {
    let (schema, with_levels) = capture.unzip();
    LineChunks {
        source,
        reading: Reading::new(len, with_levels == Some(true)),
        limits,
        schema,
        index: 0,
        size: size.max(1),
        chunk: LineChunk::default(),
        next: 0,
        done: false,
        error: None,
        handed_last: false,
    }
}

impl<S> LineChunks<'_, S> {
    /// Reads the root array `apart` names apart in each document it names, as
    /// [`super::parse_text_apart`] does.
    #[must_use]
    pub fn reading_apart(mut self, apart: Option<Apart>) -> Self {
        self.reading.read_apart(apart);
        self
    }
}

impl<S: LineSource> LineChunks<'_, S> {
    /// Reads the next line into the chunk being gathered; a chunk once the line starts the
    /// next one.
    fn read_next(&mut self) -> Option<LineChunk> {
        // Read straight into the chunk's text: a line is copied once, and again only when it
        // starts the next chunk.
        let at = self.chunk.text.len();
        match self.source.append_line(&mut self.chunk.text) {
            Ok(0) => {
                self.done = true;
                self.chunk.last = true;
                return None;
            }
            Ok(_) => {}
            Err(e) => {
                self.done = true;
                self.error = Some(e);
                return None;
            }
        }
        let start = self.next;
        self.next += self.chunk.text.len() - at;
        let line = &self.chunk.text[at..];
        let mut one = ParsedText::default();
        if let Some(seg) = line_segment(line, 0) {
            let piece = &line[seg.start..seg.end];
            let found = match self.schema {
                Some(schema) => scan_capturing(piece, self.limits, schema),
                None => scan(piece, self.limits),
            };
            self.done = !self
                .reading
                .read(line, self.limits, self.index, (seg, found), &mut one);
            self.index += 1;
        }
        let full = self.chunk.parsed.documents.len() >= self.size || at >= CHUNK_BYTES;
        if !one.documents.is_empty() && full {
            let next = LineChunk {
                text: self.chunk.text.split_off(at),
                base: start,
                parsed: one,
                last: false,
            };
            return Some(std::mem::replace(&mut self.chunk, next));
        }
        append_at(&mut self.chunk.parsed, one, at);
        None
    }
}

impl<S: LineSource> Iterator for LineChunks<'_, S> {
    type Item = Result<LineChunk, String>;

    fn next(&mut self) -> Option<Self::Item> {
        while !self.done {
            if let Some(chunk) = self.read_next() {
                return Some(Ok(chunk));
            }
        }
        if self.handed_last {
            return None;
        }
        self.handed_last = true;
        Some(match self.error.take() {
            Some(e) => Err(e),
            None => Ok(std::mem::take(&mut self.chunk)),
        })
    }
}

/// Appends what was read of one line to the chunk, the line starting at `at` in the chunk's
/// text (its offsets are the line's).
fn append_at(out: &mut ParsedText, one: ParsedText, at: usize) {
    let ParsedText {
        documents,
        failures,
        nonstandard,
        duplicate_keys,
        wide_integers,
        truncated_arrays,
        failures_omitted,
    } = one;
    out.documents.extend(documents.into_iter().map(|mut d| {
        d.start += at;
        for s in &mut d.samples {
            s.start += at;
            s.end += at;
        }
        if let Some(levels) = d.levels.as_mut() {
            levels.start += at;
            levels.end += at;
        }
        d
    }));
    out.failures.extend(failures.into_iter().map(|mut f| {
        f.offset += at;
        f
    }));
    out.nonstandard.extend(nonstandard.into_iter().map(|mut n| {
        n.offset += at;
        n
    }));
    out.duplicate_keys
        .extend(duplicate_keys.into_iter().map(|mut k| {
            k.offset += at;
            k
        }));
    out.wide_integers
        .extend(wide_integers.into_iter().map(|w| w + at));
    out.truncated_arrays
        .extend(truncated_arrays.into_iter().map(|mut t| {
            t.offset += at;
            t
        }));
    out.failures_omitted += failures_omitted;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::{parse_text_lean, parse_text_typed, parse_text_with};

    const SCHEMA: &str = "benchlint/result/v1";

    /// Lines of every kind the reader tells apart.
    const LINES: [&str; 18] = [
        "{\"a\": 1}",
        "{\"a\": NaN, \"a\": 2}",
        "{broken",
        "{\"a\": 1",
        "[1, 2]",
        "",
        "   ",
        "3",
        "\"text\"",
        "{\"b\": 1, \"b\": 1",
        "{\"c\": 99999999999999999999}",
        "[1, 2, 3, 4, 5, 6, 7, 8, 9]",
        "[[[[[[[1]]]]]]]",
        "not json at all",
        "{\"schema\": \"benchlint/result/v1\", \"levels\": [{\"concurrency\": 1, \"samples\": {\"ttft_ms\": [1, 2.5, 3e2]}}]}",
        "{\"schema\": \"benchlint/result/v1\", \"levels\": [{\"concurrency\": 1, \"samples\": {\"ttft_ms\": [1, -2]}}], \"x\": Infinity}",
        "  {\"d\": [{}, {}, {}]}  ",
        "{\"e\": \"\u{e9}\u{1F600}\"}",
    ];

    /// A JSON Lines text drawn from [`LINES`], with `\n` or `\r\n` ends and the last line
    /// ended or not.
    fn drawn(state: &mut u64) -> String {
        let mut text = String::new();
        let count = crate::seeded::below(state, 40);
        for i in 0..count {
            text.push_str(LINES[crate::seeded::below(state, LINES.len())]);
            if i + 1 < count || crate::seeded::below(state, 2) == 0 {
                text.push_str(if crate::seeded::below(state, 5) == 0 {
                    "\r\n"
                } else {
                    "\n"
                });
            }
        }
        text
    }

    /// The chunks, their offsets moved to the whole text's, laid end to end.
    fn laid_end_to_end(chunks: Vec<LineChunk>) -> (String, ParsedText) {
        let mut text = String::new();
        let mut all = ParsedText::default();
        for c in chunks {
            assert_eq!(c.base, text.len());
            text.push_str(&c.text);
            append_at(&mut all, c.parsed, c.base);
        }
        (text, all)
    }

    /// Over drawn texts, chunk sizes and every way of reading: the chunks hold, offsets moved
    /// by their bases, exactly what the whole-text read holds; their texts are the text's; every
    /// chunk but the first starts at a document and holds at most `size` of them; only the last
    /// says it is.
    #[test]
    fn the_chunks_add_up_to_the_whole_text() {
        let mut state = 0xc4a2_u64;
        let limits = [
            Limits::default(),
            Limits {
                max_depth: 4,
                max_array_items: 4,
                max_failures: 3,
            },
        ];
        let captures = [None, Some((SCHEMA, false)), Some((SCHEMA, true))];
        for case in 0..400 {
            let text = drawn(&mut state);
            let limits = &limits[case % 2];
            let capture = captures[case % 3];
            let whole = match capture {
                None => parse_text_with(&text, true, limits),
                Some((schema, false)) => parse_text_typed(&text, true, limits, schema),
                Some((schema, true)) => parse_text_lean(&text, true, limits, schema),
            };
            for size in [1, 2, 3, 7, 1000] {
                let chunks: Vec<LineChunk> =
                    parse_line_chunks(TextLines(&text), text.len(), limits, capture, size)
                        .collect::<Result<_, _>>()
                        .unwrap();
                assert!(!chunks.is_empty());
                for (k, c) in chunks.iter().enumerate() {
                    assert!(c.parsed.documents.len() <= size);
                    assert_eq!(c.last, k + 1 == chunks.len());
                    if k > 0 {
                        let first = c.parsed.documents.first().map(|d| d.start);
                        let lead = c.text.len() - c.text.trim_start().len();
                        assert_eq!(first, Some(lead), "case {case}, size {size}, chunk {k}");
                    }
                }
                let (joined, all) = laid_end_to_end(chunks);
                assert_eq!(joined, text);
                assert_eq!(
                    format!("{all:?}"),
                    format!("{whole:?}"),
                    "case {case}, size {size}: {text:?}"
                );
            }
        }
        assert_eq!(
            parse_line_chunks(TextLines(""), 0, &Limits::default(), None, 4).count(),
            1
        );
    }

    /// A line that cannot be read ends the chunks with its error, after what was read before.
    #[test]
    fn a_line_that_cannot_be_read_ends_the_chunks() {
        struct Failing(usize);
        impl LineSource for Failing {
            fn append_line(&mut self, text: &mut String) -> Result<usize, String> {
                if self.0 == 0 {
                    return Err("gone".into());
                }
                self.0 -= 1;
                text.push_str("{}\n");
                Ok(3)
            }
        }
        let limits = Limits::default();
        let got: Vec<Result<LineChunk, String>> =
            parse_line_chunks(Failing(5), 15, &limits, None, 2).collect();
        assert_eq!(got.len(), 3);
        assert!(got[..2].iter().all(|c| c.as_ref().is_ok_and(|c| !c.last)));
        assert_eq!(got[2].as_ref().err().map(String::as_str), Some("gone"));
    }
}
