//! The commands that show no finding but what says an input could not be read (`summary`'s
//! count, the files `cards`, `sidecar` and `import` skipped) name every such input, however
//! many findings the other rules would make: those findings no longer fill the caps
//! (`max_findings`, `max_findings_per_file`) that the unreadable inputs are listed within.
//! Variants: a corpus whose other findings fill a small run cap, with one to four broken files
//! before, among and after the results.

use std::path::Path;

use crate::scaling_shapes::args;
use crate::support::watchdog::{bin, run};

/// The bundled demo corpus copied to `root`, with a config beside it that caps the findings
/// listed at 5 (the demo's fill it), and `broken` truncated files named to sort before, among
/// and after its results.
fn corpus(root: &Path, broken: usize) {
    let demo = Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/corpora/demo");
    for entry in walkdir::WalkDir::new(&demo) {
        let entry = entry.unwrap();
        let to = root.join(entry.path().strip_prefix(&demo).unwrap());
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&to).unwrap();
        } else {
            std::fs::copy(entry.path(), &to).unwrap();
        }
    }
    // Beside the corpus, not in it: a config inside the checked paths cannot lower the cap.
    std::fs::write(
        root.parent().unwrap().join("benchlint.toml"),
        "[thresholds]\nmax_findings = 5\n",
    )
    .unwrap();
    let places = [
        "aa-broken.json",
        "gb300/m-broken.json",
        "zz-broken.json",
        "zz/zz-broken.json",
    ];
    for place in &places[..broken] {
        let path = root.join(place);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, "{\"schema\": \"benchlint/result/v1\", \"id\": ").unwrap();
    }
}

/// Runs benchlint with `items`: its exit code, stdout and stderr.
fn benchlint(items: &[&dyn AsRef<std::ffi::OsStr>]) -> (Option<i32>, String, String) {
    let mut c = bin();
    c.args(args(items));
    let r = run(c, std::time::Duration::from_secs(120));
    (r.code, r.out(), r.err())
}

#[test]
fn every_unreadable_input_is_named_whatever_the_other_findings() {
    for broken in 1..=4 {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().join("corpus");
        corpus(&root, broken);
        // `check` itself keeps to the cap: the other findings fill it.
        let (code, out, _) = benchlint(&[&"check", &"--format", &"concise", &root]);
        assert_eq!(code, Some(1));
        assert!(out.contains("past the finding caps"), "{out}");

        let (code, _, err) = benchlint(&[&"summary", &"--format", &"csv", &root]);
        assert_eq!(code, Some(0), "{err}");
        let inputs = if broken == 1 { "input" } else { "inputs" };
        assert!(
            err.contains(&format!("warning: {broken} {inputs} could not be read")),
            "{broken} broken: {err}"
        );

        let (_, _, err) = benchlint(&[&"cards", &root]);
        let files = if broken == 1 {
            "file held"
        } else {
            "files held"
        };
        assert!(
            err.contains(&format!("{broken} {files} no result")),
            "{broken} broken: {err}"
        );

        let (_, _, err) = benchlint(&[&"sidecar", &root]);
        let skipped: Vec<&str> = err.lines().filter(|l| l.contains(": skipped `")).collect();
        assert_eq!(skipped.len(), broken, "{err}");
        assert!(
            skipped.iter().all(|l| l.contains("broken.json`: E002")),
            "{err}"
        );

        let out_dir = tmp.path().join("imported");
        let (_, out, err) = benchlint(&[&"import", &"-o", &out_dir, &root]);
        let skipped = out.lines().filter(|l| l.starts_with("skipped ")).count();
        assert_eq!(skipped, broken, "{out}{err}");
        assert!(
            out.lines()
                .filter(|l| l.starts_with("skipped "))
                .all(|l| l.contains("broken.json: E002")),
            "{out}"
        );
    }
}
