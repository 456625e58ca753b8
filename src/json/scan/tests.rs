//! The pre-scan on bounds, keys, numbers and garbage.

use super::*;
use crate::json::cut;

fn limits(max_depth: usize, max_array_items: usize) -> Limits {
    Limits {
        max_depth,
        max_array_items,
        ..Limits::default()
    }
}

#[test]
fn depth_is_counted_without_recursion() {
    let deep = "[".repeat(100_000) + &"]".repeat(100_000);
    let s = scan(&deep, &Limits::default());
    assert_eq!(s.too_deep, Some(DEFAULT_MAX_DEPTH));
    let ok = "[".repeat(64) + &"]".repeat(64);
    assert_eq!(scan(&ok, &Limits::default()).too_deep, None);
    // Brackets inside strings do not count.
    assert_eq!(
        scan(&format!("[\"{}\"]", "[".repeat(1000)), &Limits::default()).too_deep,
        None
    );
}

#[test]
fn duplicate_keys_per_object_only() {
    let s = scan(
        r#"{"a": 1, "b": {"a": 2}, "a": 3, "c": [{"x": 1}, {"x": 2}], "\u0062": 4}"#,
        &Limits::default(),
    );
    let keys: Vec<&str> = s.duplicate_keys.iter().map(|(_, k)| k.as_str()).collect();
    assert_eq!(keys, ["a", "b"]);
}

#[test]
fn duplicate_keys_in_a_large_object() {
    let body: Vec<String> = (0..1000).map(|i| format!("\"k{i}\": {i}")).collect();
    let text = format!("{{{}, \"k500\": 0}}", body.join(", "));
    let s = scan(&text, &Limits::default());
    assert_eq!(s.duplicate_keys.len(), 1);
    assert_eq!(s.duplicate_keys[0].1, "k500");
}

#[test]
fn wide_integers() {
    let s = scan(
        "[18446744073709551615, -9223372036854775808, 18446744073709551616, 1e400, 12345678901234567890123.5, -9223372036854775809]",
        &Limits::default(),
    );
    assert_eq!(s.wide_integers.len(), 2);
}

#[test]
fn long_arrays_are_cut_and_offsets_map_back() {
    let text = r#"{"s": [1, 2, [3, 4, 5], 6], "t": "x"}"#;
    let s = scan(text, &limits(64, 2));
    assert_eq!(s.long_arrays.len(), 1, "{s:?}");
    let a = s.long_arrays[0];
    assert_eq!(a.items, 4);
    let (cut_text, cuts) = cut(text, &s.long_arrays);
    assert_eq!(cut_text, r#"{"s": [1, 2], "t": "x"}"#);
    let t = cut_text.find("\"t\"").unwrap();
    assert_eq!(&text[cuts.to_original(t)..cuts.to_original(t) + 3], "\"t\"");
    assert_eq!(cuts.to_original(3), 3);
}

#[test]
fn an_inner_array_cut_before_the_outer_one() {
    let text = "[[1, 2, 3], 4, 5]";
    let s = scan(text, &limits(64, 2));
    assert_eq!(s.long_arrays.len(), 2);
    assert_eq!(cut(text, &s.long_arrays).0, "[[1, 2], 4]");
}

#[test]
fn an_unclosed_long_array_is_cut_to_the_end() {
    let s = scan("[1, 2, 3, 4", &limits(64, 2));
    let (t, _) = cut("[1, 2, 3, 4", &s.long_arrays);
    assert_eq!(t, "[1, 2");
}

#[test]
fn total_on_garbage() {
    for text in [
        "]]]}}",
        "\"",
        "\"\\",
        "{\"a\"",
        "{\"é",
        "[,,,,]",
        "{,\"a\":1,\"a\"",
        "-",
        "--1e",
        "é[é",
    ] {
        let s = scan(text, &limits(3, 1));
        let _ = cut(text, &s.long_arrays);
    }
}
