//! Bounds on work, not only on size: small inputs that would make benchlint do a great deal
//! (YAML aliases copied millions of times, JSON Lines of nested empty arrays, a config listing
//! the same sidecar a thousand times, values that print as `inf` or hundreds of digits). Each
//! runs under the watchdog, its time and peak memory asserted generously (a debug build on a
//! shared machine); docs/robustness.md gives the release figures.

use std::fmt::Write as _;
use std::path::Path;
use std::time::Duration;

use crate::support::watchdog::{Run, bin, run};
use serde_json::Value;

/// A generous limit for one run of a debug build.
const SLOW: Duration = Duration::from_secs(120);

fn check(args: &[&str], paths: &[&Path]) -> Run {
    let mut cmd = bin();
    cmd.arg("check").args(args).args(paths);
    run(cmd, SLOW)
}

fn codes_and_messages(r: &Run) -> Vec<(String, String)> {
    let v: Value = serde_json::from_slice(&r.stdout).unwrap_or_else(|e| panic!("{e}: {}", r.err()));
    v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["code"].as_str().unwrap().to_string(),
                d["message"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

/// Under the old bound (four million nodes per document) this 600-byte text was read whole:
/// three and a half million nodes for every rule, the secret scan and the locator to walk.
fn alias_chain() -> String {
    let mut t = String::from("a: &a [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]\n");
    for (name, alias, n) in [("b1", "*a", 16), ("b2", "*b1", 16), ("b3", "*b2", 14)] {
        let _ = writeln!(t, "{name}: &{name} [{}]", vec![alias; n].join(", "));
    }
    let _ = writeln!(t, "b4: [{}]", vec!["*b3"; 60].join(", "));
    t
}

#[test]
fn a_short_yaml_text_cannot_expand_to_millions_of_nodes() {
    let dir = tempfile::tempdir().unwrap();
    let text = alias_chain();
    assert!(text.len() < 700, "{}", text.len());
    let mut paths = Vec::new();
    for n in 0..3 {
        let p = dir.path().join(format!("r{n}.yaml"));
        std::fs::write(&p, &text).unwrap();
        paths.push(p);
    }
    let refs: Vec<&Path> = paths.iter().map(AsRef::as_ref).collect();
    let r = check(&["--isolated", "--format", "json"], &refs);
    r.assert_ran("check");
    assert_eq!(r.code, Some(1), "{}", r.err());
    let found = codes_and_messages(&r);
    assert_eq!(found.len(), 3, "{found:#?}");
    for (code, message) in &found {
        assert_eq!(code, "E002");
        assert!(message.contains("for a text of this size"), "{message}");
    }
    // Each refused after 100,000 copied nodes: far below the 310 MB one file took before.
    if r.peak_rss_kib > 0 {
        assert!(r.peak_rss_kib < 150 * 1024, "peak {} KiB", r.peak_rss_kib);
    }
}

#[test]
fn json_lines_of_nested_arrays_are_refused_before_any_tree_is_built() {
    let dir = tempfile::tempdir().unwrap();
    let line = format!("{}{}\n", "[".repeat(60), "]".repeat(60));
    // 4.5 MB: the 9 MB file of the report, halved for a debug build.
    let text = line.repeat(4_500_000 / line.len());
    let p = dir.path().join("nested.jsonl");
    std::fs::write(&p, &text).unwrap();
    let r = check(&["--isolated", "--format", "json"], &[&p]);
    r.assert_ran("check");
    assert_eq!(r.code, Some(1), "{}", r.err());
    let found = codes_and_messages(&r);
    assert!(
        found
            .iter()
            .any(|(c, m)| c == "E002" && m.contains("one per 16 bytes of text")),
        "{found:#?}"
    );
    // Before: 1.39 GB for twice the text. Now the trees built stop at one container per
    // 16 bytes (281,000 here).
    if r.peak_rss_kib > 0 {
        assert!(r.peak_rss_kib < 250 * 1024, "peak {} KiB", r.peak_rss_kib);
    }
}

#[test]
fn a_thousand_sidecar_entries_are_refused_without_reading_one() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    std::fs::copy(
        "testdata/corpora/demo/gb10-x8/prose-r1.json",
        root.join("r.json"),
    )
    .unwrap();
    let big = format!("{{\"notes\": \"{}\"}}", "x".repeat(1_000_000));
    std::fs::write(root.join("big.json"), big).unwrap();
    let entry = "[[sidecar]]\nfiles = \"r.json\"\npath = \"big.json\"\n\n";
    std::fs::write(root.join("benchlint.toml"), entry.repeat(1000)).unwrap();
    let r = check(&[], &[root]);
    assert!(!r.err().contains("panicked"), "{}", r.err());
    assert_eq!(r.code, Some(2), "{}", r.err());
    assert!(
        r.err().contains("more than 100 [[sidecar]] entries"),
        "{}",
        r.err()
    );
    // Before: 1.95 GB and minutes.
    if r.peak_rss_kib > 0 {
        assert!(r.peak_rss_kib < 100 * 1024, "peak {} KiB", r.peak_rss_kib);
    }
    // Within the count, the same file named by many entries is read once, and what they hold
    // is bounded in bytes: 20 entries of 1 MB pass the 16 MiB bound.
    std::fs::write(root.join("benchlint.toml"), entry.repeat(20)).unwrap();
    let r = check(&[], &[root]);
    assert_eq!(r.code, Some(2), "{}", r.err());
    assert!(r.err().contains("MiB in all"), "{}", r.err());
    std::fs::write(root.join("benchlint.toml"), entry.repeat(3)).unwrap();
    let r = check(&["--format", "json"], &[root]);
    r.assert_ran("check");
}
