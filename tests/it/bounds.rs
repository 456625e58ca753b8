//! Reads and writes stay inside their bounds: no output is written through a symlink, no read
//! of a path from a flag or a config file is unbounded or blocks on a device or a FIFO, a
//! sidecar or an artifact reached through a symlink out of the corpus is neither merged nor
//! probed, and a config file inside the checked paths cannot silence the input errors or the
//! secrets check.

use crate::support::watchdog;

use std::ffi::OsString;
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::{Value, json};
use watchdog::{Run, bin, run};

const BASE: &str = "testdata/corpora/demo/gb10-x8/prose-r1.json";

/// Short: a read that blocks on a FIFO or streams `/dev/zero` would hang far longer.
const QUICK: Duration = Duration::from_secs(30);

fn exec(args: &[OsString]) -> Run {
    let mut c = bin();
    c.args(args);
    let r = run(c, QUICK);
    assert!(!r.err().contains("panicked"), "{args:?}: {}", r.err());
    r
}

fn args(items: &[&dyn AsRef<std::ffi::OsStr>]) -> Vec<OsString> {
    items.iter().map(|a| a.as_ref().to_os_string()).collect()
}

fn corpus(dir: &Path) -> (PathBuf, PathBuf) {
    let root = dir.join("corpus");
    std::fs::create_dir_all(&root).unwrap();
    let result = root.join("r.json");
    std::fs::copy(BASE, &result).unwrap();
    let claims = dir.join("claims.json");
    std::fs::write(
        &claims,
        r#"{"schema": "benchlint/claims/v1", "claims": [{"id": "c", "kind": "figure", "metric": "aggregate_tok_s", "value": 500, "subject": {"results": ["gb10-x8-prose-r1"], "concurrency": 24}}]}"#,
    )
    .unwrap();
    (root, claims)
}

fn mkfifo(path: &Path) -> bool {
    std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .is_ok_and(|s| s.success())
}

#[test]
fn outputs_are_never_written_through_a_symlink() {
    let tmp = tempfile::tempdir().unwrap();
    let (root, claims) = corpus(tmp.path());
    let result = root.join("r.json");
    let before = std::fs::read(&result).unwrap();
    // An output folder that is a symlink (into the corpus, or anywhere).
    let link = tmp.path().join("out-link");
    symlink(&root, &link).unwrap();
    for a in [
        args(&[&"audit", &root, &"--claims", &claims, &"-o", &link]),
        args(&[&"import", &root, &"-o", &link]),
    ] {
        let r = exec(&a);
        assert_eq!(r.code, Some(2), "{a:?}: {}", r.err());
        assert!(r.err().contains("symbolic link"), "{}", r.err());
    }
    // A folder below a symlink into the corpus is inside the corpus.
    let below = link.join("reports");
    let r = exec(&args(&[&"import", &root, &"-o", &below]));
    assert_eq!(r.code, Some(2), "{}", r.err());
    assert!(r.err().contains("inside the corpus"), "{}", r.err());
    assert!(
        !root.join("reports").exists(),
        "nothing created in the corpus"
    );
    // Report files that are symlinks to a result, or to a file outside.
    let out = tmp.path().join("out");
    std::fs::create_dir_all(&out).unwrap();
    let outside = tmp.path().join("outside.txt");
    std::fs::write(&outside, "kept").unwrap();
    symlink(&result, out.join("report.md")).unwrap();
    symlink(&outside, out.join("report.html")).unwrap();
    let r = exec(&args(&[&"audit", &root, &"--claims", &claims, &"-o", &out]));
    assert_eq!(r.code, Some(2), "{}", r.err());
    assert!(r.err().contains("symbolic link"), "{}", r.err());
    // `check -o` and the baseline.
    let sarif = tmp.path().join("check.sarif");
    symlink(&outside, &sarif).unwrap();
    let r = exec(&args(&[
        &"check",
        &root,
        &"--format",
        &"sarif",
        &"-o",
        &sarif,
    ]));
    assert_eq!(r.code, Some(2), "{}", r.err());
    let baseline = tmp.path().join("baseline.json");
    symlink(&result, &baseline).unwrap();
    let r = exec(&args(&[
        &"check",
        &root,
        &"--baseline",
        &baseline,
        &"--update-baseline",
    ]));
    assert_eq!(r.code, Some(2), "{}", r.err());
    assert_eq!(
        std::fs::read(&result).unwrap(),
        before,
        "the result is intact"
    );
    assert_eq!(std::fs::read_to_string(&outside).unwrap(), "kept");
    // Written where they may be: a fresh folder, then again over the files it wrote.
    let fresh = tmp.path().join("fresh");
    for _ in 0..2 {
        let r = exec(&args(&[
            &"audit",
            &root,
            &"--claims",
            &claims,
            &"-o",
            &fresh,
        ]));
        assert!(matches!(r.code, Some(0 | 1)), "{}", r.err());
    }
    assert!(fresh.join("report.html").is_file());
}

