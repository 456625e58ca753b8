//! The YAML reader on the shapes real reports take and on hostile input.

use std::fmt::Write as _;
use std::time::{Duration, Instant};

use serde_json::json;

use super::*;

fn one(text: &str) -> Value {
    from_str(text).unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn block_and_flow_collections_read_as_json() {
    let text = "\
benchmarks:
- metrics:
    ttft: {median: 12.5, p95: 20}
  rate: .inf
  tags: [a, 'b', \"c\"]
empty: []
nothing: ~
";
    assert_eq!(
        one(text),
        json!({
            "benchmarks": [{
                "metrics": {"ttft": {"median": 12.5, "p95": 20}},
                "rate": "Infinity",
                "tags": ["a", "b", "c"],
            }],
            "empty": [],
            "nothing": null,
        })
    );
}

#[test]
fn quoted_and_block_scalars_stay_text() {
    let text = "a: '42'\nb: \"true\"\nc: |\n  1\n  2\nd: !!str 7\ne: 7\n";
    assert_eq!(
        one(text),
        json!({"a": "42", "b": "true", "c": "1\n2\n", "d": "7", "e": 7})
    );
}

#[test]
fn keys_are_their_text() {
    assert_eq!(
        one("1: a\ntrue: b\n~: c\n"),
        json!({"1": "a", "true": "b", "~": "c"})
    );
}

#[test]
fn anchors_and_aliases_expand_as_pyyaml_writes_them() {
    // PyYAML writes an object that appears twice once, anchored, then by alias.
    let text = "\
args: &id001
  rate: [1.0, 2.0]
benchmarks:
- args: *id001
- args: *id001
";
    let v = one(text);
    assert_eq!(v["benchmarks"][1]["args"], json!({"rate": [1.0, 2.0]}));
    assert_eq!(v["benchmarks"][0]["args"], v["args"]);
}

#[test]
fn the_merge_key_merges_and_written_keys_win() {
    let text = "\
base: &base {model: m, rate: 1}
stage:
  <<: *base
  rate: 5
both:
  <<: [{a: 1}, {a: 2, b: 2}]
";
    let v = one(text);
    assert_eq!(v["stage"], json!({"rate": 5, "model": "m"}));
    assert_eq!(v["both"], json!({"a": 1, "b": 2}));
}

#[test]
fn tags_execute_nothing_and_the_node_reads_as_plain_data() {
    let text = "\
strategy: !!python/tuple [1, 2]
danger: !!python/object/apply:os.system [\"rm -rf /\"]
custom: !thing {a: 1}
kind: !!python/object/apply:guidellm.StrategyType
  - concurrent
";
    assert_eq!(
        one(text),
        json!({
            "strategy": [1, 2],
            "danger": ["rm -rf /"],
            "custom": {"a": 1},
            "kind": ["concurrent"],
        })
    );
}

#[test]
fn several_documents_are_read_with_their_offsets() {
    let text = "a: 1\n---\nb: 2\n";
    let docs = parse(text, &Limits::default()).unwrap();
    assert_eq!(docs.len(), 2);
    assert_eq!(docs[1].value, json!({"b": 2}));
    assert_eq!(docs[1].index, 1);
    assert_eq!(&text[docs[1].start..docs[1].start + 3], "---");
    let e = from_str(text).unwrap_err();
    assert_eq!((e.line, e.column), (2, 1), "{e}");
    assert!(parse("", &Limits::default()).unwrap().is_empty());
    assert_eq!(from_str("# only a comment\n").unwrap(), Value::Null);
}

#[test]
fn a_syntax_error_carries_its_line_and_column() {
    let text = "a: 1\nb: [1, 2\nc: 3\n";
    let e = from_str(text).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Syntax);
    assert!(e.line >= 2, "{e}");
    assert_eq!(line_column(text, e.offset), (e.line, e.column), "{e}");
    let e = from_str("a: b: c\n").unwrap_err();
    assert_eq!((e.line, e.kind), (1, ErrorKind::Syntax), "{e}");
}

#[test]
fn a_key_that_is_a_collection_or_a_recursive_alias_is_an_error() {
    let e = from_str("? [a, b]\n: 1\n").unwrap_err();
    assert!(e.message.contains("key"), "{e}");
    let e = from_str("a: &x [1, *x]\n").unwrap_err();
    assert!(e.message.contains("recursive"), "{e}");
}

fn billion_laughs(levels: usize) -> String {
    let mut text = String::from(
        "a0: &a0 [\"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\"]\n",
    );
    for i in 1..levels {
        let prev = format!("*a{}", i - 1);
        let items = [prev.as_str(); 10].join(", ");
        let _ = writeln!(text, "a{i}: &a{i} [{items}]");
    }
    text
}

#[test]
fn what_aliases_add_is_bounded_by_the_size_of_the_text() {
    // A million nodes from 400 bytes: under the document's bound of four million, far over
    // what the text's size allows aliases to add.
    let mut text = String::from("a: &a [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]\n");
    for (i, n) in [(1, 16), (2, 16), (3, 16), (4, 16)] {
        let prev = if i == 1 {
            "*a".to_string()
        } else {
            format!("*b{}", i - 1)
        };
        let _ = writeln!(text, "b{i}: &b{i} [{}]", vec![prev.as_str(); n].join(", "));
    }
    assert!(text.len() < 600, "{}", text.len());
    let e = from_str(&text).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Bound, "{e}");
    assert!(e.message.contains("for a text of this size"), "{e}");
    // A long text may alias as much as its size allows: 16 nodes per byte.
    let limits = Limits::default();
    assert_eq!(limits.alias_budget(10).0, crate::yaml::ALIAS_FLOOR_NODES);
    assert_eq!(limits.alias_budget(1_000_000).0, 16_000_000);
}

#[test]
fn reading_stops_at_the_time_bound() {
    let limits = Limits {
        max_time: Duration::ZERO,
        ..Limits::default()
    };
    let text = "- 1\n".repeat(10_000);
    let e = parse(&text, &limits).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Bound, "{e}");
    assert!(e.message.contains("time per file"), "{e}");
    assert!(parse(&text, &Limits::default()).is_ok());
}

