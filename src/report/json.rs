//! `--format json`: the machine-readable contract of DESIGN.md (`schemas/report.schema.json`).
//! Paths, pointers and messages are written masked; every hidden character is escaped.
//!
//! A diagnostic is written by hand, field by field, into a byte buffer: on a corpus with a
//! quarter of a million findings, going through serde for each of them cost more than the rest
//! of the report. The bytes are those serde_json's pretty (or compact) printer writes for the
//! same object, with the escapes of [`crate::text::json`] (a test holds them to it).

use std::io::{self, Write};

use super::Prepared;
use crate::engine::Summary;
use crate::text::Text;
use crate::text::json::{push_str, push_str_contents};

/// How a diagnostic is laid out.
#[derive(Debug, Clone, Copy)]
pub(super) enum Layout {
    /// Pretty-printed, two spaces a level, each line after the first starting with this
    /// (the indentation of the array it sits in).
    Pretty(&'static str),
    /// On one line (`--format json-lines`).
    Compact,
}

/// Where the diagnostics of the report's array sit.
pub(super) const IN_ARRAY: Layout = Layout::Pretty("    ");

/// Renders one JSON document.
pub fn render(p: &Prepared) -> Vec<u8> {
    let mut bytes = Vec::new();
    write(p, &mut bytes).expect("writing to memory cannot fail");
    bytes
}

/// Writes the same document to `out` as it is built, a buffer at a time, so a report of
/// hundreds of thousands of findings is never held whole in memory.
pub fn write(p: &Prepared, out: &mut dyn Write) -> io::Result<()> {
    const FLUSH_AT: usize = 1 << 16;
    let mut buffer = head();
    for i in 0..p.findings.len() {
        buffer.extend_from_slice(if i == 0 { b"\n    " } else { b",\n    " });
        diagnostic(&mut buffer, p, i, IN_ARRAY);
        if buffer.len() >= FLUSH_AT {
            out.write_all(&buffer)?;
            buffer.clear();
        }
    }
    tail(&mut buffer, p.findings.is_empty(), &p.summary)?;
    out.write_all(&buffer)
}

/// The document's opening, up to the diagnostics array's `[`.
pub(super) fn head() -> Vec<u8> {
    format!(
        "{{\n  \"tool\": \"benchlint\",\n  \"version\": \"{}\",\n  \"diagnostics\": [",
        env!("CARGO_PKG_VERSION")
    )
    .into_bytes()
}

/// The document's end after its last diagnostic (`empty`: there was none): the array closed,
/// the summary, the closing brace and a line feed.
pub(super) fn tail(out: &mut Vec<u8>, empty: bool, summary: &Summary) -> io::Result<()> {
    out.extend_from_slice(if empty { b"]" } else { b"\n  ]" });
    out.extend_from_slice(b",\n  \"summary\": ");
    let mut json = Vec::new();
    crate::text::json::to_writer_pretty(&mut json, summary)?;
    indented(out, &json, b"  ");
    out.extend_from_slice(b"\n}\n");
    Ok(())
}

/// Appends pretty-printed JSON one level deeper, where its first line is already indented:
/// `indent` after each line break (a JSON string holds no raw line break, so each is the
/// printer's).
fn indented(out: &mut Vec<u8>, json: &[u8], indent: &[u8]) {
    for (k, line) in json.split(|&b| b == b'\n').enumerate() {
        if k > 0 {
            out.push(b'\n');
            out.extend_from_slice(indent);
        }
        out.extend_from_slice(line);
    }
}

/// Appends the diagnostic of finding `i`, in the field order of the report schema (also one
/// line of `--format json-lines`). On a finding about the corpus as a whole, `corpus` is
/// present and `true`: `path` is then the corpus (a folder ends in `/`) and `line` and
/// `column` are null.
pub(super) fn diagnostic(out: &mut Vec<u8>, p: &Prepared, i: usize, layout: Layout) {
    let f = &p.findings[i];
    let pos = p.positions[i];
    let mut o = Object::open(out, layout, 0);
    push_str(o.key("code"), f.rule.code);
    push_str(o.key("name"), f.rule.name);
    push_str(o.key("severity"), f.severity.as_str());
    push_bool(o.key("pre_rule"), f.pre_rule);
    push_str(o.key("path"), &f.primary.path.masked());
    if f.corpus {
        push_bool(o.key("corpus"), true);
    }
    push_str(o.key("pointer"), &f.primary.pointer.masked());
    push_number(o.key("line"), pos.map(|x| x.line));
    push_number(o.key("column"), pos.map(|x| x.column));
    push_text(o.key("message"), &f.message);
    match &f.help {
        Some(help) => push_text(o.key("help"), help),
        None => o.key("help").extend_from_slice(b"null"),
    }
    let related = o.key("related");
    if f.related.is_empty() {
        related.extend_from_slice(b"[]");
    } else {
        related.push(b'[');
        for (k, (r, rp)) in f.related.iter().zip(&p.related_positions[i]).enumerate() {
            if k > 0 {
                related.push(b',');
            }
            line_break(related, layout, 2);
            let mut item = Object::open(related, layout, 2);
            push_str(item.key("path"), &r.path.masked());
            push_str(item.key("pointer"), &r.pointer.masked());
            push_number(item.key("line"), rp.map(|x| x.line));
            push_number(item.key("column"), rp.map(|x| x.column));
            item.close();
        }
        line_break(related, layout, 1);
        related.push(b']');
    }
    // The rule's page ([`super::rule_url`]), written straight into the output.
    let url = o.key("url");
    url.push(b'"');
    for piece in [super::RULE_DOCS_BASE, f.rule.code, "-", f.rule.name, ".md"] {
        push_str_contents(url, piece);
    }
    url.push(b'"');
    o.close();
}

/// A JSON object being written: its members' separators and line breaks.
struct Object<'o> {
    out: &'o mut Vec<u8>,
    layout: Layout,
    depth: usize,
    empty: bool,
}

