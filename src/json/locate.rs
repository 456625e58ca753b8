//! Resolving a JSON pointer to the bytes of the value it names, by scanning the original text.
//!
//! `serde_json` keeps no positions, so diagnostics carry pointers and are resolved here only for
//! files that have findings. The scan walks only the path and skips every other subtree by
//! counting brackets; it never recurses and tolerates the bare `NaN` tokens the tolerant reader
//! accepted.

use super::strings::skip_string;

/// Where a pointer landed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Span {
    /// First byte of the value.
    pub start: usize,
    /// One past its last byte.
    pub end: usize,
    /// Whether the whole pointer resolved; `false` means the span is the deepest existing
    /// ancestor (the object that should hold an absent field).
    pub exact: bool,
}

/// Finds `pointer` in the document that starts at byte `doc_start` of `text`.
///
/// Returns `None` only when the document itself cannot be found (a start past the end).
pub fn locate(text: &str, doc_start: usize, pointer: &str) -> Option<Span> {
    let bytes = text.as_bytes();
    let mut pos = skip_ws(bytes, doc_start);
    if pos >= bytes.len() {
        return None;
    }
    if pointer.is_empty() {
        return Some(Span {
            start: pos,
            end: skip_value(bytes, pos),
            exact: true,
        });
    }
    for raw in pointer.split('/').skip(1) {
        let token = unescape_token(raw);
        let next = match bytes[pos] {
            b'{' => find_member(text, pos, &token),
            b'[' => token
                .parse::<usize>()
                .ok()
                .and_then(|i| find_element(bytes, pos, i)),
            _ => None,
        };
        match next {
            Some(p) => pos = p,
            None => {
                return Some(Span {
                    start: pos,
                    end: skip_value(bytes, pos),
                    exact: false,
                });
            }
        }
    }
    Some(Span {
        start: pos,
        end: skip_value(bytes, pos),
        exact: true,
    })
}

/// 1-based line and column (in characters) of byte `offset`.
pub fn position(text: &str, offset: usize) -> (usize, usize) {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &text[..offset];
    let line = before.bytes().filter(|&b| b == b'\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let column = text[line_start..offset].chars().count() + 1;
    (line, column)
}

/// Escapes one reference token for a JSON pointer (RFC 6901: `~` → `~0`, `/` → `~1`).
pub fn escape_pointer_token(token: &str) -> String {
    token.replace('~', "~0").replace('/', "~1")
}

/// Unescapes one reference token of a JSON pointer (RFC 6901: `~1` → `/`, then `~0` → `~`).
pub fn unescape_token(raw: &str) -> String {
    raw.replace("~1", "/").replace("~0", "~")
}

pub(super) fn skip_ws(bytes: &[u8], mut i: usize) -> usize {
    while i < bytes.len() && bytes[i].is_ascii_whitespace() {
        i += 1;
    }
    i
}

/// One past the value that starts at `i`.
pub(super) fn skip_value(bytes: &[u8], i: usize) -> usize {
    if i >= bytes.len() {
        return bytes.len();
    }
    match bytes[i] {
        b'"' => skip_string(bytes, i),
        b'{' | b'[' => skip_container::<false>(bytes, i),
        _ => {
            let mut j = i;
            while j < bytes.len()
                && !matches!(bytes[j], b',' | b'}' | b']')
                && !bytes[j].is_ascii_whitespace()
            {
                j += 1;
            }
            j.max(i + 1).min(bytes.len())
        }
    }
}

/// One past the container opening at `open`; with `WITHIN_LINE`, the first line end after `open`
/// instead when that comes first. One forward scan stops at whichever it meets first, so a
/// container inside a long line (a compact document of thousands of rows on one line) costs its
/// own length, never the rest of the line.
pub(super) fn skip_container<const WITHIN_LINE: bool>(bytes: &[u8], open: usize) -> usize {
    let newline = |from: usize, to: usize| {
        bytes[from..to.min(bytes.len())]
            .iter()
            .position(|&b| b == b'\n')
            .map(|n| from + n)
    };
    let mut depth = 0usize;
    let mut j = open;
    while j < bytes.len() {
        let next = next_structural(bytes, j);
        if WITHIN_LINE && let Some(at) = newline(j, next) {
            return at;
        }
        j = next;
        if j >= bytes.len() {
            break;
        }
        match bytes[j] {
            b'"' => {
                let end = skip_string(bytes, j);
                if WITHIN_LINE && let Some(at) = newline(j, end) {
                    return at;
                }
                j = end;
                continue;
            }
            b'{' | b'[' => depth += 1,
            b'}' | b']' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return j + 1;
                }
            }
            _ => {}
        }
        j += 1;
    }
    bytes.len()
}

