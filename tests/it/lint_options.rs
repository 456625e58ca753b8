//! The linter conventions of `check`, spelled as ruff spells them: `-q`/`--quiet`,
//! `-s`/`--silent`, `--config KEY=VALUE`, `extend` in the config, `exclude`/`extend-exclude`,
//! `.gitignore` (`--no-respect-gitignore`, `--force-exclude`), `BENCHLINT_OUTPUT_FORMAT`,
//! `--output-file`, standard input (`-`, `--stdin-filename`) and the man pages. Each runs the
//! built binary on a copy of `testdata/cli/lintopts` and looks at what a user sees: exit code,
//! stdout, stderr.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::Value;

const FIXTURE: &str = "testdata/cli/lintopts";

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

fn bin(dir: &Path) -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_benchlint"));
    c.current_dir(dir)
        .env("NO_COLOR", "1")
        .env_remove("GITHUB_ACTIONS")
        .env_remove("BENCHLINT_OUTPUT_FORMAT")
        .env_remove("CLICOLOR_FORCE");
    c
}

fn output(c: &mut Command) -> Run {
    let out = c.output().unwrap();
    Run {
        code: out.status.code().unwrap(),
        stdout: String::from_utf8(out.stdout).unwrap(),
        stderr: String::from_utf8(out.stderr).unwrap(),
    }
}

fn run(dir: &Path, args: &[&str]) -> Run {
    output(bin(dir).args(args))
}

/// A copy of the fixture in a scratch folder (outside any git work tree).
fn scratch() -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("repo");
    copy_dir(Path::new(FIXTURE), &root);
    (tmp, root)
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let target = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), target).unwrap();
        }
    }
}

/// Count of findings per code and the files they are on, from `check --format json`.
fn findings(dir: &Path, args: &[&str]) -> (BTreeMap<String, usize>, Vec<String>) {
    let mut all = vec!["check", "--format", "json"];
    all.extend_from_slice(args);
    let r = run(dir, &all);
    assert_ne!(r.code, 2, "{}", r.stderr);
    let v: Value = serde_json::from_str(&r.stdout).expect("JSON");
    let mut codes = BTreeMap::new();
    let mut files: Vec<String> = Vec::new();
    for d in v["diagnostics"].as_array().unwrap() {
        *codes
            .entry(d["code"].as_str().unwrap().to_string())
            .or_insert(0) += 1;
        let f = d["location"]["path"]
            .as_str()
            .or_else(|| d["path"].as_str())
            .unwrap_or_default()
            .to_string();
        if !files.contains(&f) {
            files.push(f);
        }
    }
    files.sort();
    (codes, files)
}

fn files_read(dir: &Path, args: &[&str]) -> Vec<String> {
    let mut all = vec!["check", "--show-files"];
    all.extend_from_slice(args);
    let r = run(dir, &all);
    assert_ne!(r.code, 2, "{}", r.stderr);
    r.stdout
        .lines()
        // `READER  PATH` (the fixture's paths hold no space).
        .filter_map(|l| l.split_whitespace().last())
        .filter(|p| p.contains('.'))
        .map(ToString::to_string)
        .collect()
}

// ---------------------------------------------------------------------------------------------
// -q, -s

#[test]
fn quiet_prints_the_findings_and_nothing_else() {
    let (_tmp, root) = scratch();
    for format in ["concise", "human", "grouped"] {
        let normal = run(&root, &["check", "--format", format, "results"]);
        let quiet = run(&root, &["check", "-q", "--format", format, "results"]);
        assert_eq!(normal.code, 1, "{format}: {}", normal.stderr);
        assert_eq!(quiet.code, normal.code, "{format}");
        assert!(normal.stdout.contains("Found "), "{format}");
        assert!(
            !quiet.stdout.contains("Found "),
            "{format}: {}",
            quiet.stdout
        );
        // The findings are all there: the normal output starts with the quiet one.
        assert!(!quiet.stdout.is_empty(), "{format}");
        assert!(
            normal.stdout.starts_with(&quiet.stdout),
            "{format}:\n{}\n---\n{}",
            quiet.stdout,
            normal.stdout
        );
    }
    let concise = run(
        &root,
        &["check", "--quiet", "--format", "concise", "results"],
    );
    assert!(
        concise.stdout.lines().all(|l| l.starts_with("results/")),
        "{}",
        concise.stdout
    );
}

