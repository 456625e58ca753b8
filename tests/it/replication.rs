//! Replication and statistics across the corpus: the S rules' done-when cases (seed 000's n ≥ 15
//! rule and its adoption date, seed 004's "not yet resolved" pair and its GB300 outlier level)
//! and `benchlint summary` end to end.

use std::path::{Path, PathBuf};
use std::process::Command;

use benchlint::corpus::Options;
use benchlint::diagnostic::{Finding, Severity};
use benchlint::engine;
use benchlint::numbers::fixed as format_fixed;
use serde_json::Value;

const RULES: &str = "testdata/rules";

fn findings(case: &Path, code: &str) -> Vec<Finding> {
    let checked = engine::check(&[case.to_path_buf()], &Options::default());
    checked
        .findings
        .into_iter()
        .filter(|f| f.rule.code == code)
        .collect()
}

fn fixture(rel: &str) -> PathBuf {
    Path::new(RULES).join(rel)
}

/// Copies the JSON files of a fixture case into a fresh folder.
fn copy_case(rel: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for e in std::fs::read_dir(fixture(rel)).unwrap().flatten() {
        std::fs::copy(e.path(), dir.path().join(e.file_name())).unwrap();
    }
    dir
}

fn file_name(path: &str) -> &str {
    path.rsplit('/').next().unwrap()
}

#[test]
fn fifteen_speculative_runs_over_three_launches_get_no_s_finding() {
    let checked = engine::check(
        &[fixture("S001-speculative-few-runs/pass/15-runs-3-launches")],
        &Options::default(),
    );
    let s: Vec<String> = checked
        .findings
        .iter()
        .filter(|f| {
            f.rule.code.starts_with('S') && !matches!(f.rule.code, "S007" | "S008" | "S009")
        })
        .map(|f| format!("{} {}", f.rule.code, f.message))
        .collect();
    // S007 (prose only), S008 and S009 are about the corpus, not about these runs.
    assert!(s.is_empty(), "{s:?}");
    assert_eq!(checked.summary.results, 15);
}

#[test]
fn three_speculative_runs_are_an_s001_error() {
    let found = findings(&fixture("S001-speculative-few-runs/fail/3-runs"), "S001");
    assert_eq!(found.len(), 1);
    let f = &found[0];
    assert_eq!(f.severity, Severity::Error);
    assert!(!f.pre_rule);
    assert!(
        f.message.contains("3 runs") && f.message.contains("at least 15"),
        "{}",
        f.message
    );
    assert_eq!(f.primary.pointer, "/engine/speculative/enabled");
    // The primary location is one file, the other two are related.
    assert_eq!(f.related.len(), 2);
    let mut all: Vec<&str> = f.related.iter().map(|l| file_name(l.path.raw())).collect();
    all.push(file_name(f.primary.path.raw()));
    all.sort_unstable();
    assert_eq!(all, ["l1-r1.json", "l1-r2.json", "l1-r3.json"]);
}

#[test]
fn the_same_runs_measured_before_the_adoption_date_are_labelled_pre_rule() {
    let found = findings(
        &fixture("S001-speculative-few-runs/fail/3-runs-measured-2026-07-12"),
        "S001",
    );
    assert_eq!(found.len(), 1);
    let f = &found[0];
    assert_eq!(f.severity, Severity::Info);
    assert!(f.pre_rule);
    assert!(
        f.message.contains("2026-07-12") && f.message.contains("2026-07-26"),
        "{}",
        f.message
    );
}

#[test]
fn one_run_after_the_adoption_date_makes_the_configuration_post_rule() {
    // Two runs on 12 July and one on 30 July: the configuration was still being measured after
    // the rule, so it is an error, placed on the latest run.
    let dir = copy_case("S001-speculative-few-runs/fail/3-runs-measured-2026-07-12");
    let target = dir.path().join("l1-r3.json");
    let mut doc: Value = serde_json::from_str(&std::fs::read_to_string(&target).unwrap()).unwrap();
    doc["measured_at"] = Value::from("2026-07-30T09:37:00Z");
    std::fs::write(&target, serde_json::to_string_pretty(&doc).unwrap()).unwrap();
    let found = findings(dir.path(), "S001");
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].severity, Severity::Error);
    assert!(!found[0].pre_rule);
    assert_eq!(file_name(found[0].primary.path.raw()), "l1-r3.json");
}

#[test]
fn two_runs_257_8_and_316_7_are_not_yet_resolved() {
    let found = findings(
        &fixture("S006-unresolved-runs/fail/glm-two-runs-22-and-23-september"),
        "S006",
    );
    let at32: Vec<&Finding> = found
        .iter()
        .filter(|f| f.message.contains("32 streams"))
        .collect();
    assert_eq!(at32.len(), 1, "{found:?}");
    let f = at32[0];
    assert_eq!(f.severity, Severity::Warning);
    assert!(f.message.contains("not yet resolved"), "{}", f.message);
    assert!(
        f.message.contains("257.8") && f.message.contains("316.7"),
        "{}",
        f.message
    );
    assert!(f.message.contains("23%"), "{}", f.message);
    assert_eq!(f.primary.pointer, "/levels/2/throughput_tok_s/aggregate");
    assert_eq!(f.related.len(), 1);
    assert_eq!(file_name(f.related[0].path.raw()), "2026-09-23.json");
    assert_eq!(f.related[0].pointer, "/levels/2/throughput_tok_s/aggregate");
    // 247.4 against 148.8 at 16 streams is unresolved too; 33.1 against 33.3 at one stream is
    // within the 2% noise floor.
    assert!(
        found
            .iter()
            .any(|f| f.message.contains("16 streams") && f.message.contains("66%"))
    );
    assert!(
        !found.iter().any(|f| f.message.contains("1 stream,")),
        "{found:?}"
    );
    assert_eq!(found.len(), 2);
}

