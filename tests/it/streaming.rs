//! The formats written file by file (`json`, `json-lines`, `concise`; `github` is written worst first once every finding is known, so only its findings are compared): the files'
//! own findings in path order, then those known once every file is read (corpus-wide rules,
//! E004, E006); the same findings and counts as the formats written at the end; the same
//! bytes to stdout and to `--output`; the baseline and the run's cap applied in that order.

use std::path::Path;
use std::process::{Command, Output};

use serde_json::Value;

const DEMO: &str = "testdata/corpora/demo";

fn run(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_benchlint"))
        .env("NO_COLOR", "1")
        .env_remove("GITHUB_ACTIONS")
        .args(args)
        .output()
        .unwrap()
}

fn json(args: &[&str]) -> Value {
    let mut all = vec!["check", "--format", "json", "--exit-zero", "--isolated"];
    all.extend_from_slice(args);
    serde_json::from_slice(&run(&all).stdout).expect("JSON")
}

/// Known only once every file is read: the corpus-wide rules, E004 and E006.
fn last(code: &str) -> bool {
    code.starts_with('S') || code.starts_with('C') || code == "E004" || code == "E006"
}

/// (code, path, pointer, line) of each diagnostic, in order.
fn keys(v: &Value) -> Vec<(String, String, String, i64)> {
    v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["code"].as_str().unwrap().to_string(),
                d["path"].as_str().unwrap().to_string(),
                d["pointer"].as_str().unwrap().to_string(),
                d["line"].as_i64().unwrap_or(0),
            )
        })
        .collect()
}

#[test]
fn the_files_findings_come_first_then_the_runs() {
    let v = json(&[DEMO]);
    let k = keys(&v);
    let split = k
        .iter()
        .position(|x| last(&x.0))
        .expect("corpus-wide findings");
    assert!(split > 0, "the files' own findings come first");
    assert!(k[split..].iter().all(|x| last(&x.0)), "{k:?}");
    // Each part in path order, top to bottom within a file.
    for part in [&k[..split], &k[split..]] {
        let order: Vec<(&str, i64)> = part.iter().map(|x| (x.1.as_str(), x.3)).collect();
        let mut sorted = order.clone();
        sorted.sort_unstable();
        assert_eq!(order, sorted);
    }
    // The same findings as SARIF, written once every finding is known, in its one order.
    let sarif: Value = serde_json::from_slice(
        &run(&[
            "check",
            "--format",
            "sarif",
            "--exit-zero",
            "--isolated",
            DEMO,
        ])
        .stdout,
    )
    .unwrap();
    let mut from_sarif: Vec<(String, i64)> = sarif["runs"][0]["results"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["ruleId"].as_str().unwrap().to_string(),
                r["locations"][0]["physicalLocation"]["region"]["startLine"]
                    .as_i64()
                    .unwrap_or(0),
            )
        })
        .collect();
    let mut from_json: Vec<(String, i64)> = k.iter().map(|x| (x.0.clone(), x.3)).collect();
    from_sarif.sort();
    from_json.sort();
    assert_eq!(from_json, from_sarif);
    // The summary counts every one of them.
    let s = &v["summary"];
    let counted = ["errors", "warnings", "infos"]
        .iter()
        .map(|c| s[c].as_u64().unwrap())
        .sum::<u64>();
    assert_eq!(counted, k.len() as u64);
}

