//! The output formats of `check`: snapshots of SARIF, GitHub, JUnit and JSON Lines, statistics,
//! colour and output files, completions and the man page, SARIF against the SARIF 2.1.0 schema,
//! and terminal escapes from a file written out, never sent.

use std::path::Path;

use serde_json::Value;

use super::{FORMATS, FORMATS_CONFIG, run, snapshot, write};

// ---------------------------------------------------------------------------------------------
// Output formats (snapshots of the fixture folder, whose benchlint.toml selects E only)

#[test]
fn sarif_snapshot() {
    let r = run(&[
        "check",
        FORMATS,
        "--config",
        FORMATS_CONFIG,
        "--format",
        "sarif",
    ]);
    assert_eq!(r.code, 1);
    let mut v: Value = serde_json::from_str(&r.stdout).unwrap();
    // The rules' documentation belongs to their owners; its presence is checked, not its text.
    for rule in v["runs"][0]["tool"]["driver"]["rules"]
        .as_array_mut()
        .unwrap()
    {
        for key in ["fullDescription", "help"] {
            for part in ["text", "markdown"] {
                if let Some(t) = rule[key].get_mut(part) {
                    assert!(t.as_str().is_some_and(|s| !s.trim().is_empty()));
                    *t = Value::from("[documentation]");
                }
            }
        }
    }
    v["runs"][0]["tool"]["driver"]["version"] = Value::from("[version]");
    v["runs"][0]["tool"]["driver"]["semanticVersion"] = Value::from("[version]");
    snapshot("sarif", &serde_json::to_string_pretty(&v).unwrap());
}

#[test]
fn github_snapshot() {
    let r = run(&[
        "check",
        FORMATS,
        "--config",
        FORMATS_CONFIG,
        "--format",
        "github",
    ]);
    assert_eq!(r.code, 1);
    assert!(
        r.stdout
            .contains("file=testdata/cli/formats/100%25 odd%2C name.json,"),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains("::notice "), "info is a notice");
    snapshot("github", &r.stdout);
}

#[test]
fn junit_snapshot() {
    let r = run(&[
        "check",
        FORMATS,
        "--config",
        FORMATS_CONFIG,
        "--format",
        "junit",
    ]);
    assert_eq!(r.code, 1);
    snapshot("junit", &r.stdout);
    let clean = run(&[
        "check",
        "testdata/cli/select/minimal.json",
        "--isolated",
        "--select",
        "E",
        "--format",
        "junit",
    ]);
    assert!(clean.stdout.contains("failures=\"0\""), "{}", clean.stdout);
}

#[test]
fn json_lines_snapshot() {
    let r = run(&[
        "check",
        FORMATS,
        "--config",
        FORMATS_CONFIG,
        "--format",
        "json-lines",
    ]);
    assert_eq!(r.code, 1);
    snapshot("json-lines", &r.stdout);
    // The same objects as the json format's diagnostics.
    let doc: Value = serde_json::from_str(
        &run(&[
            "check",
            FORMATS,
            "--config",
            FORMATS_CONFIG,
            "--format",
            "json",
        ])
        .stdout,
    )
    .unwrap();
    let lines: Vec<Value> = r
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(&lines, doc["diagnostics"].as_array().unwrap());
    for d in &lines {
        // The page's path in benchlint's own tree: a page that exists, never a made-up URL.
        let url = d["url"].as_str().unwrap();
        let page = format!(
            "rules/{}-{}.md",
            d["code"].as_str().unwrap(),
            d["name"].as_str().unwrap()
        );
        assert_eq!(url, page);
        assert!(std::path::Path::new(&page).is_file(), "{page}");
    }
}

#[test]
fn statistics() {
    let r = run(&["check", FORMATS, "--config", FORMATS_CONFIG, "--statistics"]);
    assert_eq!(r.code, 1);
    snapshot("statistics", &r.stdout);
    let j = run(&[
        "check",
        FORMATS,
        "--config",
        FORMATS_CONFIG,
        "--statistics",
        "--format",
        "json",
    ]);
    let v: Value = serde_json::from_str(&j.stdout).unwrap();
    assert_eq!(v[0]["code"], "E004");
    assert_eq!(v[0]["count"], 2);
}

