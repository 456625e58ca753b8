//! Splitting a text into its top-level JSON documents without parsing them.
//!
//! vLLM users `cat` several result files into one, `SGLang` appends one line per run: a file may
//! hold many documents. The splitter tracks only strings and bracket depth, so it also survives
//! the bare `NaN` tokens that a strict parser rejects, and it never recurses (deep nesting is
//! just a large counter).

use super::scan::{Limits, Scan, scan, scan_capturing, scan_document};
use super::strings::skip_string;

/// A byte range of the text that holds one top-level document (or what is left of a broken one).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Segment {
    /// First byte of the document.
    pub start: usize,
    /// One past the last byte.
    pub end: usize,
}

/// Splits `text` into top-level documents.
///
/// With `by_line`, every non-blank line is one document (JSON Lines): a broken line then stays
/// a broken line instead of swallowing the lines after it.
pub fn split_documents(text: &str, by_line: bool) -> Vec<Segment> {
    if by_line {
        return split_lines(text);
    }
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i].is_ascii_whitespace() {
            i += 1;
            continue;
        }
        let start = i;
        let end = match bytes[i] {
            b'{' | b'[' => skip_container(bytes, i),
            b'"' => skip_string(bytes, i),
            _ => skip_scalar(bytes, i),
        };
        out.push(Segment { start, end });
        i = end;
    }
    out
}

/// Splits `text` into top-level documents as [`split_documents`] does and scans each one
/// ([`super::scan`]); outside JSON Lines a container's scan finds its end, so the text is
/// walked once, not twice.
pub(super) fn scan_documents<'t>(
    text: &'t str,
    by_line: bool,
    limits: &'t Limits,
    capture: Option<&'t str>,
) -> impl Iterator<Item = (Segment, Scan)> + 't {
    let scan_of = move |s: Segment| match capture {
        Some(schema) => scan_capturing(&text[s.start..s.end], limits, schema),
        None => scan(&text[s.start..s.end], limits),
    };
    // One document at a time: a file of a million lines never holds a million scans.
    let lines = if by_line {
        split_lines(text)
    } else {
        Vec::new()
    };
    let mut lines = lines.into_iter();
    let bytes = text.as_bytes();
    let mut i = 0;
    std::iter::from_fn(move || {
        if by_line {
            return lines.next().map(|s| (s, scan_of(s)));
        }
        while i < bytes.len() && bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        if i >= bytes.len() {
            return None;
        }
        let start = i;
        let (end, found) = match bytes[i] {
            b'{' | b'[' => {
                let found = scan_document(&text[i..], limits, capture);
                // Past the depth bound the scan stopped early: the end is found by brackets.
                let end = found
                    .end
                    .map_or_else(|| skip_container(bytes, i), |e| i + e);
                (end, found)
            }
            b'"' => {
                let end = skip_string(bytes, i);
                (end, scan_of(Segment { start, end }))
            }
            _ => {
                let end = skip_scalar(bytes, i);
                (end, scan_of(Segment { start, end }))
            }
        };
        i = end;
        Some((Segment { start, end }, found))
    })
}

fn split_lines(text: &str) -> Vec<Segment> {
    let mut out = Vec::new();
    let mut start = 0;
    for line in text.split_inclusive('\n') {
        out.extend(line_segment(line, start));
        start += line.len();
    }
    out
}

/// The document of the line `line` (with or without its `\n`) that starts at `start`: the line
/// without the white space around it, `None` for a blank line.
pub(super) fn line_segment(line: &str, start: usize) -> Option<Segment> {
    let trimmed_start = line.len() - line.trim_start().len();
    let body = line.trim();
    (!body.is_empty()).then(|| Segment {
        start: start + trimmed_start,
        end: start + trimmed_start + body.len(),
    })
}

/// Index one past the container that opens at `i`, or the end of the text if it never closes.
fn skip_container(bytes: &[u8], mut i: usize) -> usize {
    let mut depth: usize = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => {
                i = skip_string(bytes, i);
                continue;
            }
            b'{' | b'[' => depth += 1,
            b'}' | b']' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return i + 1;
                }
            }
            _ => {}
        }
        i += 1;
    }
    bytes.len()
}

fn skip_scalar(bytes: &[u8], mut i: usize) -> usize {
    let start = i;
    while i < bytes.len() && !bytes[i].is_ascii_whitespace() && !matches!(bytes[i], b'{' | b'[') {
        i += 1;
    }
    i.max(start + 1).min(bytes.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pieces(text: &str, by_line: bool) -> Vec<&str> {
        split_documents(text, by_line)
            .into_iter()
            .map(|s| &text[s.start..s.end])
            .collect()
    }

    #[test]
    fn concatenated_pretty_documents_split_at_depth_zero() {
        let text = "{\n  \"a\": \"}\"\n}\n{\"b\": [1, {\"c\": 2}]}\n";
        assert_eq!(
            pieces(text, false),
            vec!["{\n  \"a\": \"}\"\n}", "{\"b\": [1, {\"c\": 2}]}"]
        );
    }

    #[test]
    fn a_truncated_document_runs_to_the_end() {
        assert_eq!(pieces("{\"a\": [1, 2", false), vec!["{\"a\": [1, 2"]);
    }

    #[test]
    fn line_mode_keeps_a_broken_line_to_itself() {
        let text = "{\"a\": 1}\n{\"b\": \n\n{\"c\": 3}\n";
        assert_eq!(
            pieces(text, true),
            vec!["{\"a\": 1}", "{\"b\":", "{\"c\": 3}"]
        );
    }

    #[test]
    fn one_pass_splits_and_scans_as_two_passes_do() {
        let limits = Limits {
            max_depth: 3,
            max_array_items: 2,
            ..Limits::default()
        };
        for text in [
            "{\n  \"a\": \"}\"\n}\n{\"b\": [1, {\"c\": 2}]}\n",
            "{\"a\": [1, 2",
            "[[[[[1]]]]] {\"a\": 1, \"a\": 2} 5 \"s\" ]] }",
            "{\"a\": [1, 2, 3, 4]}\n[[[[ {\"b\": 1}",
            "  NaN {\"x\": NaN}\n\n",
            "",
        ] {
            for by_line in [false, true] {
                let one: Vec<(Segment, Scan)> =
                    scan_documents(text, by_line, &limits, None).collect();
                let two: Vec<(Segment, Scan)> = split_documents(text, by_line)
                    .into_iter()
                    .map(|s| (s, scan(&text[s.start..s.end], &limits)))
                    .collect();
                let strip = |v: Vec<(Segment, Scan)>| -> Vec<(Segment, Scan)> {
                    v.into_iter()
                        .map(|(s, mut f)| {
                            f.end = None;
                            (s, f)
                        })
                        .collect()
                };
                assert_eq!(strip(one), strip(two), "{text:?}");
            }
        }
    }

    #[test]
    fn escaped_quotes_do_not_end_a_string() {
        assert_eq!(
            pieces(r#"{"a": "x\"}"} 5"#, false),
            vec![r#"{"a": "x\"}"}"#, "5"]
        );
    }
}
