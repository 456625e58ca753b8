//! SARIF as GitHub code scanning takes it: one log and one set of fingerprints whichever way
//! the corpus is named and wherever benchlint ran, and a corpus finding on a file at line one.

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::{DEMO, ENERGY, REALWORLD, abs, check_in, github_accepts};

/// (rule, fingerprint) of every result, sorted.
fn keys(results: &[Value]) -> Vec<(String, String)> {
    let mut k: Vec<(String, String)> = results
        .iter()
        .map(|r| {
            (
                r["ruleId"].as_str().unwrap().to_string(),
                r["partialFingerprints"]["benchlint/v2"]
                    .as_str()
                    .unwrap()
                    .to_string(),
            )
        })
        .collect();
    k.sort();
    k
}

/// `corpus` checked four ways (from itself as `.`, from its parent by name, from a child
/// folder as `..`, and by its absolute path from elsewhere), every run with `root` as the
/// project root: the same findings and fingerprints, each log as GitHub requires.
fn four_ways(corpus: &Path, child: &str, root: Option<&Path>) {
    let name = corpus.file_name().unwrap().to_str().unwrap();
    let parent = corpus.parent().unwrap();
    let elsewhere = tempfile::tempdir().unwrap();
    let root_args: Vec<String> = root
        .map(|r| vec!["--project-root".to_string(), r.display().to_string()])
        .unwrap_or_default();
    let ways: [(PathBuf, String); 4] = [
        (corpus.to_path_buf(), ".".to_string()),
        (parent.to_path_buf(), name.to_string()),
        (corpus.join(child), "..".to_string()),
        (elsewhere.path().to_path_buf(), corpus.display().to_string()),
    ];
    let mut seen: Option<Vec<(String, String)>> = None;
    for (dir, arg) in &ways {
        let mut args: Vec<&str> = vec![arg, "--isolated", "--format", "sarif"];
        args.extend(root_args.iter().map(String::as_str));
        let r = check_in(dir, &args);
        let results = github_accepts(&r.out());
        assert!(!results.is_empty());
        let k = keys(&results);
        match &seen {
            None => seen = Some(k),
            Some(first) => assert_eq!(first, &k, "from {} with {arg}", dir.display()),
        }
    }
}

#[test]
fn the_demo_corpus_gives_one_log_whichever_way_it_is_named() {
    // The default project root: the git work tree holding the corpus (the repository), or
    // the current folder when there is none. A fresh clone has `.git`; a copy may not.
    let demo = abs(DEMO);
    let root = if Path::new(".git").exists() {
        None
    } else {
        Some(abs("."))
    };
    four_ways(&demo, "h200", root.as_deref());
    // And from a child with `..`, no artifact of the corpus seems to leave it (M017).
    let r = check_in(
        &demo.join("h200"),
        &["..", "--isolated", "--format", "json"],
    );
    let v: Value = serde_json::from_str(&r.out()).unwrap();
    let m017 = v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["code"] == "M017")
        .count();
    let from_abs = check_in(
        Path::new("/"),
        &[demo.to_str().unwrap(), "--isolated", "--format", "json"],
    );
    let w: Value = serde_json::from_str(&from_abs.out()).unwrap();
    assert_eq!(
        v["diagnostics"].as_array().unwrap().len(),
        w["diagnostics"].as_array().unwrap().len()
    );
    assert_eq!(m017, 0);
}

#[test]
fn every_spelling_of_the_demo_corpus_gives_the_same_fingerprints() {
    // Variants of one path: `./` and `/./` steps, a detour through a sibling and back, a
    // trailing slash, and `..` from every child folder; all the same corpus.
    let demo = abs(DEMO);
    let root = abs(".");
    let root_arg = root.display().to_string();
    let reference = keys(&github_accepts(
        &check_in(
            &root,
            &[
                DEMO,
                "--isolated",
                "--format",
                "sarif",
                "--project-root",
                &root_arg,
            ],
        )
        .out(),
    ));
    let children: Vec<String> = std::fs::read_dir(&demo)
        .unwrap()
        .flatten()
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    assert!(children.len() >= 2);
    let mut ways: Vec<(PathBuf, String)> = vec![
        (root.clone(), format!("./{DEMO}")),
        (root.clone(), format!("{DEMO}/")),
        (root.clone(), format!("{DEMO}/./")),
        (root.clone(), "./testdata/./corpora/demo".to_string()),
        (root.clone(), format!("{DEMO}/{}/..", children[0])),
        (root.clone(), "testdata/corpora/energy/../demo".to_string()),
        (demo.clone(), ".".to_string()),
        (demo.clone(), "./".to_string()),
    ];
    for child in &children {
        ways.push((demo.join(child), "..".to_string()));
        ways.push((demo.join(child), format!("../{}/..", children[0])));
    }
    for (dir, arg) in &ways {
        let r = check_in(
            dir,
            &[
                arg,
                "--isolated",
                "--format",
                "sarif",
                "--project-root",
                &root_arg,
            ],
        );
        assert_eq!(
            keys(&github_accepts(&r.out())),
            reference,
            "{arg} from {}",
            dir.display()
        );
    }
}

#[test]
fn the_real_corpus_gives_one_log_whichever_way_it_is_named() {
    let Ok(real) = std::fs::canonicalize(REALWORLD) else {
        println!("skipped: {REALWORLD} is absent");
        return;
    };
    let child = std::fs::read_dir(&real)
        .unwrap()
        .flatten()
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .min()
        .unwrap();
    four_ways(&real, &child, Some(&real));
}

#[test]
fn the_corpus_finding_is_on_a_file_at_line_one() {
    let r = check_in(
        Path::new("."),
        &[
            ENERGY,
            "--isolated",
            "--select",
            "S008,S009",
            "--format",
            "sarif",
            "--project-root",
            ".",
        ],
    );
    let results = github_accepts(&r.out());
    assert_eq!(results.len(), 2);
    for r in &results {
        assert_eq!(r["properties"]["corpus"], true);
        let loc = &r["locations"][0]["physicalLocation"];
        let uri = loc["artifactLocation"]["uri"].as_str().unwrap();
        assert!(
            uri.starts_with("testdata/corpora/energy/")
                && Path::new(uri).extension().is_some_and(|e| e == "json"),
            "{uri}"
        );
        assert!(Path::new(uri).is_file(), "a file of the corpus: {uri}");
        assert_eq!(loc["region"]["startLine"], 1);
    }
}
