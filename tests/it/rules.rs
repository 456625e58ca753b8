//! Per-rule fixtures: every folder `testdata/rules/<CODE>-<name>/` has `fail/` cases that must
//! produce the rule's finding (snapshotted as a user sees it) and `pass/` cases that must not.
//! A case is one file, or one folder checked as a small corpus (group rules, sidecars).

use std::path::{Path, PathBuf};

use benchlint::corpus::Options;
use benchlint::engine;
use benchlint::report;
use benchlint::rules::RULES;

fn cases(dir: &Path) -> Vec<PathBuf> {
    let Ok(read) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut out: Vec<PathBuf> = read
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.is_dir() || p.extension().is_some_and(|e| e == "json" || e == "jsonl"))
        .filter(|p| !p.to_string_lossy().ends_with(".meta.json"))
        .collect();
    out.sort();
    out
}

/// The concise rendering of one rule's findings on one case.
fn findings_of(code: &str, case: &Path) -> (usize, String) {
    let checked = engine::check(&[case.to_path_buf()], &Options::default());
    let mine: Vec<_> = checked
        .findings
        .into_iter()
        .filter(|f| f.rule.code == code)
        .collect();
    let n = mine.len();
    let prepared = report::prepare(mine, checked.summary, 1 << 28, false);
    let text = String::from_utf8(report::concise(&prepared)).unwrap();
    // The last line counts every finding of the case; the snapshot keeps this rule's lines.
    let lines: Vec<&str> = text
        .lines()
        .filter(|l| l.contains(&format!(": {code} ")))
        .collect();
    (n, lines.join("\n"))
}

#[test]
fn every_rule_has_fixtures_that_fail_and_pass() {
    let root = Path::new("testdata/rules");
    let mut missing = Vec::new();
    for rule in RULES {
        let dir = root.join(format!("{}-{}", rule.meta.code, rule.meta.name));
        if cases(&dir.join("fail")).is_empty() || cases(&dir.join("pass")).is_empty() {
            missing.push(dir.display().to_string());
        }
    }
    assert!(
        missing.is_empty(),
        "rules without pass/fail fixtures:\n{}",
        missing.join("\n")
    );
}

#[test]
fn fail_cases_produce_the_rule_and_pass_cases_do_not() {
    let root = Path::new("testdata/rules");
    let mut problems = Vec::new();
    for rule in RULES {
        let code = rule.meta.code;
        let dir = root.join(format!("{code}-{}", rule.meta.name));
        for case in cases(&dir.join("fail")) {
            let (n, text) = findings_of(code, &case);
            if n == 0 {
                problems.push(format!("{}: expected {code}, got none", case.display()));
                continue;
            }
            let name = format!("{code}__{}", case.file_stem().unwrap().to_string_lossy());
            insta::with_settings!({ snapshot_path => "snapshots/rules", prepend_module_to_snapshot => false }, {
                insta::assert_snapshot!(name, text);
            });
        }
        for case in cases(&dir.join("pass")) {
            let (n, text) = findings_of(code, &case);
            if n > 0 {
                problems.push(format!(
                    "{}: expected no {code}, got:\n{text}",
                    case.display()
                ));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Each case under `testdata/clean/` (a file, or a folder checked as one corpus) is clean for
/// every rule, the corpus rules included: a replicated corpus (enough runs over several
/// launches, code and prose, a prefill-heavy shape, a losing run) is what clean means for them.
#[test]
fn clean_fixtures_produce_no_finding_from_any_rule() {
    for case in cases(Path::new("testdata/clean")) {
        let checked = engine::check(std::slice::from_ref(&case), &Options::default());
        let shown: Vec<String> = checked
            .findings
            .iter()
            .map(|f| format!("{} {} {}", f.rule.code, f.primary.pointer.raw(), f.message))
            .collect();
        assert!(
            shown.is_empty(),
            "{} should be clean:\n{}",
            case.display(),
            shown.join("\n")
        );
        assert!(
            checked.summary.results >= 1,
            "{} loaded no result",
            case.display()
        );
    }
}
