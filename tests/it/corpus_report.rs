//! The corpus report (`benchlint audit` without `--claims`): Markdown and JSON snapshots on
//! testdata/corpora/demo; the same counts as `check`; the checklist coverage states (recorded,
//! derived, sidecar, not usable, missing, not asked) on files written here; the replication
//! standing of configurations that are replicated, short of runs, unresolved, pre-rule and not
//! identified; the section order with a claims file; text from file names escaped; the real
//! files of `../shared/realworld` (when present); and the HTML page rendered in headless
//! Chromium (when installed).

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

const DEMO: &str = "testdata/corpora/demo";
const REPLICATED: &str = "testdata/clean/replicated-corpus";
const REALWORLD: &str = "../shared/realworld";

fn bin() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_benchlint"));
    c.env("NO_COLOR", "1");
    c
}

/// `benchlint ARGS`: exit code and stdout.
fn run(args: &[&str]) -> (Option<i32>, String) {
    let out = bin().args(args).output().unwrap();
    assert!(
        out.status.code() != Some(2),
        "exit 2: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    (
        out.status.code(),
        String::from_utf8(out.stdout).expect("UTF-8 output"),
    )
}

/// The corpus report of `path` as JSON, checked against the bundled schema.
fn report_json(path: &str) -> Value {
    let (_, text) = run(&["audit", path, "--format", "json"]);
    let v: Value = serde_json::from_str(&text).unwrap();
    let errors = benchlint::schema::validate(benchlint::schema::Kind::Audit, &v);
    assert!(errors.is_empty(), "{errors:?}");
    v
}

/// The version, which moves with every release, as `X.Y.Z`.
fn redact(text: &str) -> String {
    text.replace(env!("CARGO_PKG_VERSION"), "X.Y.Z")
}

fn snapshot(name: &str, text: &str) {
    insta::with_settings!({ snapshot_path => "snapshots/corpus_report", prepend_module_to_snapshot => false }, {
        insta::assert_snapshot!(name, redact(text));
    });
}

/// The state of `field` for the file whose path ends with `file`.
fn state(report: &Value, file: &str, field: &str) -> String {
    let checklist = &report["corpus"]["checklist"];
    let i = checklist["items"]
        .as_array()
        .unwrap()
        .iter()
        .position(|item| item["field"] == field)
        .unwrap_or_else(|| panic!("no checklist field {field}"));
    let row = checklist["files"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["path"].as_str().unwrap().ends_with(file))
        .unwrap_or_else(|| panic!("no coverage row for {file}"));
    row["states"][i].as_str().unwrap().to_string()
}

/// The replication of the ladder whose label contains `label`.
fn replication<'v>(report: &'v Value, label: &str) -> &'v Value {
    &report["ladders"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["label"].as_str().unwrap().contains(label))
        .unwrap_or_else(|| panic!("no configuration labelled {label}"))["replication"]
}

#[test]
fn markdown_of_the_demo_corpus() {
    let (code, md) = run(&["audit", DEMO]);
    // The demo corpus has errors: the report says so, and the exit code is `check`'s.
    assert_eq!(code, Some(1));
    assert!(md.starts_with("# Corpus report\n"), "{md}");
    assert!(!md.contains("## Claims") && !md.contains("## Summary"));
    snapshot("demo.md", &md);
}

#[test]
fn json_of_the_demo_corpus() {
    let v = report_json(DEMO);
    assert_eq!(v["claims"], Value::Array(vec![]));
    assert_eq!(v["claims_file"], Value::Null);
    snapshot("demo.json", &serde_json::to_string_pretty(&v).unwrap());
}

