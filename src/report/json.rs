//! `--format json`: the machine-readable contract of DESIGN.md (`schemas/report.schema.json`).
//! Paths, pointers and messages are written masked; every hidden character is escaped.
//! A diagnostic is written by hand into a byte buffer ([`super::json_out`]), in the bytes
//! serde_json's printer writes for the same object.

use std::io::{self, Write};

use super::Prepared;
pub(super) use super::json_out::Layout;
use super::json_out::{Object, push_indented};
use crate::engine::Summary;
use crate::text::json::push_str_contents;

/// Renders one JSON document.
pub fn render(p: &Prepared) -> Vec<u8> {
    let mut bytes = Vec::new();
    write(p, &mut bytes).expect("writing to memory cannot fail");
    bytes
}

/// Writes the same document to `out` as it is built, a buffer at a time, so a report of
/// hundreds of thousands of findings is never held whole in memory.
pub fn write(p: &Prepared, out: &mut dyn Write) -> io::Result<()> {
    let mut buffer = head();
    for i in 0..p.findings.len() {
        buffer.extend_from_slice(if i == 0 { b"\n    " } else { b",\n    " });
        diagnostic(&mut buffer, p, i, Layout::Pretty, out)?;
        if buffer.len() >= super::spill::CHUNK {
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
    push_indented(out, &json, b"  ");
    out.extend_from_slice(b"\n}\n");
    Ok(())
}

/// Appends the diagnostic of finding `i`, in the field order of the report schema (also one
/// line of `--format json-lines`). On a finding about the corpus as a whole, `corpus` is
/// present and `true`: `path` is then the corpus (a folder ends in `/`) and `line` and
/// `column` are null.
///
/// What is written is handed to `sink` between two related places once it passes
/// [`super::spill::CHUNK`]: a finding on a configuration of twenty thousand runs names the
/// other 19,999 as related places, megabytes of JSON that were built whole before.
pub(super) fn diagnostic(
    out: &mut Vec<u8>,
    p: &Prepared,
    i: usize,
    layout: Layout,
    sink: &mut dyn Write,
) -> io::Result<()> {
    let f = &p.findings[i];
    let pos = p.positions[i];
    // Pretty, a diagnostic sits two levels deep: in the report, in its array.
    let depth = match layout {
        Layout::Pretty => 2,
        Layout::Compact => 0,
    };
    let mut o = Object::open(out, layout, depth);
    o.str("code", f.rule.code);
    o.str("name", f.rule.name);
    o.str("severity", f.severity.as_str());
    o.bool("pre_rule", f.pre_rule);
    o.str("path", &f.primary.path.masked());
    if f.corpus {
        o.bool("corpus", true);
    }
    // A field not recorded is named by its own pointer, not the object lacking it.
    o.str("pointer", &f.shown_pointer());
    o.number("line", pos.map(|x| x.line));
    o.number("column", pos.map(|x| x.column));
    o.text("message", &f.message);
    match &f.help {
        Some(help) => o.text("help", help),
        None => o.key("help").extend_from_slice(b"null"),
    }
    let mut related = o.array("related");
    for (r, rp) in f.related.iter().zip(&p.related_positions[i]) {
        let mut item = related.object();
        item.str("path", &r.path.masked());
        item.str("pointer", &r.pointer.masked());
        item.number("line", rp.map(|x| x.line));
        item.number("column", rp.map(|x| x.column));
        item.close();
        let written = related.buffer();
        if written.len() >= super::spill::CHUNK {
            sink.write_all(written)?;
            written.clear();
        }
    }
    related.close();
    // The rule's page ([`super::rule_url`]), written straight into the output.
    let url = o.key("url");
    url.push(b'"');
    for piece in [super::RULE_DOCS_BASE, f.rule.code, "-", f.rule.name, ".md"] {
        push_str_contents(url, piece);
    }
    url.push(b'"');
    o.close();
    Ok(())
}

#[cfg(test)]
#[path = "json_tests.rs"]
mod tests;
