//! What CI services require of the outputs, checked as those services check them: SARIF that
//! GitHub code scanning accepts (a file URI and a line for every result, no `../`, distinct
//! fingerprints, equal whichever folder benchlint ran in and however the paths were spelled,
//! at most 25,000 results; the SARIF 2.1.0 schema and Microsoft's SARIF multitool), GitHub
//! annotations worst first with a step summary, GitLab Code Quality against a schema written
//! from GitLab's documentation, JUnit with unique (classname, name) pairs, and file names that
//! no output turns into another file's name.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::{Value, json};

use crate::support::watchdog::{Run, bin, run};

const DEMO: &str = "testdata/corpora/demo";
const ENERGY: &str = "testdata/corpora/energy";
const SARIF_SCHEMA: &str = "../shared/thirdparty/sarif-schema-2.1.0.json";
const REALWORLD: &str = "../shared/realworld";

fn check_in(dir: &Path, args: &[&str]) -> Run {
    let mut c = bin();
    c.current_dir(dir)
        .env_remove("GITHUB_STEP_SUMMARY")
        .arg("check")
        .args(args);
    let r = run(c, Duration::from_secs(300));
    assert!(matches!(r.code, Some(0 | 1)), "{args:?}: {}", r.err());
    r
}

fn abs(p: &str) -> PathBuf {
    std::fs::canonicalize(p).unwrap()
}

/// The results of a SARIF log, after checking what GitHub requires of each: a non-empty file
/// URI (not a folder), relative and without `../`, a region with `startLine`, and a
/// fingerprint no other result has.
fn github_accepts(sarif: &str) -> Vec<Value> {
    let log: Value = serde_json::from_str(sarif).unwrap();
    let results = log["runs"][0]["results"].as_array().unwrap().clone();
    assert!(results.len() <= 25_000);
    let mut fingerprints = BTreeSet::new();
    for r in &results {
        let physical = &r["locations"][0]["physicalLocation"];
        let uri = physical["artifactLocation"]["uri"].as_str().unwrap();
        assert!(
            !uri.is_empty()
                && !uri.ends_with('/')
                && !uri.starts_with("../")
                && !uri.contains("/../"),
            "a file URI GitHub takes: {uri:?}"
        );
        assert!(
            !uri.starts_with("file:"),
            "relative to the project root: {uri}"
        );
        assert!(
            physical["region"]["startLine"]
                .as_u64()
                .is_some_and(|l| l >= 1),
            "{r}"
        );
        let fp = r["partialFingerprints"]["benchlint/v2"]
            .as_str()
            .unwrap()
            .to_string();
        assert!(!fp.contains('@'), "no byte offset in a fingerprint: {fp}");
        assert!(fingerprints.insert(fp.clone()), "two results share {fp}");
    }
    results
}

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

/// The SARIF logs the validators see: the demo corpus, the corpus findings, the real corpus.
fn logs_to_validate(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for (name, args) in [
        ("demo.sarif", vec![DEMO, "--isolated"]),
        ("energy.sarif", vec![ENERGY, "--isolated"]),
        ("realworld.sarif", vec![REALWORLD, "--isolated"]),
    ] {
        if !Path::new(args[0]).exists() {
            println!("not validated: {} is absent", args[0]);
            continue;
        }
        let mut a = args.clone();
        a.extend(["--format", "sarif", "--project-root", "."]);
        let r = check_in(Path::new("."), &a);
        let path = dir.join(name);
        std::fs::write(&path, r.out()).unwrap();
        out.push(path);
    }
    out
}

#[test]
fn the_logs_validate_against_the_sarif_schema() {
    let Ok(text) = std::fs::read_to_string(SARIF_SCHEMA) else {
        println!("skipped the schema check: {SARIF_SCHEMA} is absent");
        return;
    };
    let schema: Value = serde_json::from_str(&text).unwrap();
    let validator = jsonschema::options().build(&schema).unwrap();
    let tmp = tempfile::tempdir().unwrap();
    for log in logs_to_validate(tmp.path()) {
        let v: Value = serde_json::from_str(&std::fs::read_to_string(&log).unwrap()).unwrap();
        let errors: Vec<String> = validator.iter_errors(&v).map(|e| e.to_string()).collect();
        assert!(errors.is_empty(), "{}: {errors:#?}", log.display());
    }
}

