//! `.gitignore` as git reads it: on generated trees and ignore files (nested files, negation,
//! anchored and folder-only patterns, `**`, character classes), the files a walk reads are the
//! files git reports as neither tracked nor ignored, among those discovery reads at all.

use std::collections::BTreeSet;
use std::path::Path;
use std::process::Command;

use benchlint::corpus::{discover, walk_reads};

use crate::support::hostile_gen::Rng;

const PATTERNS: [&str; 16] = [
    "*.json",
    "!keep.json",
    "/results/old/",
    "logs/",
    "**/tmp/*.yaml",
    "a/**/b.json",
    "[ab].json",
    "run?.jsonl",
    "*.yml",
    "!a/",
    "old",
    "/top.json",
    "sub/*.ndjson",
    "mlperf_log_*.txt",
    "!mlperf_log_summary.txt",
    "# a comment",
];
const DIRS: [&str; 9] = [
    "",
    "results/",
    "results/old/",
    "a/",
    "a/x/",
    "logs/",
    "sub/",
    "b/tmp/",
    "old/",
];
const NAMES: [&str; 12] = [
    "keep.json",
    "a.json",
    "b.json",
    "run1.jsonl",
    "c.yml",
    "top.json",
    "d.yaml",
    "e.ndjson",
    "mlperf_log_summary.txt",
    "mlperf_log_detail.txt",
    "notes.txt",
    "x.json",
];

fn git(dir: &Path, args: &[&str], home: &Path) -> Option<String> {
    let out = Command::new("git")
        .args(args)
        .current_dir(dir)
        .env("HOME", home)
        .env("XDG_CONFIG_HOME", home)
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .output()
        .ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).into_owned())
}

#[test]
fn the_walk_skips_what_git_ignores_on_generated_trees() {
    let home = tempfile::tempdir().unwrap();
    if git(home.path(), &["--version"], home.path()).is_none() {
        eprintln!("SKIP: git is not installed; .gitignore is not compared with git's reading");
        return;
    }
    let mut rng = Rng(0x0091_7159_0e5e);
    let (mut candidates, mut read) = (0, 0);
    for round in 0..12 {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path();
        git(root, &["init", "-q"], home.path()).unwrap();
        for _ in 0..30 {
            let file = root.join(format!("{}{}", rng.pick(&DIRS), rng.pick(&NAMES)));
            std::fs::create_dir_all(file.parent().unwrap()).unwrap();
            std::fs::write(file, "{}").unwrap();
        }
        for dir in ["", "a/", "results/"] {
            if root.join(dir).is_dir() && (dir.is_empty() || rng.below(2) == 0) {
                let lines: Vec<&str> = (0..=rng.below(5)).map(|_| rng.pick(&PATTERNS)).collect();
                std::fs::write(root.join(dir).join(".gitignore"), lines.join("\n") + "\n").unwrap();
            }
        }
        let listed = git(
            root,
            &["ls-files", "--others", "--exclude-standard"],
            home.path(),
        )
        .unwrap();
        let by_git: BTreeSet<String> = listed
            .lines()
            .filter(|p| walk_reads(p))
            .map(ToString::to_string)
            .collect();
        let (entries, problems) = discover(&[root.to_path_buf()]);
        assert!(problems.is_empty(), "{problems:?}");
        let by_walk: BTreeSet<String> = entries
            .iter()
            .map(|e| {
                e.path()
                    .strip_prefix(root)
                    .unwrap()
                    .to_string_lossy()
                    .into_owned()
            })
            .collect();
        let ignores: Vec<String> = ["", "a/", "results/"]
            .iter()
            .filter_map(|d| {
                std::fs::read_to_string(root.join(d).join(".gitignore"))
                    .ok()
                    .map(|t| format!("{d}.gitignore: {t:?}"))
            })
            .collect();
        assert_eq!(by_walk, by_git, "round {round}: {ignores:?}");
        let all = git(root, &["ls-files", "--others"], home.path()).unwrap();
        candidates += all.lines().filter(|p| walk_reads(p)).count();
        read += by_walk.len();
    }
    // The generated ignore files leave out a good part of the files, not none and not all.
    assert!(
        read > candidates / 5 && read < candidates * 4 / 5,
        "{read} of {candidates}"
    );
}
