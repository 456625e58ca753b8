//! `benchlint audit` end to end on testdata/corpora/gb10-audit: the three reports written,
//! Markdown or JSON printed, bad arguments refused.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use serde_json::Value;

use super::assert_self_contained;

// ---- `benchlint audit` end to end -------------------------------------------------------

const CORPUS: &str = "testdata/corpora/gb10-audit";

fn bin() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_benchlint"));
    c.env("NO_COLOR", "1");
    c
}

fn corpus_ready() -> bool {
    Path::new(CORPUS).join("claims.json").is_file()
}

/// Every file under `dir` with a hash of its bytes (FNV-1a: enough to see a change).
fn hashes(dir: &Path) -> BTreeMap<String, (u64, usize)> {
    fn walk(dir: &Path, out: &mut BTreeMap<String, (u64, usize)>) {
        for e in std::fs::read_dir(dir).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                walk(&p, out);
            } else {
                let bytes = std::fs::read(&p).unwrap();
                let h = bytes.iter().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
                    (h ^ u64::from(*b)).wrapping_mul(0x0100_0000_01b3)
                });
                out.insert(p.display().to_string(), (h, bytes.len()));
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, &mut out);
    out
}

/// Verdicts of the Markdown summary table, by claim id.
fn markdown_verdicts(md: &str) -> BTreeMap<String, String> {
    let table = md
        .split("## Summary")
        .nth(1)
        .unwrap()
        .split("\n## ")
        .next()
        .unwrap();
    table
        .lines()
        .filter(|l| l.starts_with("| `"))
        .map(|l| {
            let cells: Vec<&str> = l.split(" | ").collect();
            let id = cells[0]
                .trim_start_matches("| ")
                .trim_matches('`')
                .replace("\\|", "|");
            (id, cells[2].trim_matches('*').to_string())
        })
        .collect()
}

