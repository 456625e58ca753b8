//! The pre-commit hook (`.pre-commit-hooks.yaml`) against what discovery reads: the hook's
//! `files:` pattern is the one the code makes, Python's `re` (which pre-commit uses) agrees with
//! discovery on generated paths, and `pre-commit try-repo` on a scratch repository fires the
//! hook on a staged GuideLLM YAML and an MLPerf log.

use std::collections::BTreeSet;
use std::path::Path;
use std::process::{Command, Stdio};

use benchlint::corpus::{discover, hook_files_pattern, walk_reads};

use crate::support::hostile_gen::Rng;

const HOOKS: &str = ".pre-commit-hooks.yaml";

/// The `files:` values of the hook file, unquoted.
fn hook_patterns() -> Vec<String> {
    let text = std::fs::read_to_string(HOOKS).unwrap();
    text.lines()
        .filter_map(|l| l.trim().strip_prefix("files:"))
        .map(|v| v.trim().trim_matches('\'').to_string())
        .collect()
}

#[test]
fn every_hook_uses_the_pattern_the_code_makes() {
    let patterns = hook_patterns();
    assert_eq!(patterns.len(), 2, "two hooks: {patterns:?}");
    for p in patterns {
        assert_eq!(p, hook_files_pattern(), "{HOOKS} drifted from discovery");
    }
}

/// Paths of many shapes: candidate endings in any case, near misses, MLPerf logs and names that
/// look like them, inside skipped, hidden and ordinary folders.
fn generated_paths() -> Vec<String> {
    let dirs = [
        "",
        "results/",
        "a/b/",
        ".git/",
        ".venv/x/",
        "target/",
        "sub/target/",
        "node_modules/",
        "x/node_modules/y/",
        "targets/",
        ".hidden/",
        "v0.2/",
        "..a/",
    ];
    let stems = [
        "run",
        "mlperf_log_summary",
        "mlperf_log_",
        "mlperf_log",
        "MLPERF_LOG_detail",
        "benchlint",
        ".hidden",
        "a.b",
        "profile_export",
        "mlperf_logx",
    ];
    let endings = [
        ".json",
        ".JSON",
        ".jsonl",
        ".Jsonl",
        ".ndjson",
        ".yaml",
        ".YML",
        ".yml",
        ".txt",
        ".TXT",
        ".toml",
        ".json.bak",
        ".jsn",
        ".yaml~",
        "",
        ".csv",
        ".txt.gz",
    ];
    let mut rng = Rng(0x005e_ed0f_4007);
    let mut out = BTreeSet::new();
    for _ in 0..600 {
        out.insert(format!(
            "{}{}{}",
            rng.pick(&dirs),
            rng.pick(&stems),
            rng.pick(&endings)
        ));
    }
    out.insert("benchlint.toml".into());
    out.into_iter().collect()
}

#[test]
fn python_re_agrees_with_discovery_on_generated_paths() {
    let Ok(mut child) = Command::new("python3")
        .args([
            "-c",
            "import re,sys\np=re.compile(sys.argv[1])\nfor l in sys.stdin.read().split('\\n'):\n    print('1' if l and p.search(l) else '0')",
            &hook_files_pattern(),
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
    else {
        eprintln!("SKIP: python3 is not installed; the hook pattern is not tried in Python's re");
        return;
    };
    let paths = generated_paths();
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().unwrap();
        stdin.write_all(paths.join("\n").as_bytes()).unwrap();
    }
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let verdicts: Vec<bool> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| l == "1")
        .collect();
    assert_eq!(verdicts.len(), paths.len());
    let mut fired = 0;
    for (path, hook) in paths.iter().zip(verdicts) {
        // The config is no result, but changing it changes the findings (where a walk goes).
        let read = match path.strip_suffix("benchlint.toml") {
            Some(dir) if dir.is_empty() || dir.ends_with('/') => {
                walk_reads(&format!("{dir}x.json"))
            }
            _ => walk_reads(path),
        };
        assert_eq!(
            hook, read,
            "{path}: hook fires {hook}, discovery reads {read}"
        );
        fired += usize::from(hook);
    }
    assert!(
        fired > 50 && fired < paths.len() - 50,
        "{fired} of {}",
        paths.len()
    );
}

