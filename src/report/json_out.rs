//! JSON written by hand into a byte buffer, laid out exactly as serde_json's pretty (or
//! compact) printer lays it out, for the reports' per-finding objects: on a corpus with a
//! quarter of a million findings, going through serde for each of them cost more than the rest
//! of the report. Strings are escaped by [`crate::text::json::push_str`], as the serde writers
//! escape them; the reports' tests hold the bytes to serde_json's.

use std::io::Write;

use crate::text::Text;
use crate::text::json::{push_str, push_str_contents};

/// How an object is laid out.
#[derive(Debug, Clone, Copy)]
pub(super) enum Layout {
    /// Pretty-printed, two spaces a level of nesting.
    Pretty,
    /// On one line.
    Compact,
}

/// A JSON object being written: its members' separators and line breaks.
pub(super) struct Object<'o> {
    out: &'o mut Vec<u8>,
    layout: Layout,
    depth: usize,
    empty: bool,
}

impl<'o> Object<'o> {
    /// Opens an object whose `{` is written at nesting `depth`.
    pub(super) fn open(out: &'o mut Vec<u8>, layout: Layout, depth: usize) -> Self {
        out.push(b'{');
        Object {
            out,
            layout,
            depth,
            empty: true,
        }
    }

    /// Starts the member `key` (a name of benchlint's own, never escaped); its value follows.
    pub(super) fn key(&mut self, key: &str) -> &mut Vec<u8> {
        if !self.empty {
            self.out.push(b',');
        }
        self.empty = false;
        line_break(self.out, self.layout, self.depth + 1);
        self.out.push(b'"');
        self.out.extend_from_slice(key.as_bytes());
        self.out
            .extend_from_slice(if matches!(self.layout, Layout::Pretty) {
                b"\": "
            } else {
                b"\":"
            });
        self.out
    }

    /// The member `key` holding an object.
    pub(super) fn object(&mut self, key: &str) -> Object<'_> {
        let (layout, depth) = (self.layout, self.depth + 1);
        Object::open(self.key(key), layout, depth)
    }

    /// The member `key` holding an array.
    pub(super) fn array(&mut self, key: &str) -> Array<'_> {
        let (layout, depth) = (self.layout, self.depth + 1);
        Array::open(self.key(key), layout, depth)
    }

    /// The member `key` holding a string.
    pub(super) fn str(&mut self, key: &str, value: &str) {
        push_str(self.key(key), value);
    }

    /// The member `key` holding a message's masked text ([`push_text`]).
    pub(super) fn text(&mut self, key: &str, value: &Text) {
        push_text(self.key(key), value);
    }

    /// The member `key` holding a number, or null.
    pub(super) fn number(&mut self, key: &str, value: Option<usize>) {
        push_number(self.key(key), value);
    }

    /// The member `key` holding `true` or `false`.
    pub(super) fn bool(&mut self, key: &str, value: bool) {
        self.key(key)
            .extend_from_slice(if value { b"true" } else { b"false" });
    }

    /// Closes the object (`{}` when it has no member).
    pub(super) fn close(self) {
        if !self.empty {
            line_break(self.out, self.layout, self.depth);
        }
        self.out.push(b'}');
    }
}

/// A JSON array being written.
pub(super) struct Array<'o> {
    out: &'o mut Vec<u8>,
    layout: Layout,
    depth: usize,
    empty: bool,
}

impl<'o> Array<'o> {
    /// Opens an array whose `[` is written at nesting `depth`.
    pub(super) fn open(out: &'o mut Vec<u8>, layout: Layout, depth: usize) -> Self {
        out.push(b'[');
        Array {
            out,
            layout,
            depth,
            empty: true,
        }
    }

    /// Starts the next element; its value follows.
    pub(super) fn item(&mut self) -> &mut Vec<u8> {
        if !self.empty {
            self.out.push(b',');
        }
        self.empty = false;
        line_break(self.out, self.layout, self.depth + 1);
        self.out
    }

    /// The next element, an object.
    pub(super) fn object(&mut self) -> Object<'_> {
        let (layout, depth) = (self.layout, self.depth + 1);
        Object::open(self.item(), layout, depth)
    }

    /// The buffer written into, to flush what is complete between two elements (an element is
    /// complete once its object is closed).
    pub(super) fn buffer(&mut self) -> &mut Vec<u8> {
        self.out
    }

    /// Closes the array (`[]` when it has no element).
    pub(super) fn close(self) {
        if !self.empty {
            line_break(self.out, self.layout, self.depth);
        }
        self.out.push(b']');
    }
}

/// A pretty layout's line break and indentation at `depth`; nothing on one line.
fn line_break(out: &mut Vec<u8>, layout: Layout, depth: usize) {
    if let Layout::Pretty = layout {
        out.push(b'\n');
        for _ in 0..depth {
            out.extend_from_slice(b"  ");
        }
    }
}

/// A number, or null.
pub(super) fn push_number(out: &mut Vec<u8>, value: Option<usize>) {
    match value {
        Some(n) => {
            let _ = write!(out, "{n}");
        }
        None => out.extend_from_slice(b"null"),
    }
}

/// A message as one JSON string: its pieces masked ([`Text::each_masked`]) and escaped one
/// after another, never joined first.
pub(super) fn push_text(out: &mut Vec<u8>, text: &Text) {
    out.push(b'"');
    text.each_masked(&mut |piece| push_str_contents(out, piece));
    out.push(b'"');
}

/// Appends pretty-printed JSON (from serde_json) one level deeper, where its first line is
/// already indented: `indent` after each line break (a JSON string holds no raw line break,
/// so each is the printer's).
pub(super) fn push_indented(out: &mut Vec<u8>, json: &[u8], indent: &[u8]) {
    for (k, line) in json.split(|&b| b == b'\n').enumerate() {
        if k > 0 {
            out.push(b'\n');
            out.extend_from_slice(indent);
        }
        out.extend_from_slice(line);
    }
}

/// Whether `bytes` are exactly what serde_json's pretty printer writes for the document they
/// hold (read back, in the same member order, and printed again): the test of every
/// hand-written report.
#[cfg(test)]
pub(super) fn is_as_serde_prints(bytes: &[u8]) -> Result<(), String> {
    let text = std::str::from_utf8(bytes).map_err(|e| e.to_string())?;
    let value: serde_json::Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
    let mut again = Vec::new();
    crate::text::json::to_writer_pretty(&mut again, &value).map_err(|e| e.to_string())?;
    again.push(b'\n');
    if again == bytes {
        return Ok(());
    }
    let at = bytes
        .iter()
        .zip(&again)
        .position(|(a, b)| a != b)
        .unwrap_or(bytes.len().min(again.len()));
    let near = |b: &[u8]| {
        String::from_utf8_lossy(&b[at.saturating_sub(40)..(at + 40).min(b.len())]).into_owned()
    };
    Err(format!(
        "differs at byte {at}: written {:?}, serde prints {:?}",
        near(bytes),
        near(&again)
    ))
}
