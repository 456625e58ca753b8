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

use crate::support::watchdog;

use std::collections::BTreeMap;
use std::ffi::OsString;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;

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

// ---------------------------------------------------------------------------------------------
// Without a network.

/// The `unshare` prefix that takes the network away, if the platform allows one.
fn offline_prefix() -> Result<Vec<&'static str>, String> {
    let mut why = Vec::new();
    for prefix in [vec!["unshare", "-rn"], vec!["unshare", "-n"]] {
        match Command::new(prefix[0])
            .args(&prefix[1..])
            .arg("true")
            .output()
        {
            Ok(o) if o.status.success() => return Ok(prefix),
            Ok(o) => why.push(format!(
                "`{}` refused: {}",
                prefix.join(" "),
                String::from_utf8_lossy(&o.stderr).trim()
            )),
            Err(e) => why.push(format!("`{}`: {e}", prefix.join(" "))),
        }
    }
    Err(why.join("; "))
}

#[test]
fn every_command_works_without_a_network() {
    let prefix = match offline_prefix() {
        Ok(p) => p,
        Err(why) => {
            println!("skipped: no network namespace can be made here ({why})");
            return;
        }
    };
    // The namespace really has no route out.
    let probe = Command::new(prefix[0])
        .args(&prefix[1..])
        .args(["cat", "/proc/net/route"])
        .output()
        .unwrap();
    let routes = String::from_utf8_lossy(&probe.stdout).lines().count();
    assert!(
        routes <= 1,
        "a route in the namespace:\n{}",
        String::from_utf8_lossy(&probe.stdout)
    );
    let c = corpus();
    let out = tempfile::tempdir().unwrap();
    let mut list = commands(&c, out.path());
    list.push(vec!["schema".into(), "result".into()]);
    list.push(vec!["rules".into()]);
    list.push(vec!["rule".into(), "M018".into()]);
    for args in list {
        let mut cmd = Command::new(prefix[0]);
        cmd.args(&prefix[1..])
            .arg(env!("CARGO_BIN_EXE_benchlint"))
            .args(&args)
            .env("NO_COLOR", "1");
        let r = run(cmd, LIMIT);
        assert!(
            matches!(r.code, Some(0 | 1)),
            "offline {args:?}: exit {:?}\n{}",
            r.code,
            r.err()
        );
        assert!(
            !r.stdout.is_empty() || args[0] == "import" || args.iter().any(|a| a == "-o"),
            "offline {args:?} printed nothing"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Secrets.

/// The two keys in testdata/hostile/secrets: a token-shaped one, and a plain one after
/// `--api-key` in an argv. Fragments too, since a report may wrap a long line.
const SECRETS: [&str; 4] = [
    "sk-proj-Hx7Qm2Lp9Vt4Rw8Kz3Nb6Yc1Jd5Fg0Ae",
    "Hx7Qm2Lp9Vt4",
    "Yc1Jd5Fg0Ae",
    "pl41nT0kenNoPrefixQ8w7e6",
];

#[track_caller]
fn assert_no_secret(what: &str, bytes: &[u8]) {
    let text = String::from_utf8_lossy(bytes);
    for s in SECRETS {
        assert!(
            !text.contains(s),
            "{what} shows the secret {s:?}:\n{}",
            &text[text.find(s).unwrap().saturating_sub(300)..]
        );
    }
}

fn all_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            if e.path().is_dir() {
                stack.push(e.path());
            } else {
                out.push(e.path());
            }
        }
    }
    out.sort();
    out
}