/// The report counts what `check` finds, file by file and rule by rule.
#[test]
fn counts_agree_with_check() {
    for corpus in [DEMO, REPLICATED] {
        let report = report_json(corpus);
        let (_, text) = run(&["check", corpus, "--format", "json"]);
        let check: Value = serde_json::from_str(&text).unwrap();
        let corpus_json = &report["corpus"];
        for (ours, theirs) in [
            ("errors", "errors"),
            ("warnings", "warnings"),
            ("infos", "infos"),
        ] {
            assert_eq!(
                corpus_json["findings"][ours], check["summary"][theirs],
                "{corpus}: {ours}"
            );
        }
        assert_eq!(corpus_json["results"], check["summary"]["results"]);
        assert_eq!(corpus_json["files_read"], check["summary"]["files"]);
        let diagnostics = check["diagnostics"].as_array().unwrap();
        for file in corpus_json["files"].as_array().unwrap() {
            let on_file = diagnostics
                .iter()
                .filter(|d| d["path"] == file["path"])
                .count();
            let f = &file["findings"];
            let counted = ["errors", "warnings", "infos"]
                .iter()
                .map(|k| f[*k].as_u64().unwrap())
                .sum::<u64>();
            assert_eq!(counted, on_file as u64, "{}", file["path"]);
        }
        for rule in corpus_json["rules"].as_array().unwrap() {
            let of_rule = diagnostics
                .iter()
                .filter(|d| d["code"] == rule["code"])
                .count();
            let f = &rule["findings"];
            let counted = ["errors", "warnings", "infos"]
                .iter()
                .map(|k| f[*k].as_u64().unwrap())
                .sum::<u64>();
            assert_eq!(counted, of_rule as u64, "{}", rule["code"]);
        }
        // Worst first.
        let files = corpus_json["files"].as_array().unwrap();
        let key = |f: &Value| {
            let c = &f["findings"];
            (
                c["errors"].as_u64().unwrap(),
                c["warnings"].as_u64().unwrap(),
                c["infos"].as_u64().unwrap(),
            )
        };
        assert!(files.windows(2).all(|w| key(&w[0]) >= key(&w[1])));
    }
}

/// The run's cap bounds the findings a report lists, and the corpus report lists none: it
/// counts every finding `check` counts, past the cap too.
#[test]
fn counts_past_the_run_cap_agree_with_check() {
    let tmp = tempfile::tempdir().unwrap();
    let config = tmp.path().join("capped.toml");
    std::fs::write(&config, "[thresholds]\nmax_findings = 3\n").unwrap();
    let config = config.to_str().unwrap();
    let (_, text) = run(&["audit", DEMO, "--config", config, "--format", "json"]);
    let report: Value = serde_json::from_str(&text).unwrap();
    let (_, text) = run(&["check", DEMO, "--config", config, "--format", "json"]);
    let check: Value = serde_json::from_str(&text).unwrap();
    assert!(
        check["summary"]["omitted"].as_u64().unwrap() > 0,
        "the cap must bite for this test to mean anything"
    );
    let counts = &report["corpus"]["findings"];
    for key in ["errors", "warnings", "infos"] {
        assert_eq!(counts[key], check["summary"][key], "{key}");
    }
    let total = |c: &Value| {
        ["errors", "warnings", "infos"]
            .iter()
            .map(|k| c[*k].as_u64().unwrap())
            .sum::<u64>()
    };
    let by_rule: u64 = report["corpus"]["rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| total(&r["findings"]))
        .sum();
    assert_eq!(by_rule, total(counts));
}

/// A clean, replicated corpus: every configuration replicated, exit 0.
#[test]
fn a_replicated_corpus() {
    let (code, md) = run(&["audit", REPLICATED]);
    assert_eq!(code, Some(0), "{md}");
    let v = report_json(REPLICATED);
    for l in v["ladders"].as_array().unwrap() {
        let r = &l["replication"];
        assert_eq!(r["standing"], "replicated", "{}", l["label"]);
        assert_eq!(r["needs"], Value::Array(vec![]));
        assert!(r["summary"].as_str().unwrap().starts_with("replicated: "));
    }
    assert!(md.contains("Every file records every field asked of it."));
}

/// Writes `doc` as `name` into `dir`.
fn write(dir: &Path, name: &str, doc: &Value) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, serde_json::to_string_pretty(doc).unwrap()).unwrap();
    p
}

fn complete() -> Value {
    serde_json::from_str(&std::fs::read_to_string(format!("{REPLICATED}/complete.json")).unwrap())
        .unwrap()
}

fn remove(doc: &mut Value, pointer: &str) {
    let (parent, key) = pointer.rsplit_once('/').unwrap();
    doc.pointer_mut(parent)
        .unwrap()
        .as_object_mut()
        .unwrap()
        .remove(key)
        .unwrap();
}

