//! JSON writers that write every hidden character (see [`is_hidden`](super::is_hidden)) as a
//! `\u` escape. `serde_json` escapes control characters but writes bidirectional overrides,
//! line separators and zero-width characters as they are, and a terminal or a diff viewer then
//! reorders or hides text. The escape keeps the value: a reader gets back the same string.

use std::io;

use serde::Serialize;
use serde_json::ser::{CompactFormatter, Formatter, PrettyFormatter};

use super::hidden::is_hidden;

/// A formatter that escapes hidden characters, around serde_json's own.
struct Safe<F>(F);

impl<F: Formatter> Formatter for Safe<F> {
    fn write_string_fragment<W: ?Sized + io::Write>(
        &mut self,
        writer: &mut W,
        fragment: &str,
    ) -> io::Result<()> {
        // Printable ASCII, most of what is written, needs no look at its characters (DEL is
        // ASCII, and serde_json leaves it raw).
        if fragment.bytes().all(|b| (0x20..0x7f).contains(&b))
            && !super::commands::json_may_command(fragment.as_bytes())
        {
            return writer.write_all(fragment.as_bytes());
        }
        // serde_json has already escaped quotes, backslashes and controls below 0x20 around
        // this fragment, so the one escaping function leaves only hidden characters to do.
        let mut escaped = Vec::with_capacity(fragment.len() + 16);
        push_str_contents(&mut escaped, fragment);
        writer.write_all(&escaped)
    }

    fn begin_array<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.begin_array(w)
    }
    fn end_array<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.end_array(w)
    }
    fn begin_array_value<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.0.begin_array_value(w, first)
    }
    fn end_array_value<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.end_array_value(w)
    }
    fn begin_object<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.begin_object(w)
    }
    fn end_object<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.end_object(w)
    }
    fn begin_object_key<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.0.begin_object_key(w, first)
    }
    fn end_object_key<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.end_object_key(w)
    }
    fn begin_object_value<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.begin_object_value(w)
    }
    fn end_object_value<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.0.end_object_value(w)
    }
}

/// Appends `s` as a JSON string, quotes included, escaped exactly as the writers above escape
/// it: `"`, `\\` and control characters as serde_json writes them (`\n`, `\u001b`), every other
/// hidden character as `\u` escapes. For writers that build JSON by hand on the hot path, where
/// going through serde for each string costs more than the string.
pub fn push_str(out: &mut Vec<u8>, s: &str) {
    out.push(b'"');
    push_str_contents(out, s);
    out.push(b'"');
}

/// [`push_str`] without the quotes: for a string written in pieces (a [`super::Text`]'s parts).
pub fn push_str_contents(out: &mut Vec<u8>, s: &str) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let bytes = s.as_bytes();
    let mut start = 0;
    let mut i = 0;
    while i < bytes.len() {
        i = plain_run_end(bytes, i);
        let Some(&b) = bytes.get(i) else { break };
        out.extend_from_slice(&bytes[start..i]);
        if b < 0x80 {
            match b {
                b'"' => out.extend_from_slice(b"\\\""),
                b'\\' => out.extend_from_slice(b"\\\\"),
                0x08 => out.extend_from_slice(b"\\b"),
                0x0c => out.extend_from_slice(b"\\f"),
                b'\n' => out.extend_from_slice(b"\\n"),
                b'\r' => out.extend_from_slice(b"\\r"),
                b'\t' => out.extend_from_slice(b"\\t"),
                // The second `#` of a pair: `##[` and `##vso[` are runner commands anywhere
                // in a log line, a JSON string included (see `super::commands`).
                b'#' if i > 0 && bytes[i - 1] == b'#' => out.extend_from_slice(b"\\u0023"),
                b'#' => out.push(b'#'),
                // The other controls and DEL.
                _ => out.extend_from_slice(&[
                    b'\\',
                    b'u',
                    b'0',
                    b'0',
                    HEX[usize::from(b >> 4)],
                    HEX[usize::from(b & 0xf)],
                ]),
            }
            i += 1;
        } else {
            let c = s[i..].chars().next().expect("a character starts here");
            let width = c.len_utf8();
            if is_hidden(c) {
                let mut units = [0u16; 2];
                for u in c.encode_utf16(&mut units) {
                    out.extend_from_slice(b"\\u");
                    for shift in [12, 8, 4, 0] {
                        out.push(HEX[usize::from((*u >> shift) & 0xf)]);
                    }
                }
            } else {
                out.extend_from_slice(&bytes[i..i + width]);
            }
            i += width;
        }
        start = i;
    }
    out.extend_from_slice(&bytes[start..]);
}

/// The first byte at or after `from` that is not written as it is: a quote, a backslash, a
/// control character, DEL or any byte of a non-ASCII character. Eight bytes are tested at a
/// time: most of what a report writes is plain ASCII.
fn plain_run_end(bytes: &[u8], from: usize) -> usize {
    use crate::swar::{HIGHS, ONES, equal, first_hit};
    first_hit(
        bytes,
        from,
        // Below 0x20 (exact where no byte has its high bit set, and one that has is a hit
        // anyway), DEL, a high bit, a quote, a backslash or a `#` (the second of a pair is
        // escaped).
        |x| {
            let low = x.wrapping_sub(ONES * 0x20) & !x & HIGHS;
            low | equal(x, 0x7f) | (x & HIGHS) | equal(x, b'"') | equal(x, b'\\') | equal(x, b'#')
        },
        |b| !(0x20..0x7f).contains(&b) || matches!(b, b'"' | b'\\' | b'#'),
    )
}

