//! The HTML page rendered in headless Chromium (when installed), and the rows of every file
//! reaching the report in pieces.

use std::path::Path;
use std::process::Command;

use super::{DEMO, bin, report_json};

/// The page, rendered by a browser: it parses into the sections and rows the report holds, and
/// a screenshot is drawn. Skipped (with a reason) when no Chromium is installed, except in CI
/// (`CI` set, as `.ci/run` runs it after installing Chromium), where a missing browser fails
/// the test: the page must never go unrendered there.
#[test]
fn html_renders_in_chromium() {
    let Some(chromium) = ["/usr/bin/chromium", "/usr/bin/chromium-browser"]
        .into_iter()
        .map(Path::new)
        .find(|p| p.is_file())
    else {
        let ci = std::env::var_os("CI").is_some_and(|v| !v.is_empty() && v != "false");
        assert!(
            !ci,
            "CI is set but no Chromium at /usr/bin/chromium: .ci/run installs it (apt-get install chromium)"
        );
        eprintln!("skipped: no Chromium at /usr/bin/chromium (apt-get install chromium)");
        return;
    };
    let out = tempfile::tempdir().unwrap();
    let dir = out.path().join("report");
    let status = bin()
        .args(["audit", DEMO, "-o"])
        .arg(&dir)
        .status()
        .unwrap();
    assert_eq!(status.code(), Some(1));
    let page = dir.join("report.html");
    let url = format!("file://{}", page.display());
    let profile = tempfile::tempdir().unwrap();
    let shot = out.path().join("shot.png");
    let browser = |extra: &[&str]| {
        Command::new(chromium)
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
                "--window-size=1280,4000",
            ])
            .arg(format!("--user-data-dir={}", profile.path().display()))
            .args(extra)
            .arg(&url)
            .output()
            .unwrap()
    };
    let dom = browser(&["--dump-dom"]);
    assert!(
        dom.status.success(),
        "{}",
        String::from_utf8_lossy(&dom.stderr)
    );
    let dom = String::from_utf8_lossy(&dom.stdout);
    let report = report_json(DEMO);
    for id in [
        "overview",
        "files",
        "rules",
        "checklist",
        "configurations",
        "losing-runs",
    ] {
        assert!(dom.contains(&format!("id=\"{id}\"")), "section {id}");
    }
    // One matrix row per file with results, one square per field in each.
    let matrix = dom.split("<table class=\"matrix\">").nth(1).unwrap();
    let body = matrix.split("</table>").next().unwrap();
    let files = report["corpus"]["checklist"]["files"].as_array().unwrap();
    let items = report["corpus"]["checklist"]["items"].as_array().unwrap();
    assert_eq!(body.matches("<tr>").count(), files.len() + 1);
    assert_eq!(
        body.matches("<span class=\"m").count(),
        files.len() * items.len()
    );
    let drawn = browser(&[&format!("--screenshot={}", shot.display())]);
    assert!(
        drawn.status.success(),
        "{}",
        String::from_utf8_lossy(&drawn.stderr)
    );
    let png = std::fs::read(&shot).unwrap();
    assert!(
        png.starts_with(b"\x89PNG") && png.len() > 20_000,
        "{} bytes",
        png.len()
    );
}

/// An output that keeps the size of what it is given and the largest piece given at once.
#[derive(Default)]
struct Recording {
    total: usize,
    largest: usize,
}

impl std::io::Write for Recording {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.largest = self.largest.max(buf.len());
        self.total += buf.len();
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The sections with a row per file, configuration or claim (findings by file, the checklist
/// matrix, what each file lacks, the replication table, the claims' summary) reach the report's
/// file a megabyte of rows at a time, not as one string: at tens of thousands of files each
/// section runs to tens of megabytes.
#[test]
fn the_rows_of_every_file_reach_the_report_in_pieces() {
    use benchlint::audit::corpus::{FindingTally, build};
    use benchlint::corpus::Options;
    let tmp = tempfile::tempdir().unwrap();
    // Results that record little: every file owes checklist fields, so each has a row in
    // every per-file section.
    for i in 0..4000 {
        let doc = serde_json::json!({
            "schema": "benchlint/result/v1", "id": format!("r{i:04}"),
            "measured_at": "2026-09-01T00:00:00Z", "outcome": "ok",
            "levels": [{"concurrency": 8, "requests": 100, "duration_s": 60.0,
                        "throughput_tok_s": {"aggregate": 2000.0 + f64::from(i)}}],
        });
        std::fs::write(tmp.path().join(format!("r{i:04}.json")), doc.to_string()).unwrap();
    }
    // And a claim per result: the claims' summary table has a row each.
    let claims: Vec<serde_json::Value> = (1..4000)
        .map(|i| {
            serde_json::json!({
                "id": format!("c{i:04}"), "kind": "ratio", "metric": "aggregate_tok_s",
                "value": 1.01,
                "subject": {"results": [format!("r{i:04}")], "concurrency": 8},
                "baseline": {"results": [format!("r{:04}", i - 1)], "concurrency": 8},
            })
        })
        .collect();
    let claims = serde_json::json!({"schema": "benchlint/claims/v1", "claims": claims});
    std::fs::write(tmp.path().join("claims.json"), claims.to_string()).unwrap();
    let options = Options::default();
    let corpus = benchlint::corpus::load(&[tmp.path().to_path_buf()], &options);
    assert_eq!(corpus.results.len(), 4000);
    assert_eq!(corpus.claims.len(), 1, "the claims file is read");
    let mut audit = benchlint::claims::audit(&corpus, 20.0, &options.thresholds);
    let checklist = benchlint::audit::checklist::coverage(
        &corpus.results,
        &options.thresholds,
        &|_, _| true,
        &|_| true,
    );
    audit.corpus = Some(build(
        corpus.files,
        &corpus.results,
        FindingTally::default(),
        checklist,
    ));
    let ctx = benchlint::report::AuditContext::new(vec![], Some("claims.json".into()));
    let writers: [(&str, benchlint::report::AuditWriter); 2] = [
        ("report.md", benchlint::report::write_audit_markdown),
        ("report.html", benchlint::report::write_audit_html),
    ];
    for (name, write) in writers {
        let mut out = Recording::default();
        write(&audit, &ctx, &mut out).unwrap();
        assert!(
            out.total > 3 << 20,
            "{name}: {} bytes, too few to tell",
            out.total
        );
        // A megabyte, plus the row that took it past the mark.
        assert!(
            out.largest < (1 << 20) + (64 << 10),
            "{name}: a piece of {} bytes in a document of {}",
            out.largest,
            out.total
        );
    }
}
