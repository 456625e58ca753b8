//! `--config KEY=VALUE` laid over the config file, and `extend` in the config, inside the
//! corpus and out.

use serde_json::Value;

use super::{findings, run, scratch};

// ---------------------------------------------------------------------------------------------
// --config KEY=VALUE, extend

#[test]
fn config_overrides_are_toml_pairs_laid_over_the_config() {
    let (_tmp, root) = scratch();
    let (all, _) = findings(&root, &["--isolated", "results"]);
    assert!(
        all.contains_key("M001") && all.contains_key("R009"),
        "{all:?}"
    );
    let (flag, _) = findings(&root, &["--isolated", "--ignore", "M", "results"]);
    let (pair, _) = findings(
        &root,
        &["--isolated", "--config", "ignore = [\"M\"]", "results"],
    );
    assert_eq!(flag, pair, "--config 'ignore = [\"M\"]' is --ignore M");
    assert!(!pair.keys().any(|c| c.starts_with('M')));
    // Over a config file: the file's other keys hold; tables merge key by key.
    std::fs::write(
        root.join("benchlint.toml"),
        "ignore = [\"M\"]\n[severity]\nR009 = \"error\"\n",
    )
    .unwrap();
    let config = root.join("benchlint.toml");
    let r = run(
        &root,
        &[
            "check",
            "--format",
            "json",
            "--config",
            config.to_str().unwrap(),
            "--config",
            "severity.R023 = \"error\"",
            "--config",
            "ignore = []",
            "results",
        ],
    );
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    let severity_of = |code: &str| {
        v["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .find(|d| d["code"] == code)
            .map(|d| d["severity"].as_str().unwrap().to_string())
    };
    assert_eq!(
        severity_of("R009").as_deref(),
        Some("error"),
        "from the file"
    );
    assert_eq!(
        severity_of("R023").as_deref(),
        Some("error"),
        "from the override"
    );
    assert!(
        severity_of("M001").is_some(),
        "`ignore = []` replaced the file's list"
    );
    // A mistake in an override points at it.
    let r = run(
        &root,
        &[
            "check",
            "--config",
            "thresholds.min_window_s = \"long\"",
            "results",
        ],
    );
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("--config:1:"), "{}", r.stderr);
    assert!(
        r.stderr.contains("thresholds.min_window_s = \"long\""),
        "{}",
        r.stderr
    );
    let r = run(&root, &["check", "--config", "nope.toml", "results"]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("nope.toml"), "{}", r.stderr);
    let r = run(
        &root,
        &[
            "check", "--config", "a.toml", "--config", "b.toml", "results",
        ],
    );
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("two files"), "{}", r.stderr);
}

#[test]
fn extend_lays_a_config_over_another_relative_to_it() {
    let (_tmp, root) = scratch();
    std::fs::create_dir(root.join("conf")).unwrap();
    // Relative to the file that writes it, not to the current folder.
    std::fs::write(
        root.join("conf/benchlint.toml"),
        "extend = \"../shared/base.toml\"\n[severity]\nR009 = \"error\"\n",
    )
    .unwrap();
    let r = run(
        &root,
        &[
            "check",
            "--format",
            "json",
            "--config",
            "conf/benchlint.toml",
            "results",
        ],
    );
    assert_eq!(r.code, 1, "{}", r.stderr);
    let v: Value = serde_json::from_str(&r.stdout).unwrap();
    let of = |code: &str| {
        v["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|d| d["code"] == code)
            .map(|d| d["severity"].as_str().unwrap().to_string())
            .collect::<Vec<_>>()
    };
    assert!(of("M001").is_empty(), "the base's ignore holds");
    assert!(
        of("R008").iter().all(|s| s == "info") && !of("R008").is_empty(),
        "the base's severity"
    );
    assert!(
        of("R009").iter().all(|s| s == "error") && !of("R009").is_empty(),
        "its own"
    );
    // A loop is an error naming the chain.
    std::fs::write(
        root.join("shared/base.toml"),
        "extend = \"../conf/benchlint.toml\"\n",
    )
    .unwrap();
    let r = run(
        &root,
        &["check", "--config", "conf/benchlint.toml", "results"],
    );
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("extend loop"), "{}", r.stderr);
    // A missing base is an error at the `extend` line.
    std::fs::write(root.join("shared/base.toml"), "extend = \"gone.toml\"\n").unwrap();
    let r = run(
        &root,
        &["check", "--config", "conf/benchlint.toml", "results"],
    );
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("shared/base.toml:1:10"), "{}", r.stderr);
}

#[test]
fn a_config_inside_the_corpus_extends_only_inside_its_folder_and_keeps_its_limits() {
    let (_tmp, root) = scratch();
    std::fs::write(
        root.join("results/benchlint.toml"),
        "extend = \"../shared/base.toml\"\n",
    )
    .unwrap();
    let r = run(&root, &["check", "results"]);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.contains("outside the config file's folder"),
        "{}",
        r.stderr
    );
    // Inside its folder: followed, and the merged config still cannot turn off E codes.
    std::fs::write(root.join("results/base.toml"), "ignore = [\"E\", \"M\"]\n").unwrap();
    std::fs::write(
        root.join("results/benchlint.toml"),
        "extend = \"base.toml\"\n",
    )
    .unwrap();
    std::fs::write(root.join("results/broken.json"), "{\"a\": ").unwrap();
    let (codes, _) = findings(&root, &["results"]);
    assert!(
        codes.contains_key("E002") || codes.keys().any(|c| c.starts_with('E')),
        "{codes:?}"
    );
    assert!(!codes.contains_key("M001"), "{codes:?}");
}