#[test]
fn quiet_and_silent_hold_back_warnings_but_not_errors() {
    let (_tmp, root) = scratch();
    std::fs::create_dir(root.join("empty")).unwrap();
    let normal = run(&root, &["check", "empty"]);
    assert!(
        normal.stderr.contains("warning: no result files"),
        "{}",
        normal.stderr
    );
    for flag in ["-q", "-s"] {
        let r = run(&root, &["check", flag, "empty"]);
        assert_eq!(r.code, 0, "{flag}");
        assert_eq!(r.stderr, "", "{flag}");
    }
    // A broken config is an error of the run: said even under --silent, exit 2.
    let r = run(
        &root,
        &["check", "-s", "--config", "ignore = [\"XX99\"]", "results"],
    );
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("XX99"), "{}", r.stderr);
    assert_eq!(r.stdout, "");
}

#[test]
fn silent_says_nothing_and_exits_as_the_run_does() {
    let (_tmp, root) = scratch();
    for format in ["human", "json", "concise", "sarif"] {
        let r = run(&root, &["check", "-s", "--format", format, "results"]);
        assert_eq!(r.code, 1, "{format}");
        assert_eq!(r.stdout, "", "{format}");
        assert_eq!(r.stderr, "", "{format}");
    }
    let r = run(&root, &["check", "--silent", "--exit-zero", "results"]);
    assert_eq!((r.code, r.stdout.as_str()), (0, ""));
    // An output file is what was asked: still written.
    let out = root.join("../report.json");
    let r = run(
        &root,
        &[
            "check",
            "-s",
            "--format",
            "json",
            "--output-file",
            out.to_str().unwrap(),
            "results",
        ],
    );
    assert_eq!((r.code, r.stdout.as_str(), r.stderr.as_str()), (1, "", ""));
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert!(v["diagnostics"].as_array().unwrap().len() > 10);
    let r = run(&root, &["check", "-q", "-s", "results"]);
    assert_eq!(r.code, 2, "-q and -s together are refused");
}

// ---------------------------------------------------------------------------------------------
// --config KEY=VALUE, extend

#[test]
fn config_overrides_are_toml_pairs_laid_over_the_config() {
    let (_tmp, root) = scratch();
    let (all, _) = findings(&root, &["--isolated", "results"]);
    assert!(
        all.contains_key("M001") && all.contains_key("R009"),
        "{all:?}"
    );
    let (flag, _) = findings(&root, &["--isolated", "--ignore", "M", "results"]);
    let (pair, _) = findings(
        &root,
        &["--isolated", "--config", "ignore = [\"M\"]", "results"],
    );
    assert_eq!(flag, pair, "--config 'ignore = [\"M\"]' is --ignore M");
    assert!(!pair.keys().any(|c| c.starts_with('M')));
    // Over a config file: the file's other keys hold; tables merge key by key.
    std::fs::write(
        root.join("benchlint.toml"),
        "ignore = [\"M\"]\n[severity]\nR009 = \"error\"\n",
    )
    .unwrap();
    let config = root.join("benchlint.toml");
    let r = run(
        &root,
        &[
            "check",
            "--format",
            "json",
            "--config",
            config.to_str().unwrap(),
            "--config",
            "severity.R023 = \"error\"",
            "--config",
            "ignore = []",
            "results",
        ],
    );
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    let severity_of = |code: &str| {
        v["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .find(|d| d["code"] == code)
            .map(|d| d["severity"].as_str().unwrap().to_string())
    };
    assert_eq!(
        severity_of("R009").as_deref(),
        Some("error"),
        "from the file"
    );
    assert_eq!(
        severity_of("R023").as_deref(),
        Some("error"),
        "from the override"
    );
    assert!(
        severity_of("M001").is_some(),
        "`ignore = []` replaced the file's list"
    );
    // A mistake in an override points at it.
    let r = run(
        &root,
        &[
            "check",
            "--config",
            "thresholds.min_window_s = \"long\"",
            "results",
        ],
    );
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("--config:1:"), "{}", r.stderr);
    assert!(
        r.stderr.contains("thresholds.min_window_s = \"long\""),
        "{}",
        r.stderr
    );
    let r = run(&root, &["check", "--config", "nope.toml", "results"]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("nope.toml"), "{}", r.stderr);
    let r = run(
        &root,
        &[
            "check", "--config", "a.toml", "--config", "b.toml", "results",
        ],
    );
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("two files"), "{}", r.stderr);
}