/// Microsoft's SARIF multitool as `.ci/run` installs it (`.ci/sarif`, `npm ci`).
fn multitool() -> Option<PathBuf> {
    let bin = Path::new(".ci/sarif/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool");
    bin.is_file().then(|| bin.to_path_buf())
}

#[test]
fn the_sarif_multitool_finds_no_error() {
    let Some(tool) = multitool() else {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI is set but the SARIF multitool is not installed (.ci/run runs `npm ci` in .ci/sarif)"
        );
        println!("skipped: the SARIF multitool is not installed (`npm ci` in .ci/sarif)");
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    for log in logs_to_validate(tmp.path()) {
        let report = tmp.path().join("validation.sarif");
        let _ = std::fs::remove_file(&report);
        let mut c = std::process::Command::new(&tool);
        c.arg("validate")
            .args(["--rule-kind", "Sarif;Gh", "--output"])
            .arg(&report)
            .arg(&log)
            // The tool's .NET runtime needs no ICU for this.
            .env("DOTNET_SYSTEM_GLOBALIZATION_INVARIANT", "1");
        let r = run(c, Duration::from_secs(600));
        assert_eq!(r.code, Some(0), "{}\n{}", r.out(), r.err());
        let v: Value = serde_json::from_str(&std::fs::read_to_string(&report).unwrap()).unwrap();
        let found: Vec<String> = v["runs"][0]["results"]
            .as_array()
            .map(|a| {
                a.iter()
                    .filter(|x| {
                        x["level"] == "error"
                            || x["ruleId"] == "SARIF2017"
                            || x["ruleId"].as_str().is_some_and(|id| id.starts_with("GH"))
                    })
                    .map(|x| format!("{} {}", x["ruleId"], x["message"]))
                    .collect()
            })
            .unwrap_or_default();
        assert!(found.is_empty(), "{}: {found:#?}", log.display());
    }
}

/// A JSON Lines file of `n` minimal canonical results, each missing most of the checklist.
fn results_file(path: &Path, n: usize) {
    let mut text = String::new();
    for i in 0..n {
        let doc = json!({
            "schema": "benchlint/result/v1", "id": format!("r{i}"), "measured_at": "2026-09-01T00:00:00Z",
            "outcome": "ok",
            "levels": [{"concurrency": 1, "throughput_tok_s": {"aggregate": 10.0}}],
        });
        text.push_str(&doc.to_string());
        text.push('\n');
    }
    std::fs::write(path, text).unwrap();
}

#[test]
fn a_log_past_25000_results_keeps_the_errors_and_says_what_it_left_out() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    for k in 0..30 {
        results_file(&dir.join(format!("r{k:02}.jsonl")), 100);
    }
    std::fs::write(
        dir.join("uncapped.toml"),
        "[thresholds]\nmax_findings_per_file = 100000000\nmax_findings = 100000000\n",
    )
    .unwrap();
    let json = check_in(dir, &[".", "--config", "uncapped.toml", "--format", "json"]);
    let all: Value = serde_json::from_str(&json.out()).unwrap();
    let summary = &all["summary"];
    let total = all["diagnostics"].as_array().unwrap().len();
    assert!(total > 25_000, "the corpus makes {total} findings");
    let r = check_in(
        dir,
        &[".", "--config", "uncapped.toml", "--format", "sarif"],
    );
    let results = github_accepts(&r.out());
    assert_eq!(results.len(), 25_000);
    let last = results.last().unwrap();
    assert_eq!(last["ruleId"], "benchlint/cut");
    let left_out = total - 24_999;
    let text = last["message"]["text"].as_str().unwrap();
    assert!(
        text.starts_with(&format!("{left_out} findings were left out")),
        "{text}"
    );
    // Errors are kept first, then warnings.
    let count = |level: &str| {
        results
            .iter()
            .filter(|r| r["level"] == level && r["ruleId"] != "benchlint/cut")
            .count()
    };
    let errors = usize::try_from(summary["errors"].as_u64().unwrap()).unwrap();
    let warnings = usize::try_from(summary["warnings"].as_u64().unwrap()).unwrap();
    assert_eq!(count("error"), errors.min(24_999));
    assert_eq!(count("warning"), warnings.min(24_999 - count("error")));
    assert!(
        r.err()
            .contains(&format!("{left_out} findings were left out")),
        "said on stderr: {}",
        r.err()
    );
    // The step summary of the same corpus stays under 1 MiB and says what it does not list.
    let summary = dir.join("summary.md");
    let mut c = bin();
    c.current_dir(dir)
        .env("GITHUB_STEP_SUMMARY", &summary)
        .args([
            "check",
            ".",
            "--config",
            "uncapped.toml",
            "--format",
            "github",
        ]);
    let r = run(c, Duration::from_secs(300));
    assert_eq!(r.out().lines().count(), total);
    let text = std::fs::read_to_string(&summary).unwrap();
    assert!(text.len() < 1_048_576, "{} bytes", text.len());
    assert!(
        text.contains(&format!(" of {total} findings are not listed")),
        "{}",
        &text[text.len() - 300..]
    );
}

