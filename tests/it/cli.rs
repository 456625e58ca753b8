//! `benchlint check` in CI and in a person's hands: exit codes, output formats, selection,
//! severities, per-file ignores, the config file and its diagnostics, sidecars by glob, the
//! baseline, and SARIF against the SARIF 2.1.0 schema.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

const FORMATS: &str = "testdata/cli/formats";
/// The fixture's config, named on the command line: a config found inside the checked paths
/// cannot lower the input errors' severity (`config::trust`), and this one makes E005 a note.
const FORMATS_CONFIG: &str = "testdata/cli/formats/benchlint.toml";
const SELECT: &str = "testdata/cli/select";

fn bin() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_benchlint"));
    c.env("NO_COLOR", "1")
        .env_remove("GITHUB_ACTIONS")
        .env_remove("CLICOLOR_FORCE")
        .env_remove("CLICOLOR");
    c
}

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

fn run_in(dir: Option<&Path>, args: &[&str]) -> Run {
    let mut c = bin();
    c.args(args);
    if let Some(d) = dir {
        c.current_dir(d);
    }
    let out = c.output().unwrap();
    Run {
        code: out.status.code().unwrap(),
        stdout: String::from_utf8(out.stdout).unwrap(),
        stderr: String::from_utf8(out.stderr).unwrap(),
    }
}

fn run(args: &[&str]) -> Run {
    run_in(None, args)
}

/// The codes of `check --format json` with `args`.
fn codes_in(dir: Option<&Path>, args: &[&str]) -> BTreeSet<String> {
    let mut all = vec!["check", "--format", "json"];
    all.extend_from_slice(args);
    let r = run_in(dir, &all);
    assert_ne!(r.code, 2, "{}", r.stderr);
    let v: Value = serde_json::from_str(&r.stdout).expect("JSON");
    v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["code"].as_str().unwrap().to_string())
        .collect()
}

fn codes(args: &[&str]) -> BTreeSet<String> {
    codes_in(None, args)
}

fn set(items: &[&str]) -> BTreeSet<String> {
    items.iter().map(ToString::to_string).collect()
}

fn snapshot(name: &str, text: &str) {
    insta::with_settings!({ snapshot_path => "snapshots/cli", prepend_module_to_snapshot => false }, {
        insta::assert_snapshot!(name, text);
    });
}

fn write(dir: &Path, rel: &str, text: &str) -> PathBuf {
    let p = dir.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).unwrap();
    std::fs::write(&p, text).unwrap();
    p
}

fn fixture(name: &str) -> String {
    std::fs::read_to_string(Path::new(FORMATS).join(name)).unwrap()
}

// ---------------------------------------------------------------------------------------------
// Exit codes

#[test]
fn exit_codes() {
    // 0: nothing at error level.
    assert_eq!(
        run(&[
            "check",
            "testdata/cli/select/minimal.json",
            "--isolated",
            "--select",
            "E"
        ])
        .code,
        0
    );
    // 1: errors.
    assert_eq!(run(&["check", FORMATS, "--config", FORMATS_CONFIG]).code, 1);
    // Warnings alone do not fail, unless --fail-on warning.
    let unknown = "testdata/cli/formats/unknown.json";
    assert_eq!(run(&["check", unknown, "--config", FORMATS_CONFIG]).code, 0);
    assert_eq!(
        run(&[
            "check",
            unknown,
            "--config",
            FORMATS_CONFIG,
            "--fail-on",
            "warning"
        ])
        .code,
        1
    );
    assert_eq!(
        run(&[
            "check",
            unknown,
            "--config",
            FORMATS_CONFIG,
            "--fail-on",
            "error"
        ])
        .code,
        0
    );
    let odd = "testdata/cli/formats/100% odd, name.json";
    assert_eq!(
        run(&["check", odd, "--config", FORMATS_CONFIG, "--select", "E005"]).code,
        0,
        "E005 is an info in the fixture's config"
    );
    assert_eq!(
        run(&[
            "check",
            odd,
            "--config",
            FORMATS_CONFIG,
            "--select",
            "E005",
            "--fail-on",
            "warning"
        ])
        .code,
        0
    );
    assert_eq!(
        run(&[
            "check",
            odd,
            "--config",
            FORMATS_CONFIG,
            "--select",
            "E005",
            "--fail-on",
            "info"
        ])
        .code,
        1
    );
    // --exit-zero turns 1 into 0 ...
    assert_eq!(
        run(&["check", FORMATS, "--config", FORMATS_CONFIG, "--exit-zero"]).code,
        0
    );
    // ... but never 2.
    assert_eq!(
        run(&[
            "check",
            FORMATS,
            "--config",
            FORMATS_CONFIG,
            "--exit-zero",
            "--select",
            "Q123"
        ])
        .code,
        2
    );
    assert_eq!(
        run(&[
            "check",
            FORMATS,
            "--config",
            FORMATS_CONFIG,
            "--exit-zero",
            "--format",
            "yaml"
        ])
        .code,
        2
    );
    assert_eq!(
        run(&[
            "check",
            FORMATS,
            "--config",
            FORMATS_CONFIG,
            "--exit-zero",
            "--fail-on",
            "fatal"
        ])
        .code,
        2
    );
    assert_eq!(
        run(&[
            "check",
            FORMATS,
            "--exit-zero",
            "--config",
            "testdata/cli/no-such.toml"
        ])
        .code,
        2
    );
    assert_eq!(
        run(&[
            "check",
            FORMATS,
            "--config",
            FORMATS_CONFIG,
            "--statistics",
            "--format",
            "sarif"
        ])
        .code,
        2
    );
    assert_eq!(
        run(&[
            "check",
            FORMATS,
            "--config",
            FORMATS_CONFIG,
            "--update-baseline"
        ])
        .code,
        2,
        "--update-baseline needs --baseline"
    );
    assert_eq!(run(&["rule", "Z999"]).code, 2);
    assert_eq!(run(&["--help"]).code, 0);
    let r = run(&[
        "check",
        FORMATS,
        "--config",
        FORMATS_CONFIG,
        "--ignore",
        "m005",
    ]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("did you mean `M005`"), "{}", r.stderr);
}