#[test]
fn a_sidecar_symlinked_outside_the_corpus_is_not_merged() {
    let tmp = tempfile::tempdir().unwrap();
    let (root, _) = corpus(tmp.path());
    let outside = tmp.path().join("secret-side.json");
    std::fs::write(
        &outside,
        r#"{"engine": {"version": "9.9.9-from-outside"}, "notes": "outside-marker"}"#,
    )
    .unwrap();
    symlink(&outside, root.join("r.meta.json")).unwrap();
    let r = exec(&args(&[
        &"check",
        &"--isolated",
        &"--format",
        &"json",
        &root,
    ]));
    assert!(!r.out().contains("9.9.9-from-outside"), "{}", r.out());
    assert!(
        r.out().contains("not followed"),
        "reported as E001: {}",
        r.out()
    );
    let r = exec(&args(&[&"cards", &root.join("r.json")]));
    assert!(!r.out().contains("9.9.9-from-outside"), "{}", r.out());
}

#[test]
fn reads_of_paths_from_flags_and_configs_are_bounded() {
    let tmp = tempfile::tempdir().unwrap();
    let (root, _) = corpus(tmp.path());
    let fifo = tmp.path().join("fifo");
    let mut refused: Vec<PathBuf> = vec!["/dev/zero".into(), "/dev/stdin".into()];
    if mkfifo(&fifo) {
        refused.push(fifo.clone());
    } else {
        println!("skipped the FIFO case: mkfifo is not available here");
    }
    for p in &refused {
        for flag in ["--config", "--baseline"] {
            let r = exec(&args(&[&"check", &root, &flag, p]));
            assert_eq!(r.code, Some(2), "{flag} {p:?}: {}", r.err());
            assert!(r.err().contains("not a regular file"), "{}", r.err());
        }
        // A config naming it as a sidecar file.
        let config = tmp.path().join("side.toml");
        std::fs::write(
            &config,
            format!(
                "[[sidecar]]\nfiles = \"*.json\"\npath = \"{}\"\n",
                p.display()
            ),
        )
        .unwrap();
        let r = exec(&args(&[&"check", &root, &"--config", &config]));
        assert_eq!(r.code, Some(2), "{}", r.err());
        assert!(r.err().contains("not a regular file"), "{}", r.err());
        let r = exec(&args(&[&"capture", &"--container-inspect", p]));
        assert_eq!(r.code, Some(2), "{}", r.err());
    }
    // Size: a config over its bound is refused from its size.
    let big = tmp.path().join("big.toml");
    std::fs::write(&big, format!("# {}\n", "x".repeat(2 * 1024 * 1024))).unwrap();
    let r = exec(&args(&[&"check", &root, &"--config", &big]));
    assert_eq!(r.code, Some(2), "{}", r.err());
    assert!(r.err().contains("limit"), "{}", r.err());
}

#[test]
fn artifact_paths_through_a_link_out_of_the_corpus_reveal_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let (root, _) = corpus(tmp.path());
    symlink("/", root.join("up")).unwrap();
    let mut v: Value = serde_json::from_str(&std::fs::read_to_string(BASE).unwrap()).unwrap();
    // One names a file that exists on every machine, one a file that exists nowhere.
    v["artifacts"]["power_trace"]["path"] = json!("up/etc/passwd");
    v["artifacts"]["quality_gate"]["path"] = json!("up/etc/benchlint-no-such-file-7f3a");
    std::fs::write(root.join("r.json"), v.to_string()).unwrap();
    let r = exec(&args(&[
        &"check",
        &"--isolated",
        &"--format",
        &"json",
        &root,
    ]));
    let d: Value = serde_json::from_str(&r.out()).unwrap();
    let m017: Vec<String> = d["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|x| x["code"] == "M017")
        .map(|x| {
            x["message"]
                .as_str()
                .unwrap()
                .replace("power_trace", "X")
                .replace("quality_gate", "X")
                .replace("up/etc/passwd", "P")
                .replace("up/etc/benchlint-no-such-file-7f3a", "P")
        })
        .collect();
    assert_eq!(m017.len(), 2, "both reported: {}", r.out());
    assert_eq!(m017[0], m017[1], "the same words for both: {m017:?}");
    assert!(m017[0].contains("leaves the corpus"), "{m017:?}");
}

