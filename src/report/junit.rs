//! `--format junit`: JUnit XML for CI test-report viewers (GitLab's `artifacts:reports:junit`,
//! Jenkins). One `<testsuite>` per file with findings, one `<testcase>` per finding; a clean
//! run is one passing test case.
//!
//! Decisions:
//! - GitLab keys a test case by its suite, `classname` and `name`, so every case has a pair
//!   of its own: `classname` is the file relative to the project root ([`super::Project`]),
//!   `name` is `CODE POINTER` (the missing field's pointer for a field not recorded, `#N`
//!   before it for the Nth document of a JSON Lines file), with ` (2)`, ` (3)`, ... for the
//!   same rule at the same place again.
//! - A finding at or above `--fail-on` (errors, by default) that is not a pre-rule label is a
//!   `<failure>`; every other finding is a passing test case whose `<system-out>` holds its
//!   text, so a run that passes shows no failed test in GitLab or Jenkins, yet lists every
//!   warning and note.
//! - A finding about the corpus as a whole is a test case of a suite named by the corpus (its
//!   path, a folder ending in `/`), with no `file`, `line` or `column`.

use std::collections::BTreeMap;
use std::fmt::Write;
use std::io;

use super::Prepared;
use super::ci_keys;

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

/// Whether finding `f` is written as a failure: at or above `--fail-on`, not a pre-rule label.
fn fails(p: &Prepared, f: &crate::diagnostic::Finding) -> bool {
    !f.pre_rule && f.severity >= p.fail_on
}

/// Writes the same document to `out` a buffer at a time: the report of a quarter of a million
/// findings is never held whole.
pub fn write(p: &Prepared, out: &mut dyn io::Write) -> io::Result<()> {
    const FLUSH_AT: usize = 1 << 16;
    // Suites by the file as the project names it (the corpus by its own path), in order.
    let mut by_file: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    for (i, f) in p.findings.iter().enumerate() {
        let suite = if f.corpus {
            f.primary.path.raw().to_string()
        } else {
            match ci_keys::project_path(p, i) {
                Ok(rel) | Err(rel) => rel,
            }
        };
        by_file.entry(suite).or_default().push(i);
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
    let failures = p.findings.iter().filter(|f| fails(p, f)).count();
    let _ = writeln!(
        buffer,
        "<testsuites name=\"benchlint\" tests=\"{total}\" failures=\"{failures}\" errors=\"0\">"
    );
    let mut records = ci_keys::Records::default();
    for (path, idx) in by_file {
        let path = crate::text::line(&path);
        let file = xml_escape(&path);
        let failing = idx.iter().filter(|&&i| fails(p, &p.findings[i])).count();
        let _ = writeln!(
            buffer,
            "  <testsuite name=\"{file}\" tests=\"{n}\" failures=\"{failing}\" errors=\"0\">",
            n = idx.len()
        );
        let mut names: BTreeMap<String, usize> = BTreeMap::new();
        for i in idx {
            let f = &p.findings[i];
            let mut name = format!("{} ", f.rule.code);
            if f.corpus {
                name.push_str("corpus");
            } else {
                if f.primary.doc_start > 0 {
                    match records.index(f.primary.path.raw(), f.primary.doc_start, p.max_file_bytes)
                    {
                        Some(n) => {
                            let _ = write!(name, "#{n}");
                        }
                        None => {
                            let _ = write!(name, "@{}", f.primary.doc_start);
                        }
                    }
                }
                let pointer = f.shown_pointer();
                name.push_str(if pointer.is_empty() { "/" } else { &pointer });
            }
            let seen = names.entry(name.clone()).or_default();
            *seen += 1;
            if *seen > 1 {
                let _ = write!(name, " ({seen})");
            }
            let name = xml_escape(&crate::text::line(&name));
            if f.corpus {
                corpus_case(&mut buffer, p, f, &path, &file, &name);
                continue;
            }
            let (line, column) = p.positions[i].map_or((1, 1), |x| (x.line, x.column));
            let _ = writeln!(
                buffer,
                "    <testcase name=\"{name}\" classname=\"{file}\" file=\"{file}\" line=\"{line}\" column=\"{column}\">",
            );
            let pointer = f.shown_pointer();
            let pointer = if pointer.is_empty() {
                "/".into()
            } else {
                crate::text::line(&pointer).into_owned()
            };
            let message = f.message.line();
            let body = format!(
                "{path}:{line}:{column}: {} {} at {pointer}: {message}",
                f.rule.code, f.rule.name
            );
            close_case(&mut buffer, p, f, &message, body);
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
fn corpus_case(
    out: &mut String,
    p: &Prepared,
    f: &crate::diagnostic::Finding,
    path: &str,
    escaped: &str,
    name: &str,
) {
    let _ = writeln!(
        out,
        "    <testcase name=\"{name}\" classname=\"{escaped}\">"
    );
    let message = f.message.line();
    let body = format!(
        "{path}: {} {} on the corpus: {message}",
        f.rule.code, f.rule.name
    );
    close_case(out, p, f, &message, body);
}

/// The end of an open test case: a failure (its message, and `body` with the finding's help)
/// for a finding that fails the run, else `body` as the case's output.
fn close_case(
    out: &mut String,
    p: &Prepared,
    f: &crate::diagnostic::Finding,
    message: &str,
    mut body: String,
) {
    if let Some(h) = &f.help {
        let _ = write!(body, "\nhelp: {}", h.line());
    }
    if fails(p, f) {
        out.push_str("      <failure message=\"");
        push_escaped(out, message);
        let _ = write!(out, "\" type=\"{}\">", f.severity.as_str());
        push_escaped(out, &body);
        out.push_str("</failure>\n    </testcase>\n");
    } else {
        let _ = write!(out, "      <system-out>{}: ", f.severity.as_str());
        push_escaped(out, &body);
        out.push_str("</system-out>\n    </testcase>\n");
    }
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
