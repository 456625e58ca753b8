//! The retractions report: Markdown, HTML and JSON renderers on a hand-built report (every
//! verdict, a restated and a retracted ratio, a marginal capacity, losing runs, text that needs
//! escaping), and `benchlint audit` end to end on testdata/corpora/gb10-audit.

mod end_to_end;
mod hand_built;

fn snapshot(name: &str, text: &str) {
    insta::with_settings!({ snapshot_path => "snapshots/audit", prepend_module_to_snapshot => false }, {
        insta::assert_snapshot!(name, text);
    });
}

fn assert_self_contained(html: &str) {
    let lower = html.to_ascii_lowercase();
    assert!(!lower.contains("<script"), "no script");
    for attr in ["src=", "href=", "url("] {
        for (i, _) in lower.match_indices(attr) {
            let rest = lower[i + attr.len()..].trim_start_matches(['"', '\'', ' ']);
            assert!(
                !rest.starts_with("http:")
                    && !rest.starts_with("https:")
                    && !rest.starts_with("//"),
                "external reference at {}",
                &html[i..(i + 80).min(html.len())]
            );
        }
    }
    assert!(
        !lower.contains("@import") && !lower.contains("<link"),
        "no external stylesheet"
    );
}