impl<'o> Object<'o> {
    fn open(out: &'o mut Vec<u8>, layout: Layout, depth: usize) -> Self {
        out.push(b'{');
        Object {
            out,
            layout,
            depth,
            empty: true,
        }
    }

    /// Starts the member `key` (a name of benchlint's own, never escaped); its value follows.
    fn key(&mut self, key: &str) -> &mut Vec<u8> {
        if !self.empty {
            self.out.push(b',');
        }
        self.empty = false;
        line_break(self.out, self.layout, self.depth + 1);
        self.out.push(b'"');
        self.out.extend_from_slice(key.as_bytes());
        self.out
            .extend_from_slice(if matches!(self.layout, Layout::Pretty(_)) {
                b"\": "
            } else {
                b"\":"
            });
        self.out
    }

    fn close(self) {
        if !self.empty {
            line_break(self.out, self.layout, self.depth);
        }
        self.out.push(b'}');
    }
}

/// A pretty layout's line break and indentation at `depth`; nothing on one line.
fn line_break(out: &mut Vec<u8>, layout: Layout, depth: usize) {
    if let Layout::Pretty(base) = layout {
        out.push(b'\n');
        out.extend_from_slice(base.as_bytes());
        for _ in 0..depth {
            out.extend_from_slice(b"  ");
        }
    }
}

fn push_bool(out: &mut Vec<u8>, value: bool) {
    out.extend_from_slice(if value { b"true" } else { b"false" });
}

fn push_number(out: &mut Vec<u8>, value: Option<usize>) {
    match value {
        Some(n) => {
            let _ = write!(out, "{n}");
        }
        None => out.extend_from_slice(b"null"),
    }
}

/// A message as one JSON string: its pieces masked ([`Text::each_masked`]) and escaped one
/// after another, never joined first.
fn push_text(out: &mut Vec<u8>, text: &Text) {
    out.push(b'"');
    text.each_masked(&mut |piece| push_str_contents(out, piece));
    out.push(b'"');
}

#[cfg(test)]
#[path = "json_tests.rs"]
mod tests;
