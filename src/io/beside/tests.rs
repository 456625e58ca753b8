use std::path::Path;

use super::*;
use crate::json::Limits;

fn hood_for<'r>(files: &'r [&'r Path]) -> Neighbourhood<'r> {
    Neighbourhood::new(files, Limits::default())
}

#[test]
fn reads_beside_and_above_but_never_outside_the_corpus() {
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(outside.path().join("secret.log"), "token").unwrap();
    let dir = tempfile::tempdir().unwrap();
    let run = dir.path().join("run");
    let artifacts = run.join("aiperf_artifacts");
    std::fs::create_dir_all(&artifacts).unwrap();
    std::fs::write(run.join("server.log"), "a\nb\n").unwrap();
    std::fs::write(artifacts.join("r.json"), "{}").unwrap();
    std::fs::write(artifacts.join("m.json"), r#"{"k": 1}"#).unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink(
        outside.path().join("secret.log"),
        artifacts.join("server.log"),
    )
    .unwrap();
    let file = artifacts.join("r.json");
    let files = [file.as_path()];
    let hood = hood_for(&files);
    // The corpus is the run folder: its aiperf_artifacts/ sees the run folder above.
    let folder = hood.folder(&file, &run);
    assert_eq!(
        folder.text(Place::Up, "server.log", 100).as_deref(),
        Some("a\nb\n")
    );
    assert_eq!(folder.json(Place::Here, "m.json").unwrap()["k"], 1);
    assert!(folder.in_corpus(Place::Here, "r.json"));
    assert!(!folder.in_corpus(Place::Here, "m.json"));
    assert!(folder.text(Place::Here, "../server.log", 100).is_none());
    #[cfg(unix)]
    assert!(
        folder.text(Place::Here, "server.log", 100).is_none(),
        "a symlink out of the corpus is never read"
    );
    // The corpus is aiperf_artifacts/ itself: the run folder above is still consulted,
    // nothing higher.
    let folder = hood.folder(&file, &artifacts);
    assert!(folder.text(Place::Up, "server.log", 100).is_some());
    let lines = std::cell::RefCell::new(Vec::new());
    assert!(folder.scan_lines(Place::Up, "server.log", |o, l| {
        lines.borrow_mut().push((o, l.to_string()));
        true
    }));
    assert_eq!(
        lines.into_inner(),
        vec![(0, "a".to_string()), (2, "b".to_string())]
    );
    assert_eq!(
        folder.display(Place::Up, "server.log"),
        run.join("server.log").to_string_lossy()
    );
}

#[test]
fn a_folder_is_read_once_whatever_asks() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.json"), "{}").unwrap();
    std::fs::write(dir.path().join("b.json"), "{}").unwrap();
    let hood = hood_for(&[]);
    let calls = std::sync::atomic::AtomicUsize::new(0);
    for name in ["a.json", "b.json"] {
        let folder = hood.folder(&dir.path().join(name), dir.path());
        let v = folder
            .cached(Place::Here, "plan", |_| {
                calls.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                7u32
            })
            .unwrap();
        assert_eq!(*v, 7);
        assert_eq!(*folder.names(Place::Here), vec!["a.json", "b.json"]);
    }
    assert_eq!(calls.load(std::sync::atomic::Ordering::SeqCst), 1);
}

#[test]
fn long_lines_are_skipped_and_the_scan_stops_when_asked() {
    let dir = tempfile::tempdir().unwrap();
    let long = "x".repeat(MAX_LINE_BYTES + 10);
    std::fs::write(
        dir.path().join("server.log"),
        format!("first\n{long}\nversion 1\nlast\n"),
    )
    .unwrap();
    let hood = hood_for(&[]);
    let folder = hood.folder(&dir.path().join("r.json"), dir.path());
    let mut seen = Vec::new();
    folder.scan_lines(Place::Here, "server.log", |o, l| {
        seen.push((o, l.to_string()));
        !l.starts_with("version")
    });
    assert_eq!(
        seen,
        vec![
            (0, "first".to_string()),
            (6 + MAX_LINE_BYTES + 11, "version 1".to_string())
        ]
    );
}
