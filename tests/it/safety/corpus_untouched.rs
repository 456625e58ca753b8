//! No command writes into the corpus it reads, and an output folder inside the corpus is
//! refused.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use super::{commands, corpus, has_audit, run_in, snapshot};

#[test]
fn no_command_writes_into_the_corpus() {
    let c = corpus();
    let before = snapshot(&c.root);
    let out = tempfile::tempdir().unwrap();
    for args in commands(&c, out.path()) {
        // From inside the corpus too: nothing may land in the working folder.
        for cwd in [out.path(), c.root.as_path()] {
            let r = run_in(cwd, &args);
            assert!(!r.err().contains("panicked"), "{args:?}: {}", r.err());
            assert!(
                matches!(r.code, Some(0 | 1)),
                "{args:?} from {cwd:?}: exit {:?}\n{}",
                r.code,
                r.err()
            );
        }
    }
    // `check` with no path reads the working folder.
    let r = run_in(&c.root, &["check".into()]);
    assert!(matches!(r.code, Some(0 | 1)), "{}", r.err());
    assert!(
        out.path()
            .join("import")
            .read_dir()
            .unwrap()
            .next()
            .is_some(),
        "import wrote its files outside"
    );
    let after = snapshot(&c.root);
    let changed: Vec<&PathBuf> = before
        .keys()
        .filter(|k| after.get(*k) != before.get(*k))
        .collect();
    let appeared: Vec<&PathBuf> = after.keys().filter(|k| !before.contains_key(*k)).collect();
    assert!(
        changed.is_empty() && appeared.is_empty(),
        "changed: {changed:?}\nappeared: {appeared:?}"
    );
}

#[test]
fn an_output_folder_inside_the_corpus_is_refused() {
    let c = corpus();
    let before = snapshot(&c.root);
    let inside = c.root.join("demo").join("out");
    let mut cases: Vec<Vec<OsString>> = vec![
        vec![
            "import".into(),
            c.root.clone().into(),
            "-o".into(),
            inside.clone().into(),
        ],
        // A file argument: its folder is the corpus.
        vec![
            "import".into(),
            c.results[0].clone().into(),
            "-o".into(),
            c.results[0].parent().unwrap().join("x").into(),
        ],
        vec![
            "sidecar".into(),
            c.root.clone().into(),
            "-o".into(),
            inside.clone().into(),
        ],
    ];
    if has_audit() {
        cases.push(vec![
            "audit".into(),
            c.root.clone().into(),
            "--claims".into(),
            c.claims.clone().into(),
            "-o".into(),
            inside.clone().into(),
        ]);
    } else {
        println!("skipped: `benchlint audit` is not in this build");
    }
    for args in cases {
        let r = run_in(Path::new("."), &args);
        assert_eq!(r.code, Some(2), "{args:?}: {}", r.err());
        assert!(
            r.err().contains("is inside the corpus") && r.err().contains("--allow-inside-corpus"),
            "{}",
            r.err()
        );
    }
    assert_eq!(snapshot(&c.root), before);
}