/// The first byte at or after `from` that can change the nesting: a quote or a bracket or
/// brace. Per-request sample arrays are long runs of digits, commas and spaces; testing eight
/// bytes at a time lets the locator cross them several times faster than byte by byte.
pub(crate) fn next_structural(bytes: &[u8], from: usize) -> usize {
    use crate::swar::{ONES, equal, first_hit};
    first_hit(
        bytes,
        from,
        // `[` and `]` differ from `{` and `}` only in bit 5.
        |x| {
            let folded = x | (ONES * 0x20);
            equal(folded, b'{') | equal(folded, b'}') | equal(x, b'"')
        },
        |b| matches!(b, b'"' | b'{' | b'}' | b'[' | b']'),
    )
}

/// Start of the value of member `key` in the object at `open`.
fn find_member(text: &str, open: usize, key: &str) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut i = skip_ws(bytes, open + 1);
    while i < bytes.len() && bytes[i] == b'"' {
        let key_end = skip_string(bytes, i);
        // An unclosed key (a truncated text) names no member; the slice below needs the quote.
        if key_end <= i + 1 || bytes[key_end - 1] != b'"' {
            return None;
        }
        let raw = &text[i + 1..key_end - 1];
        let matches = if raw.contains('\\') {
            serde_json::from_str::<String>(&text[i..key_end]).is_ok_and(|k| k == key)
        } else {
            raw == key
        };
        i = skip_ws(bytes, key_end);
        if bytes.get(i) != Some(&b':') {
            return None;
        }
        i = skip_ws(bytes, i + 1);
        if matches {
            return (i < bytes.len()).then_some(i);
        }
        i = skip_ws(bytes, skip_value(bytes, i));
        if bytes.get(i) != Some(&b',') {
            return None;
        }
        i = skip_ws(bytes, i + 1);
    }
    None
}