#[test]
fn every_streamed_format_lists_the_same_findings_in_the_same_order() {
    let order: Vec<String> = keys(&json(&[DEMO])).into_iter().map(|x| x.0).collect();
    let text = |format: &str| {
        let out = run(&[
            "check",
            "--format",
            format,
            "--exit-zero",
            "--isolated",
            DEMO,
        ]);
        String::from_utf8(out.stdout).unwrap()
    };
    let lines: Vec<String> = text("json-lines")
        .lines()
        .map(|l| {
            let d: Value = serde_json::from_str(l).unwrap();
            d["code"].as_str().unwrap().to_string()
        })
        .collect();
    assert_eq!(lines, order);
    // GitHub shows ten annotations of each severity: the same findings, worst first.
    let annotations = text("github");
    let ranks: Vec<u8> = annotations
        .lines()
        .map(|l| {
            if l.starts_with("::error ") {
                0
            } else if l.starts_with("::warning ") {
                1
            } else {
                2
            }
        })
        .collect();
    assert!(ranks.windows(2).all(|w| w[0] <= w[1]), "{annotations}");
    let mut github: Vec<String> = annotations
        .lines()
        .map(|l| {
            let at = l.find("title=benchlint (").unwrap() + "title=benchlint (".len();
            l[at..at + 4].to_string()
        })
        .collect();
    github.sort();
    let mut codes = order.clone();
    codes.sort();
    assert_eq!(github, codes);
    // Concise shows the fields one object lacks on one line: its codes are the same sequence
    // with repeats of a run of absent fields merged.
    let concise: Vec<String> = text("concise")
        .lines()
        .filter_map(|l| l.split(": ").nth(1))
        .filter_map(|rest| rest.split(' ').next())
        .filter(|code| code.len() == 4 && code[1..].bytes().all(|b| b.is_ascii_digit()))
        .map(str::to_string)
        .collect();
    let mut merged = order.clone();
    merged.dedup();
    let mut shown = concise.clone();
    shown.dedup();
    assert_eq!(shown, merged);
}

#[test]
fn the_same_bytes_to_stdout_and_to_a_file() {
    let dir = tempfile::tempdir().unwrap();
    for format in ["json", "json-lines", "concise", "github"] {
        let out = dir.path().join(format!("report.{format}"));
        let to_stdout = run(&["check", "--format", format, "--isolated", DEMO]);
        let to_file = run(&[
            "check",
            "--format",
            format,
            "--isolated",
            DEMO,
            "-o",
            out.to_str().unwrap(),
        ]);
        assert!(to_file.stdout.is_empty());
        assert_eq!(to_stdout.status.code(), to_file.status.code(), "{format}");
        assert_eq!(std::fs::read(&out).unwrap(), to_stdout.stdout, "{format}");
    }
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap().flatten() {
        let target = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_tree(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), &target).unwrap();
        }
    }
}

#[test]
fn a_baseline_suppresses_as_the_files_are_written() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = dir.path().join("demo");
    copy_tree(Path::new(DEMO), &corpus);
    let baseline = dir.path().join("baseline.json");
    let (corpus, baseline) = (corpus.to_str().unwrap(), baseline.to_str().unwrap());
    let before = json(&[corpus]);
    let found = keys(&before).len();
    let update = run(&[
        "check",
        "--format",
        "json",
        "--isolated",
        corpus,
        "--baseline",
        baseline,
        "--update-baseline",
    ]);
    assert_eq!(update.status.code(), Some(0));
    let written: Value = serde_json::from_slice(&update.stdout).unwrap();
    assert!(keys(&written).is_empty());
    assert_eq!(written["summary"]["suppressed"], found);
    // Run again: every finding suppressed, the run passes.
    let again = run(&[
        "check",
        "--format",
        "concise",
        "--isolated",
        corpus,
        "--baseline",
        baseline,
    ]);
    assert_eq!(again.status.code(), Some(0));
    let text = String::from_utf8(again.stdout).unwrap();
    assert!(
        text.trim_end()
            .ends_with(&format!("({found} suppressed by the baseline).")),
        "{text}"
    );
    // A result fixed away: its entries are stale and fail the run.
    std::fs::remove_file(Path::new(corpus).join("h200/fp8-spec-r1.json")).unwrap();
    let stale = run(&[
        "check",
        "--format",
        "json",
        "--isolated",
        corpus,
        "--baseline",
        baseline,
    ]);
    assert_eq!(stale.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&stale.stderr).contains("stale"),
        "{}",
        String::from_utf8_lossy(&stale.stderr)
    );
}

#[test]
fn the_runs_cap_keeps_the_first_findings_in_the_order_written() {
    let dir = tempfile::tempdir().unwrap();
    let config = dir.path().join("cap.toml");
    std::fs::write(&config, "[thresholds]\nmax_findings = 5\n").unwrap();
    let all = json(&[DEMO]);
    let capped: Value = serde_json::from_slice(
        &run(&[
            "check",
            "--format",
            "json",
            "--exit-zero",
            "--config",
            config.to_str().unwrap(),
            DEMO,
        ])
        .stdout,
    )
    .unwrap();
    let (every, kept) = (keys(&all), keys(&capped));
    assert_eq!(kept.len(), 5);
    assert_eq!(kept[..], every[..5]);
    // Counted, not listed: the counts are those of the whole run.
    for c in ["errors", "warnings", "infos"] {
        assert_eq!(capped["summary"][c], all["summary"][c], "{c}");
    }
    assert_eq!(capped["summary"]["omitted"], every.len() - 5);
}

