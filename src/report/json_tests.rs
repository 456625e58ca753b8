//! The hand-written diagnostics against serde_json's own printer: the same object, built as a
//! `serde_json::Value` from the same findings, must give the same bytes, pretty and on one
//! line, whatever the strings hold.

use serde_json::{Value, json};

use super::super::test_findings::{HOSTILE, prepared};
use super::super::{Prepared, json_lines};

/// The diagnostic as a serde_json value, fields in the schema's order.
fn expected(p: &Prepared, i: usize) -> Value {
    let f = &p.findings[i];
    let pos = p.positions[i];
    let mut object = serde_json::Map::new();
    object.insert("code".into(), json!(f.rule.code));
    object.insert("name".into(), json!(f.rule.name));
    object.insert("severity".into(), json!(f.severity.as_str()));
    object.insert("pre_rule".into(), json!(f.pre_rule));
    object.insert("path".into(), json!(f.primary.path.masked()));
    if f.corpus {
        object.insert("corpus".into(), json!(true));
    }
    object.insert("pointer".into(), json!(f.shown_pointer()));
    object.insert("line".into(), json!(pos.map(|x| x.line)));
    object.insert("column".into(), json!(pos.map(|x| x.column)));
    object.insert("message".into(), json!(f.message.masked()));
    object.insert(
        "help".into(),
        json!(f.help.as_ref().map(|h| h.masked().into_owned())),
    );
    let related: Vec<Value> = f
        .related
        .iter()
        .zip(&p.related_positions[i])
        .map(|(r, rp)| {
            json!({
                "path": r.path.masked(),
                "pointer": r.pointer.masked(),
                "line": rp.map(|x| x.line),
                "column": rp.map(|x| x.column),
            })
        })
        .collect();
    object.insert("related".into(), Value::Array(related));
    object.insert("url".into(), json!(super::super::rule_url(f.rule)));
    Value::Object(object)
}

#[test]
fn the_document_is_what_serde_json_prints_for_the_same_object() {
    let p = prepared();
    let diagnostics: Vec<Value> = (0..p.findings.len()).map(|i| expected(&p, i)).collect();
    let document = json!({
        "tool": "benchlint",
        "version": env!("CARGO_PKG_VERSION"),
        "diagnostics": diagnostics,
        "summary": p.summary,
    });
    let mut want = Vec::new();
    crate::text::json::to_writer_pretty(&mut want, &document).unwrap();
    want.push(b'\n');
    let got = super::render(&p);
    assert_eq!(
        String::from_utf8(got).unwrap(),
        String::from_utf8(want).unwrap()
    );
}

#[test]
fn each_line_is_what_serde_json_prints_compactly() {
    let p = prepared();
    let mut want = Vec::new();
    for i in 0..p.findings.len() {
        crate::text::json::to_writer(&mut want, &expected(&p, i)).unwrap();
        want.push(b'\n');
    }
    let got = json_lines::render(&p);
    assert_eq!(
        String::from_utf8(got).unwrap(),
        String::from_utf8(want).unwrap()
    );
}

#[test]
fn an_empty_report_closes_its_array_on_the_same_line() {
    let mut p = prepared();
    p.findings.clear();
    p.positions.clear();
    p.related_positions.clear();
    let text = String::from_utf8(super::render(&p)).unwrap();
    assert!(
        text.contains("\"diagnostics\": [],\n  \"summary\": {"),
        "{text}"
    );
    assert!(json_lines::render(&p).is_empty());
}

#[test]
fn secrets_are_masked_and_hidden_characters_escaped() {
    let text = String::from_utf8(super::render(&prepared())).unwrap();
    assert!(!text.contains("sk-proj-Q9vLx2mT7rB4nK8wE1yZ5cH3jD6fA0gP"));
    for hidden in [
        '\u{1b}', '\u{7f}', '\u{85}', '\u{202e}', '\u{200b}', '\u{feff}',
    ] {
        assert!(!text.contains(hidden), "{hidden:?} written raw");
    }
    assert!(
        text.contains("\\u202e") && text.contains("\\u001b") && text.contains("\\udb40\\udc41")
    );
    let back: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(
        back["diagnostics"][4]["path"],
        json!(format!("corpus/{}.json", HOSTILE[4]))
    );
}

/// What a sink is handed and the most the buffer held between two writes.
struct Recording {
    bytes: Vec<u8>,
    writes: usize,
}

impl std::io::Write for Recording {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.bytes.extend_from_slice(buf);
        self.writes += 1;
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// A finding that names thousands of related places (a configuration of thousands of runs) is
/// handed to the output as it is written, never held whole: the buffer holds at most a chunk
/// and one place, and the bytes are those of the whole diagnostic, pretty and on one line.
#[test]
fn a_finding_of_many_related_places_is_written_as_it_is_made() {
    let mut p = prepared();
    let many: Vec<crate::diagnostic::Location> = (0..6_000)
        .map(|r| {
            crate::diagnostic::Location::new(
                format!("runs/launch-{r}/result.json"),
                format!("/levels/{}", r % 7),
            )
        })
        .collect();
    p.related_positions[0] = vec![None; many.len()];
    p.findings[0].related = many;
    for layout in [super::Layout::Pretty, super::Layout::Compact] {
        let mut buffer = Vec::new();
        let mut sink = Recording {
            bytes: Vec::new(),
            writes: 0,
        };
        super::diagnostic(&mut buffer, &p, 0, layout, &mut sink).unwrap();
        assert!(sink.writes >= 5, "{} writes", sink.writes);
        assert!(
            buffer.len() < crate::report::spill::CHUNK + 200,
            "{}",
            buffer.len()
        );
        let mut whole = sink.bytes;
        whole.extend_from_slice(&buffer);
        let want = match layout {
            // Pretty, a diagnostic sits two levels deep: its lines after the first indented.
            super::Layout::Pretty => {
                let mut v = Vec::new();
                crate::text::json::to_writer_pretty(&mut v, &expected(&p, 0)).unwrap();
                let mut indented = Vec::new();
                super::super::json_out::push_indented(&mut indented, &v, b"    ");
                indented
            }
            super::Layout::Compact => {
                let mut v = Vec::new();
                crate::text::json::to_writer(&mut v, &expected(&p, 0)).unwrap();
                v
            }
        };
        assert_eq!(String::from_utf8(whole), String::from_utf8(want));
    }
}
