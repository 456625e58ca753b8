//! `--format junit`: JUnit XML for CI test-report viewers. One `<testsuite>` per file with
//! findings, one failing `<testcase>` per finding (as ruff does); a clean run is one passing
//! test case. A finding about the corpus as a whole is a test case of a suite named by the
//! corpus (its path, a folder ending in `/`), with no `file`, `line` or `column`.

use std::collections::BTreeMap;
use std::fmt::Write;
use std::io;

use super::Prepared;

/// Escapes text for an XML attribute or element; characters XML 1.0 cannot hold at all become
/// U+FFFD.
pub fn xml_escape(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    push_escaped(&mut out, s);
    out
}

/// Appends `s` escaped as [`xml_escape`] escapes it. Text with nothing to escape, most of a
/// report, is copied whole.
fn push_escaped(out: &mut String, s: &str) {
    // `\u{FFFE}` and `\u{FFFF}` are the only characters past ASCII to replace, and both start
    // with this byte.
    const LEAD_OF_NONCHARACTERS: u8 = 0xEF;
    let plain = s.bytes().all(|b| {
        (b >= 0x20 || matches!(b, b'\t' | b'\n' | b'\r'))
            && !matches!(b, b'&' | b'<' | b'>' | b'"' | b'\'' | LEAD_OF_NONCHARACTERS)
    });
    if plain {
        out.push_str(s);
        return;
    }
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' | '\n' | '\r' => out.push(c),
            c if (c as u32) < 0x20 || c == '\u{FFFE}' || c == '\u{FFFF}' => out.push('\u{FFFD}'),
            c => out.push(c),
        }
    }
}

/// Renders the XML document.
pub fn render(p: &Prepared) -> Vec<u8> {
    let mut bytes = Vec::new();
    write(p, &mut bytes).expect("writing to memory cannot fail");
    bytes
}

/// Writes the same document to `out` a buffer at a time: the report of a quarter of a million
/// findings is never held whole.
pub fn write(p: &Prepared, out: &mut dyn io::Write) -> io::Result<()> {
    const FLUSH_AT: usize = 1 << 16;
    let mut by_file: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for (i, f) in p.findings.iter().enumerate() {
        by_file.entry(f.primary.path.raw()).or_default().push(i);
    }
    let total = p.findings.len();
    let mut buffer = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    if total == 0 {
        buffer
            .push_str("<testsuites name=\"benchlint\" tests=\"1\" failures=\"0\" errors=\"0\">\n");
        buffer
            .push_str("  <testsuite name=\"benchlint\" tests=\"1\" failures=\"0\" errors=\"0\">\n");
        buffer.push_str("    <testcase name=\"benchlint\" classname=\"benchlint\"/>\n");
        buffer.push_str("  </testsuite>\n</testsuites>\n");
        return out.write_all(buffer.as_bytes());
    }
    let _ = writeln!(
        buffer,
        "<testsuites name=\"benchlint\" tests=\"{total}\" failures=\"{total}\" errors=\"0\">"
    );
    for (path, idx) in by_file {
        let path = crate::text::line(path);
        let file = xml_escape(&path);
        let _ = writeln!(
            buffer,
            "  <testsuite name=\"{file}\" tests=\"{n}\" failures=\"{n}\" errors=\"0\">",
            n = idx.len()
        );
        for i in idx {
            let f = &p.findings[i];
            let (line, column) = p.positions[i].map_or((1, 1), |x| (x.line, x.column));
            if f.corpus {
                corpus_case(&mut buffer, f, &path, &file);
                continue;
            }
            let _ = writeln!(
                buffer,
                "    <testcase name=\"benchlint.{code}\" classname=\"{file}\" file=\"{file}\" line=\"{line}\" column=\"{column}\">",
                code = f.rule.code
            );
            let pointer = if f.primary.pointer.is_empty() {
                "/".into()
            } else {
                f.primary.pointer.line()
            };
            let message = f.message.line();
            let body = format!(
                "{path}:{line}:{column}: {} {} at {pointer}: {message}",
                f.rule.code, f.rule.name
            );
            close_case(&mut buffer, f, &message, body);
        }
        buffer.push_str("  </testsuite>\n");
        if buffer.len() >= FLUSH_AT {
            out.write_all(buffer.as_bytes())?;
            buffer.clear();
        }
    }
    buffer.push_str("</testsuites>\n");
    out.write_all(buffer.as_bytes())
}

/// The test case of a finding about the corpus as a whole: named by the corpus, with no
/// file, line or column.
fn corpus_case(out: &mut String, f: &crate::diagnostic::Finding, path: &str, escaped: &str) {
    let _ = writeln!(
        out,
        "    <testcase name=\"benchlint.{code}\" classname=\"{escaped}\">",
        code = f.rule.code
    );
    let message = f.message.line();
    let body = format!(
        "{path}: {} {} on the corpus: {message}",
        f.rule.code, f.rule.name
    );
    close_case(out, f, &message, body);
}

/// The failure of an open test case (its message, and `body` with the finding's help) and the
/// end of the case.
fn close_case(out: &mut String, f: &crate::diagnostic::Finding, message: &str, mut body: String) {
    if let Some(h) = &f.help {
        let _ = write!(body, "\nhelp: {}", h.line());
    }
    out.push_str("      <failure message=\"");
    push_escaped(out, message);
    let _ = write!(out, "\" type=\"{}\">", f.severity.as_str());
    push_escaped(out, &body);
    out.push_str("</failure>\n    </testcase>\n");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes() {
        assert_eq!(
            xml_escape("a<b & \"c\" 'd'>\u{1}"),
            "a&lt;b &amp; &quot;c&quot; &apos;d&apos;&gt;\u{FFFD}"
        );
        // Past ASCII, only the two noncharacters are replaced; text with nothing to escape
        // comes back as it is.
        assert_eq!(
            xml_escape("é\u{FFFE}ï\u{FFFF}\u{EFFF}"),
            "é\u{FFFD}ï\u{FFFD}\u{EFFF}"
        );
        assert_eq!(xml_escape("tab\tline\nplain 😀"), "tab\tline\nplain 😀");
    }
}