#[test]
fn billion_laughs_is_refused_in_bounded_time() {
    let started = Instant::now();
    let e = from_str(&billion_laughs(10)).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Bound, "{e}");
    assert!(e.message.contains("nodes"), "{e}");
    // `a5`, the first to copy more than the 100,000 nodes aliases may add to a short text (the
    // bound on the whole document, four million, would stop only at `a7`).
    assert_eq!(e.line, 5, "the alias that would pass the bound: {e}");
    assert!(
        started.elapsed() < Duration::from_secs(20),
        "{:?}",
        started.elapsed()
    );
    // A small expansion is fine.
    let v = one(&billion_laughs(3));
    assert_eq!(v["a2"][9][9][9], json!("lol"));
}

#[test]
fn a_long_string_copied_by_aliases_is_bounded_by_its_bytes() {
    let long = "x".repeat(1000);
    let mut text = format!("s: &s {long}\nl: [");
    text.push_str(&["*s"; 200].join(", "));
    text.push_str("]\n");
    let limits = Limits {
        max_text_bytes: 100_000,
        ..Limits::default()
    };
    let e = parse(&text, &limits).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Bound);
    assert!(e.message.contains("bytes"), "{e}");
}

#[test]
fn deep_nesting_is_refused_written_or_through_aliases() {
    let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    let e = from_str(&deep).unwrap_err();
    assert_eq!(e.kind, ErrorKind::Bound, "{e}");
    assert!(e.offset <= 256, "refused within the first levels: {e}");
    let deep = format!("{}{}", "[".repeat(100), "]".repeat(100));
    let e = from_str(&deep).unwrap_err();
    assert_eq!(
        (e.kind, e.offset),
        (ErrorKind::Bound, 64),
        "the bracket that went too deep"
    );
    // 40 levels anchored, then used 40 levels down: 80 in all.
    let inner = format!("{}1{}", "[".repeat(40), "]".repeat(40));
    let text = format!("a: &a {inner}\nb: {}*a{}\n", "[".repeat(39), "]".repeat(39));
    let e = from_str(&text).unwrap_err();
    assert_eq!((e.kind, e.line), (ErrorKind::Bound, 2), "{e}");
}

#[test]
fn non_ascii_text_gives_byte_offsets() {
    let text = "modèle: é\nrate: [1, 2\n";
    let e = from_str(text).unwrap_err();
    assert!(text.is_char_boundary(e.offset));
    let docs = parse("ü: 1\n---\nb: 2\n", &Limits::default()).unwrap();
    assert_eq!(docs[1].start, "ü: 1\n".len());
    let found = locate("é: 1\nb: [x, y]\n", &[(0, "/b/1")]);
    assert_eq!(found, vec![Some("é: 1\nb: [x, ".len())]);
}

#[test]
fn locate_places_members_at_their_keys_and_absent_ones_at_the_nearest_ancestor() {
    let text = "\
benchmarks:
- config:
    strategy: concurrent
  metrics:
    ttft: 3
---
other: 1
";
    let found = locate(
        text,
        &[
            (0, "/benchmarks/0/metrics/ttft"),
            (0, "/benchmarks/0/config/missing"),
            (0, "/benchmarks/0"),
            (0, ""),
            (1, "/other"),
            (2, "/x"),
        ],
    );
    let at = |needle: &str| Some(text.find(needle).unwrap());
    assert_eq!(found[0], at("ttft"));
    assert_eq!(found[1], at("config"));
    assert_eq!(found[2], at("config"), "an item starts at its first key");
    assert_eq!(found[3], at("benchmarks"));
    assert_eq!(found[4], at("other"));
    assert_eq!(found[5], None);
}

#[test]
fn locate_stops_at_an_alias_and_never_expands_it() {
    let text = billion_laughs(30);
    let found = locate(&text, &[(0, "/a29/3/2/1"), (0, "/a1/0")]);
    let line = text.find("a29:").unwrap();
    let fourth = line + text[line..].match_indices("*a28").nth(3).unwrap().0;
    assert_eq!(found[0], Some(fourth));
    assert_eq!(found[1], Some(text.find("*a0").unwrap()));
}