/// `audit -o DIR` writes the three files, the JSON carries the Markdown's verdicts, and the
/// corpus is left as it was.
#[test]
fn audit_writes_the_three_reports() {
    if !corpus_ready() {
        eprintln!("skipped: {CORPUS} is not there yet");
        return;
    }
    let before = hashes(Path::new(CORPUS));
    let out = tempfile::tempdir().unwrap();
    let dir = out.path().join("report");
    let run = bin()
        .args([
            "audit",
            CORPUS,
            "--claims",
            &format!("{CORPUS}/claims.json"),
            "-o",
        ])
        .arg(&dir)
        .output()
        .unwrap();
    let code = run.status.code();
    assert!(
        matches!(code, Some(0 | 1)),
        "exit {code:?}: {}",
        String::from_utf8_lossy(&run.stderr)
    );
    let md = std::fs::read_to_string(dir.join("report.md")).unwrap();
    let html = std::fs::read_to_string(dir.join("report.html")).unwrap();
    let json: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("report.json")).unwrap()).unwrap();
    let errors = benchlint::schema::validate(benchlint::schema::Kind::Audit, &json);
    assert!(errors.is_empty(), "{errors:?}");
    let from_json: BTreeMap<String, String> = json["claims"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["id"].as_str().unwrap().to_string(),
                c["verdict"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert!(!from_json.is_empty());
    assert_eq!(from_json, markdown_verdicts(&md));
    // Exit 1 exactly when a claim is restated, unresolved or retracted.
    let failing = from_json
        .values()
        .any(|v| matches!(v.as_str(), "restated" | "unresolved" | "retracted"));
    assert_eq!(code, Some(u8::from(failing).into()));
    assert_self_contained(&html);
    let ladders = json["ladders"].as_array().map_or(0, Vec::len);
    let ratios = std::fs::read_to_string(format!("{CORPUS}/claims.json"))
        .unwrap()
        .matches("\"ratio\"")
        .count();
    assert_eq!(html.matches("<svg").count(), ladders + ratios);
    if let Some(path) = std::env::var_os("BENCHLINT_AUDIT_CORPUS_HTML") {
        std::fs::write(path, &html).unwrap();
    }
    // Every rule link resolves inside the folder: the pages ship beside the report.
    let targets = |text: &str, open: &str, close: char| -> Vec<String> {
        text.split(open)
            .skip(1)
            .filter_map(|rest| rest.split(close).next())
            .filter(|t| t.starts_with("rules/"))
            .map(ToString::to_string)
            .collect()
    };
    let links: Vec<String> = targets(&md, "](", ')')
        .into_iter()
        .chain(targets(&html, "href=\"", '"'))
        .collect();
    assert!(
        links.iter().any(|l| l.ends_with("C001-mixed-precision.md")),
        "{links:?}"
    );
    assert!(
        links
            .iter()
            .any(|l| l.ends_with("C001-mixed-precision.html")),
        "{links:?}"
    );
    for l in &links {
        assert!(dir.join(l).is_file(), "{l} is linked but not written");
    }
    assert_eq!(before, hashes(Path::new(CORPUS)), "the corpus changed");
}

/// Markdown (default) and JSON on stdout agree with each other, and twice gives the same bytes.
#[test]
fn audit_prints_markdown_or_json() {
    if !corpus_ready() {
        eprintln!("skipped: {CORPUS} is not there yet");
        return;
    }
    let claims = format!("{CORPUS}/claims.json");
    let md = bin()
        .args(["audit", CORPUS, "--claims", &claims])
        .output()
        .unwrap();
    let md2 = bin()
        .args(["audit", CORPUS, "--claims", &claims])
        .output()
        .unwrap();
    assert_eq!(md.stdout, md2.stdout, "deterministic");
    // Printed, the report has no folder of rule pages beside it: it names the command.
    let text = String::from_utf8_lossy(&md.stdout);
    assert!(!text.contains("](rules/"), "{text}");
    assert!(
        text.contains("C001 mixed-precision (`benchlint rule C001`)"),
        "{text}"
    );
    let json = bin()
        .args(["audit", CORPUS, "--claims", &claims, "--format", "json"])
        .output()
        .unwrap();
    assert_eq!(md.status.code(), json.status.code());
    let v: Value = serde_json::from_slice(&json.stdout).unwrap();
    let from_json: BTreeMap<String, String> = v["claims"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["id"].as_str().unwrap().to_string(),
                c["verdict"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert_eq!(
        from_json,
        markdown_verdicts(&String::from_utf8(md.stdout).unwrap())
    );
}

/// The output folder may not sit inside the corpus; a missing claims file is exit 2.
#[test]
fn audit_refuses_bad_arguments() {
    let tmp = tempfile::tempdir().unwrap();
    let corpus = tmp.path().join("corpus");
    std::fs::create_dir_all(&corpus).unwrap();
    std::fs::write(
        corpus.join("claims.json"),
        r#"{"schema":"benchlint/claims/v1","claims":[]}"#,
    )
    .unwrap();
    let inside = bin()
        .arg("audit")
        .arg(&corpus)
        .arg("--claims")
        .arg(corpus.join("claims.json"))
        .arg("-o")
        .arg(corpus.join("out"))
        .output()
        .unwrap();
    assert_eq!(inside.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&inside.stderr);
    assert!(stderr.contains("--allow-inside-corpus"), "{stderr}");
    assert_eq!(stderr.trim_end().lines().count(), 1, "one line: {stderr}");
    assert!(!corpus.join("out").exists());

    // Beside a claims file outside the corpus is fine; replacing the claims file is not.
    let claims = tmp.path().join("claims.json");
    std::fs::copy(corpus.join("claims.json"), &claims).unwrap();
    let beside = bin()
        .arg("audit")
        .arg(&corpus)
        .arg("--claims")
        .arg(&claims)
        .arg("-o")
        .arg(tmp.path().join("out"))
        .output()
        .unwrap();
    assert_eq!(
        beside.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&beside.stderr)
    );
    assert!(tmp.path().join("out/report.html").is_file());
    let replaced = tmp.path().join("out/report.json");
    std::fs::copy(&claims, &replaced).unwrap();
    let over = bin()
        .arg("audit")
        .arg(&corpus)
        .arg("--claims")
        .arg(&replaced)
        .arg("-o")
        .arg(tmp.path().join("out"))
        .output()
        .unwrap();
    assert_eq!(over.status.code(), Some(2));

    let missing = bin()
        .arg("audit")
        .arg(&corpus)
        .arg("--claims")
        .arg(tmp.path().join("nope.json"))
        .output()
        .unwrap();
    assert_eq!(missing.status.code(), Some(2));

    let not_claims = tmp.path().join("not-claims.json");
    std::fs::write(&not_claims, "{ broken").unwrap();
    let broken = bin()
        .arg("audit")
        .arg(&corpus)
        .arg("--claims")
        .arg(&not_claims)
        .output()
        .unwrap();
    assert_eq!(
        broken.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&broken.stderr)
    );

    let floor = bin()
        .arg("audit")
        .arg(&corpus)
        .arg("--claims")
        .arg(corpus.join("claims.json"))
        .args(["--floor", "-3"])
        .output()
        .unwrap();
    assert_eq!(floor.status.code(), Some(2));
}

/// A report file that cannot be written where it goes (a folder in its place) is said, by
/// name, before any of the three is written: the three are written at once, and a folder of
/// two new reports and one old one would read as one run's.
#[test]
fn a_report_refused_stops_the_three_before_any_is_written() {
    for refused in ["report.md", "report.html", "report.json"] {
        let tmp = tempfile::tempdir().unwrap();
        let out = tmp.path().join("out");
        std::fs::create_dir_all(out.join(refused)).unwrap();
        let run = bin()
            .arg("audit")
            .arg("testdata/clean")
            .arg("-o")
            .arg(&out)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert_eq!(run.status.code(), Some(2), "{refused}: {stderr}");
        assert!(
            stderr.contains(&format!("{refused}` exists and is not a regular file")),
            "{refused}: {stderr}"
        );
        let mut left: Vec<String> = std::fs::read_dir(&out)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        left.sort();
        assert_eq!(
            left,
            [refused],
            "nothing written beside the refused {refused}"
        );
    }
}