/// Writes `value` as pretty JSON (two-space indent) to `out`.
pub fn to_writer_pretty<T: Serialize + ?Sized>(
    out: &mut dyn io::Write,
    value: &T,
) -> io::Result<()> {
    let mut ser = serde_json::Serializer::with_formatter(out, Safe(PrettyFormatter::new()));
    value.serialize(&mut ser).map_err(io::Error::other)
}

/// Writes `value` as compact JSON (one line) to `out`.
pub fn to_writer<T: Serialize + ?Sized>(out: &mut dyn io::Write, value: &T) -> io::Result<()> {
    let mut ser = serde_json::Serializer::with_formatter(out, Safe(CompactFormatter));
    value.serialize(&mut ser).map_err(io::Error::other)
}

/// A sequence serialised as its items come from an iterator, each made when the writer reaches
/// it: a document of every configuration of a large corpus is written without being held.
/// Serialised once; a second time writes an empty sequence.
pub struct Streamed<I>(std::cell::RefCell<I>);

impl<I> Streamed<I> {
    /// The sequence of what `items` yields.
    pub fn new(items: I) -> Self {
        Streamed(std::cell::RefCell::new(items))
    }
}

impl<I: Iterator<Item = T>, T: Serialize> Serialize for Streamed<I> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(&mut *self.0.borrow_mut())
    }
}

/// A JSON document built from inputs (cards, a comparison, a capacity table) as pretty JSON
/// followed by a line feed, every secret in it replaced by `"<redacted>"` first (values under
/// secret keys, credential-shaped values, secrets inside text, keys that are credentials).
pub fn pretty_redacted(mut value: serde_json::Value) -> Vec<u8> {
    crate::secrets::redact_value(&mut value);
    pretty_line(&value)
}

/// `value` as pretty JSON followed by a line feed.
pub fn pretty_line<T: Serialize + ?Sized>(value: &T) -> Vec<u8> {
    let mut bytes = Vec::new();
    pretty_line_to(&mut bytes, value).expect("JSON serialises into memory");
    bytes
}

/// [`pretty_line`] written to `out` as it is serialised.
pub fn pretty_line_to<T: Serialize + ?Sized>(out: &mut dyn io::Write, value: &T) -> io::Result<()> {
    to_writer_pretty(out, value)?;
    out.write_all(b"\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hidden_characters_are_escaped_and_read_back() {
        let v = serde_json::json!({"a\u{202e}": ["x\u{200b}y", "\u{E0041}", "é \u{1b}"]});
        let bytes = pretty_line(&v);
        let text = String::from_utf8(bytes).unwrap();
        assert!(text.contains("a\\u202e"), "{text}");
        assert!(text.contains("x\\u200by"), "{text}");
        assert!(text.contains("\\udb40\\udc41"), "{text}");
        assert!(text.contains("é \\u001b"), "{text}");
        assert!(!text.chars().any(is_hidden_but_layout), "{text}");
        let back: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(back, v);
    }

    #[test]
    fn no_pair_of_hashes_is_written_and_the_value_reads_back() {
        let v = serde_json::json!({"id": "a ##[error]x ##vso[task.complete]y ###z #1"});
        let text = String::from_utf8(pretty_line(&v)).unwrap();
        assert!(!text.contains("##"), "{text}");
        assert!(text.contains("#\\u0023[error]"), "{text}");
        let back: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(back, v);
        let mut by_hand = Vec::new();
        push_str(&mut by_hand, "##vso[");
        assert_eq!(by_hand, br##""#\u0023vso[""##);
    }

    fn is_hidden_but_layout(c: char) -> bool {
        c != '\n' && is_hidden(c)
    }

    #[test]
    fn a_string_pushed_by_hand_is_the_string_serde_json_writes() {
        // Written out by hand: the serde writers now share the hidden-character escape.
        let mut by_hand = Vec::new();
        push_str(&mut by_hand, "a\"\\\n\u{1b}\u{7f}\u{85}\u{202e}\u{E0041}é");
        assert_eq!(
            String::from_utf8(by_hand).unwrap(),
            r#""a\"\\\n\u001b\u007f\u0085\u202e\udb40\udc41é""#
        );
        let specials = [
            '\u{200b}',
            '\u{202e}',
            '\u{feff}',
            '\u{E0041}',
            '\u{1F600}',
            '\u{FFFB}',
        ];
        let chars = (0u32..0x800)
            .filter_map(char::from_u32)
            .chain(specials)
            .chain((0x2000u32..0x2070).filter_map(char::from_u32));
        for c in chars {
            // At each place a chunk of eight bytes can put it, and in the tail.
            for at in 0..10 {
                let s = format!("{}{c}{}", "a".repeat(at), "z".repeat(9 - at));
                let mut by_hand = Vec::new();
                push_str(&mut by_hand, &s);
                let mut by_serde = Vec::new();
                to_writer(&mut by_serde, &s).unwrap();
                assert_eq!(by_hand, by_serde, "{c:?} at {at}");
            }
        }
    }
}
