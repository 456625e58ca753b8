//! The strict parse, the tolerant pass and the split into documents, on small texts.

use super::*;

#[test]
fn strict_json_parses_with_no_findings() {
    let p = parse_text("{\"a\": 1}", false);
    assert_eq!(p.documents.len(), 1);
    assert!(p.failures.is_empty() && p.nonstandard.is_empty());
}

#[test]
fn bare_infinity_is_accepted_as_a_string_and_reported() {
    let text = "{\"request_rate\": Infinity, \"x\": NaN, \"s\": \"NaN\"}";
    let p = parse_text(text, false);
    assert_eq!(p.documents[0].value["request_rate"], "Infinity");
    assert_eq!(p.documents[0].value["x"], "NaN");
    let offsets: Vec<_> = p.nonstandard.iter().map(|n| (n.offset, n.token)).collect();
    assert_eq!(offsets, vec![(17, "Infinity"), (32, "NaN")]);
}

#[test]
fn a_syntax_error_keeps_its_offset() {
    let text = "{\n  \"a\": 1,\n  \"b\": tru\n}";
    let p = parse_text(text, false);
    assert_eq!(p.failures.len(), 1);
    let f = &p.failures[0];
    // The parser stops inside or just after the broken literal, never elsewhere.
    let at = text.find("tru").unwrap();
    assert!(
        (at..=at + 4).contains(&f.offset),
        "offset {} for a literal at {at}",
        f.offset
    );
}

#[test]
fn a_broken_json_lines_line_does_not_hide_the_others() {
    let text = "{\"a\": 1}\n{\"b\": \n{\"c\": 3}\n";
    let p = parse_text(text, false);
    assert_eq!(p.documents.len(), 2);
    assert_eq!(p.documents[1].value["c"], 3);
    assert_eq!(p.failures.len(), 1);
    assert_eq!(p.failures[0].index, 1);
}
