//! The section order with a claims file, and text from file names escaped and masked.

use serde_json::Value;

use super::{DEMO, bin, complete, remove, run, write};

/// With a claims file, the retractions come first, then the corpus sections.
#[test]
fn claims_first_then_the_corpus() {
    let corpus = "testdata/corpora/gb10-audit";
    let (_, md) = run(&[
        "audit",
        corpus,
        "--claims",
        &format!("{corpus}/claims.json"),
    ]);
    let headings: Vec<&str> = md.lines().filter(|l| l.starts_with("## ")).collect();
    assert_eq!(
        headings,
        [
            "## Summary",
            "## Claims",
            "## Corpus overview",
            "## Findings by file",
            "## Findings by rule",
            "## Checklist coverage",
            "## Configurations",
            "## Losing runs",
        ]
    );
    assert!(md.starts_with("# Retractions report\n"));
    let (_, md) = run(&["audit", DEMO]);
    let headings: Vec<&str> = md.lines().filter(|l| l.starts_with("## ")).collect();
    assert_eq!(
        headings,
        [
            "## Corpus overview",
            "## Findings by file",
            "## Findings by rule",
            "## Checklist coverage",
            "## Configurations",
            "## Losing runs",
        ]
    );
}

/// A file name with markup in it stays text in every format.
#[test]
fn file_names_are_escaped() {
    let tmp = tempfile::tempdir().unwrap();
    let mut doc = complete();
    remove(&mut doc, "/platform/host");
    let name = "a|b <img src=x> & `tick`.json";
    write(tmp.path(), name, &doc);
    let root = tmp.path().to_str().unwrap();
    let (_, md) = run(&["audit", root]);
    // In Markdown the name is a code span (fenced past its backtick), where markup is text.
    let lines: Vec<&str> = md.lines().filter(|l| l.contains("<img")).collect();
    assert!(lines.len() >= 3, "{md}");
    for line in lines {
        assert!(line.contains("<img src=x> & `tick`.json``"), "{line}");
        if line.starts_with('|') {
            // Inside a table the row keeps its cells: the `|` of the name is escaped.
            assert!(line.contains("``a\\|b <img"), "{line}");
        }
    }
    let out = tempfile::tempdir().unwrap();
    let dir = out.path().join("r");
    let status = bin()
        .args(["audit", root, "-o"])
        .arg(&dir)
        .status()
        .unwrap();
    assert_eq!(status.code(), Some(1));
    let html = std::fs::read_to_string(dir.join("report.html")).unwrap();
    assert!(!html.contains("<img"), "raw markup in the page");
    // Every rule the findings-by-rule table links is a page written beside the report.
    let md = std::fs::read_to_string(dir.join("report.md")).unwrap();
    let links: Vec<&str> = md
        .split("](rules/")
        .skip(1)
        .chain(html.split("href=\"rules/").skip(1))
        .map(|rest| rest.split([')', '"']).next().unwrap())
        .collect();
    assert!(links.len() >= 2, "{md}");
    for link in links {
        assert!(dir.join("rules").join(link).is_file(), "no page {link}");
    }
    assert!(html.contains("a|b &lt;img src=x&gt; &amp; `tick`.json"));
    let json: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("report.json")).unwrap()).unwrap();
    assert!(
        json["corpus"]["files"][0]["path"]
            .as_str()
            .unwrap()
            .ends_with(name)
    );
}

/// A file name holding a secret, a bidirectional override and a terminal escape: masked and
/// written out as escapes in every format, never passed through.
#[test]
fn file_names_are_masked_and_hidden_characters_escaped() {
    let tmp = tempfile::tempdir().unwrap();
    let secret = "sk-proj-Q9vLx2mT7rB4nK8wE1yZ5cH3jD6fA0gP";
    let mut doc = complete();
    remove(&mut doc, "/platform/host");
    write(
        tmp.path(),
        &format!("key {secret} \u{202e}x\u{1b}[31m.json"),
        &doc,
    );
    let root = tmp.path().to_str().unwrap();
    let out = tempfile::tempdir().unwrap();
    let dir = out.path().join("r");
    let status = bin()
        .args(["audit", root, "-o"])
        .arg(&dir)
        .status()
        .unwrap();
    assert_eq!(status.code(), Some(1));
    let (_, stdout) = run(&["audit", root]);
    for (name, text) in [
        ("stdout", stdout),
        (
            "report.md",
            std::fs::read_to_string(dir.join("report.md")).unwrap(),
        ),
        (
            "report.html",
            std::fs::read_to_string(dir.join("report.html")).unwrap(),
        ),
        (
            "report.json",
            std::fs::read_to_string(dir.join("report.json")).unwrap(),
        ),
    ] {
        assert!(!text.contains(secret), "{name} shows the secret");
        assert!(
            text.contains("<redacted>") || text.contains("&lt;redacted&gt;"),
            "{name}"
        );
        assert!(
            !text.contains('\u{202e}') && !text.contains('\u{1b}'),
            "{name} passes a hidden character through"
        );
    }
    let md = std::fs::read_to_string(dir.join("report.md")).unwrap();
    assert!(
        md.contains("| `key <redacted> \\u{202e}x\\u{1b}[31m.json` | 1 of 35 |"),
        "{md}"
    );
}