/// Every state of the matrix, each where a user would expect it.
#[test]
fn coverage_states() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    let mut n = 0;
    let mut variant = |name: &str, edit: &dyn Fn(&mut Value)| {
        let mut doc = complete();
        n += 1;
        doc["id"] = Value::from(format!("variant-{n}"));
        edit(&mut doc);
        write(dir, name, &doc);
    };
    variant("full.json", &|_| {});
    // The command was read from the process and names --max-num-seqs: derived.
    variant("derived.json", &|d| remove(d, "/engine/max_num_seqs"));
    variant("sidecar.json", &|d| remove(d, "/engine/enforce_eager"));
    variant("tag.json", &|d| {
        d["engine"]["image_digest"] = Value::from("nvcr.io/nvidia/vllm:25.09-py3");
    });
    variant("bare.json", &|d| {
        remove(d, "/platform/host");
        remove(d, "/model/kernel");
    });
    variant("single-node.json", &|d| {
        d["platform"]["nodes"] = Value::from(1);
        remove(d, "/platform/fabric");
        remove(d, "/platform/parity_check");
    });
    write(
        dir,
        "sidecar.meta.json",
        &serde_json::json!({ "engine": { "enforce_eager": false } }),
    );
    let root = dir.to_str().unwrap();
    let v = report_json(root);
    assert_eq!(state(&v, "/full.json", "engine.max_num_seqs"), "recorded");
    assert_eq!(state(&v, "/derived.json", "engine.max_num_seqs"), "derived");
    assert_eq!(
        state(&v, "/sidecar.json", "engine.enforce_eager"),
        "sidecar"
    );
    assert_eq!(state(&v, "/tag.json", "engine.image_digest"), "unusable");
    assert_eq!(state(&v, "/bare.json", "platform.host"), "missing");
    assert_eq!(state(&v, "/bare.json", "model.kernel"), "missing");
    assert_eq!(
        state(&v, "/single-node.json", "platform.fabric.interconnect"),
        "not-applicable"
    );
    assert_eq!(
        state(&v, "/single-node.json", "platform.parity_check.at"),
        "not-applicable"
    );
    let files = v["corpus"]["checklist"]["files"].as_array().unwrap();
    // Most owed first: the bare file owes two fields.
    assert!(files[0]["path"].as_str().unwrap().ends_with("/bare.json"));
    assert_eq!(files[0]["owed"], 2);
    let (_, md) = run(&["audit", root]);
    assert!(md.contains("| `bare.json` | 2 of 35 |"), "{md}");
    assert!(
        md.contains("- `bare.json` (1 result): lacks M001 `platform.host`; M008 `model.kernel`."),
        "{md}"
    );
    assert!(
        md.contains("- `tag.json` (1 result): lacks M002 `engine.image_digest` (not usable)."),
        "{md}"
    );
    assert!(md.contains("(paths below are relative to it)"));
}

/// The configuration decides the columns: a rule turned off has none, a rule turned off for a
/// file leaves its fields not asked there.
#[test]
fn coverage_follows_the_configuration() {
    let tmp = tempfile::tempdir().unwrap();
    for name in ["old.json", "new.json"] {
        let mut doc = complete();
        doc["id"] = Value::from(name);
        remove(&mut doc, "/platform/host");
        write(tmp.path(), name, &doc);
    }
    std::fs::write(
        tmp.path().join("benchlint.toml"),
        "ignore = [\"M014\"]\n\n[per-file-ignores]\n\"old.json\" = [\"M001\"]\n",
    )
    .unwrap();
    let v = report_json(tmp.path().to_str().unwrap());
    let items = v["corpus"]["checklist"]["items"].as_array().unwrap();
    assert!(items.iter().all(|i| i["code"] != "M014"));
    assert_eq!(items.len(), 33);
    assert_eq!(state(&v, "/old.json", "platform.host"), "not-applicable");
    assert_eq!(state(&v, "/new.json", "platform.host"), "missing");
    assert!(
        v["corpus"]["rules"]
            .as_array()
            .unwrap()
            .iter()
            .all(|r| r["code"] != "M014")
    );
}

/// Run folders: what the engine's log and the launch command supply is marked as such.
#[test]
fn coverage_from_the_run_folder() {
    let v = report_json("testdata/adapters/run-folder/vllm-aiperf");
    let file = "aiperf_artifacts/profile_export_aiperf.json";
    assert_eq!(state(&v, file, "engine.version"), "run-folder");
    assert_eq!(state(&v, file, "engine.serve_command"), "run-folder");
    assert_eq!(state(&v, file, "platform.host"), "missing");
}

