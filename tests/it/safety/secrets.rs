//! A secret never shows: an API key in several places through every output format, and the
//! serve command parser and M015 on an argv secret.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use super::{has_audit, run_in};

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
