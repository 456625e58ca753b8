//! What `benchlint regress` writes for people and CI: the Markdown (failing cells first, a
//! picture per configuration), GitHub annotations (capped, worst first, the step summary),
//! file text neutralised in every format, the README's table kept in sync, hostile input.

use crate::support::regress::{BASE, HEAD, edited, regress, regress_env};
use serde_json::json;

#[test]
fn markdown_lists_failing_cells_first_with_a_picture() {
    let r = regress(&[BASE, HEAD, "--format", "markdown"]);
    assert_eq!(r.code, Some(1));
    let md = r.out();
    assert!(md.len() < 1_000_000);
    let failing = md.find("### Failing cells").unwrap();
    let details = md.find("### By configuration").unwrap();
    assert!(failing < details);
    assert!(md.contains("❌ **3 cells fail --fail-on regression**"));
    // Each configuration's picture: BASE and HEAD bars with their centres.
    assert_eq!(md.matches("```text").count(), 2);
    assert!(
        md.lines()
            .any(|l| l.trim_start().starts_with("16  B ") && l.contains('●'))
    );
}

#[test]
fn github_annotations_are_capped_worst_first() {
    let tmp = tempfile::tempdir().unwrap();
    let summary = tmp.path().join("summary.md");
    let r = regress_env(
        &[BASE, HEAD, "--format", "github", "--fail-on", "undecided"],
        &[("GITHUB_STEP_SUMMARY", &summary)],
    );
    assert_eq!(r.code, Some(1));
    let out = r.out();
    let errors: Vec<&str> = out.lines().filter(|l| l.starts_with("::error")).collect();
    // 3 regressions and 9 inconclusive cells fail: 10 shown, regressions first.
    assert_eq!(errors.len(), 10);
    assert!(
        errors[..3].iter().all(|l| l.contains("REGRESSION")),
        "{out}"
    );
    assert!(
        out.lines()
            .any(|l| l.starts_with("::notice") && l.contains("2 more errors"))
    );
    assert!(out.lines().all(|l| l.starts_with("::")));
    let md = std::fs::read_to_string(&summary).unwrap();
    assert!(md.contains("### Failing cells"));
}

#[test]
fn file_text_is_neutralised_in_every_format() {
    let tmp = tempfile::tempdir().unwrap();
    let (b, h) = (tmp.path().join("b"), tmp.path().join("h"));
    let hostile = "llama\n::error::pwned | <b>x</b> `tick`";
    edited(BASE, &b, |_, v| v["model"]["name"] = json!(hostile));
    edited(HEAD, &h, |_, v| v["model"]["name"] = json!(hostile));
    let (bs, hs) = (b.to_str().unwrap(), h.to_str().unwrap());
    let gh = regress(&[bs, hs, "--format", "github", "--fail-on", "undecided"]).out();
    assert!(!gh.lines().any(|l| l.starts_with("::error::pwned")), "{gh}");
    let human = regress(&[bs, hs]).out();
    assert!(!human.lines().any(|l| l.starts_with("::")), "{human}");
    let md = regress(&[bs, hs, "--format", "markdown"]).out();
    assert!(!md.contains("<b>x</b>"), "{md}");
    assert!(!md.lines().any(|l| l.starts_with("::")));
}

#[test]
fn readme_shows_the_expected_table() {
    let readme = std::fs::read_to_string("README.md").unwrap();
    let table = regress(&[BASE, HEAD]).out();
    assert!(
        readme.contains(&table),
        "README's regress section is out of date: paste the output of `benchlint regress {BASE} {HEAD}`"
    );
}

#[test]
fn hostile_inputs_neither_panic_nor_hang() {
    let r = regress(&["testdata/hostile", "testdata/hostile"]);
    assert!(matches!(r.code, Some(0..=2)), "{:?} {}", r.code, r.err());
    assert!(!r.err().contains("panicked"), "{}", r.err());
}

/// The table and the JSON are written to stdout as they are made, a configuration or a cell at
/// a time, and into a file whole: the two are the same bytes, on the example pair and on real
/// files that draw every verdict the example does not (not comparable, missing).
#[test]
fn stdout_written_as_made_is_the_file_written_whole() {
    let tmp = tempfile::tempdir().unwrap();
    let real = std::path::Path::new("../shared/realworld");
    let mut pairs = vec![(BASE.to_string(), HEAD.to_string())];
    if real.is_dir() {
        pairs.push(("../shared/realworld".into(), HEAD.into()));
    } else {
        println!("../shared/realworld is not beside the tree: the example pair only");
    }
    for (k, (base, head)) in pairs.iter().enumerate() {
        for format in ["human", "json"] {
            let printed = regress(&[base, head, "--format", format]);
            let file = tmp.path().join(format!("{k}-{format}.out"));
            let file_arg = file.to_string_lossy().into_owned();
            let written = regress(&[base, head, "--format", format, "-o", &file_arg]);
            assert_eq!(printed.code, written.code, "{base} {head} {format}");
            assert!(written.out().is_empty());
            let bytes = std::fs::read_to_string(&file).unwrap();
            assert!(bytes.len() > 200, "{format}: {bytes}");
            assert_eq!(printed.out(), bytes, "{base} {head} {format}");
        }
    }
}