fn set_measured(doc: &mut Value, at: &str) {
    doc["measured_at"] = Value::from(at);
}

/// Short of runs, unresolved, pre-rule and not identified, each with what it needs.
#[test]
fn replication_standings() {
    let demo = report_json(DEMO);
    let x8 = replication(&demo, "8 × NVIDIA GB10");
    assert_eq!(x8["standing"], "needs-more");
    assert_eq!(
        (x8["runs"].as_u64(), x8["launches"].as_u64()),
        (Some(3), Some(2))
    );
    assert_eq!(
        x8["summary"],
        "3 runs over 2 launches, 3 full ladders; needs 2 more runs (S002); 2 more full ladders of 2 or more levels, 5 in all for a published figure (S004)"
    );
    let gb300 = replication(&demo, "GB300");
    assert_eq!(
        gb300["needs"][0]["what"],
        "14 more runs over 1 more launch on this workload"
    );
    assert_eq!(
        gb300["needs"][0]["codes"],
        serde_json::json!(["S001", "S003"])
    );

    // Two runs that disagree by 30% at one level: not yet resolved.
    let tmp = tempfile::tempdir().unwrap();
    for (i, name) in ["prose-r1.json", "prose-r2.json"].iter().enumerate() {
        let mut doc: Value = serde_json::from_str(
            &std::fs::read_to_string(format!("{DEMO}/gb10-x8/{name}")).unwrap(),
        )
        .unwrap();
        if i == 1 {
            let agg = &mut doc["levels"][3]["throughput_tok_s"]["aggregate"];
            *agg = Value::from(agg.as_f64().unwrap() * 1.3);
        }
        write(tmp.path(), name, &doc);
    }
    let v = report_json(tmp.path().to_str().unwrap());
    let r = &v["ladders"][0]["replication"];
    assert_eq!(r["standing"], "unresolved", "{r}");
    assert!(
        r["needs"]
            .as_array()
            .unwrap()
            .iter()
            .any(|n| n["codes"] == serde_json::json!(["S006"])
                && n["what"].as_str().unwrap().contains("8 streams")),
        "{r}"
    );

    // Speculation on, five ladders over two launches, measured before S001 was adopted: short
    // only of the pre-rule count.
    let tmp = tempfile::tempdir().unwrap();
    for name in [
        "prose-l1-r2",
        "prose-l1-r3",
        "prose-l2-r1",
        "prose-l2-r2",
        "prose-l2-r3",
    ] {
        let mut doc: Value = serde_json::from_str(
            &std::fs::read_to_string(format!("{REPLICATED}/workload-prose/{name}.json")).unwrap(),
        )
        .unwrap();
        set_measured(&mut doc, "2026-05-01T10:00:00Z");
        write(tmp.path(), &format!("{name}.json"), &doc);
    }
    let v = report_json(tmp.path().to_str().unwrap());
    let r = &v["ladders"][0]["replication"];
    assert_eq!(r["standing"], "pre-rule", "{r}");
    assert_eq!(r["needs"][0]["pre_rule"], true);
    assert!(r["summary"].as_str().unwrap().contains("(S001, pre-rule)"));

    // A vLLM file that names no engine nor device: not identified, nothing judged.
    let v = report_json("testdata/adapters/vllm/bench-serve-save-detailed.json");
    let r = &v["ladders"][0]["replication"];
    assert_eq!(r["standing"], "not-identified");
    assert_eq!(r["needs"], Value::Array(vec![]));
    let summary = r["summary"].as_str().unwrap();
    assert!(
        summary.starts_with("not identified: ") && summary.contains("device model"),
        "{summary}"
    );
}

/// With a claims file, the retractions come first, then the corpus sections.
#[test]
fn claims_first_then_the_corpus() {
    let corpus = "testdata/corpora/gb10-audit";
    let (_, md) = run(&[
        "audit",
        corpus,
        "--claims",
        &format!("{corpus}/claims.json"),
    ]);
    let headings: Vec<&str> = md.lines().filter(|l| l.starts_with("## ")).collect();
    assert_eq!(
        headings,
        [
            "## Summary",
            "## Claims",
            "## Corpus overview",
            "## Findings by file",
            "## Findings by rule",
            "## Checklist coverage",
            "## Configurations",
            "## Losing runs",
        ]
    );
    assert!(md.starts_with("# Retractions report\n"));
    let (_, md) = run(&["audit", DEMO]);
    let headings: Vec<&str> = md.lines().filter(|l| l.starts_with("## ")).collect();
    assert_eq!(
        headings,
        [
            "## Corpus overview",
            "## Findings by file",
            "## Findings by rule",
            "## Checklist coverage",
            "## Configurations",
            "## Losing runs",
        ]
    );
}

