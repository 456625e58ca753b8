//! The committed rule pages (`rules/`) are what `benchlint rules --markdown` writes today: one
//! page per rule and the index, nothing missing, nothing left over, not a byte different.
//! When this fails, regenerate them: `cargo run -- rules --markdown rules/`.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

fn files(dir: &Path) -> BTreeMap<String, String> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return BTreeMap::new();
    };
    entries
        .flatten()
        .filter(|e| e.path().is_file())
        .map(|e| {
            (
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read_to_string(e.path()).unwrap_or_default(),
            )
        })
        .collect()
}

#[test]
fn committed_rule_pages_are_fresh() {
    let fresh = tempfile::tempdir().unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_benchlint"))
        .args(["rules", "--markdown"])
        .arg(fresh.path())
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let want = files(fresh.path());
    let have = files(&Path::new(env!("CARGO_MANIFEST_DIR")).join("rules"));
    assert!(want.len() > 1, "pages were generated");
    let missing: Vec<&String> = want.keys().filter(|k| !have.contains_key(*k)).collect();
    let extra: Vec<&String> = have.keys().filter(|k| !want.contains_key(*k)).collect();
    let changed: Vec<&String> = want
        .keys()
        .filter(|k| have.get(*k).is_some_and(|h| h != &want[*k]))
        .collect();
    assert!(
        missing.is_empty() && extra.is_empty() && changed.is_empty(),
        "rules/ is stale; regenerate it with `cargo run -- rules --markdown rules/`\n\
         missing: {missing:?}\nleft over: {extra:?}\nchanged: {changed:?}"
    );
}