/// The severity of each `--format github` command, in order.
fn annotation_levels(out: &str) -> Vec<u8> {
    out.lines()
        .map(|l| {
            if l.starts_with("::error ") {
                0
            } else if l.starts_with("::warning ") {
                1
            } else {
                assert!(l.starts_with("::notice "), "{l}");
                2
            }
        })
        .collect()
}

#[test]
fn annotations_come_worst_first_and_the_step_summary_lists_every_finding() {
    let tmp = tempfile::tempdir().unwrap();
    let summary = tmp.path().join("summary.md");
    std::fs::write(&summary, "earlier step\n").unwrap();
    for corpus in [DEMO, ENERGY, REALWORLD] {
        if !Path::new(corpus).exists() {
            println!("skipped {corpus}: absent");
            continue;
        }
        let mut c = bin();
        c.env("GITHUB_STEP_SUMMARY", &summary).args([
            "check",
            corpus,
            "--isolated",
            "--format",
            "github",
        ]);
        let r = run(c, Duration::from_secs(300));
        let levels = annotation_levels(&r.out());
        assert!(
            levels.windows(2).all(|w| w[0] <= w[1]),
            "{corpus}: worst first"
        );
        let json = check_in(Path::new("."), &[corpus, "--isolated", "--format", "json"]);
        let v: Value = serde_json::from_str(&json.out()).unwrap();
        assert_eq!(levels.len(), v["diagnostics"].as_array().unwrap().len());
    }
    let text = std::fs::read_to_string(&summary).unwrap();
    // Appended, not overwritten: a step summary holds every step's.
    assert!(text.starts_with("earlier step\n## benchlint"));
    assert!(text.contains("GitHub shows at most 10 annotations of each severity per step"));
    assert!(text.len() < 3 * 1024 * 1024);
    // Each summary under 1 MiB.
    for part in text.split("## benchlint").skip(1) {
        assert!(part.len() < 1_048_576);
    }
    // The energy corpus's own summary names the corpus.
    assert!(text.contains("the corpus testdata/corpora/energy/"));
}

#[test]
fn a_corpus_annotation_takes_its_place_by_severity() {
    let r = check_in(
        Path::new("."),
        &[ENERGY, "--isolated", "--format", "github"],
    );
    let out = r.out();
    let lines: Vec<&str> = out.lines().collect();
    let corpus_at = lines
        .iter()
        .position(|l| {
            l.contains("::the corpus testdata/corpora/energy/: ") && l.starts_with("::warning ")
        })
        .expect("S008's warning");
    let first_notice = lines
        .iter()
        .position(|l| l.starts_with("::notice "))
        .unwrap_or(lines.len());
    assert!(corpus_at < first_notice, "{lines:#?}");
}

#[test]
fn gitlab_code_quality_follows_gitlabs_schema_with_distinct_fingerprints() {
    let schema: Value = serde_json::from_str(
        &std::fs::read_to_string("testdata/ci/gitlab-codequality.schema.json").unwrap(),
    )
    .unwrap();
    let validator = jsonschema::options().build(&schema).unwrap();
    for corpus in [DEMO, ENERGY, REALWORLD] {
        if !Path::new(corpus).exists() {
            println!("skipped {corpus}: absent");
            continue;
        }
        // Each corpus as the root of its own project.
        let r = check_in(
            Path::new("."),
            &[
                corpus,
                "--isolated",
                "--format",
                "gitlab",
                "--project-root",
                corpus,
            ],
        );
        let v: Value = serde_json::from_str(&r.out()).unwrap();
        let errors: Vec<String> = validator.iter_errors(&v).map(|e| e.to_string()).collect();
        assert!(errors.is_empty(), "{corpus}: {errors:#?}");
        let issues = v.as_array().unwrap();
        assert!(!issues.is_empty());
        let distinct: BTreeSet<&str> = issues
            .iter()
            .map(|i| i["fingerprint"].as_str().unwrap())
            .collect();
        assert_eq!(distinct.len(), issues.len(), "{corpus}");
        for i in issues {
            let path = i["location"]["path"].as_str().unwrap();
            assert!(
                Path::new(corpus).join(path).is_file(),
                "{corpus}: {path} is a file of the project"
            );
        }
    }
}

