//! Rewrites of a corpus that must not change any finding or verdict: keys reordered, numbers
//! respelled (`1` as `1.0` or `1e0`, `0.5` as `5e-1`), folders moved one level deeper, and
//! result and launch ids renamed consistently (claims follow them). Findings are compared as
//! what a user reads: code, severity, pointer, message and help, with the rewrite undone in
//! paths and ids.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

fn bin() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_benchlint"));
    c.env("NO_COLOR", "1").env_remove("GITHUB_ACTIONS");
    c
}

const ID_PREFIX: &str = "renamed-";
const LAUNCH_PREFIX: &str = "L-";

/// JSON text with every object's keys in reverse order and every number respelled; `n` picks
/// the spelling so that neighbouring numbers differ.
fn respelled(v: &Value, n: &mut usize, out: &mut String) {
    match v {
        Value::Object(m) => {
            out.push('{');
            for (i, (k, x)) in m.iter().rev().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                out.push_str(&Value::from(k.as_str()).to_string());
                out.push_str(": ");
                respelled(x, n, out);
            }
            out.push('}');
        }
        Value::Array(a) => {
            out.push('[');
            for (i, x) in a.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                respelled(x, n, out);
            }
            out.push(']');
        }
        Value::Number(num) => {
            *n += 1;
            if let Some(i) = num.as_u64().filter(|i| *i < (1 << 53)) {
                // JSON Schema counts 15.0 as the integer 15.
                match *n % 3 {
                    0 => write!(out, "{i}").unwrap(),
                    1 => write!(out, "{i}.0").unwrap(),
                    _ => write!(out, "{i}e0").unwrap(),
                }
            } else if let Some(f) = num.as_f64().filter(|f| f.fract() != 0.0) {
                // Rust's exponent form is the shortest spelling that reads back exactly.
                if (*n).is_multiple_of(2) {
                    write!(out, "{f:e}").unwrap();
                } else {
                    out.push_str(&num.to_string());
                }
            } else {
                out.push_str(&num.to_string());
            }
        }
        other => out.push_str(&other.to_string()),
    }
}

/// Renames result ids and launch ids everywhere they are referenced (results and claims).
fn rename_ids(v: &mut Value) {
    let Value::Object(m) = v else { return };
    if m.get("schema").and_then(Value::as_str) == Some("benchlint/result/v1") {
        if let Some(Value::String(id)) = m.get_mut("id") {
            *id = format!("{ID_PREFIX}{id}");
        }
        if let Some(Value::String(id)) = m.get_mut("launch").and_then(|l| l.get_mut("id")) {
            *id = format!("{LAUNCH_PREFIX}{id}");
        }
    }
    if m.get("schema").and_then(Value::as_str) == Some("benchlint/claims/v1") {
        for claim in m
            .get_mut("claims")
            .and_then(Value::as_array_mut)
            .into_iter()
            .flatten()
        {
            for side in ["subject", "baseline"] {
                for id in claim
                    .get_mut(side)
                    .and_then(|s| s.get_mut("results"))
                    .and_then(Value::as_array_mut)
                    .into_iter()
                    .flatten()
                {
                    if let Value::String(s) = id {
                        *s = format!("{ID_PREFIX}{s}");
                    }
                }
            }
        }
    }
}

/// Copies corpus `src` into `dst`, every file one folder deeper (`a/b.json` →
/// `nested/deeper/a/b.json`), JSON files rewritten.
fn rewrite_corpus(src: &Path, dst: &Path) {
    for entry in walk(src) {
        let rel = entry.strip_prefix(src).unwrap();
        let target = if rel.components().count() > 1 {
            dst.join("nested/deeper").join(rel)
        } else {
            dst.join(rel)
        };
        std::fs::create_dir_all(target.parent().unwrap()).unwrap();
        let bytes = std::fs::read(&entry).unwrap();
        let is_json = entry.extension().is_some_and(|e| e == "json");
        match serde_json::from_slice::<Value>(&bytes) {
            Ok(mut v) if is_json => {
                rename_ids(&mut v);
                let mut text = String::new();
                respelled(&v, &mut 0, &mut text);
                std::fs::write(&target, text).unwrap();
            }
            _ => std::fs::write(&target, bytes).unwrap(),
        }
    }
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

/// Undoes the rewrite in a string a user reads: ids and the deeper folder.
fn undone(s: &str, root: &str) -> String {
    s.replace(ID_PREFIX, "")
        .replace(LAUNCH_PREFIX, "")
        .replace(&format!("{root}/nested/deeper/"), "ROOT/")
        .replace(&format!("{root}/"), "ROOT/")
}

/// The findings of `check` on `root`, as sorted lines with the rewrite undone.
fn findings(root: &Path) -> (i32, Vec<String>) {
    let root_text = root.to_str().unwrap();
    let out = bin()
        .args(["check", "--isolated", "--format", "json", root_text])
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).expect("JSON report");
    let mut lines: Vec<String> = v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            let related: Vec<String> = d["related"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|r| {
                    undone(
                        &format!("{}{}", r["path"].as_str().unwrap_or(""), r["pointer"]),
                        root_text,
                    )
                })
                .collect();
            undone(
                &format!(
                    "{} {} {} {}{} | {} | {} | {}",
                    d["code"],
                    d["severity"],
                    d["pre_rule"],
                    d["path"].as_str().unwrap_or(""),
                    d["pointer"],
                    d["message"],
                    d["help"],
                    related.join(" ")
                ),
                root_text,
            )
        })
        .collect();
    lines.sort();
    (out.status.code().unwrap(), lines)
}