#[test]
fn the_gb300_outlier_level_gets_s005_and_its_stable_neighbour_does_not() {
    let found = findings(&fixture("S005-high-variation/fail/gb300-8-streams"), "S005");
    assert_eq!(found.len(), 1, "{found:?}");
    let f = &found[0];
    assert_eq!(f.severity, Severity::Warning);
    assert!(f.message.contains("at 8 streams"), "{}", f.message);
    assert!(f.message.contains("740.4, 1,080 tok/s"), "{}", f.message);
    assert!(f.message.contains("CV 26.4%"), "{}", f.message);
    assert!(!f.message.contains("3,553.3"), "{}", f.message);
    assert_eq!(file_name(f.primary.path.raw()), "r1.json");
    assert_eq!(f.primary.pointer, "/levels/0/throughput_tok_s/aggregate");
    assert_eq!(f.related.len(), 1);
    assert_eq!(file_name(f.related[0].path.raw()), "r2.json");
}

#[test]
fn losing_runs_are_results_but_never_replicates() {
    let found = findings(
        &fixture("S002-few-runs/fail/4-runs-and-a-failed-one"),
        "S002",
    );
    assert_eq!(found.len(), 1);
    assert!(
        found[0].message.contains("4 runs over 2 launches"),
        "{}",
        found[0].message
    );
    assert_eq!(found[0].related.len(), 3);
    // ...and the failed run keeps the corpus from looking curated.
    assert!(
        findings(
            &fixture("S002-few-runs/fail/4-runs-and-a-failed-one"),
            "S009"
        )
        .is_empty()
    );
}

#[test]
fn missing_launch_ids_count_as_one_launch_and_the_message_says_so() {
    let found = findings(&fixture("S003-single-launch/fail/no-launch-ids"), "S003");
    assert_eq!(found.len(), 1);
    assert!(
        found[0].message.contains("records a launch id"),
        "{}",
        found[0].message
    );
    assert!(
        found[0].message.contains("counted as one engine launch"),
        "{}",
        found[0].message
    );
}

#[test]
fn speculative_shortfall_is_reported_once() {
    // Three speculative runs: S001, not also S002.
    let case = fixture("S001-speculative-few-runs/fail/3-runs");
    assert_eq!(findings(&case, "S001").len(), 1);
    assert!(findings(&case, "S002").is_empty());
}

// ------------------------------------------------------------------------------------------------
// benchlint summary

fn summary(args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_benchlint"))
        .env("NO_COLOR", "1")
        .arg("summary")
        .args(args)
        .output()
        .unwrap();
    (
        out.status.code().unwrap(),
        String::from_utf8(out.stdout).unwrap(),
    )
}

const GB300: &str = "testdata/rules/S005-high-variation/fail/gb300-8-streams";
const FIFTEEN: &str = "testdata/rules/S001-speculative-few-runs/pass/15-runs-3-launches";

/// The data rows of every table: the cells between the `│` borders.
fn table_rows(text: &str) -> Vec<Vec<String>> {
    text.lines()
        .filter(|l| l.starts_with('│'))
        .map(|l| {
            l.trim_matches('│')
                .split('┆')
                .map(|c| c.trim().to_string())
                .collect::<Vec<_>>()
        })
        .filter(|cells| cells[0] != "streams")
        .collect()
}

#[test]
fn summary_table_shows_each_configuration_and_level() {
    let (code, text) = summary(&[GB300, FIFTEEN]);
    assert_eq!(code, 0);
    assert!(!text.contains("NaN"), "{text}");
    // Sorted by label: the one GB300 before the GB10 pair.
    let gb10 = text.find("2 × NVIDIA GB10").unwrap();
    let gb300 = text.find("1 × NVIDIA GB300").unwrap();
    assert!(gb300 < gb10);
    assert!(text.contains("15 runs over 3 launches"), "{text}");
    let rows = table_rows(&text);
    assert_eq!(rows.len(), 6 + 2);
    let eight = rows
        .iter()
        .find(|r| r[0] == "8" && r[4] == "910.2")
        .expect("the GB300 row at 8 streams");
    assert_eq!(eight[5], "740.4");
    assert_eq!(eight[6], "1,080.1");
    assert_eq!(eight[7], "26.4% !");
    assert_eq!(eight[9], "across 2 launches");
    let thirty_two = rows.iter().find(|r| r[0] == "32").unwrap();
    assert_eq!(thirty_two[7], "0.0%");
    assert!(rows.iter().filter(|r| r[9] == "across 3 launches").count() == 6);
    // Deterministic: the same corpus gives the same bytes.
    assert_eq!(summary(&[GB300, FIFTEEN]).1, text);
}