#[test]
fn junit_cases_have_their_own_classname_and_name_and_only_errors_fail() {
    for corpus in [DEMO, ENERGY, REALWORLD] {
        if !Path::new(corpus).exists() {
            println!("skipped {corpus}: absent");
            continue;
        }
        let r = check_in(Path::new("."), &[corpus, "--isolated", "--format", "junit"]);
        let xml = r.out();
        let mut pairs: BTreeMap<(String, String), usize> = BTreeMap::new();
        let mut cases = 0;
        for line in xml
            .lines()
            .filter(|l| l.trim_start().starts_with("<testcase "))
        {
            let attr = |name: &str| {
                let at = line.find(&format!(" {name}=\"")).unwrap() + name.len() + 3;
                line[at..at + line[at..].find('"').unwrap()].to_string()
            };
            *pairs.entry((attr("classname"), attr("name"))).or_default() += 1;
            cases += 1;
        }
        assert_eq!(pairs.len(), cases, "{corpus}: every (classname, name) once");
        let json = check_in(Path::new("."), &[corpus, "--isolated", "--format", "json"]);
        let v: Value = serde_json::from_str(&json.out()).unwrap();
        let d = v["diagnostics"].as_array().unwrap();
        assert_eq!(cases, d.len());
        let failing = d
            .iter()
            .filter(|x| x["severity"] == "error" && x["pre_rule"] == false)
            .count();
        assert_eq!(xml.matches("<failure ").count(), failing, "{corpus}");
        assert!(xml.contains(&format!("failures=\"{failing}\"")));
    }
}

#[test]
fn a_file_name_is_escaped_never_made_into_another() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let bad = r#"{"schema": "benchlint/result/v1", "id": "x", "outcome": "ok", "levels": []}"#;
    // `a\b.json` beside a clean `a/b.json`: the annotation must not land on the clean one.
    std::fs::create_dir(dir.join("a")).unwrap();
    std::fs::write(dir.join("a").join("b.json"), "{}").unwrap();
    // The three names of the report, and names drawn (fixed seed) from the characters a
    // workflow command or a URI treats specially.
    let mut names: Vec<String> = ["a\\b.json", "t\tab.json", "x::y.json"]
        .map(String::from)
        .to_vec();
    let alphabet: Vec<char> = "ab\\\t:,%# ;=&?".chars().collect();
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    for _ in 0..12 {
        let mut name = String::new();
        for _ in 0..6 {
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            let k = usize::try_from(seed >> 33).unwrap() % alphabet.len();
            name.push(alphabet[k]);
        }
        name.push_str(".json");
        names.push(name);
    }
    names.sort();
    names.dedup();
    for name in &names {
        std::fs::write(dir.join(name), bad).unwrap();
    }
    let r = check_in(
        dir,
        &[
            ".",
            "--isolated",
            "--format",
            "github",
            "--project-root",
            ".",
        ],
    );
    let unescape = |s: &str| {
        s.replace("%3A", ":")
            .replace("%2C", ",")
            .replace("%0D", "\r")
            .replace("%0A", "\n")
            .replace("%25", "%")
    };
    let mut named = BTreeSet::new();
    for line in r.out().lines() {
        let Some(at) = line.find(" file=") else {
            continue;
        };
        let rest = &line[at + 6..];
        let file = unescape(&rest[..rest.find(',').unwrap_or(rest.len())]);
        assert!(dir.join(&file).is_file(), "file={file:?} names no file");
        named.insert(file);
    }
    for name in &names {
        assert!(named.contains(name), "{name:?} annotated: {named:?}");
    }
    let r = check_in(
        dir,
        &[
            ".",
            "--isolated",
            "--format",
            "sarif",
            "--project-root",
            ".",
        ],
    );
    let log: Value = serde_json::from_str(&r.out()).unwrap();
    let decode = |s: &str| {
        let bytes = s.as_bytes();
        let mut out = Vec::new();
        let mut i = 0;
        while i < bytes.len() {
            if bytes[i] == b'%' {
                out.push(u8::from_str_radix(&s[i + 1..i + 3], 16).unwrap());
                i += 3;
            } else {
                out.push(bytes[i]);
                i += 1;
            }
        }
        String::from_utf8(out).unwrap()
    };
    let mut uris = BTreeSet::new();
    for res in log["runs"][0]["results"].as_array().unwrap() {
        let uri = res["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
            .as_str()
            .unwrap();
        let file = decode(uri);
        assert!(dir.join(&file).is_file(), "{uri} names no file");
        uris.insert(file);
    }
    for name in &names {
        assert!(uris.contains(name), "{name:?} in SARIF: {uris:?}");
    }
}

