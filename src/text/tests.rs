use super::*;

#[test]
fn input_parts_are_masked_and_escaped_own_words_are_not() {
    let id = "a\n::error file=x::boom\u{202e}";
    let t = crate::text!("result `{}` is used by {} results\n", id, 2usize);
    assert_eq!(
        t.line(),
        "result `a\\n:\\u{3a}error file=x:\\u{3a}boom\\u{202e}` is used by 2 results\n"
    );
    let key = "sk-proj-Q9vLx2mT7rB4nK8wE1yZ5cH3jD6fA0gP";
    let t = Text::from(format!("the notes say {key}"));
    assert_eq!(t.line(), "the notes say <redacted>");
    assert_eq!(t.masked(), "the notes say <redacted>");
}

#[test]
fn order_and_equality_follow_the_raw_text() {
    let a = crate::text!("x {}", "y");
    let b = Text::from("x y".to_string());
    assert_eq!(a, b);
    assert!(Text::from("a") < crate::text!("{}b", "a"));
}

#[test]
fn a_compacted_text_reads_writes_and_orders_as_its_parts_did() {
    let key = "sk-proj-Q9vLx2mT7rB4nK8wE1yZ5cH3jD6fA0gP";
    // A part boundary Markdown escaping depends on (`:` then `/`), a secret, a line break and
    // a `|` inside a quoted input, a number of benchlint's own.
    let make = || {
        let mut t = crate::text!(
            "file `{}` at http:{} holds {} and {} copies",
            "a|b\nc",
            "//x.example/www",
            key,
            3usize
        );
        t.push_text(crate::text!(" [measured {}]", "2020-01-01"));
        t
    };
    let parts = make();
    let mut joined = make();
    joined.compact();
    assert!(matches!(joined, Text::Joined(_)));
    assert_eq!(joined.raw(), parts.raw());
    assert_eq!(joined.line(), parts.line());
    assert_eq!(joined.masked(), parts.masked());
    assert!(!joined.masked().contains(key));
    assert_eq!(joined.md(false), parts.md(false));
    assert_eq!(joined.md(true), parts.md(true));
    assert_eq!(joined.html(), parts.html());
    assert_eq!(joined.to_string(), parts.to_string());
    assert_eq!(joined.cmp(&parts), std::cmp::Ordering::Equal);
    assert!(joined < crate::text!("file `{}`", "b"));
    assert!(joined.contains("3 copies"));
    // Appending to it keeps every part's origin.
    let mut longer = joined.clone();
    longer.push_text(crate::text!(" in `{}`", key));
    let mut expected = make();
    expected.push_text(crate::text!(" in `{}`", key));
    assert_eq!(longer.line(), expected.line());
    assert_eq!(longer.md(false), expected.md(false));
    // A text of one string is left as it is.
    let mut own = Text::from("all benchlint's own");
    own.compact();
    assert!(matches!(own, Text::Own(_)));
}

#[test]
fn marks_split_across_pieces_are_escaped_as_within_one() {
    // Own words ending in a mark, an input starting with the same one: no pair is written.
    let t = crate::text!("see file:{} and #{}", ":error::x", "#[group]");
    assert_eq!(
        t.line(),
        "see file:\\u{3a}error:\\u{3a}x and #\\u{23}[group]"
    );
    // JSON keeps the value: nothing is escaped in the masked form.
    assert_eq!(t.masked(), "see file::error::x and ##[group]");
}
