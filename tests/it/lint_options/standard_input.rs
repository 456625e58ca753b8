//! Standard input (`-`) read as a file under the name `--stdin-filename` gives it.

use std::io::Write;
use std::process::Stdio;

use super::{Run, bin, run, scratch};

// ---------------------------------------------------------------------------------------------
// Standard input

#[test]
fn standard_input_is_read_as_a_file_under_its_given_name() {
    let (_tmp, root) = scratch();
    let text = std::fs::read(root.join("results/a/run.json")).unwrap();
    let stdin = |args: &[&str]| {
        let mut child = bin(&root)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        child.stdin.take().unwrap().write_all(&text).unwrap();
        let out = child.wait_with_output().unwrap();
        Run {
            code: out.status.code().unwrap(),
            stdout: String::from_utf8(out.stdout).unwrap(),
            stderr: String::from_utf8(out.stderr).unwrap(),
        }
    };
    let from_file = run(
        &root,
        &[
            "check",
            "--isolated",
            "--format",
            "concise",
            "results/a/run.json",
        ],
    );
    let named = stdin(&[
        "check",
        "--isolated",
        "--format",
        "concise",
        "--stdin-filename",
        "results/a/run.json",
        "-",
    ]);
    assert_eq!(named.code, from_file.code, "{}", named.stderr);
    assert_eq!(named.stdout, from_file.stdout);
    let bare = stdin(&["check", "--isolated", "--format", "concise", "-"]);
    assert_eq!(bare.code, 1, "{}", bare.stderr);
    assert!(
        bare.stdout.lines().next().unwrap().starts_with("-:"),
        "{}",
        bare.stdout
    );
    // Config globs match the given name.
    std::fs::write(
        root.join("benchlint.toml"),
        "[per-file-ignores]\n\"results/a/*\" = [\"M\"]\n",
    )
    .unwrap();
    let r = stdin(&[
        "check",
        "--config",
        "benchlint.toml",
        "--format",
        "concise",
        "--stdin-filename",
        "results/a/run.json",
        "-",
    ]);
    assert!(!r.stdout.contains(" M0"), "{}", r.stdout);
    // Past the size limit: E001, as a file would be.
    let r = stdin(&[
        "check",
        "--isolated",
        "--max-file-size",
        "100",
        "--format",
        "concise",
        "-",
    ]);
    assert!(r.stdout.contains("E001"), "{}", r.stdout);
}