#[test]
fn extend_lays_a_config_over_another_relative_to_it() {
    let (_tmp, root) = scratch();
    std::fs::create_dir(root.join("conf")).unwrap();
    // Relative to the file that writes it, not to the current folder.
    std::fs::write(
        root.join("conf/benchlint.toml"),
        "extend = \"../shared/base.toml\"\n[severity]\nR009 = \"error\"\n",
    )
    .unwrap();
    let r = run(
        &root,
        &[
            "check",
            "--format",
            "json",
            "--config",
            "conf/benchlint.toml",
            "results",
        ],
    );
    assert_eq!(r.code, 1, "{}", r.stderr);
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    let of = |code: &str| {
        v["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|d| d["code"] == code)
            .map(|d| d["severity"].as_str().unwrap().to_string())
            .collect::<Vec<_>>()
    };
    assert!(of("M001").is_empty(), "the base's ignore holds");
    assert!(
        of("R008").iter().all(|s| s == "info") && !of("R008").is_empty(),
        "the base's severity"
    );
    assert!(
        of("R009").iter().all(|s| s == "error") && !of("R009").is_empty(),
        "its own"
    );
    // A loop is an error naming the chain.
    std::fs::write(
        root.join("shared/base.toml"),
        "extend = \"../conf/benchlint.toml\"\n",
    )
    .unwrap();
    let r = run(
        &root,
        &["check", "--config", "conf/benchlint.toml", "results"],
    );
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("extend loop"), "{}", r.stderr);
    // A missing base is an error at the `extend` line.
    std::fs::write(root.join("shared/base.toml"), "extend = \"gone.toml\"\n").unwrap();
    let r = run(
        &root,
        &["check", "--config", "conf/benchlint.toml", "results"],
    );
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("shared/base.toml:1:10"), "{}", r.stderr);
}

#[test]
fn a_config_inside_the_corpus_extends_only_inside_its_folder_and_keeps_its_limits() {
    let (_tmp, root) = scratch();
    std::fs::write(
        root.join("results/benchlint.toml"),
        "extend = \"../shared/base.toml\"\n",
    )
    .unwrap();
    let r = run(&root, &["check", "results"]);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.contains("outside the config file's folder"),
        "{}",
        r.stderr
    );
    // Inside its folder: followed, and the merged config still cannot turn off E codes.
    std::fs::write(root.join("results/base.toml"), "ignore = [\"E\", \"M\"]\n").unwrap();
    std::fs::write(
        root.join("results/benchlint.toml"),
        "extend = \"base.toml\"\n",
    )
    .unwrap();
    std::fs::write(root.join("results/broken.json"), "{\"a\": ").unwrap();
    let (codes, _) = findings(&root, &["results"]);
    assert!(
        codes.contains_key("E002") || codes.keys().any(|c| c.starts_with('E')),
        "{codes:?}"
    );
    assert!(!codes.contains_key("M001"), "{codes:?}");
}

// ---------------------------------------------------------------------------------------------
// exclude, extend-exclude, .gitignore