#[test]
fn walk_reads_is_what_a_walk_finds() {
    let tmp = tempfile::tempdir().unwrap();
    let paths: Vec<String> = generated_paths()
        .into_iter()
        .filter(|p| !p.ends_with('/') && !p.split('/').any(|c| c == ".." || c == "."))
        .collect();
    for p in &paths {
        let file = tmp.path().join(p);
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(&file, "{}").unwrap();
    }
    let (entries, problems) = discover(&[tmp.path().to_path_buf()]);
    assert!(problems.is_empty(), "{problems:?}");
    let found: BTreeSet<String> = entries
        .iter()
        .map(|e| {
            e.path()
                .strip_prefix(tmp.path())
                .unwrap()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    let expected: BTreeSet<String> = paths.iter().filter(|p| walk_reads(p)).cloned().collect();
    assert_eq!(found, expected);
}

fn git(dir: &Path, args: &[&str]) {
    let out = Command::new("git")
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Runs the installed hook (`benchlint-system`, the built binary on PATH) through
/// `pre-commit try-repo` in a scratch repository with `staged` staged; its output and whether
/// it passed.
fn try_repo(staged: &[(&str, &str)]) -> Option<(String, bool)> {
    if Command::new("pre-commit")
        .arg("--version")
        .output()
        .is_err()
    {
        eprintln!(
            "SKIP: pre-commit is not installed (pip install pre-commit); the hook is not tried"
        );
        return None;
    }
    let repo = tempfile::tempdir().unwrap();
    let home = tempfile::tempdir().unwrap();
    git(repo.path(), &["init", "-q"]);
    for (from, to) in staged {
        let target = repo.path().join(to);
        std::fs::create_dir_all(target.parent().unwrap()).unwrap();
        std::fs::copy(from, &target).unwrap();
        git(repo.path(), &["add", to]);
    }
    let bin = Path::new(env!("CARGO_BIN_EXE_benchlint"))
        .parent()
        .unwrap()
        .to_path_buf();
    let path = std::env::join_paths(std::iter::once(bin).chain(std::env::split_paths(
        &std::env::var_os("PATH").unwrap_or_default(),
    )))
    .unwrap();
    let here = std::env::current_dir().unwrap();
    let out = Command::new("pre-commit")
        .args(["try-repo", &here.to_string_lossy(), "benchlint-system"])
        .current_dir(repo.path())
        .env("PATH", path)
        .env("PRE_COMMIT_HOME", home.path())
        .env("NO_COLOR", "1")
        .env_remove("GITHUB_ACTIONS")
        .output()
        .unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    Some((text, out.status.success()))
}

#[test]
fn the_hook_fires_on_a_staged_guidellm_yaml_and_an_mlperf_log() {
    let staged = [
        (
            "testdata/adapters/guidellm/v0.8.1-concurrent-sweep.yaml",
            "results/guidellm.yaml",
        ),
        (
            "testdata/adapters/mlperf/server-invalid-summary-only/mlperf_log_summary.txt",
            "results/mlperf/mlperf_log_summary.txt",
        ),
    ];
    for one in &staged {
        let Some((text, passed)) = try_repo(std::slice::from_ref(one)) else {
            return;
        };
        assert!(
            !text.contains("Skipped"),
            "{}: the hook was skipped:\n{text}",
            one.1
        );
        // benchlint ran on the file: its findings are in the hook's output and it failed.
        assert!(!passed, "{}: {text}", one.1);
        assert!(text.contains("Failed"), "{text}");
        assert!(text.contains(one.1), "the finding names the file:\n{text}");
    }
}

#[test]
fn the_hook_is_skipped_when_nothing_benchlint_reads_is_staged() {
    let Some((text, passed)) = try_repo(&[("README.md", "notes/README.md")]) else {
        return;
    };
    assert!(passed, "{text}");
    assert!(text.contains("Skipped"), "{text}");
}