#[test]
fn bad_config_is_exit_2_pointing_at_line_and_column() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "r/broken.json", &fixture("broken.json"));
    let cases = [
        (
            "select = [\"E\"]\n\n[thresholds]\nmin_window = 3\n",
            "benchlint.toml:4:1",
            "min_window",
        ),
        (
            "select = [\"E\"]\nignore = [\"E002\", \"X123\"]\n",
            "benchlint.toml:2:19",
            "X123",
        ),
        (
            "[thresholds]\nmin_window_s = \"long\"\n",
            "benchlint.toml:2:16",
            "invalid type",
        ),
        (
            "[severity]\n\"E0\" = \"fatal\"\n",
            "benchlint.toml:2:8",
            "fatal",
        ),
        (
            "[per-file-ignores]\n\"a/[b\" = [\"E\"]\n",
            "benchlint.toml:2:1",
            "invalid glob",
        ),
        (
            "[[sidecar]]\nfiles = \"r/**\"\n",
            "benchlint.toml:1:1",
            "needs `values`",
        ),
        (
            "[[sidecar]]\nfiles = \"r/**\"\nvalues = { outcome = 3 }\n",
            "benchlint.toml:3:10",
            "result schema",
        ),
        (
            "[[sidecar]]\nfiles = \"r/**\"\npath = \"nope.json\"\n",
            "benchlint.toml:3:8",
            "could not be read",
        ),
    ];
    for (text, place, words) in cases {
        write(dir.path(), "benchlint.toml", text);
        for extra in [&[][..], &["--exit-zero"][..]] {
            let mut args = vec!["check", "r"];
            args.extend_from_slice(extra);
            let r = run_in(Some(dir.path()), &args);
            assert_eq!(r.code, 2, "{text}: {}", r.stderr);
            assert!(
                r.stderr.contains(place),
                "{text}: expected {place} in\n{}",
                r.stderr
            );
            assert!(
                r.stderr.contains(words),
                "{text}: expected {words} in\n{}",
                r.stderr
            );
            assert!(r.stdout.is_empty());
        }
        // --isolated ignores the config file.
        assert_eq!(
            run_in(Some(dir.path()), &["check", "r", "--isolated"]).code,
            1
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Output formats (snapshots of the fixture folder, whose benchlint.toml selects E only)

#[test]
fn sarif_snapshot() {
    let r = run(&[
        "check",
        FORMATS,
        "--config",
        FORMATS_CONFIG,
        "--format",
        "sarif",
    ]);
    assert_eq!(r.code, 1);
    let mut v: Value = serde_json::from_str(&r.stdout).unwrap();
    // The rules' documentation belongs to their owners; its presence is checked, not its text.
    for rule in v["runs"][0]["tool"]["driver"]["rules"]
        .as_array_mut()
        .unwrap()
    {
        for key in ["fullDescription", "help"] {
            for part in ["text", "markdown"] {
                if let Some(t) = rule[key].get_mut(part) {
                    assert!(t.as_str().is_some_and(|s| !s.trim().is_empty()));
                    *t = Value::from("[documentation]");
                }
            }
        }
    }
    v["runs"][0]["tool"]["driver"]["version"] = Value::from("[version]");
    v["runs"][0]["tool"]["driver"]["semanticVersion"] = Value::from("[version]");
    snapshot("sarif", &serde_json::to_string_pretty(&v).unwrap());
}

#[test]
fn github_snapshot() {
    let r = run(&[
        "check",
        FORMATS,
        "--config",
        FORMATS_CONFIG,
        "--format",
        "github",
    ]);
    assert_eq!(r.code, 1);
    assert!(
        r.stdout
            .contains("file=testdata/cli/formats/100%25 odd%2C name.json,"),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains("::notice "), "info is a notice");
    snapshot("github", &r.stdout);
}

#[test]
fn junit_snapshot() {
    let r = run(&[
        "check",
        FORMATS,
        "--config",
        FORMATS_CONFIG,
        "--format",
        "junit",
    ]);
    assert_eq!(r.code, 1);
    snapshot("junit", &r.stdout);
    let clean = run(&[
        "check",
        "testdata/cli/select/minimal.json",
        "--isolated",
        "--select",
        "E",
        "--format",
        "junit",
    ]);
    assert!(clean.stdout.contains("failures=\"0\""), "{}", clean.stdout);
}

#[test]
fn json_lines_snapshot() {
    let r = run(&[
        "check",
        FORMATS,
        "--config",
        FORMATS_CONFIG,
        "--format",
        "json-lines",
    ]);
    assert_eq!(r.code, 1);
    snapshot("json-lines", &r.stdout);
    // The same objects as the json format's diagnostics.
    let doc: Value = serde_json::from_str(
        &run(&[
            "check",
            FORMATS,
            "--config",
            FORMATS_CONFIG,
            "--format",
            "json",
        ])
        .stdout,
    )
    .unwrap();
    let lines: Vec<Value> = r
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(&lines, doc["diagnostics"].as_array().unwrap());
    for d in &lines {
        // The page's path in benchlint's own tree: a page that exists, never a made-up URL.
        let url = d["url"].as_str().unwrap();
        let page = format!(
            "rules/{}-{}.md",
            d["code"].as_str().unwrap(),
            d["name"].as_str().unwrap()
        );
        assert_eq!(url, page);
        assert!(std::path::Path::new(&page).is_file(), "{page}");
    }
}

#[test]
fn statistics() {
    let r = run(&["check", FORMATS, "--config", FORMATS_CONFIG, "--statistics"]);
    assert_eq!(r.code, 1);
    snapshot("statistics", &r.stdout);
    let j = run(&[
        "check",
        FORMATS,
        "--config",
        FORMATS_CONFIG,
        "--statistics",
        "--format",
        "json",
    ]);
    let v: Value = serde_json::from_str(&j.stdout).unwrap();
    assert_eq!(v[0]["code"], "E004");
    assert_eq!(v[0]["count"], 2);
}

#[test]
fn color_and_output_file() {
    let always = run(&[
        "check",
        FORMATS,
        "--config",
        FORMATS_CONFIG,
        "--color",
        "always",
    ]);
    assert!(
        always.stdout.contains("\u{1b}["),
        "--color always colours even through a pipe"
    );
    let auto = run(&["check", FORMATS, "--config", FORMATS_CONFIG]);
    assert!(!auto.stdout.contains("\u{1b}["));
    let json = run(&[
        "check",
        FORMATS,
        "--config",
        FORMATS_CONFIG,
        "--color",
        "always",
        "--format",
        "json",
    ]);
    assert!(
        !json.stdout.contains("\u{1b}["),
        "only the human format is coloured"
    );
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("report.sarif");
    let r = run(&[
        "check",
        FORMATS,
        "--format",
        "sarif",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(r.code, 1);
    assert!(r.stdout.is_empty());
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(v["version"], "2.1.0");
}

#[test]
fn completions_and_manpage() {
    for shell in ["bash", "zsh", "fish"] {
        let r = run(&["completions", shell]);
        assert_eq!(r.code, 0, "{shell}");
        assert!(r.stdout.contains("benchlint"));
        assert!(r.stdout.contains("extend-select"));
        // Every command is offered, `sidecar` and its options among them.
        assert!(r.stdout.contains("sidecar"), "{shell}");
        assert!(r.stdout.contains("write-beside"), "{shell}");
    }
    let man = run(&["manpage"]);
    assert_eq!(man.code, 0);
    assert!(man.stdout.contains(".TH benchlint"));
    assert!(man.stdout.contains("sidecar"), "{}", man.stdout);
}

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

// ---------------------------------------------------------------------------------------------
// Sidecars by glob

const RUN: &str = r#"{
  "schema": "benchlint/result/v1",
  "id": "run-1",
  "measured_at": "2026-09-23T14:05:12Z",
  "outcome": "ok",
  "platform": { "host": "spark-01" },
  "levels": [ { "concurrency": 8, "requests": 96, "failed": 0, "duration_s": 120.0, "output_tokens": 24576,
                "throughput_tok_s": { "aggregate": 204.8 }, "per_user_tok_s": { "median": 25.9 } } ]
}
"#;

fn findings_at(dir: &Path, args: &[&str]) -> Vec<(String, String, String)> {
    let mut all = vec!["check", "--format", "json"];
    all.extend_from_slice(args);
    let r = run_in(Some(dir), &all);
    assert_ne!(r.code, 2, "{}", r.stderr);
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            let s = |k: &str| d[k].as_str().unwrap().to_string();
            (s("code"), s("pointer"), s("message"))
        })
        .collect()
}

#[test]
fn sidecars_by_glob() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "old/gb10/run.json", RUN);
    let base = findings_at(dir.path(), &["old", "--select", "M001,M019"]);
    assert!(
        base.iter().any(|f| f.1 == "/platform/description"),
        "{base:?}"
    );
    // Inline values fill what the file does not record, and contradict what it does (M019).
    write(
        dir.path(),
        "benchlint.toml",
        "[[sidecar]]\nfiles = \"old/gb10/**\"\nvalues = { platform = { description = \"GB10 desk box\", host = \"spark-02\" } }\n",
    );
    let got = findings_at(dir.path(), &["old", "--select", "M001,M019"]);
    assert!(
        !got.iter().any(|f| f.1 == "/platform/description"),
        "{got:?}"
    );
    let conflict = got.iter().find(|f| f.0 == "M019").expect("a conflict");
    assert!(
        conflict.2.contains("benchlint.toml#sidecar-1"),
        "{conflict:?}"
    );
    // A sidecar file by path; the `<file>.meta.json` beside the file is merged first.
    write(
        dir.path(),
        "sidecars/gb10.json",
        r#"{"platform": {"description": "from the glob sidecar"}}"#,
    );
    write(
        dir.path(),
        "old/gb10/run.meta.json",
        r#"{"platform": {"description": "from the meta file"}}"#,
    );
    write(
        dir.path(),
        "benchlint.toml",
        "[[sidecar]]\nfiles = \"old/gb10/*.json\"\npath = \"sidecars/gb10.json\"\n",
    );
    let got = findings_at(dir.path(), &["old", "--select", "M001,M019"]);
    let conflict = got
        .iter()
        .find(|f| f.0 == "M019")
        .expect("the two sidecars disagree");
    assert!(
        conflict.2.contains("sidecars/gb10.json")
            && conflict
                .2
                .contains("the sidecar `old/gb10/run.meta.json` says"),
        "{conflict:?}"
    );
    // A glob that matches nothing is a warning.
    write(
        dir.path(),
        "benchlint.toml",
        "[[sidecar]]\nfiles = \"new/**\"\nvalues = { platform = { nodes = 1 } }\n",
    );
    let r = run_in(Some(dir.path()), &["check", "old", "--select", "M001"]);
    assert!(
        r.stderr
            .contains("files = \"new/**\" matches no file checked"),
        "{}",
        r.stderr
    );
}

