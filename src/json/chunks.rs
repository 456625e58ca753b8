//! A JSON Lines text read a bounded number of documents at a time ([`parse_line_chunks`]), each
//! chunk with everything [`super::parse_text_with`] finds in its lines: a file of a million lines
//! is never a million parsed documents at once, and what is found is what the whole-text read
//! finds, in the same order.

use super::scan::{Limits, Scan};
use super::segment::{Segment, scan_documents};
use super::tolerant::{ParsedText, Reading};

/// The chunks of a JSON Lines text, in order ([`parse_line_chunks`]).
pub struct LineChunks<'t> {
    segments: Box<dyn Iterator<Item = (Segment, Scan)> + 't>,
    reading: Reading<'t>,
    limits: &'t Limits,
    index: usize,
    size: usize,
    /// The first line of the next chunk, read already.
    carry: Option<ParsedText>,
    done: bool,
}

/// Reads `text` line by line as [`super::parse_text_with`] (or, with `capture`, as
/// [`super::parse_text_typed`] or [`super::parse_text_lean`]) does with its JSON Lines hint,
/// `size` parsed documents a chunk. Every chunk but the first starts at a document that
/// parsed, so a line that did not parse sits in the chunk of the document before it, where
/// the whole-text read looks for it (a repeated key in a broken line is told with that
/// document's). Offsets and indices are the text's; at least one chunk is given, empty for an
/// empty text.
pub fn parse_line_chunks<'t>(
    text: &'t str,
    limits: &'t Limits,
    capture: Option<(&'t str, bool)>,
    size: usize,
) -> LineChunks<'t> {
    let (schema, with_levels) = capture.unzip();
    LineChunks {
        segments: Box::new(scan_documents(text, true, limits, schema)),
        reading: Reading::new(text, with_levels == Some(true)),
        limits,
        index: 0,
        size: size.max(1),
        carry: None,
        done: false,
    }
}

impl Iterator for LineChunks<'_> {
    type Item = ParsedText;

    fn next(&mut self) -> Option<ParsedText> {
        if self.done && self.carry.is_none() {
            return None;
        }
        let mut out = self.carry.take().unwrap_or_default();
        while !self.done {
            let Some(segment) = self.segments.next() else {
                self.done = true;
                break;
            };
            let mut one = ParsedText::default();
            self.done = !self
                .reading
                .read(self.limits, self.index, segment, &mut one);
            self.index += 1;
            if !one.documents.is_empty() && out.documents.len() >= self.size {
                self.carry = Some(one);
                return Some(out);
            }
            append(&mut out, one);
        }
        Some(out)
    }
}

/// Appends what was read of one line to the chunk.
fn append(out: &mut ParsedText, one: ParsedText) {
    let ParsedText {
        documents,
        failures,
        nonstandard,
        duplicate_keys,
        wide_integers,
        truncated_arrays,
        failures_omitted,
    } = one;
    out.documents.extend(documents);
    out.failures.extend(failures);
    out.nonstandard.extend(nonstandard);
    out.duplicate_keys.extend(duplicate_keys);
    out.wide_integers.extend(wide_integers);
    out.truncated_arrays.extend(truncated_arrays);
    out.failures_omitted += failures_omitted;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::parse_text_with;

    /// The chunks hold, in order, what the whole-text read holds.
    #[test]
    fn the_chunks_add_up_to_the_whole_text() {
        let text = "{\"a\": 1}\n{\"a\": NaN, \"a\": 2}\n{broken\n[1, 2]\n\n3\n{\"b\": 1, \"b\": 1\n{\"c\": 99999999999999999999}\n";
        let limits = Limits::default();
        let whole = parse_text_with(text, true, &limits);
        for size in [1, 2, 3, 100] {
            let chunks: Vec<ParsedText> = parse_line_chunks(text, &limits, None, size).collect();
            assert!(chunks.iter().skip(1).all(|c| {
                c.documents
                    .first()
                    .is_some_and(|d| c.failures.first().is_none_or(|f| f.offset > d.start))
            }));
            let mut all = ParsedText::default();
            for c in chunks {
                assert!(c.documents.len() <= size);
                append(&mut all, c);
            }
            let starts = |p: &ParsedText| -> Vec<(usize, usize)> {
                p.documents.iter().map(|d| (d.start, d.index)).collect()
            };
            assert_eq!(starts(&all), starts(&whole), "{size}");
            assert_eq!(all.failures, whole.failures);
            assert_eq!(all.nonstandard, whole.nonstandard);
            assert_eq!(all.duplicate_keys, whole.duplicate_keys);
            assert_eq!(all.wide_integers, whole.wide_integers);
        }
        assert_eq!(parse_line_chunks("", &limits, None, 4).count(), 1);
    }
}