#[test]
fn exclude_and_extend_exclude_skip_what_they_name_and_say_so() {
    let (_tmp, root) = scratch();
    let all = files_read(&root, &["--isolated", "."]);
    assert_eq!(
        all,
        ["package.json", "results/a/run.json", "results/old/run.json"],
        "{all:?}"
    );
    assert_eq!(
        files_read(&root, &["--isolated", "--exclude", "old", "."]),
        ["package.json", "results/a/run.json"]
    );
    assert_eq!(
        files_read(
            &root,
            &[
                "--isolated",
                "--extend-exclude",
                "results/old/,package.json",
                "."
            ]
        ),
        ["results/a/run.json"]
    );
    let r = run(&root, &["check", "--isolated", "--exclude", "old", "."]);
    assert!(
        r.stderr.contains("note: skipped 1 file or folder"),
        "{}",
        r.stderr
    );
    // From the config: relative to its folder; --exclude replaces its `exclude`.
    std::fs::write(
        root.join("benchlint.toml"),
        "exclude = [\"results/a\"]\nextend-exclude = [\"*.json\"]\n",
    )
    .unwrap();
    let config = ["--config", "benchlint.toml"];
    assert!(files_read(&root, &[&config[..], &["."]].concat()).is_empty());
    std::fs::write(root.join("benchlint.toml"), "exclude = [\"results/a\"]\n").unwrap();
    assert_eq!(
        files_read(&root, &[&config[..], &["."]].concat()),
        ["package.json", "results/old/run.json"]
    );
    assert_eq!(
        files_read(
            &root,
            &[&config[..], &["--exclude", "package.json", "."]].concat()
        ),
        ["results/a/run.json", "results/old/run.json"]
    );
    // A file named on the command line is read unless --force-exclude.
    assert_eq!(
        files_read(
            &root,
            &["--isolated", "--exclude", "old", "results/old/run.json"]
        ),
        ["results/old/run.json"]
    );
    assert!(
        files_read(
            &root,
            &[
                "--isolated",
                "--exclude",
                "old",
                "--force-exclude",
                "results/old/run.json"
            ]
        )
        .is_empty()
    );
}

#[test]
fn a_config_inside_the_corpus_cannot_exclude_files() {
    let (_tmp, root) = scratch();
    std::fs::write(root.join("results/benchlint.toml"), "exclude = [\"**\"]\n").unwrap();
    let r = run(&root, &["check", "--show-files", "results"]);
    assert!(r.stdout.contains("results/a/run.json"), "{}", r.stdout);
    assert!(r.stderr.contains("cannot hide files"), "{}", r.stderr);
}

#[test]
fn gitignore_is_respected_in_a_work_tree_unless_turned_off() {
    let (_tmp, root) = scratch();
    std::fs::write(root.join(".gitignore"), "package.json\n/results/old/\n").unwrap();
    // Outside a git work tree a .gitignore means nothing (as for git and ripgrep).
    assert_eq!(files_read(&root, &["--isolated", "."]).len(), 3);
    std::fs::create_dir(root.join(".git")).unwrap();
    assert_eq!(
        files_read(&root, &["--isolated", "."]),
        ["results/a/run.json"]
    );
    let r = run(&root, &["check", "--isolated", "."]);
    assert!(
        !r.stdout.contains("E004"),
        "the package.json of the repository is not read"
    );
    assert!(
        r.stderr.contains("skipped 2 files and folders"),
        "{}",
        r.stderr
    );
    assert_eq!(
        files_read(&root, &["--isolated", "--no-respect-gitignore", "."]).len(),
        3
    );
    // From a folder below, the root's .gitignore still holds; a nested one adds to it, and a
    // `!` pattern there brings a file back.
    assert_eq!(
        files_read(&root.join("results"), &["--isolated", "."]),
        ["a/run.json"]
    );
    std::fs::write(root.join("results/a/.gitignore"), "*.json\n").unwrap();
    assert!(files_read(&root, &["--isolated", "."]).is_empty());
    std::fs::write(root.join("results/a/.gitignore"), "*.json\n!run.json\n").unwrap();
    assert_eq!(
        files_read(&root, &["--isolated", "."]),
        ["results/a/run.json"]
    );
    // The config's `respect-gitignore = false`, undone by --respect-gitignore.
    std::fs::write(root.join("benchlint.toml"), "respect-gitignore = false\n").unwrap();
    assert_eq!(
        files_read(&root, &["--config", "benchlint.toml", "."]).len(),
        3
    );
    assert_eq!(
        files_read(
            &root,
            &["--config", "benchlint.toml", "--respect-gitignore", "."]
        )
        .len(),
        1
    );
    // A named file is read whatever .gitignore says, unless --force-exclude.
    assert_eq!(
        files_read(&root, &["--isolated", "package.json"]),
        ["package.json"]
    );
    assert!(files_read(&root, &["--isolated", "--force-exclude", "package.json"]).is_empty());
}