#[test]
fn thresholds_from_the_config() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "r/run.json", RUN);
    let r009 = |dir: &Path| {
        findings_at(dir, &["r", "--select", "R009"])
            .iter()
            .map(|f| f.2.clone())
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert!(r009(dir.path()).contains("120 s"), "{}", r009(dir.path()));
    write(
        dir.path(),
        "benchlint.toml",
        "[thresholds]\nmin_window_s = 150\n",
    );
    assert!(r009(dir.path()).contains("150 s"), "{}", r009(dir.path()));
}

// ---------------------------------------------------------------------------------------------
// Baseline

#[test]
fn baseline_workflow() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(d, "results/broken.json", &fixture("broken.json"));
    write(d, "results/wrong-type.json", &fixture("wrong-type.json"));
    write(d, "benchlint.toml", "select = [\"E\"]\n");
    let check = |extra: &[&str]| {
        let mut args = vec!["check", "results", "--baseline", "baseline.json"];
        args.extend_from_slice(extra);
        run_in(Some(d), &args)
    };
    // No baseline yet: a clear error, exit 2.
    let r = check(&[]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("--update-baseline"), "{}", r.stderr);
    // Record the current findings.
    let r = check(&["--update-baseline"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let written: Value =
        serde_json::from_str(&std::fs::read_to_string(d.join("baseline.json")).unwrap()).unwrap();
    assert_eq!(
        written,
        serde_json::json!({"version": 2, "tool": "benchlint", "findings": {
            "results/broken.json": {"E002": [""]},
            "results/wrong-type.json": {"E003": ["/levels/0/concurrency"]},
        }})
    );
    // The same findings now pass, and the summary says how many were suppressed.
    let r = check(&[]);
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(
        r.stdout.contains("2 suppressed by the baseline"),
        "{}",
        r.stdout
    );
    // From another folder, with the same baseline: entries are relative to the baseline.
    let r = run_in(
        Some(&d.join("results")),
        &["check", ".", "--baseline", "../baseline.json"],
    );
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    // A new bad file fails, alone.
    write(d, "results/new.json", &fixture("broken.json"));
    let r = check(&["--format", "json"]);
    assert_eq!(r.code, 1);
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    let paths: Vec<&str> = v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x["path"].as_str().unwrap())
        .collect();
    assert_eq!(paths, vec!["results/new.json"]);
    assert_eq!(v["summary"]["suppressed"], 2);
    std::fs::remove_file(d.join("results/new.json")).unwrap();
    // A baselined problem fixed: its entry is stale and fails the run, so the baseline shrinks.
    write(
        d,
        "results/wrong-type.json",
        &fixture("wrong-type.json").replace("\"32\"", "32"),
    );
    let r = check(&[]);
    assert_eq!(r.code, 1, "{}{}", r.stdout, r.stderr);
    assert!(r.stderr.contains("1 stale entry"), "{}", r.stderr);
    assert!(
        r.stderr
            .contains("results/wrong-type.json: E003 at /levels/0/concurrency"),
        "{}",
        r.stderr
    );
    assert_eq!(check(&["--exit-zero"]).code, 0);
    assert_eq!(check(&["--allow-stale-baseline"]).code, 0);
    // Checking another file only: entries of files not checked are not stale.
    let r = run_in(
        Some(d),
        &[
            "check",
            "results/broken.json",
            "--baseline",
            "baseline.json",
        ],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    // Nor are entries of rules that did not run.
    assert_eq!(check(&["--ignore", "E003"]).code, 0);
    // Pruning.
    assert_eq!(check(&["--update-baseline"]).code, 0);
    let written: Value =
        serde_json::from_str(&std::fs::read_to_string(d.join("baseline.json")).unwrap()).unwrap();
    assert_eq!(
        written["findings"],
        serde_json::json!({"results/broken.json": {"E002": [""]}})
    );
    assert_eq!(check(&[]).code, 0);
    // Another version, or not a baseline at all: exit 2 with a clear message.
    std::fs::write(
        d.join("baseline.json"),
        r#"{"version": 3, "tool": "benchlint", "findings": {}}"#,
    )
    .unwrap();
    let r = check(&[]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("version 3"), "{}", r.stderr);
    assert_eq!(check(&["--exit-zero"]).code, 2);
    std::fs::write(d.join("baseline.json"), "not json").unwrap();
    assert_eq!(check(&[]).code, 2);
    assert_eq!(
        check(&["--update-baseline"]).code,
        2,
        "an unreadable baseline is never overwritten"
    );
}

#[test]
fn a_baseline_inside_the_corpus_is_not_checked() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(d, "results/broken.json", &fixture("broken.json"));
    let r = run_in(
        Some(d),
        &[
            "check",
            "results",
            "--isolated",
            "--select",
            "E",
            "--baseline",
            "results/baseline.json",
            "--update-baseline",
        ],
    );
    assert_eq!(r.code, 0, "{}", r.stderr);
    let r = run_in(
        Some(d),
        &[
            "check",
            "results",
            "--isolated",
            "--select",
            "E",
            "--baseline",
            "results/baseline.json",
        ],
    );
    assert_eq!(r.code, 0, "{}{}", r.stdout, r.stderr);
    assert!(!r.stdout.contains("E004"), "{}", r.stdout);
}

