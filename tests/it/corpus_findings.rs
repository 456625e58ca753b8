//! Findings about the corpus as a whole (S008, S009): placed on the corpus, never on a file of
//! it, with no line, column or snippet, in every output format; how the corpus is named for
//! one path, a lone file and several paths; and `[per-file-ignores]` reaching them.

use std::path::Path;
use std::process::Command;

use serde_json::Value;

/// A bundled corpus of nine successful results, all with 41-token prompts: S008 and S009.
const ENERGY: &str = "testdata/corpora/energy";

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

fn run_in(dir: Option<&Path>, args: &[&str]) -> Run {
    let mut c = Command::new(env!("CARGO_BIN_EXE_benchlint"));
    c.env("NO_COLOR", "1")
        .env_remove("GITHUB_ACTIONS")
        .env_remove("CLICOLOR_FORCE")
        .env_remove("CLICOLOR")
        .args(args);
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

/// `check ENERGY --isolated --select S008,S009 --format FORMAT`.
fn energy(format: &str) -> String {
    let r = run_in(
        None,
        &[
            "check",
            ENERGY,
            "--isolated",
            "--select",
            "S008,S009",
            "--format",
            format,
        ],
    );
    assert_eq!(
        r.code, 0,
        "a warning and an info fail nothing: {}",
        r.stderr
    );
    r.stdout
}

fn snapshot(name: &str, text: &str) {
    insta::with_settings!({ snapshot_path => "snapshots/corpus_findings", prepend_module_to_snapshot => false }, {
        insta::assert_snapshot!(name, text);
    });
}

#[test]
fn human_heads_the_corpus_and_draws_no_snippet() {
    let out = energy("human");
    // The headline first, then the corpus's own findings before any file's.
    assert!(
        out.starts_with("Checked 19 files (9 results): 0 errors, 1 warning and 1 info.\n"),
        "{out}"
    );
    let details = out.split_once("\n\n").map_or("", |(_, rest)| rest);
    assert!(
        details.starts_with("the corpus testdata/corpora/energy/:\nS008(decode-only-suite)"),
        "{out}"
    );
    assert!(!out.contains("╭─["), "no snippet: {out}");
    assert!(
        out.contains(
            "The corpus as a whole (testdata/corpora/energy/): 0 errors, 1 warning and 1 info (S008, S009)."
        ),
        "{out}"
    );
    snapshot("human", &out);
}

#[test]
fn grouped_lists_the_corpus_not_a_file() {
    let out = energy("grouped");
    assert!(
        out.starts_with("the corpus testdata/corpora/energy/:\n  S008 warning: "),
        "{out}"
    );
    snapshot("grouped", &out);
}

#[test]
fn concise_has_no_line_or_column() {
    let out = energy("concise");
    let lines: Vec<&str> = out.lines().collect();
    assert!(
        lines[0].starts_with("testdata/corpora/energy/: S008 warning: no result in the corpus"),
        "{out}"
    );
    assert!(
        lines[1].starts_with("testdata/corpora/energy/: S009 info: all 9 results"),
        "{out}"
    );
    snapshot("concise", &out);
}

#[test]
fn json_and_json_lines_mark_the_corpus() {
    let v: Value = serde_json::from_str(&energy("json")).unwrap();
    let ds = v["diagnostics"].as_array().unwrap();
    assert_eq!(ds.len(), 2);
    for d in ds {
        assert_eq!(d["corpus"], true);
        assert_eq!(d["path"], "testdata/corpora/energy/");
        assert_eq!(d["pointer"], "");
        assert!(d["line"].is_null() && d["column"].is_null());
    }
    snapshot(
        "json",
        &serde_json::to_string_pretty(&v["diagnostics"]).unwrap(),
    );
    let lines = energy("json-lines");
    let parsed: Vec<Value> = lines
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(&parsed, ds);
    snapshot("json-lines", &lines);
    // A finding on a file carries no `corpus` key.
    let all: Value = serde_json::from_str(
        &run_in(None, &["check", ENERGY, "--isolated", "--format", "json"]).stdout,
    )
    .unwrap();
    assert!(
        all["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|d| d["corpus"] != true)
            .all(|d| d.get("corpus").is_none() && d["line"].is_u64())
    );
}

#[test]
fn github_annotation_names_no_file() {
    let out = energy("github");
    for line in out.lines() {
        assert!(!line.contains("file="), "{line}");
        assert!(
            line.contains("::the corpus testdata/corpora/energy/: "),
            "{line}"
        );
    }
    assert!(
        out.starts_with("::warning title=benchlint (S008)::"),
        "{out}"
    );
    assert!(out.contains("::notice title=benchlint (S009)::"), "{out}");
    snapshot("github", &out);
}

#[test]
fn junit_has_a_test_case_for_the_corpus() {
    let out = energy("junit");
    assert!(
        out.contains("<testcase name=\"S008 corpus\" classname=\"testdata/corpora/energy/\">"),
        "{out}"
    );
    assert!(!out.contains("line="), "{out}");
    snapshot("junit", &out);
}

#[test]
fn sarif_places_the_corpus_on_one_of_its_files_and_validates() {
    let mut v: Value = serde_json::from_str(&energy("sarif")).unwrap();
    let results = v["runs"][0]["results"].as_array().unwrap();
    assert_eq!(results.len(), 2);
    for r in results {
        // GitHub needs a file and a line: a file of the corpus, line 1, named the corpus.
        let loc = &r["locations"][0];
        let uri = loc["physicalLocation"]["artifactLocation"]["uri"]
            .as_str()
            .unwrap();
        assert!(
            uri.starts_with("testdata/corpora/energy/")
                && Path::new(uri).extension().is_some_and(|e| e == "json"),
            "{uri}"
        );
        assert_eq!(loc["physicalLocation"]["region"]["startLine"], 1);
        assert_eq!(loc["logicalLocations"][0]["kind"], "module");
        assert_eq!(r["properties"]["corpus"], true);
    }
    let schema_path = Path::new("../shared/thirdparty/sarif-schema-2.1.0.json");
    if schema_path.is_file() {
        let schema: Value =
            serde_json::from_str(&std::fs::read_to_string(schema_path).unwrap()).unwrap();
        let validator = jsonschema::options().build(&schema).unwrap();
        let errors: Vec<String> = validator.iter_errors(&v).map(|e| e.to_string()).collect();
        assert!(errors.is_empty(), "{errors:#?}");
    } else {
        println!(
            "skipped the schema check: {} is absent",
            schema_path.display()
        );
    }
    // The rules' documentation and the version belong to their owners.
    for rule in v["runs"][0]["tool"]["driver"]["rules"]
        .as_array_mut()
        .unwrap()
    {
        rule["fullDescription"] = Value::from("[documentation]");
        rule["help"] = Value::from("[documentation]");
    }
    v["runs"][0]["tool"]["driver"]["version"] = Value::from("[version]");
    v["runs"][0]["tool"]["driver"]["semanticVersion"] = Value::from("[version]");
    snapshot("sarif", &serde_json::to_string_pretty(&v).unwrap());
}

/// The concise lines of S008 and S009 for `paths`.
fn corpus_lines(paths: &[&str]) -> Vec<String> {
    let mut args = vec![
        "check",
        "--isolated",
        "--select",
        "S008,S009",
        "--format",
        "concise",
    ];
    args.extend_from_slice(paths);
    let r = run_in(None, &args);
    r.stdout
        .lines()
        .filter(|l| l.contains(" S008 ") || l.contains(" S009 "))
        .map(|l| l.split(": ").next().unwrap().to_string())
        .collect()
}

#[test]
fn the_corpus_is_the_path_checked_or_the_folder_the_paths_share() {
    let r1 = "testdata/corpora/energy/gb10-x2/gb10-x2-qwen38-fp8-prose-r1.json";
    let h1 = "testdata/corpora/energy/h200-x2/h200-x2-qwen38-fp8-prose-r1.json";
    // A lone file is its own corpus: named as the file, still with no line.
    assert_eq!(corpus_lines(&[r1]), vec![r1.to_string(), r1.to_string()]);
    // Several paths: the folder they share, ending in `/`.
    let shared = "testdata/corpora/energy/".to_string();
    assert_eq!(
        corpus_lines(&[r1, h1]),
        vec![shared.clone(), shared.clone()]
    );
    assert_eq!(
        corpus_lines(&[
            "testdata/corpora/energy/gb10-x2",
            "testdata/corpora/energy/h200-x2/"
        ]),
        vec![shared.clone(), shared]
    );
    // A folder given with a trailing slash is named once with it.
    assert_eq!(
        corpus_lines(&["testdata/corpora/energy/"]),
        vec!["testdata/corpora/energy/".to_string(); 2]
    );
    // A lone file's human output heads the corpus apart from the file's own findings.
    let human = run_in(None, &["check", "--isolated", r1]).stdout;
    assert!(
        human.starts_with(&format!("the corpus {r1}:\nS008")),
        "{human}"
    );
    assert_eq!(human.matches(&format!("the corpus {r1}:")).count(), 1);
    assert!(human.contains(&format!("╭─[{r1}:")), "{human}");
}

#[test]
fn per_file_ignores_reach_the_corpus_by_its_own_path_or_every_file_of_it() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = dir.path().join("r");
    for name in [
        "gb10-x2-qwen38-fp8-prose-r1.json",
        "gb10-x2-qwen38-fp8-prose-r2.json",
    ] {
        std::fs::create_dir_all(&corpus).unwrap();
        std::fs::copy(
            Path::new(ENERGY).join("gb10-x2").join(name),
            corpus.join(name),
        )
        .unwrap();
    }
    let codes = |config: &str, cwd: &Path, arg: &str| {
        std::fs::write(cwd.join("benchlint.toml"), config).unwrap();
        let r = run_in(Some(cwd), &["check", arg, "--format", "concise"]);
        std::fs::remove_file(cwd.join("benchlint.toml")).unwrap();
        let found: Vec<&str> = ["S008", "S009"]
            .into_iter()
            .filter(|c| r.stdout.contains(&format!(": {c} ")))
            .collect();
        (
            found.join(","),
            r.stderr.contains("matches no file checked"),
        )
    };
    let both = ("S008,S009".to_string(), false);
    assert_eq!(codes("", dir.path(), "r"), both);
    // The corpus's own path, relative to the config's folder.
    for glob in ["\"r\"", "\"r/\"", "\"r/**\"", "\"**\""] {
        let config = format!("[per-file-ignores]\n{glob} = [\"S008\"]\n");
        assert_eq!(
            codes(&config, dir.path(), "r"),
            ("S009".to_string(), false),
            "{glob}"
        );
    }
    // A glob for some files only does not cover the corpus.
    assert_eq!(
        codes(
            "[per-file-ignores]\n\"r/*-r1.json\" = [\"S008\"]\n",
            dir.path(),
            "r"
        ),
        both
    );
    // The config's own folder, checked as `.`, is `.`.
    assert_eq!(
        codes("[per-file-ignores]\n\".\" = [\"S009\"]\n", &corpus, "."),
        ("S008".to_string(), false)
    );
    // `--ignore` and `--select` act on the rule as on any other.
    let r = run_in(
        Some(dir.path()),
        &[
            "check",
            "r",
            "--isolated",
            "--ignore",
            "S008",
            "--format",
            "concise",
        ],
    );
    assert!(
        !r.stdout.contains(" S008 ") && r.stdout.contains(" S009 "),
        "{}",
        r.stdout
    );
}

#[test]
fn a_hostile_corpus_name_is_escaped_in_every_format() {
    let dir = tempfile::tempdir().unwrap();
    let name = "r\u{1b}[2J\nx";
    let corpus = dir.path().join(name);
    std::fs::create_dir_all(&corpus).unwrap();
    for file in [
        "gb10-x2-qwen38-fp8-prose-r1.json",
        "gb10-x2-qwen38-fp8-prose-r2.json",
    ] {
        std::fs::copy(
            Path::new(ENERGY).join("gb10-x2").join(file),
            corpus.join(file),
        )
        .unwrap();
    }
    for format in [
        "human", "grouped", "concise", "github", "junit", "json", "sarif",
    ] {
        let r = run_in(
            Some(dir.path()),
            &[
                "check",
                name,
                "--isolated",
                "--select",
                "S008,S009",
                "--format",
                format,
            ],
        );
        assert!(!r.stdout.contains('\u{1b}'), "{format}: {}", r.stdout);
        assert!(!r.stdout.contains("[2J\nx"), "{format}: {}", r.stdout);
    }
    let concise = run_in(
        Some(dir.path()),
        &[
            "check",
            name,
            "--isolated",
            "--select",
            "S008,S009",
            "--format",
            "concise",
        ],
    )
    .stdout;
    // One line per finding and the summary: the line break in the name is written out.
    assert_eq!(concise.lines().count(), 3, "{concise}");
}