// ---------------------------------------------------------------------------------------------
// BENCHLINT_OUTPUT_FORMAT, --output-file

#[test]
fn the_output_format_from_the_environment_and_the_flag_over_it() {
    let (_tmp, root) = scratch();
    let r = output(
        bin(&root)
            .env("BENCHLINT_OUTPUT_FORMAT", "json")
            .args(["check", "results"]),
    );
    assert_eq!(r.code, 1);
    let v: Value = serde_json::from_str(&r.stdout).expect("JSON from the environment");
    assert!(v["diagnostics"].is_array());
    let r = output(
        bin(&root)
            .env("BENCHLINT_OUTPUT_FORMAT", "json")
            .args(["check", "--format", "concise", "results"]),
    );
    assert!(
        r.stdout.lines().last().unwrap().starts_with("Found "),
        "{}",
        r.stdout
    );
    let r = output(
        bin(&root)
            .env("BENCHLINT_OUTPUT_FORMAT", "xml")
            .args(["check", "results"]),
    );
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("xml"), "{}", r.stderr);
}

#[test]
fn output_file_as_ruff_spells_it_and_the_old_spellings() {
    let (tmp, root) = scratch();
    for (i, flag) in ["--output-file", "--output", "-o"].iter().enumerate() {
        let out = tmp.path().join(format!("out{i}.txt"));
        let r = run(
            &root,
            &[
                "check",
                "--format",
                "concise",
                flag,
                out.to_str().unwrap(),
                "results",
            ],
        );
        assert_eq!((r.code, r.stdout.as_str()), (1, ""), "{flag}");
        let text = std::fs::read_to_string(&out).unwrap();
        assert!(
            text.lines().last().unwrap().starts_with("Found "),
            "{flag}: {text}"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Standard input

#[test]
fn standard_input_is_read_as_a_file_under_its_given_name() {
    let (_tmp, root) = scratch();
    let text = std::fs::read(root.join("results/a/run.json")).unwrap();
    let stdin = |args: &[&str]| {
        let mut child = bin(&root)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        child.stdin.take().unwrap().write_all(&text).unwrap();
        let out = child.wait_with_output().unwrap();
        Run {
            code: out.status.code().unwrap(),
            stdout: String::from_utf8(out.stdout).unwrap(),
            stderr: String::from_utf8(out.stderr).unwrap(),
        }
    };
    let from_file = run(
        &root,
        &[
            "check",
            "--isolated",
            "--format",
            "concise",
            "results/a/run.json",
        ],
    );
    let named = stdin(&[
        "check",
        "--isolated",
        "--format",
        "concise",
        "--stdin-filename",
        "results/a/run.json",
        "-",
    ]);
    assert_eq!(named.code, from_file.code, "{}", named.stderr);
    assert_eq!(named.stdout, from_file.stdout);
    let bare = stdin(&["check", "--isolated", "--format", "concise", "-"]);
    assert_eq!(bare.code, 1, "{}", bare.stderr);
    assert!(
        bare.stdout.lines().next().unwrap().starts_with("-:"),
        "{}",
        bare.stdout
    );
    // Config globs match the given name.
    std::fs::write(
        root.join("benchlint.toml"),
        "[per-file-ignores]\n\"results/a/*\" = [\"M\"]\n",
    )
    .unwrap();
    let r = stdin(&[
        "check",
        "--config",
        "benchlint.toml",
        "--format",
        "concise",
        "--stdin-filename",
        "results/a/run.json",
        "-",
    ]);
    assert!(!r.stdout.contains(" M0"), "{}", r.stdout);
    // Past the size limit: E001, as a file would be.
    let r = stdin(&[
        "check",
        "--isolated",
        "--max-file-size",
        "100",
        "--format",
        "concise",
        "-",
    ]);
    assert!(r.stdout.contains("E001"), "{}", r.stdout);
}

// ---------------------------------------------------------------------------------------------
// Man pages

#[test]
fn a_man_page_for_every_command_the_main_page_names() {
    let tmp = tempfile::tempdir().unwrap();
    let main = run(tmp.path(), &["manpage"]);
    assert_eq!(main.code, 0);
    let named: Vec<String> = main
        .stdout
        .lines()
        .filter_map(|l| l.strip_prefix("benchlint\\-"))
        .filter_map(|l| l.strip_suffix("(1)"))
        .map(|c| format!("benchlint-{c}.1"))
        .collect();
    assert!(named.len() >= 12, "{named:?}");
    let dir = tmp.path().join("man");
    let r = run(tmp.path(), &["manpage", "--dir", dir.to_str().unwrap()]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    for page in &named {
        let text = std::fs::read_to_string(dir.join(page)).unwrap_or_else(|_| panic!("{page}"));
        assert!(
            text.contains(&format!(".TH {}", page.trim_end_matches(".1"))),
            "{page}"
        );
    }
    assert!(dir.join("benchlint.1").is_file());
    let check = run(tmp.path(), &["manpage", "check"]);
    assert_eq!(check.code, 0);
    assert!(
        check.stdout.contains(".TH benchlint\\-check")
            || check.stdout.contains(".TH benchlint-check")
    );
    assert!(
        check.stdout.contains("stdin\\-filename"),
        "the options are on the page"
    );
    let r = run(tmp.path(), &["manpage", "nosuch"]);
    assert_eq!(r.code, 2);
}

// ---------------------------------------------------------------------------------------------
// The progress line

/// Runs `check` on `corpus` under a terminal (`script`), report to a file; what the terminal got.
fn under_a_terminal(corpus: &Path, ci: bool) -> Option<String> {
    if Command::new("script").arg("--version").output().is_err() {
        eprintln!(
            "SKIP: `script` (util-linux) is not installed; no terminal to try the progress line on"
        );
        return None;
    }
    let tmp = tempfile::tempdir().unwrap();
    let log = tmp.path().join("terminal.log");
    let report = tmp.path().join("report.json");
    let command = format!(
        "{} check --format json {} > {}",
        env!("CARGO_BIN_EXE_benchlint"),
        corpus.display(),
        report.display()
    );
    let mut c = Command::new("script");
    c.args(["-qc", &command, log.to_str().unwrap()])
        .env_remove("CI");
    if ci {
        c.env("CI", "true");
    }
    let _ = c.output().unwrap();
    Some(std::fs::read_to_string(&log).unwrap_or_default())
}

#[test]
fn the_progress_line_is_for_a_terminal_and_never_for_a_pipe_or_ci() {
    let Some(corpus) = crate::support::realworld::real("") else {
        eprintln!("SKIP: ../shared/realworld is absent; no run long enough for the progress line");
        return;
    };
    // A pipe: never, however long the run.
    let r = output(
        bin(Path::new("."))
            .env_remove("CI")
            .args(["check", "--format", "json"])
            .arg(&corpus),
    );
    assert!(!r.stderr.contains("checking,"), "{}", r.stderr);
    let Some(terminal) = under_a_terminal(&corpus, false) else {
        return;
    };
    // The dev build takes more than a second on the corpus: the line is drawn, then erased.
    if let Some(last) = terminal.rfind("benchlint: checking,") {
        assert!(
            terminal[last..].contains("\r\x1b[2K"),
            "erased at the end: {terminal:?}"
        );
    } else {
        eprintln!("SKIP: the run took less than a second; the line is not drawn");
    }
    let ci = under_a_terminal(&corpus, true).unwrap();
    assert!(!ci.contains("benchlint: checking,"), "{ci}");
}