// ---------------------------------------------------------------------------------------------
// SARIF against the SARIF 2.1.0 schema

#[test]
fn sarif_validates_against_the_sarif_schema() {
    let schema_path = Path::new("../shared/thirdparty/sarif-schema-2.1.0.json");
    if !schema_path.is_file() {
        println!("skipped: {} is absent", schema_path.display());
        return;
    }
    let schema: Value =
        serde_json::from_str(&std::fs::read_to_string(schema_path).unwrap()).unwrap();
    let validator = jsonschema::options()
        .build(&schema)
        .expect("the SARIF schema compiles");
    let no_tool = serde_json::json!({"version": "2.1.0", "runs": [{"results": []}]});
    assert!(!validator.is_valid(&no_tool), "the validator bites");
    let corpus = if Path::new("testdata/corpora/demo").is_dir() {
        "testdata/corpora/demo"
    } else {
        FORMATS
    };
    for args in [
        vec!["check", corpus, "--isolated", "--format", "sarif"],
        vec!["check", FORMATS, "--format", "sarif"],
    ] {
        let r = run(&args);
        assert_ne!(r.code, 2, "{}", r.stderr);
        let sarif: Value = serde_json::from_str(&r.stdout).unwrap();
        let errors: Vec<String> = validator
            .iter_errors(&sarif)
            .map(|e| format!("{} at {}", e, e.instance_path()))
            .collect();
        assert!(errors.is_empty(), "{args:?}: {errors:#?}");
        let run = &sarif["runs"][0];
        let rules: Vec<&str> = run["tool"]["driver"]["rules"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["id"].as_str().unwrap())
            .collect();
        let results = run["results"].as_array().unwrap();
        assert!(!results.is_empty(), "{args:?}");
        for res in results {
            let id = res["ruleId"].as_str().unwrap();
            let index = usize::try_from(res["ruleIndex"].as_u64().unwrap()).unwrap();
            assert_eq!(rules.get(index), Some(&id), "ruleIndex of {id}");
            let loc = &res["locations"][0]["physicalLocation"];
            let uri = loc["artifactLocation"]["uri"].as_str().unwrap();
            assert!(
                !uri.starts_with('/') && !uri.contains('\\') && !uri.starts_with("./"),
                "{uri}"
            );
            assert_eq!(loc["artifactLocation"]["uriBaseId"], "%SRCROOT%");
        }
        for r in run["tool"]["driver"]["rules"].as_array().unwrap() {
            for key in ["shortDescription", "fullDescription", "help"] {
                let text = r[key]["text"].as_str().unwrap();
                assert!(
                    !text.is_empty() && (key == "help" || text.chars().count() <= 1024),
                    "{key} of {}",
                    r["id"]
                );
            }
            // No web page exists to point at: the help text says how to print the page.
            assert!(r.get("helpUri").is_none());
            let help = r["help"]["text"].as_str().unwrap();
            assert!(
                help.contains(&format!("benchlint rule {}", r["id"].as_str().unwrap())),
                "{help}"
            );
        }
    }
}

