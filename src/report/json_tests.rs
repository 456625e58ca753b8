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