/// A file name with markup in it stays text in every format.
#[test]
fn file_names_are_escaped() {
    let tmp = tempfile::tempdir().unwrap();
    let mut doc = complete();
    remove(&mut doc, "/platform/host");
    let name = "a|b <img src=x> & `tick`.json";
    write(tmp.path(), name, &doc);
    let root = tmp.path().to_str().unwrap();
    let (_, md) = run(&["audit", root]);
    // In Markdown the name is a code span (fenced past its backtick), where markup is text.
    let lines: Vec<&str> = md.lines().filter(|l| l.contains("<img")).collect();
    assert!(lines.len() >= 3, "{md}");
    for line in lines {
        assert!(line.contains("<img src=x> & `tick`.json``"), "{line}");
        if line.starts_with('|') {
            // Inside a table the row keeps its cells: the `|` of the name is escaped.
            assert!(line.contains("``a\\|b <img"), "{line}");
        }
    }
    let out = tempfile::tempdir().unwrap();
    let dir = out.path().join("r");
    let status = bin()
        .args(["audit", root, "-o"])
        .arg(&dir)
        .status()
        .unwrap();
    assert_eq!(status.code(), Some(1));
    let html = std::fs::read_to_string(dir.join("report.html")).unwrap();
    assert!(!html.contains("<img"), "raw markup in the page");
    // Every rule the findings-by-rule table links is a page written beside the report.
    let md = std::fs::read_to_string(dir.join("report.md")).unwrap();
    let links: Vec<&str> = md
        .split("](rules/")
        .skip(1)
        .chain(html.split("href=\"rules/").skip(1))
        .map(|rest| rest.split([')', '"']).next().unwrap())
        .collect();
    assert!(links.len() >= 2, "{md}");
    for link in links {
        assert!(dir.join("rules").join(link).is_file(), "no page {link}");
    }
    assert!(html.contains("a|b &lt;img src=x&gt; &amp; `tick`.json"));
    let json: Value =
        serde_json::from_str(&std::fs::read_to_string(dir.join("report.json")).unwrap()).unwrap();
    assert!(
        json["corpus"]["files"][0]["path"]
            .as_str()
            .unwrap()
            .ends_with(name)
    );
}

/// A file name holding a secret, a bidirectional override and a terminal escape: masked and
/// written out as escapes in every format, never passed through.
#[test]
fn file_names_are_masked_and_hidden_characters_escaped() {
    let tmp = tempfile::tempdir().unwrap();
    let secret = "sk-proj-Q9vLx2mT7rB4nK8wE1yZ5cH3jD6fA0gP";
    let mut doc = complete();
    remove(&mut doc, "/platform/host");
    write(
        tmp.path(),
        &format!("key {secret} \u{202e}x\u{1b}[31m.json"),
        &doc,
    );
    let root = tmp.path().to_str().unwrap();
    let out = tempfile::tempdir().unwrap();
    let dir = out.path().join("r");
    let status = bin()
        .args(["audit", root, "-o"])
        .arg(&dir)
        .status()
        .unwrap();
    assert_eq!(status.code(), Some(1));
    let (_, stdout) = run(&["audit", root]);
    for (name, text) in [
        ("stdout", stdout),
        (
            "report.md",
            std::fs::read_to_string(dir.join("report.md")).unwrap(),
        ),
        (
            "report.html",
            std::fs::read_to_string(dir.join("report.html")).unwrap(),
        ),
        (
            "report.json",
            std::fs::read_to_string(dir.join("report.json")).unwrap(),
        ),
    ] {
        assert!(!text.contains(secret), "{name} shows the secret");
        assert!(
            text.contains("<redacted>") || text.contains("&lt;redacted&gt;"),
            "{name}"
        );
        assert!(
            !text.contains('\u{202e}') && !text.contains('\u{1b}'),
            "{name} passes a hidden character through"
        );
    }
    let md = std::fs::read_to_string(dir.join("report.md")).unwrap();
    assert!(
        md.contains("| `key <redacted> \\u{202e}x\\u{1b}[31m.json` | 1 of 35 |"),
        "{md}"
    );
}