#[test]
fn terminal_escapes_quoted_from_a_file_are_written_out_not_sent() {
    let dir = tempfile::tempdir().unwrap();
    // An unknown schema name is quoted in E003's message; this one would clear the screen.
    let file = write(
        dir.path(),
        "evil.json",
        "{\"schema\": \"benchlint/\\u001b[2Jresult/v9\", \"id\": \"x\"}\n",
    );
    let path = file.to_str().unwrap();
    for format in ["human", "concise", "github", "junit"] {
        let r = run(&["check", "--format", format, path]);
        assert_eq!(r.code, 1, "{format}: {}", r.stderr);
        assert!(!r.stdout.contains('\u{1b}'), "{format} passed an escape on");
        assert!(r.stdout.contains("\\u{1b}[2J"), "{format}: {}", r.stdout);
    }
    // A raw escape byte (not JSON, so E002) is not passed on by the snippet either.
    let broken = write(dir.path(), "broken.json", "{\"schema\": \"a\u{1b}[2Jb\"}\n");
    let r = run(&["check", broken.to_str().unwrap()]);
    assert!(r.stdout.contains("E002"), "{}", r.stdout);
    assert!(
        !r.stdout.contains('\u{1b}'),
        "the snippet passed an escape on"
    );
    assert!(r.stdout.contains("a?[2Jb"), "{}", r.stdout);
}