/// The audit verdicts of `root` against its claims file, by claim id.
fn verdicts(root: &Path) -> BTreeMap<String, String> {
    let root_text = root.to_str().unwrap();
    let claims = root.join("claims.json");
    let out = bin()
        .args([
            "audit",
            "--isolated",
            "--format",
            "json",
            root_text,
            "--claims",
        ])
        .arg(&claims)
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).expect("audit JSON");
    v["claims"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["id"].as_str().unwrap().to_string(),
                undone(
                    &format!(
                        "{} {} {} {}",
                        c["verdict"], c["codes"], c["restated_value"], c["reasons"]
                    ),
                    root_text,
                ),
            )
        })
        .collect()
}

fn same_findings_after_rewrite(corpus: &str) {
    let dir = tempfile::tempdir().unwrap();
    let original = dir.path().join("original");
    let rewritten = dir.path().join("rewritten");
    // Both copies sit at the same depth so that paths compare after the rewrite is undone.
    copy_tree(Path::new(corpus), &original);
    rewrite_corpus(Path::new(corpus), &rewritten);
    let (code_a, a) = findings(&original);
    let (code_b, b) = findings(&rewritten);
    assert!(!a.is_empty(), "the corpus has findings to compare");
    assert_eq!(code_a, code_b);
    let only_a: Vec<&String> = a.iter().filter(|l| !b.contains(l)).collect();
    let only_b: Vec<&String> = b.iter().filter(|l| !a.contains(l)).collect();
    assert!(
        only_a.is_empty() && only_b.is_empty(),
        "before only:\n{}\nafter only:\n{}",
        only_a
            .iter()
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join("\n"),
        only_b
            .iter()
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join("\n"),
    );
    assert_eq!(a.len(), b.len());
    if original.join("claims.json").exists() {
        assert_eq!(verdicts(&original), verdicts(&rewritten));
    }
}

fn copy_tree(src: &Path, dst: &Path) {
    for entry in walk(src) {
        let target = dst.join(entry.strip_prefix(src).unwrap());
        std::fs::create_dir_all(target.parent().unwrap()).unwrap();
        std::fs::copy(&entry, &target).unwrap();
    }
}

#[test]
fn the_demo_corpus_gives_the_same_findings_after_a_rewrite() {
    same_findings_after_rewrite("testdata/corpora/demo");
}

#[test]
fn the_audit_corpus_gives_the_same_findings_and_verdicts_after_a_rewrite() {
    same_findings_after_rewrite("testdata/corpora/gb10-audit");
}

#[test]
fn the_rewrite_really_changes_the_files() {
    let dir = tempfile::tempdir().unwrap();
    rewrite_corpus(Path::new("testdata/corpora/gb10-audit"), dir.path());
    let claims = std::fs::read_to_string(dir.path().join("claims.json")).unwrap();
    assert!(claims.contains(ID_PREFIX), "{claims}");
    let moved = walk(dir.path());
    assert!(
        moved
            .iter()
            .any(|p| p.to_string_lossy().contains("nested/deeper/gb10-x8/")),
        "{moved:?}"
    );
    let text = std::fs::read_to_string(
        moved
            .iter()
            .find(|p| p.extension().is_some_and(|e| e == "json") && !p.ends_with("claims.json"))
            .unwrap(),
    )
    .unwrap();
    assert!(text.contains("e0") || text.contains(".0,"), "{text}");
    assert!(text.trim_start().starts_with('{'));
}