/// The real files: every result file has a coverage row, none is complete, nothing is pooled.
#[test]
fn the_real_files() {
    if !Path::new(REALWORLD).join("INDEX.md").is_file() {
        eprintln!("skipped: {REALWORLD} is not there");
        return;
    }
    let v = report_json(REALWORLD);
    let corpus = &v["corpus"];
    let with_results = corpus["files"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["results"].as_u64().unwrap() > 0)
        .count();
    assert_eq!(
        corpus["checklist"]["files"].as_array().unwrap().len(),
        with_results
    );
    assert!(
        corpus["checklist"]["files"]
            .as_array()
            .unwrap()
            .iter()
            .all(|f| f["owed"].as_u64().unwrap() > 0)
    );
    // The InferenceX run folders supply the engine's settings from its log.
    assert_eq!(
        state(
            &v,
            "amds_06/aiperf_artifacts/profile_export_aiperf.json",
            "engine.version"
        ),
        "run-folder"
    );
    // Files written by harnesses rarely say which device ran them: such a configuration is
    // judged by no replication rule, and its status says what is missing.
    let ladders = v["ladders"].as_array().unwrap();
    let unidentified: Vec<&Value> = ladders
        .iter()
        .filter(|l| l["replication"]["standing"] == "not-identified")
        .collect();
    assert!(!unidentified.is_empty());
    for l in &unidentified {
        let r = &l["replication"];
        assert_eq!(r["needs"], Value::Array(vec![]));
        assert!(!r["not_recorded"].as_array().unwrap().is_empty());
    }
    let (_, md) = run(&["audit", REALWORLD]);
    let line = md
        .lines()
        .find(|l| l.starts_with("- Replication: "))
        .unwrap();
    assert!(
        line.contains(&format!("{} not identified", unidentified.len())),
        "{line}"
    );
}

/// The page, rendered by a browser: it parses into the sections and rows the report holds, and
/// a screenshot is drawn. Skipped (with a reason) when no Chromium is installed, except in CI
/// (`CI` set, as `.ci/run` runs it after installing Chromium), where a missing browser fails
/// the test: the page must never go unrendered there.
#[test]
fn html_renders_in_chromium() {
    let Some(chromium) = ["/usr/bin/chromium", "/usr/bin/chromium-browser"]
        .into_iter()
        .map(Path::new)
        .find(|p| p.is_file())
    else {
        let ci = std::env::var_os("CI").is_some_and(|v| !v.is_empty() && v != "false");
        assert!(
            !ci,
            "CI is set but no Chromium at /usr/bin/chromium: .ci/run installs it (apt-get install chromium)"
        );
        eprintln!("skipped: no Chromium at /usr/bin/chromium (apt-get install chromium)");
        return;
    };
    let out = tempfile::tempdir().unwrap();
    let dir = out.path().join("report");
    let status = bin()
        .args(["audit", DEMO, "-o"])
        .arg(&dir)
        .status()
        .unwrap();
    assert_eq!(status.code(), Some(1));
    let page = dir.join("report.html");
    let url = format!("file://{}", page.display());
    let profile = tempfile::tempdir().unwrap();
    let shot = out.path().join("shot.png");
    let browser = |extra: &[&str]| {
        Command::new(chromium)
            .args([
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--no-first-run",
                "--window-size=1280,4000",
            ])
            .arg(format!("--user-data-dir={}", profile.path().display()))
            .args(extra)
            .arg(&url)
            .output()
            .unwrap()
    };
    let dom = browser(&["--dump-dom"]);
    assert!(
        dom.status.success(),
        "{}",
        String::from_utf8_lossy(&dom.stderr)
    );
    let dom = String::from_utf8_lossy(&dom.stdout);
    let report = report_json(DEMO);
    for id in [
        "overview",
        "files",
        "rules",
        "checklist",
        "configurations",
        "losing-runs",
    ] {
        assert!(dom.contains(&format!("id=\"{id}\"")), "section {id}");
    }
    // One matrix row per file with results, one square per field in each.
    let matrix = dom.split("<table class=\"matrix\">").nth(1).unwrap();
    let body = matrix.split("</table>").next().unwrap();
    let files = report["corpus"]["checklist"]["files"].as_array().unwrap();
    let items = report["corpus"]["checklist"]["items"].as_array().unwrap();
    assert_eq!(body.matches("<tr>").count(), files.len() + 1);
    assert_eq!(
        body.matches("<span class=\"m").count(),
        files.len() * items.len()
    );
    let drawn = browser(&[&format!("--screenshot={}", shot.display())]);
    assert!(
        drawn.status.success(),
        "{}",
        String::from_utf8_lossy(&drawn.stderr)
    );
    let png = std::fs::read(&shot).unwrap();
    assert!(
        png.starts_with(b"\x89PNG") && png.len() > 20_000,
        "{} bytes",
        png.len()
    );
}

