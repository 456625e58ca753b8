//! What benchlint must never do, whatever it is asked: write into the corpus it reads, reach
//! the network, or echo a secret.
//!
//! - Every command is run over a copy of a corpus whose every file is recorded (bytes and
//!   mode) before and compared after: nothing changed, nothing appeared. Outputs go to a
//!   folder outside; an output folder inside the corpus is refused (exit 2).
//! - Every command is run again without a network (`unshare -rn`, or `unshare -n` as root):
//!   it still works (exit 0 or 1, never 2). Skipped, with the reason printed, where the
//!   platform does not allow it.
//! - A fixture with an API key in several places goes through every output format: the key
//!   never appears.

mod corpus_untouched;
mod offline;
mod secrets;

use crate::support::watchdog;

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use watchdog::{LIMIT, Run, bin, run};

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap().flatten() {
        let target = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_tree(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), &target).unwrap();
        }
    }
}

/// Every entry under `root`: relative path → (mode, bytes; folders have none).
fn snapshot(root: &Path) -> BTreeMap<PathBuf, (u32, Option<Vec<u8>>)> {
    let mut out = BTreeMap::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).unwrap().flatten() {
            let p = e.path();
            let meta = std::fs::symlink_metadata(&p).unwrap();
            let rel = p.strip_prefix(root).unwrap().to_path_buf();
            if meta.is_dir() {
                stack.push(p);
                out.insert(rel, (meta.permissions().mode(), None));
            } else {
                out.insert(
                    rel,
                    (meta.permissions().mode(), Some(std::fs::read(&p).unwrap())),
                );
            }
        }
    }
    out
}

/// Files read-only, folders read-and-enter only (root ignores both; the snapshot is the proof).
fn make_read_only(root: &Path) {
    let mut dirs = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        dirs.push(dir.clone());
        for e in std::fs::read_dir(&dir).unwrap().flatten() {
            if e.file_type().unwrap().is_dir() {
                stack.push(e.path());
            } else {
                std::fs::set_permissions(e.path(), std::fs::Permissions::from_mode(0o444)).unwrap();
            }
        }
    }
    for d in dirs.iter().rev() {
        std::fs::set_permissions(d, std::fs::Permissions::from_mode(0o555)).unwrap();
    }
}

fn make_writable(root: &Path) {
    let mut stack = vec![root.to_path_buf()];
    while let Some(dir) = stack.pop() {
        let _ = std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755));
        for e in std::fs::read_dir(&dir).unwrap().flatten() {
            if e.file_type().unwrap().is_dir() {
                stack.push(e.path());
            }
        }
    }
}

struct Corpus {
    _tmp: tempfile::TempDir,
    root: PathBuf,
    claims: PathBuf,
    results: Vec<PathBuf>,
}

/// testdata/corpora/demo and testdata/bad copied, with a claims file, made read-only.
fn corpus() -> Corpus {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("corpus");
    copy_tree(Path::new("testdata/corpora/demo"), &root.join("demo"));
    copy_tree(Path::new("testdata/bad"), &root.join("bad"));
    let claims = root.join("claims.json");
    std::fs::write(
        &claims,
        r#"{"schema": "benchlint/claims/v1", "claims": [{"id": "x8", "kind": "figure", "metric": "aggregate_tok_s", "value": 500, "subject": {"results": ["gb10-x8-prose-r1"], "concurrency": 32}}]}"#,
    )
    .unwrap();
    let mut results: Vec<PathBuf> = Vec::new();
    let mut stack = vec![root.join("demo")];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).unwrap().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if std::fs::read_to_string(&p)
                .is_ok_and(|t| t.contains("\"benchlint/result/v1\""))
                && !p.to_string_lossy().ends_with(".meta.json")
            {
                results.push(p);
            }
        }
    }
    results.sort();
    assert!(results.len() > 3);
    make_read_only(&root);
    Corpus {
        _tmp: tmp,
        root,
        claims,
        results,
    }
}

impl Drop for Corpus {
    fn drop(&mut self) {
        // So the temporary folder can be removed where permissions apply.
        make_writable(&self.root);
    }
}

fn has_audit() -> bool {
    let out = bin().args(["audit", "--help"]).output().unwrap();
    out.status.success()
}

/// Every command that reads a corpus, as argument lists (the output folder outside it).
fn commands(c: &Corpus, out_dir: &Path) -> Vec<Vec<OsString>> {
    let root = c.root.as_os_str().to_owned();
    let mut list: Vec<Vec<OsString>> = Vec::new();
    for format in [
        "human",
        "concise",
        "json",
        "json-lines",
        "sarif",
        "github",
        "junit",
    ] {
        list.push(vec![
            "check".into(),
            "--format".into(),
            format.into(),
            root.clone(),
        ]);
    }
    list.push(vec!["check".into(), "--statistics".into(), root.clone()]);
    for format in ["table", "json", "csv", "markdown"] {
        list.push(vec![
            "summary".into(),
            "--format".into(),
            format.into(),
            root.clone(),
        ]);
    }
    list.push(vec![
        "import".into(),
        root.clone(),
        "-o".into(),
        out_dir.join("import").into_os_string(),
    ]);
    for r in &c.results {
        list.push(vec!["cards".into(), r.clone().into_os_string()]);
    }
    list.push(vec!["cards".into(), root.clone()]);
    // Run twice into one folder (from two working folders): the second replaces, as asked.
    list.push(vec![
        "sidecar".into(),
        root.clone(),
        "-o".into(),
        out_dir.join("sidecars").into_os_string(),
        "--force".into(),
    ]);
    if has_audit() {
        list.push(vec![
            "audit".into(),
            root.clone(),
            "--claims".into(),
            c.claims.clone().into_os_string(),
        ]);
        list.push(vec![
            "audit".into(),
            root.clone(),
            "--claims".into(),
            c.claims.clone().into_os_string(),
            "--format".into(),
            "json".into(),
        ]);
        list.push(vec![
            "audit".into(),
            root.clone(),
            "--claims".into(),
            c.claims.clone().into_os_string(),
            "-o".into(),
            out_dir.join("audit").into_os_string(),
        ]);
    } else {
        println!("skipped: `benchlint audit` is not in this build");
    }
    list
}

fn run_in(dir: &Path, args: &[OsString]) -> Run {
    let mut cmd = bin();
    cmd.current_dir(dir).args(args);
    run(cmd, LIMIT)
}