#[test]
fn a_missing_field_is_named_by_its_own_pointer_everywhere() {
    // A copy, so that the baseline sits beside the corpus it records.
    let tmp = tempfile::tempdir().unwrap();
    let here = tmp.path();
    std::fs::create_dir(here.join("corpus")).unwrap();
    std::fs::copy(
        "testdata/adapters/vllm/bench-serve-save-detailed.json",
        here.join("corpus/r.json"),
    )
    .unwrap();
    let file = "corpus/r.json";
    let r = check_in(here, &[file, "--isolated", "--format", "json"]);
    let v: Value = serde_json::from_str(&r.out()).unwrap();
    let missing: Vec<&Value> = v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["message"].as_str().unwrap().starts_with("not recorded: "))
        .collect();
    assert!(missing.len() > 3);
    for d in &missing {
        let pointer = d["pointer"].as_str().unwrap();
        let message = d["message"].as_str().unwrap();
        assert!(pointer.len() > 1, "{d}");
        assert!(message.contains(&format!("(`{pointer}`)")), "{d}");
    }
    // The baseline records each field, so fixing one while another goes missing is new.
    let baseline = here.join("baseline.json");
    let b = "baseline.json";
    let r = check_in(
        here,
        &[file, "--isolated", "--baseline", b, "--update-baseline"],
    );
    assert_eq!(r.code, Some(0), "{}", r.err());
    let written: Value =
        serde_json::from_str(&std::fs::read_to_string(&baseline).unwrap()).unwrap();
    assert_eq!(written["version"], 2);
    let entries = written["findings"]
        .as_object()
        .unwrap()
        .values()
        .next()
        .unwrap();
    for (code, pointers) in entries.as_object().unwrap() {
        for p in pointers.as_array().unwrap() {
            let p = p.as_str().unwrap();
            let shared = pointers
                .as_array()
                .unwrap()
                .iter()
                .filter(|q| q.as_str() == Some(p))
                .count();
            assert_eq!(shared, 1, "{code} {p}: one entry per field");
        }
    }
    // A version 1 baseline still suppresses what it did, and says how it is read.
    let mut old = written.clone();
    old["version"] = json!(1);
    let file_key = old["findings"]
        .as_object()
        .unwrap()
        .keys()
        .next()
        .unwrap()
        .clone();
    let mut by_code = serde_json::Map::new();
    let json_all = check_in(here, &[file, "--isolated", "--format", "json"]);
    let all: Value = serde_json::from_str(&json_all.out()).unwrap();
    // Version 1 keyed a missing field by the place it is shown on: for a harness's file, "".
    for d in all["diagnostics"].as_array().unwrap() {
        let code = d["code"].as_str().unwrap();
        let shown = if d["message"].as_str().unwrap().starts_with("not recorded: ") {
            String::new()
        } else {
            d["pointer"].as_str().unwrap().to_string()
        };
        by_code
            .entry(code.to_string())
            .or_insert_with(|| json!([]))
            .as_array_mut()
            .unwrap()
            .push(json!(shown));
    }
    old["findings"] = json!({ file_key: by_code });
    let old_path = here.join("old.json");
    std::fs::write(&old_path, old.to_string()).unwrap();
    let r = check_in(
        here,
        &[
            file,
            "--isolated",
            "--baseline",
            old_path.to_str().unwrap(),
            "--format",
            "json",
        ],
    );
    assert!(r.err().contains("version 1 form"), "{}", r.err());
    let after: Value = serde_json::from_str(&r.out()).unwrap();
    let left = after["diagnostics"].as_array().unwrap().len();
    assert!(
        left < all["diagnostics"].as_array().unwrap().len(),
        "{left} left"
    );
    // A version from the future is refused with a clear message and exit 2.
    old["version"] = json!(9);
    std::fs::write(&old_path, old.to_string()).unwrap();
    let mut c = bin();
    c.current_dir(here).args([
        "check",
        file,
        "--isolated",
        "--baseline",
        old_path.to_str().unwrap(),
    ]);
    let r = run(c, Duration::from_secs(120));
    assert_eq!(r.code, Some(2));
    assert!(r.err().contains("has version 9"), "{}", r.err());
}