/// An output that keeps the size of what it is given and the largest piece given at once.
#[derive(Default)]
struct Recording {
    total: usize,
    largest: usize,
}

impl std::io::Write for Recording {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.largest = self.largest.max(buf.len());
        self.total += buf.len();
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The sections with a row per file, configuration or claim (findings by file, the checklist
/// matrix, what each file lacks, the replication table, the claims' summary) reach the report's
/// file a megabyte of rows at a time, not as one string: at tens of thousands of files each
/// section runs to tens of megabytes.
#[test]
fn the_rows_of_every_file_reach_the_report_in_pieces() {
    use benchlint::audit::corpus::{FindingTally, build};
    use benchlint::corpus::Options;
    let tmp = tempfile::tempdir().unwrap();
    // Results that record little: every file owes checklist fields, so each has a row in
    // every per-file section.
    for i in 0..4000 {
        let doc = serde_json::json!({
            "schema": "benchlint/result/v1", "id": format!("r{i:04}"),
            "measured_at": "2026-09-01T00:00:00Z", "outcome": "ok",
            "levels": [{"concurrency": 8, "requests": 100, "duration_s": 60.0,
                        "throughput_tok_s": {"aggregate": 2000.0 + f64::from(i)}}],
        });
        std::fs::write(tmp.path().join(format!("r{i:04}.json")), doc.to_string()).unwrap();
    }
    // And a claim per result: the claims' summary table has a row each.
    let claims: Vec<serde_json::Value> = (1..4000)
        .map(|i| {
            serde_json::json!({
                "id": format!("c{i:04}"), "kind": "ratio", "metric": "aggregate_tok_s",
                "value": 1.01,
                "subject": {"results": [format!("r{i:04}")], "concurrency": 8},
                "baseline": {"results": [format!("r{:04}", i - 1)], "concurrency": 8},
            })
        })
        .collect();
    let claims = serde_json::json!({"schema": "benchlint/claims/v1", "claims": claims});
    std::fs::write(tmp.path().join("claims.json"), claims.to_string()).unwrap();
    let options = Options::default();
    let corpus = benchlint::corpus::load(&[tmp.path().to_path_buf()], &options);
    assert_eq!(corpus.results.len(), 4000);
    assert_eq!(corpus.claims.len(), 1, "the claims file is read");
    let mut audit = benchlint::claims::audit(&corpus, 20.0, &options.thresholds);
    let checklist = benchlint::audit::checklist::coverage(
        &corpus.results,
        &options.thresholds,
        &|_, _| true,
        &|_| true,
    );
    audit.corpus = Some(build(
        corpus.files,
        &corpus.results,
        FindingTally::default(),
        checklist,
    ));
    let ctx = benchlint::report::AuditContext::new(vec![], Some("claims.json".into()));
    let writers: [(&str, benchlint::report::AuditWriter); 2] = [
        ("report.md", benchlint::report::write_audit_markdown),
        ("report.html", benchlint::report::write_audit_html),
    ];
    for (name, write) in writers {
        let mut out = Recording::default();
        write(&audit, &ctx, &mut out).unwrap();
        assert!(
            out.total > 3 << 20,
            "{name}: {} bytes, too few to tell",
            out.total
        );
        // A megabyte, plus the row that took it past the mark.
        assert!(
            out.largest < (1 << 20) + (64 << 10),
            "{name}: a piece of {} bytes in a document of {}",
            out.largest,
            out.total
        );
    }
}