#[test]
fn no_output_shows_a_secret() {
    let fixtures = Path::new("testdata/hostile/secrets");
    let files = all_files(fixtures);
    assert!(
        files
            .iter()
            .all(|f| std::fs::read_to_string(f).unwrap().contains(SECRETS[0])
                || std::fs::read_to_string(f).unwrap().contains(SECRETS[3]))
    );
    let out = tempfile::tempdir().unwrap();
    let mut runs: Vec<(String, Vec<OsString>)> = Vec::new();
    for format in [
        "human",
        "concise",
        "json",
        "json-lines",
        "sarif",
        "github",
        "junit",
    ] {
        runs.push((
            format!("check --format {format}"),
            vec![
                "check".into(),
                "--isolated".into(),
                "--format".into(),
                format.into(),
                fixtures.into(),
            ],
        ));
        runs.push((
            format!("check --format {format} --color always"),
            vec![
                "check".into(),
                "--isolated".into(),
                "--color".into(),
                "always".into(),
                "--format".into(),
                format.into(),
                fixtures.into(),
            ],
        ));
    }
    runs.push((
        "check --statistics".into(),
        vec![
            "check".into(),
            "--isolated".into(),
            "--statistics".into(),
            fixtures.into(),
        ],
    ));
    for format in ["table", "json", "csv", "markdown"] {
        runs.push((
            format!("summary --format {format}"),
            vec![
                "summary".into(),
                "--format".into(),
                format.into(),
                fixtures.into(),
            ],
        ));
    }
    for f in &files {
        runs.push((
            format!("cards {}", f.display()),
            vec!["cards".into(), f.into()],
        ));
    }
    runs.push((
        "import".into(),
        vec![
            "import".into(),
            fixtures.into(),
            "-o".into(),
            out.path().join("import").into(),
        ],
    ));
    runs.push((
        "sidecar -o".into(),
        vec![
            "sidecar".into(),
            "--isolated".into(),
            fixtures.into(),
            "-o".into(),
            out.path().join("sidecars").into(),
        ],
    ));
    for f in &files {
        runs.push((
            format!("sidecar {}", f.display()),
            vec!["sidecar".into(), "--isolated".into(), f.into()],
        ));
    }
    if has_audit() {
        let claims = out.path().join("claims.json");
        std::fs::write(
            &claims,
            r#"{"schema": "benchlint/claims/v1", "claims": [{"id": "c", "kind": "figure", "metric": "aggregate_tok_s", "value": 1, "subject": {"results": ["secret-argv"], "concurrency": 1}}]}"#,
        )
        .unwrap();
        for format in ["markdown", "json"] {
            runs.push((
                format!("audit --format {format}"),
                vec![
                    "audit".into(),
                    fixtures.into(),
                    "--claims".into(),
                    claims.clone().into(),
                    "--format".into(),
                    format.into(),
                ],
            ));
        }
        runs.push((
            "audit -o".into(),
            vec![
                "audit".into(),
                fixtures.into(),
                "--claims".into(),
                claims.into(),
                "-o".into(),
                out.path().join("audit").into(),
            ],
        ));
    } else {
        println!("skipped: `benchlint audit` is not in this build");
    }
    for (what, args) in &runs {
        let r = run_in(Path::new("."), args);
        assert!(!r.err().contains("panicked"), "{what}: {}", r.err());
        assert_no_secret(&format!("{what} (stdout)"), &r.stdout);
        assert_no_secret(&format!("{what} (stderr)"), &r.stderr);
    }
    let written = all_files(out.path());
    assert!(
        written
            .iter()
            .any(|f| f.starts_with(out.path().join("import"))),
        "import wrote files"
    );
    for f in written {
        assert_no_secret(&f.display().to_string(), &std::fs::read(&f).unwrap());
    }
}

#[test]
fn the_serve_command_parser_and_m015_never_show_an_argv_secret() {
    use benchlint::serve_command::{parse, split_command_line};
    let key = SECRETS[0];
    let lines = [
        format!("vllm serve m --api-key {key} --max-num-seqs 8"),
        format!("vllm serve m --api-key={key}"),
        format!("HF_TOKEN={key} python -m sglang.launch_server --model-path m --api-key {key}"),
        format!("trtllm-serve m --hf_token {key}"),
    ];
    for line in &lines {
        let argv = split_command_line(line);
        let settings = parse(&argv);
        let shown = format!("{settings:?}");
        assert!(!shown.contains(key), "{line}: {shown}");
        let redacted = benchlint::secrets::redact_argv(&argv).join(" ");
        assert!(!redacted.contains(key), "{redacted}");
    }
    // M015 quotes the command's value of a compared flag: a secret there is named, not shown.
    let r = run_in(
        Path::new("."),
        &[
            "check".into(),
            "--isolated".into(),
            "--format".into(),
            "concise".into(),
            "testdata/hostile/secrets/argv.json".into(),
        ],
    );
    let m015: Vec<&str> = r
        .stdout
        .split(|&b| b == b'\n')
        .filter_map(|l| std::str::from_utf8(l).ok())
        .filter(|l| l.contains("M015"))
        .collect();
    assert!(
        m015.iter()
            .any(|l| l.contains("the serve command says a secret (not shown) (--kv-cache-dtype)")),
        "{m015:?}"
    );
    assert_no_secret("M015", r.out().as_bytes());
    // The plain key after `--api-key` is found (M018) although nothing in it looks like a key.
    assert!(
        r.out()
            .contains("`/engine/serve_command/4` is the value of a secret argument"),
        "{}",
        r.out()
    );
}
