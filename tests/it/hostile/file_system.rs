//! File-system oddities git cannot hold: symbolic-link loops and links out of the corpus, an
//! unreadable file, a file name that is not UTF-8, a FIFO.

use std::time::Duration;

use super::{MINIMAL, assert_input_errors, check, results, write};

// ---------------------------------------------------------------------------------------------
// The file system.

#[test]
fn symlink_loops_and_links_out_of_the_corpus() {
    let dir = tempfile::tempdir().unwrap();
    let corpus = dir.path().join("corpus");
    std::fs::create_dir(&corpus).unwrap();
    write(
        &corpus,
        "ok.json",
        &format!("{MINIMAL}, \"levels\": [{{\"concurrency\": 1}}]}}"),
    );
    std::os::unix::fs::symlink(".", corpus.join("loop")).unwrap();
    let outside = write(dir.path(), "outside.json", "{\"secret\": \"never read\"}");
    std::os::unix::fs::symlink(&outside, corpus.join("leak.json")).unwrap();
    std::os::unix::fs::symlink("/", corpus.join("root")).unwrap();
    let (r, ds) = check(&[&corpus]);
    assert_input_errors(
        &ds,
        &[
            (
                "E001",
                "loop` could not be read: symlink loop: the link points back at a folder that contains it",
            ),
            (
                "E001",
                "leak.json` could not be read: symlink to a place outside the folder being checked; not followed",
            ),
            ("E001", "root` could not be read: symlink"),
        ],
    );
    assert_eq!(results(&r), 1);
    assert!(!r.out().contains("never read"));
}

#[test]
fn an_unreadable_file() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let p = write(
        dir.path(),
        "locked.json",
        &format!("{MINIMAL}, \"levels\": []}}"),
    );
    std::fs::set_permissions(&p, std::fs::Permissions::from_mode(0o000)).unwrap();
    if std::fs::read(&p).is_ok() {
        println!(
            "skipped: running as root (or with CAP_DAC_OVERRIDE), where a mode-000 file is still readable"
        );
        return;
    }
    let (_, ds) = check(&[&p]);
    assert_input_errors(&ds, &[("E001", "could not be read: permission denied")]);
}

#[test]
fn a_non_utf8_file_name() {
    use std::os::unix::ffi::OsStrExt;
    let dir = tempfile::tempdir().unwrap();
    let name = std::ffi::OsStr::from_bytes(b"bad-\xff\xfe.json");
    let p = dir.path().join(name);
    std::fs::write(&p, "{\"a\": ").unwrap();
    for arg in [dir.path(), p.as_path()] {
        let (_, ds) = check(&[arg]);
        assert_input_errors(&ds, &[("E002", "EOF while parsing")]);
        assert!(
            ds[0]["path"]
                .as_str()
                .unwrap()
                .ends_with("bad-\u{fffd}\u{fffd}.json"),
            "{}",
            ds[0]
        );
    }
}

#[test]
fn a_fifo_is_refused_without_blocking() {
    let dir = tempfile::tempdir().unwrap();
    let fifo = dir.path().join("pipe.json");
    match std::process::Command::new("mkfifo").arg(&fifo).status() {
        Ok(s) if s.success() => {}
        other => {
            println!("skipped: mkfifo is not available here ({other:?})");
            return;
        }
    }
    // Named on the command line and found by the walk: both refused before any open (an open
    // of a FIFO without a writer would block forever; the watchdog fails the test then).
    for arg in [fifo.as_path(), dir.path()] {
        let (r, ds) = check(&[arg]);
        assert_input_errors(
            &ds,
            &[(
                "E001",
                "not a regular file (a folder, FIFO, socket or device is never read)",
            )],
        );
        assert!(r.elapsed < Duration::from_secs(10), "{:?}", r.elapsed);
    }
}