#[test]
fn color_and_output_file() {
    let always = run(&[
        "check",
        FORMATS,
        "--config",
        FORMATS_CONFIG,
        "--color",
        "always",
    ]);
    assert!(
        always.stdout.contains("\u{1b}["),
        "--color always colours even through a pipe"
    );
    let auto = run(&["check", FORMATS, "--config", FORMATS_CONFIG]);
    assert!(!auto.stdout.contains("\u{1b}["));
    let json = run(&[
        "check",
        FORMATS,
        "--config",
        FORMATS_CONFIG,
        "--color",
        "always",
        "--format",
        "json",
    ]);
    assert!(
        !json.stdout.contains("\u{1b}["),
        "only the human format is coloured"
    );
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("report.sarif");
    let r = run(&[
        "check",
        FORMATS,
        "--format",
        "sarif",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(r.code, 1);
    assert!(r.stdout.is_empty());
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(v["version"], "2.1.0");
}

#[test]
fn completions_and_manpage() {
    for shell in ["bash", "zsh", "fish"] {
        let r = run(&["completions", shell]);
        assert_eq!(r.code, 0, "{shell}");
        assert!(r.stdout.contains("benchlint"));
        assert!(r.stdout.contains("extend-select"));
        // Every command is offered, `sidecar` and its options among them.
        assert!(r.stdout.contains("sidecar"), "{shell}");
        assert!(r.stdout.contains("write-beside"), "{shell}");
    }
    let man = run(&["manpage"]);
    assert_eq!(man.code, 0);
    assert!(man.stdout.contains(".TH benchlint"));
    assert!(man.stdout.contains("sidecar"), "{}", man.stdout);
}

// ---------------------------------------------------------------------------------------------
// SARIF against the SARIF 2.1.0 schema

#[test]
fn sarif_validates_against_the_sarif_schema() {
    let schema_path = Path::new("../shared/thirdparty/sarif-schema-2.1.0.json");
    if !schema_path.is_file() {
        println!("skipped: {} is absent", schema_path.display());
        return;
    }
    let schema: Value =
        serde_json::from_str(&std::fs::read_to_string(schema_path).unwrap()).unwrap();
    let validator = jsonschema::options()
        .build(&schema)
        .expect("the SARIF schema compiles");
    let no_tool = serde_json::json!({"version": "2.1.0", "runs": [{"results": []}]});
    assert!(!validator.is_valid(&no_tool), "the validator bites");
    let corpus = if Path::new("testdata/corpora/demo").is_dir() {
        "testdata/corpora/demo"
    } else {
        FORMATS
    };
    for args in [
        vec!["check", corpus, "--isolated", "--format", "sarif"],
        vec!["check", FORMATS, "--format", "sarif"],
    ] {
        let r = run(&args);
        assert_ne!(r.code, 2, "{}", r.stderr);
        let sarif: Value = serde_json::from_str(&r.stdout).unwrap();
        let errors: Vec<String> = validator
            .iter_errors(&sarif)
            .map(|e| format!("{} at {}", e, e.instance_path()))
            .collect();
        assert!(errors.is_empty(), "{args:?}: {errors:#?}");
        let run = &sarif["runs"][0];
        let rules: Vec<&str> = run["tool"]["driver"]["rules"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["id"].as_str().unwrap())
            .collect();
        let results = run["results"].as_array().unwrap();
        assert!(!results.is_empty(), "{args:?}");
        for res in results {
            let id = res["ruleId"].as_str().unwrap();
            let index = usize::try_from(res["ruleIndex"].as_u64().unwrap()).unwrap();
            assert_eq!(rules.get(index), Some(&id), "ruleIndex of {id}");
            let loc = &res["locations"][0]["physicalLocation"];
            let uri = loc["artifactLocation"]["uri"].as_str().unwrap();
            assert!(
                !uri.starts_with('/') && !uri.contains('\\') && !uri.starts_with("./"),
                "{uri}"
            );
            assert_eq!(loc["artifactLocation"]["uriBaseId"], "%SRCROOT%");
        }
        for r in run["tool"]["driver"]["rules"].as_array().unwrap() {
            for key in ["shortDescription", "fullDescription", "help"] {
                let text = r[key]["text"].as_str().unwrap();
                assert!(
                    !text.is_empty() && (key == "help" || text.chars().count() <= 1024),
                    "{key} of {}",
                    r["id"]
                );
            }
            // No web page exists to point at: the help text says how to print the page.
            assert!(r.get("helpUri").is_none());
            let help = r["help"]["text"].as_str().unwrap();
            assert!(
                help.contains(&format!("benchlint rule {}", r["id"].as_str().unwrap())),
                "{help}"
            );
        }
    }
}

#[test]
fn terminal_escapes_quoted_from_a_file_are_written_out_not_sent() {
    let dir = tempfile::tempdir().unwrap();
    // An unknown schema name is quoted in E003's message; this one would clear the screen.
    let file = write(
        dir.path(),
        "evil.json",
        "{\"schema\": \"benchlint/\\u001b[2Jresult/v9\", \"id\": \"x\"}\n",
    );
    let path = file.to_str().unwrap();
    for format in ["human", "concise", "github", "junit"] {
        let r = run(&["check", "--format", format, path]);
        assert_eq!(r.code, 1, "{format}: {}", r.stderr);
        assert!(!r.stdout.contains('\u{1b}'), "{format} passed an escape on");
        assert!(r.stdout.contains("\\u{1b}[2J"), "{format}: {}", r.stdout);
    }
    // A raw escape byte (not JSON, so E002) is not passed on by the snippet either.
    let broken = write(dir.path(), "broken.json", "{\"schema\": \"a\u{1b}[2Jb\"}\n");
    let r = run(&["check", broken.to_str().unwrap()]);
    assert!(r.stdout.contains("E002"), "{}", r.stdout);
    assert!(
        !r.stdout.contains('\u{1b}'),
        "the snippet passed an escape on"
    );
    assert!(r.stdout.contains("a?[2Jb"), "{}", r.stdout);
}