/// Start of element `index` of the array at `open`.
fn find_element(bytes: &[u8], open: usize, index: usize) -> Option<usize> {
    let mut i = skip_ws(bytes, open + 1);
    if bytes.get(i) == Some(&b']') {
        return None;
    }
    for _ in 0..index {
        i = skip_ws(bytes, skip_value(bytes, i));
        if bytes.get(i) != Some(&b',') {
            return None;
        }
        i = skip_ws(bytes, i + 1);
    }
    (i < bytes.len()).then_some(i)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::json::Locator;

    const DOC: &str =
        "{\n  \"a/b\": {\"x\": [10, {\"y\": \"}\"}]},\n  \"esc\\u0061\": NaN,\n  \"z\": 3\n}";

    fn text_at(pointer: &str) -> (&'static str, bool) {
        let s = locate(DOC, 0, pointer).unwrap();
        (&DOC[s.start..s.end], s.exact)
    }

    #[test]
    fn resolves_members_elements_and_escapes() {
        assert_eq!(text_at("/a~1b/x/1/y"), ("\"}\"", true));
        assert_eq!(text_at("/a~1b/x/0"), ("10", true));
        assert_eq!(text_at("/esca"), ("NaN", true));
        assert_eq!(text_at("/z"), ("3", true));
    }

    #[test]
    fn an_absent_member_lands_on_the_object_that_should_hold_it() {
        let (t, exact) = text_at("/a~1b/missing");
        assert!(!exact);
        assert!(t.starts_with("{\"x\""));
        assert!(!text_at("/a~1b/x/7").1);
    }

    #[test]
    fn a_truncated_key_is_no_member() {
        let mut locator = Locator::default();
        for text in ["{\"a\u{e9}", "{\"\u{e9}", "{\"a\\\"\u{e9}"] {
            for pointer in ["/a", "/\u{e9}"] {
                let _ = Locator::default().locate_first_line(text, 0, pointer);
                let _ = locator.locate_first_line(text, 0, pointer);
            }
        }
        for text in [
            "{\"a\u{e9}",
            "{\"\u{e9}",
            "{\"",
            "{\"a\\",
            "{\"a\\\"",
            "{\"a\":",
            "[1, \"\u{e9}",
        ] {
            for pointer in ["", "/a", "/\u{e9}", "/0", "/a/0"] {
                let _ = locate(text, 0, pointer);
                let _ = locate(text, 1, pointer);
                let _ = locate(text, 99, pointer);
            }
        }
    }

    #[test]
    fn the_locator_agrees_with_locate() {
        let mut l = Locator::default();
        for p in [
            "/a~1b/x/1/y",
            "/a~1b/x/0",
            "/esca",
            "/z",
            "/a~1b/missing",
            "/a~1b/x/7",
            "",
        ] {
            let a = locate(DOC, 0, p).unwrap();
            let b = l.locate_first_line(DOC, 0, p).unwrap();
            assert_eq!((a.start, a.exact), (b.start, b.exact), "{p}");
            let first_line_end = DOC[a.start..a.end]
                .find('\n')
                .map_or(a.end, |i| a.start + i);
            if a.exact {
                assert_eq!(b.end, first_line_end, "{p}");
            }
        }
    }

    #[test]
    fn small_and_large_objects_find_the_first_of_a_repeated_key() {
        // A few members are searched in place, many through a map: both keep the first.
        for n in [3, 40] {
            let mut members: Vec<String> = (0..n).map(|i| format!("\"k{i}\": {i}")).collect();
            members.push("\"k1\": \"again\"".to_string());
            members.push("\"e\\u0078\": 7".to_string());
            let text = format!("{{{}}}", members.join(", "));
            let mut l = Locator::default();
            for (pointer, want) in [("/k1", "1"), ("/k2", "2"), ("/ex", "7")] {
                let s = l.locate_first_line(&text, 0, pointer).unwrap();
                assert_eq!(
                    (&text[s.start..s.end], s.exact),
                    (want, true),
                    "{n} {pointer}"
                );
                assert_eq!(locate(&text, 0, pointer).unwrap().start, s.start);
            }
            assert!(!l.locate_first_line(&text, 0, "/k99").unwrap().exact);
        }
    }

    #[test]
    fn positions_are_one_based_and_count_characters() {
        let text = "{\n  \"é\": 12}";
        let off = text.find("12").unwrap();
        // Line 2 is `  "é": 12}`: seven characters (one of them two bytes) before the value.
        assert_eq!(position(text, off), (2, 8));
        assert_eq!(position(text, 0), (1, 1));
    }

    #[test]
    fn next_structural_finds_the_first_bracket_quote_or_brace() {
        let text = b"1, 2, 3, 4, 5, 6, 7, 8, 9]";
        assert_eq!(next_structural(text, 0), text.len() - 1);
        for (t, at) in [
            (&b"12345678{"[..], 8),
            (b"\"x", 0),
            (b"abc[", 3),
            (b"abcdefghij}", 10),
            (b"zz", 2),
        ] {
            assert_eq!(next_structural(t, 0), at, "{}", String::from_utf8_lossy(t));
        }
        // Bytes that differ from a bracket only in bit 5 are not brackets.
        assert_eq!(next_structural(b"{{{{{{{{", 0), 0);
        assert_eq!(next_structural(b"{;=}};=}]", 1), 3);
    }
}
