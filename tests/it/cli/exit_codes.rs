//! Exit codes of `check` (0, 1, 2) and a bad config file reported at its line and column.

use super::{FORMATS, FORMATS_CONFIG, fixture, run, run_in, write};

// ---------------------------------------------------------------------------------------------
// Exit codes

#[test]
fn exit_codes() {
    // 0: nothing at error level.
    assert_eq!(
        run(&[
            "check",
            "testdata/cli/select/minimal.json",
            "--isolated",
            "--select",
            "E"
        ])
        .code,
        0
    );
    // 1: errors.
    assert_eq!(run(&["check", FORMATS, "--config", FORMATS_CONFIG]).code, 1);
    // Warnings alone do not fail, unless --fail-on warning.
    let unknown = "testdata/cli/formats/unknown.json";
    assert_eq!(run(&["check", unknown, "--config", FORMATS_CONFIG]).code, 0);
    assert_eq!(
        run(&[
            "check",
            unknown,
            "--config",
            FORMATS_CONFIG,
            "--fail-on",
            "warning"
        ])
        .code,
        1
    );
    assert_eq!(
        run(&[
            "check",
            unknown,
            "--config",
            FORMATS_CONFIG,
            "--fail-on",
            "error"
        ])
        .code,
        0
    );
    let odd = "testdata/cli/formats/100% odd, name.json";
    assert_eq!(
        run(&["check", odd, "--config", FORMATS_CONFIG, "--select", "E005"]).code,
        0,
        "E005 is an info in the fixture's config"
    );
    assert_eq!(
        run(&[
            "check",
            odd,
            "--config",
            FORMATS_CONFIG,
            "--select",
            "E005",
            "--fail-on",
            "warning"
        ])
        .code,
        0
    );
    assert_eq!(
        run(&[
            "check",
            odd,
            "--config",
            FORMATS_CONFIG,
            "--select",
            "E005",
            "--fail-on",
            "info"
        ])
        .code,
        1
    );
    // --exit-zero turns 1 into 0 ...
    assert_eq!(
        run(&["check", FORMATS, "--config", FORMATS_CONFIG, "--exit-zero"]).code,
        0
    );
    // ... but never 2.
    assert_eq!(
        run(&[
            "check",
            FORMATS,
            "--config",
            FORMATS_CONFIG,
            "--exit-zero",
            "--select",
            "Q123"
        ])
        .code,
        2
    );
    assert_eq!(
        run(&[
            "check",
            FORMATS,
            "--config",
            FORMATS_CONFIG,
            "--exit-zero",
            "--format",
            "yaml"
        ])
        .code,
        2
    );
    assert_eq!(
        run(&[
            "check",
            FORMATS,
            "--config",
            FORMATS_CONFIG,
            "--exit-zero",
            "--fail-on",
            "fatal"
        ])
        .code,
        2
    );
    assert_eq!(
        run(&[
            "check",
            FORMATS,
            "--exit-zero",
            "--config",
            "testdata/cli/no-such.toml"
        ])
        .code,
        2
    );
    assert_eq!(
        run(&[
            "check",
            FORMATS,
            "--config",
            FORMATS_CONFIG,
            "--statistics",
            "--format",
            "sarif"
        ])
        .code,
        2
    );
    assert_eq!(
        run(&[
            "check",
            FORMATS,
            "--config",
            FORMATS_CONFIG,
            "--update-baseline"
        ])
        .code,
        2,
        "--update-baseline needs --baseline"
    );
    assert_eq!(run(&["rule", "Z999"]).code, 2);
    assert_eq!(run(&["--help"]).code, 0);
    let r = run(&[
        "check",
        FORMATS,
        "--config",
        FORMATS_CONFIG,
        "--ignore",
        "m005",
    ]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("did you mean `M005`"), "{}", r.stderr);
}

#[test]
fn bad_config_is_exit_2_pointing_at_line_and_column() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "r/broken.json", &fixture("broken.json"));
    let cases = [
        (
            "select = [\"E\"]\n\n[thresholds]\nmin_window = 3\n",
            "benchlint.toml:4:1",
            "min_window",
        ),
        (
            "select = [\"E\"]\nignore = [\"E002\", \"X123\"]\n",
            "benchlint.toml:2:19",
            "X123",
        ),
        (
            "[thresholds]\nmin_window_s = \"long\"\n",
            "benchlint.toml:2:16",
            "invalid type",
        ),
        (
            "[severity]\n\"E0\" = \"fatal\"\n",
            "benchlint.toml:2:8",
            "fatal",
        ),
        (
            "[per-file-ignores]\n\"a/[b\" = [\"E\"]\n",
            "benchlint.toml:2:1",
            "invalid glob",
        ),
        (
            "[[sidecar]]\nfiles = \"r/**\"\n",
            "benchlint.toml:1:1",
            "needs `values`",
        ),
        (
            "[[sidecar]]\nfiles = \"r/**\"\nvalues = { outcome = 3 }\n",
            "benchlint.toml:3:10",
            "result schema",
        ),
        (
            "[[sidecar]]\nfiles = \"r/**\"\npath = \"nope.json\"\n",
            "benchlint.toml:3:8",
            "could not be read",
        ),
    ];
    for (text, place, words) in cases {
        write(dir.path(), "benchlint.toml", text);
        for extra in [&[][..], &["--exit-zero"][..]] {
            let mut args = vec!["check", "r"];
            args.extend_from_slice(extra);
            let r = run_in(Some(dir.path()), &args);
            assert_eq!(r.code, 2, "{text}: {}", r.stderr);
            assert!(
                r.stderr.contains(place),
                "{text}: expected {place} in\n{}",
                r.stderr
            );
            assert!(
                r.stderr.contains(words),
                "{text}: expected {words} in\n{}",
                r.stderr
            );
            assert!(r.stdout.is_empty());
        }
        // --isolated ignores the config file.
        assert_eq!(
            run_in(Some(dir.path()), &["check", "r", "--isolated"]).code,
            1
        );
    }
}
