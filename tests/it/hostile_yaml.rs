//! Hostile YAML: alias bombs, deep nesting, tags that would run code in a careless loader, and
//! streams of many documents. Each case runs the binary as a child under the watchdog (killed
//! and failed after a minute, its peak memory sampled) and asserts the one finding the file
//! gets, no panic, and an exit code of 0 or 1.

use crate::support::watchdog;

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use serde_json::Value;
use watchdog::{LIMIT, Run, bin, run};

fn check(paths: &[&Path]) -> (Run, Vec<Value>) {
    let mut cmd = bin();
    cmd.args(["check", "--isolated", "--format", "json"])
        .args(paths);
    let r = run(cmd, LIMIT);
    r.assert_ran(&format!("check {paths:?}"));
    let report: Value =
        serde_json::from_slice(&r.stdout).unwrap_or_else(|e| panic!("no JSON ({e}):\n{}", r.out()));
    let diagnostics = report["diagnostics"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    (r, diagnostics)
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

/// The input findings (E...) as (code, message).
fn input(ds: &[Value]) -> Vec<(String, String)> {
    ds.iter()
        .filter(|d| d["code"].as_str().is_some_and(|c| c.starts_with('E')))
        .map(|d| {
            (
                d["code"].as_str().unwrap().to_string(),
                d["message"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

/// Ten levels of ten aliases each: 10^10 nodes if expanded.
fn billion_laughs() -> String {
    let mut text = String::from("a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
    for i in 1..10 {
        let items = vec![format!("*a{}", i - 1); 10].join(", ");
        let _ = writeln!(text, "a{i}: &a{i} [{items}]");
    }
    text
}

#[test]
fn billion_laughs_is_refused_with_one_finding_in_bounded_time_and_memory() {
    let dir = tempfile::tempdir().unwrap();
    let path = write(dir.path(), "laughs.yaml", &billion_laughs());
    let (r, ds) = check(&[&path]);
    let found = input(&ds);
    assert_eq!(found.len(), 1, "{found:#?}");
    assert_eq!(found[0].0, "E002");
    assert!(found[0].1.contains("YAML refused"), "{}", found[0].1);
    assert!(found[0].1.contains("nodes"), "{}", found[0].1);
    assert_eq!(
        ds[0]["line"], 5,
        "at the alias that passes the bound on what aliases may add"
    );
    assert_eq!(r.code, Some(1));
    // The bound is four million nodes; the expansion would be ten billion.
    if r.peak_rss_kib > 0 {
        assert!(
            r.peak_rss_kib < 2 * 1024 * 1024,
            "peak {} KiB",
            r.peak_rss_kib
        );
    }
}

#[test]
fn a_bomb_found_by_walking_a_folder_is_still_reported() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "laughs.yml", &billion_laughs());
    let (_, ds) = check(&[dir.path()]);
    let found = input(&ds);
    assert_eq!(found.len(), 1, "{found:#?}");
    assert!(found[0].1.contains("YAML refused"), "{}", found[0].1);
}

#[test]
fn deep_nesting_is_refused_not_recursed() {
    let dir = tempfile::tempdir().unwrap();
    let flow = format!("{}{}", "[".repeat(1_000_000), "]".repeat(1_000_000));
    let mut block = String::new();
    for i in 0..2_000 {
        let _ = writeln!(block, "{}k{i}:", " ".repeat(i));
    }
    for (name, text) in [("flow.yaml", flow), ("block.yaml", block)] {
        let path = write(dir.path(), name, &text);
        let (_, ds) = check(&[&path]);
        let found = input(&ds);
        assert_eq!(found.len(), 1, "{name}: {found:#?}");
        assert_eq!(found[0].0, "E002", "{name}");
        assert!(found[0].1.contains("nested"), "{name}: {}", found[0].1);
    }
}

#[test]
fn tags_run_nothing_and_the_tagged_nodes_read_as_plain_data() {
    let dir = tempfile::tempdir().unwrap();
    let marker = dir.path().join("pwned");
    let text = format!(
        "boom: !!python/object/apply:os.system [\"touch {}\"]\n\
         obj: !!python/object:subprocess.Popen {{args: [\"touch {}\"]}}\n\
         mine: !custom {{a: 1}}\n",
        marker.display(),
        marker.display()
    );
    let path = write(dir.path(), "tags.yaml", &text);
    let (_, ds) = check(&[&path]);
    let found = input(&ds);
    assert_eq!(found.len(), 1, "{found:#?}");
    assert_eq!(found[0].0, "E004");
    assert!(
        found[0].1.contains("`boom`, `obj`, `mine`"),
        "{}",
        found[0].1
    );
    assert!(!marker.exists());
}

#[test]
fn a_long_string_copied_by_aliases_is_bounded_by_bytes() {
    let dir = tempfile::tempdir().unwrap();
    // 4 MiB anchored once, then aliased 100 times: 400 MiB if expanded.
    let mut text = format!("s: &s {}\nl: [", "x".repeat(4 << 20));
    text.push_str(&vec!["*s"; 100].join(", "));
    text.push_str("]\n");
    let path = write(dir.path(), "long.yaml", &text);
    let (r, ds) = check(&[&path]);
    let found = input(&ds);
    assert_eq!(found.len(), 1, "{found:#?}");
    assert!(found[0].1.contains("bytes"), "{}", found[0].1);
    if r.peak_rss_kib > 0 {
        assert!(r.peak_rss_kib < 1024 * 1024, "peak {} KiB", r.peak_rss_kib);
    }
}

#[test]
fn a_hundred_thousand_documents_get_one_finding() {
    let dir = tempfile::tempdir().unwrap();
    let mut text = String::new();
    for i in 0..100_000 {
        let _ = write!(text, "---\nrow: {i}\n");
    }
    let path = write(dir.path(), "many.yaml", &text);
    let (_, ds) = check(&[&path]);
    let found = input(&ds);
    assert_eq!(found.len(), 1, "{found:#?}");
    assert!(
        found[0].1.contains("none of the 100000 documents"),
        "{}",
        found[0].1
    );
}
