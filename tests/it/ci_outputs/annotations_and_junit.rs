//! GitHub annotations worst first with a step summary, GitLab Code Quality against GitLab's
//! schema, and JUnit: unique (classname, name) pairs, failures as `--fail-on` sets them.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::time::Duration;

use serde_json::Value;

use super::{DEMO, ENERGY, REALWORLD, check_in};
use crate::support::watchdog::{bin, run};

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