/// Where no finding waits for the end of the run, the streamed report is byte for byte the
/// report written in one piece from every finding.
#[test]
fn the_same_bytes_as_the_report_written_at_once() {
    let files = [
        "testdata/cli/formats/broken.json",
        "testdata/cli/formats/wrong-type.json",
        "testdata/clean",
    ];
    for path in files {
        let options = benchlint::corpus::Options {
            lean: true,
            ..benchlint::corpus::Options::default()
        };
        let checked = benchlint::engine::check(&[path.into()], &options);
        assert!(checked.findings.iter().all(|f| !last(f.code())), "{path}");
        let p = benchlint::report::prepare(
            checked.findings,
            checked.summary,
            options.thresholds.max_file_bytes,
            false,
        );
        for (format, whole) in [
            ("json", benchlint::report::json(&p)),
            ("json-lines", benchlint::report::json_lines(&p)),
            ("concise", benchlint::report::concise(&p)),
            ("github", benchlint::report::github(&p)),
        ] {
            let out = run(&[
                "check",
                "--format",
                format,
                "--exit-zero",
                "--isolated",
                path,
            ]);
            assert_eq!(
                String::from_utf8(out.stdout).unwrap(),
                String::from_utf8(whole).unwrap(),
                "{format} {path}"
            );
        }
    }
}

/// `n` complete results, each its own configuration (another workload name) from its own
/// launch (results alike in launch, start and figures are copies of one run, S010), one a file.
fn distinct_configurations(dir: &Path, n: usize) {
    let complete: Value = serde_json::from_str(
        &std::fs::read_to_string("testdata/clean/replicated-corpus/complete.json").unwrap(),
    )
    .unwrap();
    for i in 0..n {
        let mut d = complete.clone();
        d["id"] = format!("run-{i:04}").into();
        d["workload"]["name"] = format!("prose-decode-{i:04}").into();
        d["launch"]["id"] = format!("launch-{i:04}").into();
        std::fs::write(dir.join(format!("r{i:04}.json")), d.to_string()).unwrap();
    }
}

/// The outputs written as they are made (`check`'s streamed formats, `summary` and `capacity` in
/// every format, `cards`) meet a reader that stops early (`| head`): the writing ends, the run does not panic,
/// and its exit status is the run's.
#[test]
fn a_reader_that_stops_early_ends_the_writing_not_the_run() {
    use std::io::Read;
    let tmp = tempfile::tempdir().unwrap();
    distinct_configurations(tmp.path(), 400);
    let dir = tmp.path().to_str().unwrap();
    let runs: [&[&str]; 10] = [
        &["check", "--isolated", "--format", "json", dir],
        &["check", "--isolated", "--format", "json-lines", dir],
        &["check", "--isolated", "--format", "concise", dir],
        &["summary", "--format", "json", dir],
        &["summary", "--format", "csv", dir],
        &["summary", "--format", "markdown", dir],
        &["summary", dir],
        &["cards", dir],
        &["capacity", dir],
        &["capacity", "--format", "json", dir],
    ];
    for args in runs {
        // Whole, the output is well past what a pipe holds (64 KB), so the early reader is
        // felt.
        let whole = run(args);
        assert!(
            whole.stdout.len() > 96 * 1024,
            "{args:?}: {} bytes",
            whole.stdout.len()
        );
        let mut child = Command::new(env!("CARGO_BIN_EXE_benchlint"))
            .env("NO_COLOR", "1")
            .env_remove("GITHUB_ACTIONS")
            .args(args)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let mut head = [0u8; 100];
        child.stdout.take().unwrap().read_exact(&mut head).unwrap();
        // The pipe is closed here, with most of the output unread.
        let out = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert_eq!(out.status.code(), whole.status.code(), "{args:?}: {stderr}");
        assert_eq!(&head[..], &whole.stdout[..100], "{args:?}");
    }
}
