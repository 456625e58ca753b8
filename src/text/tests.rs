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
