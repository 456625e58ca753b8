//! Snippets quote only the file the loader read: a file swapped after loading (for a link to
//! a place outside the corpus) is never quoted, and a file the loader refused is never opened
//! again to place or draw a snippet of it.

use std::path::PathBuf;

use benchlint::corpus::Options;
use benchlint::{engine, report};

const MARKER: &str = "ZQXSECRET";

/// `text` with every line replaced by the marker, repeated to the line's length: any
/// snippet drawn from it, at whatever offset, quotes the marker.
fn marked(text: &str) -> String {
    text.split('\n')
        .map(|line| MARKER.chars().cycle().take(line.chars().count()).collect())
        .collect::<Vec<String>>()
        .join("\n")
}

#[test]
fn a_file_swapped_for_a_link_outside_after_loading_is_not_quoted() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = dir.path().join("corpus");
    let outside = dir.path().join("outside");
    std::fs::create_dir_all(&corpus).unwrap();
    std::fs::create_dir_all(&outside).unwrap();
    let result = corpus.join("r.json");
    std::fs::copy(
        "testdata/adapters/vllm/bench-serve-save-detailed.json",
        &result,
    )
    .unwrap();
    let secret = outside.join("secret.json");
    std::fs::write(&secret, marked(&std::fs::read_to_string(&result).unwrap())).unwrap();
    let render = |checked: engine::Checked| {
        let mut p = report::prepare(checked.findings, checked.summary, 1 << 28, false);
        p.files = checked.corpus.read;
        String::from_utf8(report::human(&p)).unwrap()
    };
    // Unswapped, the file's findings come with a snippet of it.
    let before = render(engine::check(
        std::slice::from_ref(&corpus),
        &Options::default(),
    ));
    assert!(before.contains("╭─["), "{before}");
    let checked = engine::check(&[PathBuf::from(&corpus)], &Options::default());
    assert!(!checked.findings.is_empty());
    // Swapped once loaded, before the report is drawn.
    std::fs::remove_file(&result).unwrap();
    std::os::unix::fs::symlink(&secret, &result).unwrap();
    let after = render(checked);
    assert!(!after.contains(&MARKER[..3]), "{after}");
    // The findings are still printed, without a snippet.
    assert!(after.contains("not recorded"), "{after}");
    assert!(!after.contains("╭─["), "{after}");
}