/// A config inside the checked paths keeps the input errors and M018 on, at their severity;
/// the same file named with `--config` is used as written; `--isolated` reads none.
#[test]
fn a_config_inside_the_checked_paths_cannot_silence_secrets_or_input_errors() {
    let tmp = tempfile::tempdir().unwrap();
    let (root, _) = corpus(tmp.path());
    let mut v: Value = serde_json::from_str(&std::fs::read_to_string(BASE).unwrap()).unwrap();
    v["notes"] = json!("auth Bearer sk-proj-Q9vLx2mT7rB4nK8wE1yZ5cH3jD6fA0gP");
    std::fs::write(root.join("r.json"), v.to_string()).unwrap();
    std::fs::write(root.join("broken.json"), "{\"a\": ").unwrap();
    let codes = |r: &Run| -> Vec<(String, String)> {
        let d: Value = serde_json::from_str(&r.out()).unwrap();
        d["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| {
                (
                    x["code"].as_str().unwrap().to_string(),
                    x["severity"].as_str().unwrap().to_string(),
                )
            })
            .collect()
    };
    let silencing = [
        "ignore = [\"ALL\"]\n",
        "select = [\"R\"]\n",
        "ignore = [\"M018\", \"E002\"]\n",
        "[severity]\n\"M\" = \"info\"\n\"E\" = \"info\"\n",
        "[per-file-ignores]\n\"**\" = [\"ALL\"]\n",
    ];
    for text in silencing {
        let config = root.join("benchlint.toml");
        std::fs::write(&config, text).unwrap();
        let r = exec(&args(&[&"check", &"--format", &"json", &root]));
        let got = codes(&r);
        assert!(
            got.contains(&("M018".into(), "error".into()))
                && got.contains(&("E002".into(), "error".into())),
            "{text}: {got:?}"
        );
        assert_eq!(r.code, Some(1), "{text}: the run fails");
        assert!(r.err().contains("benchlint.toml"), "{text}: said on stderr");
        // Named with --config: used as written.
        let r = exec(&args(&[
            &"check",
            &"--format",
            &"json",
            &root,
            &"--config",
            &config,
        ]));
        assert!(
            !codes(&r).iter().any(|(c, s)| c == "M018" && s == "error"),
            "{text}: --config is used as written: {:?}",
            codes(&r)
        );
    }
    // --isolated: no config at all.
    let r = exec(&args(&[
        &"check",
        &"--isolated",
        &"--format",
        &"json",
        &root,
    ]));
    assert!(codes(&r).contains(&("M018".into(), "error".into())));
    // A config above the checked paths (the repository's own) is used as written.
    std::fs::remove_file(root.join("benchlint.toml")).unwrap();
    std::fs::write(tmp.path().join("benchlint.toml"), "ignore = [\"M018\"]\n").unwrap();
    let r = exec(&args(&[&"check", &"--format", &"json", &root]));
    assert!(
        !codes(&r).iter().any(|(c, _)| c == "M018"),
        "{:?}",
        codes(&r)
    );
    // Resource bounds: tightened, never loosened; sidecars only in its own folder.
    std::fs::remove_file(tmp.path().join("benchlint.toml")).unwrap();
    std::fs::write(
        root.join("benchlint.toml"),
        "[thresholds]\nmax_file_bytes = 99999999999\n",
    )
    .unwrap();
    let r = exec(&args(&[&"check", &"--format", &"json", &root]));
    assert!(r.err().contains("max_file_bytes"), "{}", r.err());
    std::fs::write(tmp.path().join("side.json"), "{\"notes\": \"x\"}").unwrap();
    std::fs::write(
        root.join("benchlint.toml"),
        "[[sidecar]]\nfiles = \"*.json\"\npath = \"../side.json\"\n",
    )
    .unwrap();
    let r = exec(&args(&[&"check", &root]));
    assert_eq!(r.code, Some(2), "{}", r.err());
    assert!(
        r.err().contains("outside the config file's folder"),
        "{}",
        r.err()
    );
}