#[test]
fn summary_json_numbers_equal_the_table() {
    let (_, table) = summary(&[GB300, FIFTEEN]);
    let (code, json) = summary(&["--format", "json", GB300, FIFTEEN]);
    assert_eq!(code, 0);
    let v: Value = serde_json::from_str(&json).unwrap();
    let configs = v["configurations"].as_array().unwrap();
    assert_eq!(configs.len(), 2);
    let rows = table_rows(&table);
    let mut k = 0;
    for c in configs {
        assert!(table.contains(c["label"].as_str().unwrap()));
        assert!(table.contains(&format!(
            "fingerprint {}",
            c["fingerprint"].as_str().unwrap()
        )));
        for level in c["levels"].as_array().unwrap() {
            let row = &rows[k];
            k += 1;
            let tok = |key: &str| format_fixed(level[key].as_f64().unwrap(), 1);
            assert_eq!(row[0], level["concurrency"].to_string());
            assert_eq!(row[1], level["figure"].as_str().unwrap());
            assert_eq!(row[2], level["n"].to_string());
            assert_eq!(row[3], level["launches"].to_string());
            assert_eq!(row[4], tok("median"));
            assert_eq!(row[5], tok("min"));
            assert_eq!(row[6], tok("max"));
            let cv = format!("{:.1}%", level["cv"].as_f64().unwrap() * 100.0);
            let marked = if level["high_cv"].as_bool().unwrap() {
                format!("{cv} !")
            } else {
                cv
            };
            assert_eq!(row[7], marked);
            let ci = &level["ci95"];
            // An interval reaching below zero is shown from 0 and marked; the JSON keeps it.
            let low = ci["low"].as_f64().unwrap();
            assert_eq!(
                row[8],
                format!(
                    "[{}, {}]{}",
                    format_fixed(low.max(0.0), 1),
                    format_fixed(ci["high"].as_f64().unwrap(), 1),
                    if low < 0.0 { " clipped" } else { "" }
                )
            );
            assert_eq!(row[9], ci["basis"].as_str().unwrap());
            assert_eq!(
                row[10],
                format_fixed(level["per_user_median_tok_s"].as_f64().unwrap(), 1)
            );
            assert_eq!(
                row[11],
                format_fixed(level["ttft_p50_s"].as_f64().unwrap(), 3)
            );
        }
    }
    assert_eq!(k, rows.len());
}

#[test]
fn summary_of_a_single_run_shows_dashes_never_nan() {
    let dir = tempfile::tempdir().unwrap();
    let src = Path::new(GB300).join("r1.json");
    std::fs::copy(&src, dir.path().join("r1.json")).unwrap();
    let path = dir.path().to_str().unwrap();
    let (_, text) = summary(&[path]);
    assert!(!text.contains("NaN"), "{text}");
    let rows = table_rows(&text);
    assert_eq!(rows.len(), 2);
    for r in &rows {
        assert_eq!(r[7], "–", "CV of one run: {r:?}");
        assert_eq!(r[8], "–", "CI of one run: {r:?}");
        assert_eq!(r[9], "–");
    }
    let (_, json) = summary(&["--format", "json", path]);
    let v: Value = serde_json::from_str(&json).unwrap();
    let level = &v["configurations"][0]["levels"][0];
    assert!(level["cv"].is_null() && level["ci95"].is_null(), "{level}");
    let (_, csv) = summary(&["--format", "csv", path]);
    assert!(!csv.contains("NaN"));
    assert_eq!(csv.lines().count(), 3, "{csv}");
}

#[test]
fn summary_csv_and_markdown_carry_the_same_levels() {
    let (_, csv) = summary(&["--format", "csv", GB300, FIFTEEN]);
    let lines: Vec<&str> = csv.lines().collect();
    assert!(
        lines[0].starts_with("fingerprint,label,concurrency,request_rate,figure,n,launches,median")
    );
    assert_eq!(lines.len(), 1 + 8);
    assert!(
        lines
            .iter()
            .any(|l| l.contains(",8,,aggregate,2,2,910.25,740.4,1080.1,")),
        "{csv}"
    );
    let (_, md) = summary(&["--format", "markdown", GB300, FIFTEEN]);
    assert!(
        md.contains("### Qwen3.8-Flash-Next-NVFP4 nvfp4 · vllm 0.11.2"),
        "{md}"
    );
    assert!(md.contains("| 26.4% ! |") || md.contains("26.4% !"), "{md}");
}

#[test]
fn a_single_launch_interval_is_labelled_single_instance() {
    let (_, text) = summary(&["testdata/rules/S003-single-launch/fail/3-runs-one-launch"]);
    let rows = table_rows(&text);
    assert!(!rows.is_empty());
    assert!(rows.iter().all(|r| r[9] == "single instance"), "{text}");
    assert!(text.contains("3 runs over 1 launch"), "{text}");
}