#[test]
fn junit_fails_what_fail_on_fails_and_a_project_root_must_be_a_folder() {
    let json = check_in(Path::new("."), &[DEMO, "--isolated", "--format", "json"]);
    let v: Value = serde_json::from_str(&json.out()).unwrap();
    let at_least_warning = v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|x| x["severity"] != "info" && x["pre_rule"] == false)
        .count();
    let r = check_in(
        Path::new("."),
        &[
            DEMO,
            "--isolated",
            "--format",
            "junit",
            "--fail-on",
            "warning",
        ],
    );
    assert_eq!(r.out().matches("<failure ").count(), at_least_warning);
    let mut c = bin();
    c.args([
        "check",
        DEMO,
        "--format",
        "sarif",
        "--project-root",
        "no/such/folder",
    ]);
    let r = run(c, Duration::from_secs(60));
    assert_eq!(r.code, Some(2));
    assert!(
        r.err()
            .contains("--project-root `no/such/folder` is not a folder"),
        "{}",
        r.err()
    );
}

/// The diagnostics of `check ARGS --format json`.
fn json_diagnostics(args: &[&str]) -> Vec<Value> {
    let mut all = vec!["--format", "json", "--isolated"];
    all.extend_from_slice(args);
    let r = check_in(Path::new("."), &all);
    let out: Value = serde_json::from_str(&r.out()).unwrap();
    out["diagnostics"].as_array().unwrap().clone()
}

#[test]
fn a_value_a_harness_file_has_no_key_for_is_named_by_its_canonical_pointer() {
    // vLLM writes nothing about warm-up: R005's finding is shown on the object, but named by
    // the value it is about, as a missing field's finding is, not by the object's `""`.
    let vllm = json_diagnostics(&["testdata/adapters/vllm/bench-serve-save-detailed.json"]);
    let r005: Vec<(&str, &Value)> = vllm
        .iter()
        .filter(|d| d["code"] == "R005")
        .map(|d| (d["pointer"].as_str().unwrap(), &d["line"]))
        .collect();
    assert_eq!(r005, [("/workload/warmup_excluded", &json!(1))]);
    // The human output still shows it on the object, at its first line.
    let r = check_in(
        Path::new("."),
        &[
            "testdata/adapters/vllm/bench-serve-save-detailed.json",
            "--isolated",
        ],
    );
    let out = r.out();
    let shown = out
        .split("R005(warmup-included)")
        .nth(1)
        .and_then(|rest| rest.lines().find(|l| l.contains("╭─[")))
        .unwrap_or_else(|| panic!("{out}"));
    assert!(
        shown.ends_with("bench-serve-save-detailed.json:1:1]"),
        "{shown}"
    );

    let Ok(real) = std::fs::canonicalize(REALWORLD) else {
        println!("skipped the real corpus: {REALWORLD} is absent");
        return;
    };
    // Only a finding about a whole document (one that could not be read) or the whole corpus
    // has no pointer of its own.
    let unnamed: Vec<String> = json_diagnostics(&[real.to_str().unwrap()])
        .iter()
        .filter(|d| d["pointer"] == "")
        .filter(|d| d["corpus"] != true && !d["code"].as_str().unwrap().starts_with('E'))
        .map(|d| format!("{} {} {}", d["code"], d["path"], d["message"]))
        .collect();
    assert!(unnamed.is_empty(), "{unnamed:#?}");
}
