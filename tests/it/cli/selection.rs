//! Rule selection and its precedence, severity overrides, per-file ignores and unmatched globs.

use std::path::Path;

use serde_json::Value;

use super::{FORMATS, SELECT, codes, codes_in, fixture, run_in, set, write};

// ---------------------------------------------------------------------------------------------
// Selection and severity

#[test]
fn selection_precedence() {
    let iso = |args: &[&str]| {
        let mut all = vec![FORMATS, "--isolated"];
        all.extend_from_slice(args);
        codes(&all)
    };
    assert_eq!(
        iso(&["--select", "E"]),
        set(&["E002", "E003", "E004", "E005"])
    );
    // More specific wins; on a tie ignore wins.
    assert_eq!(
        iso(&["--select", "E", "--ignore", "E002"]),
        set(&["E003", "E004", "E005"])
    );
    assert_eq!(iso(&["--select", "E002", "--ignore", "E"]), set(&["E002"]));
    assert_eq!(iso(&["--select", "E002", "--ignore", "E002"]), set(&[]));
    assert_eq!(
        iso(&["--select", "E00", "--ignore", "E,E004"]),
        set(&["E002", "E003", "E005"])
    );
    assert_eq!(
        iso(&["--select", "invalid-json,E003"]),
        set(&["E002", "E003"]),
        "rule names select too"
    );
    // ALL.
    let all = codes(&[SELECT, "--isolated", "--select", "ALL"]);
    assert!(all.contains("E002") && all.contains("M001"), "{all:?}");
    assert_eq!(
        all,
        codes(&[SELECT, "--isolated"]),
        "the default selection is ALL"
    );
    let no_m = codes(&[SELECT, "--isolated", "--select", "ALL", "--ignore", "M"]);
    assert!(
        no_m.contains("E002") && !no_m.iter().any(|c| c.starts_with('M')),
        "{no_m:?}"
    );
    let m005 = codes(&[
        SELECT,
        "--isolated",
        "--ignore",
        "M",
        "--extend-select",
        "M005",
    ]);
    assert!(m005.contains("M005") && !m005.contains("M001"), "{m005:?}");
    // The command line over the config file: the fixture's config selects E.
    assert_eq!(codes(&[FORMATS]), set(&["E002", "E003", "E004", "E005"]));
    assert_eq!(codes(&[FORMATS, "--select", "E002"]), set(&["E002"]));
    assert_eq!(
        codes(&[FORMATS, "--extend-select", "M", "--ignore", "E00"]),
        set(&[])
    );
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "r/broken.json", &fixture("broken.json"));
    write(dir.path(), "r/wrong-type.json", &fixture("wrong-type.json"));
    write(
        dir.path(),
        "benchlint.toml",
        "select = [\"E\"]\nignore = [\"E002\"]\n",
    );
    assert_eq!(codes_in(Some(dir.path()), &["r"]), set(&["E003"]));
    assert_eq!(
        codes_in(Some(dir.path()), &["r", "--extend-select", "E002"]),
        set(&["E002", "E003"])
    );
    // `--config` names another file; found upward from the first path otherwise.
    write(dir.path(), "other.toml", "select = [\"E002\"]\n");
    assert_eq!(
        codes_in(Some(dir.path()), &["r", "--config", "other.toml"]),
        set(&["E002"])
    );
    assert_eq!(
        codes_in(Some(&dir.path().join("r")), &["."]),
        set(&["E003"])
    );
}

fn severities(dir: &Path, args: &[&str]) -> Vec<(String, String)> {
    let mut all = vec!["check", "--format", "json"];
    all.extend_from_slice(args);
    let r = run_in(Some(dir), &all);
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    let mut out: Vec<(String, String)> = v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["code"].as_str().unwrap().to_string(),
                d["severity"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    out.dedup();
    out
}

#[test]
fn severity_overrides() {
    let dir = tempfile::tempdir().unwrap();
    for f in ["broken.json", "unknown.json", "wrong-type.json"] {
        write(dir.path(), &format!("r/{f}"), &fixture(f));
    }
    write(
        dir.path(),
        "benchlint.toml",
        "select = [\"E\"]\n[severity]\n\"E\" = \"warning\"\n\"E003\" = \"error\"\n",
    );
    let got = severities(dir.path(), &["r"]);
    let want = [("E002", "warning"), ("E004", "warning"), ("E003", "error")];
    for (code, sev) in want {
        assert!(
            got.contains(&(code.to_string(), sev.to_string())),
            "{code} {sev} in {got:?}"
        );
    }
    assert_eq!(
        run_in(Some(dir.path()), &["check", "r"]).code,
        1,
        "E003 is still an error"
    );
    write(
        dir.path(),
        "benchlint.toml",
        "select = [\"E\"]\n[severity]\n\"E0\" = \"info\"\n",
    );
    assert_eq!(run_in(Some(dir.path()), &["check", "r"]).code, 0);
    assert_eq!(
        run_in(Some(dir.path()), &["check", "r", "--fail-on", "info"]).code,
        1
    );
}

#[test]
fn per_file_ignores_and_unmatched_globs() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "r/broken.json", &fixture("broken.json"));
    write(dir.path(), "r/old/broken.json", &fixture("broken.json"));
    write(
        dir.path(),
        "r/old/deeper/broken.json",
        &fixture("broken.json"),
    );
    write(
        dir.path(),
        "benchlint.toml",
        "select = [\"E\"]\n[per-file-ignores]\n\"r/old/*.json\" = [\"E002\"]\n\"gone/**\" = [\"E\"]\n",
    );
    let r = run_in(Some(dir.path()), &["check", "r", "--format", "json"]);
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    let paths: Vec<&str> = v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["path"].as_str().unwrap())
        .collect();
    assert_eq!(
        paths,
        vec!["r/broken.json", "r/old/deeper/broken.json"],
        "`*` stops at `/`"
    );
    assert!(
        r.stderr.contains("\"gone/**\" matches no file checked"),
        "{}",
        r.stderr
    );
    assert!(!r.stderr.contains("r/old/*.json"), "{}", r.stderr);
    // Globs are relative to the config file, whatever folder benchlint runs from.
    let inside = run_in(
        Some(&dir.path().join("r")),
        &["check", ".", "--format", "json"],
    );
    let v: Value = serde_json::from_str(&inside.stdout).unwrap();
    assert_eq!(
        v["diagnostics"].as_array().unwrap().len(),
        2,
        "{}",
        inside.stdout
    );
}
