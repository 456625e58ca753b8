//! No input reaches any output raw. Corpora are generated from seeds, every string a result,
//! a claims file, a sidecar, a file name, a config file or an argument can carry filled with
//! hostile text of many shapes (terminal escapes, OSC links, bells, line breaks and workflow
//! commands, bidirectional overrides and invisible characters, HTML, Markdown that would break
//! out of a code span, links, and secrets in every shape benchlint recognises), and every
//! command is run over them in every format: `check` (all seven formats, with and without
//! colour, statistics), `summary` (four), `capacity` (two), `compare` (two), `cards`,
//! `import`, `audit` (Markdown, JSON, and `-o` with HTML), rule pages, and the errors on stderr.
//! Every stdout, stderr and written file is held to the invariants of
//! `support/hostile_gen.rs`.

use crate::support::hostile_gen;
use crate::support::watchdog;

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use hostile_gen::{Kind, Rng, check, hostile, hostile_name};
use serde_json::{Value, json};
use watchdog::{LIMIT, Run, bin, run};

const BASE: &str = "testdata/corpora/demo/gb10-x8/prose-r1.json";

/// A generated corpus and the secret cores it holds.
struct Hostile {
    _tmp: tempfile::TempDir,
    root: PathBuf,
    out: PathBuf,
    claims: PathBuf,
    files: Vec<PathBuf>,
    ids: Vec<String>,
    secrets: Vec<String>,
}

fn set(v: &mut Value, pointer: &str, to: Value) {
    let (parent, key) = pointer.rsplit_once('/').unwrap();
    if let Some(Value::Object(m)) = v.pointer_mut(parent) {
        m.insert(key.to_string(), to);
    }
}

/// A result of configuration `config` (two share a configuration) with hostile text in every
/// string a report can quote.
fn result(rng: &mut Rng, secrets: &mut Vec<String>, labels: &[String; 3], n: usize) -> Value {
    let mut v: Value = serde_json::from_str(&std::fs::read_to_string(BASE).unwrap()).unwrap();
    let mut h = || hostile(rng, secrets);
    let id = format!("r{n}-{}", h()).replace('\0', "_");
    set(&mut v, "/id", json!(id));
    set(&mut v, "/model/name", json!(labels[0]));
    set(&mut v, "/workload/name", json!(labels[1]));
    set(&mut v, "/engine/version", json!(labels[2]));
    set(&mut v, "/notes", json!(h()));
    set(&mut v, "/platform/host", json!(h()));
    set(&mut v, "/launch/id", json!(format!("L{n}{}", h())));
    set(&mut v, "/harness/name", json!(h()));
    set(&mut v, "/cost/basis", json!(h()));
    set(&mut v, "/platform/description", json!(h()));
    let (secret, core) = hostile_gen::secret(rng);
    secrets.push(core);
    let (plain, plain_core) = ("plainKey".to_string(), format!("p9{}", n * 7919 + 13));
    secrets.push(plain_core.clone());
    let mut env = serde_json::Map::new();
    env.insert("OPENAI_API_KEY".into(), json!(plain_core));
    env.insert(secret.clone(), json!("1"));
    env.insert(hostile(rng, secrets), json!(hostile(rng, secrets)));
    set(&mut v, "/engine/environment", Value::Object(env));
    if let Some(Value::Array(argv)) = v.pointer_mut("/engine/serve_command") {
        argv.push("--api-key".into());
        argv.push(json!(format!("{plain}{plain_core}")));
        argv.push(json!(secret));
    }
    // The artifacts do not exist here: M017 quotes their hostile paths.
    set(
        &mut v,
        "/artifacts/power_trace/path",
        json!(hostile(rng, secrets)),
    );
    v
}

fn write_json(path: &Path, v: &Value) {
    std::fs::write(path, serde_json::to_string_pretty(v).unwrap()).unwrap();
}

fn corpus(seed: u64) -> Hostile {
    let mut rng = Rng(seed);
    let mut secrets = Vec::new();
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("corpus");
    std::fs::create_dir_all(&root).unwrap();
    let mut files = Vec::new();
    let mut ids = Vec::new();
    let labels_a = [
        hostile(&mut rng, &mut secrets),
        hostile(&mut rng, &mut secrets),
        hostile(&mut rng, &mut secrets),
    ];
    let labels_b = [
        hostile(&mut rng, &mut secrets),
        labels_a[1].clone(),
        labels_a[2].clone(),
    ];
    for n in 0..5 {
        let labels = if n < 3 { &labels_a } else { &labels_b };
        let mut v = result(&mut rng, &mut secrets, labels, n);
        if n == 4 {
            set(&mut v, "/outcome", json!("failed"));
        }
        ids.push(v["id"].as_str().unwrap().to_string());
        // A hostile file name for some: `javascript:` schemes, line breaks, escapes, secrets.
        let name = match n {
            1 => "javascript:alert(1).json".to_string(),
            2 => format!("{}.json", hostile_name(&mut rng, &mut secrets)),
            _ => format!("r{n}.json"),
        };
        let path = root.join(&name);
        write_json(&path, &v);
        files.push(path);
    }
    // A sidecar that disagrees with its result on notes (a secret) and the engine version.
    let (side_secret, core) = hostile_gen::secret(&mut rng);
    secrets.push(core);
    write_json(
        &root.join("r0.meta.json"),
        &json!({"notes": format!("x {side_secret}"), "engine": {"version": hostile(&mut rng, &mut secrets)}}),
    );
    // A broken file: raw control characters and secrets outside any JSON string.
    let (broken_secret, core) = hostile_gen::secret(&mut rng);
    secrets.push(core);
    std::fs::write(
        root.join("broken.json"),
        format!(
            "{{\"api_key\": \"{}\", {} {broken_secret}\n::error file=x::y\n\u{1b}]8;;http://e/\u{7}",
            hostile_gen::secret(&mut rng).0,
            hostile(&mut rng, &mut secrets),
        ),
    )
    .unwrap();
    // Claims with hostile ids and statements, naming hostile result ids.
    let claims = root.join("claims.json");
    write_json(
        &claims,
        &json!({"schema": "benchlint/claims/v1", "claims": [
            {"id": hostile(&mut rng, &mut secrets), "statement": hostile(&mut rng, &mut secrets),
             "kind": "ratio", "metric": "aggregate_tok_s", "value": 2.5,
             "subject": {"results": [ids[3]]}, "baseline": {"results": [ids[0], ids[1], ids[2]]}},
            {"id": format!("``{}``", hostile(&mut rng, &mut secrets)), "statement": hostile(&mut rng, &mut secrets),
             "kind": "figure", "metric": "ttft_p50_s", "value": 1.0,
             "subject": {"results": [hostile(&mut rng, &mut secrets)]}},
        ]}),
    );
    Hostile {
        out: tmp.path().join("out"),
        _tmp: tmp,
        root,
        claims,
        files,
        ids,
        secrets,
    }
}

fn exec(args: &[OsString]) -> Run {
    let mut cmd = bin();
    cmd.args(args);
    let r = run(cmd, LIMIT);
    assert!(
        !String::from_utf8_lossy(&r.stderr).contains("panicked"),
        "{args:?}: {}",
        r.err()
    );
    r
}

fn os(items: &[&str]) -> Vec<OsString> {
    items.iter().map(OsString::from).collect()
}

/// Runs `args`, checks stdout as `kind` and stderr as plain text.
fn checked(c: &Hostile, args: &[OsString], kind: Kind) -> Run {
    let what = format!("{args:?}");
    let r = exec(args);
    assert!(
        matches!(r.code, Some(0..=2)),
        "{what}: exit {:?}: {}",
        r.code,
        r.err()
    );
    check(&format!("{what} stdout"), &r.stdout, kind, &c.secrets);
    check(
        &format!("{what} stderr"),
        &r.stderr,
        Kind::Plain,
        &c.secrets,
    );
    r
}

fn every_file(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        if e.path().is_dir() {
            out.extend(every_file(&e.path()));
        } else {
            out.push(e.path());
        }
    }
    out
}

fn kind_of(path: &Path) -> Kind {
    match path.extension().and_then(|e| e.to_str()) {
        Some("md") => Kind::Markdown,
        Some("html") => Kind::Html,
        _ => Kind::Plain,
    }
}

fn every_command_over(seed: u64) {
    let c = corpus(seed);
    let root: OsString = c.root.clone().into();
    for format in ["human", "concise", "json", "json-lines", "sarif", "junit"] {
        let mut a = os(&["check", "--isolated", "--format", format]);
        a.push(root.clone());
        checked(&c, &a, Kind::Plain);
    }
    let mut a = os(&["check", "--isolated", "--format", "github"]);
    a.push(root.clone());
    checked(&c, &a, Kind::Github);
    let mut a = os(&["check", "--isolated", "--color", "always"]);
    a.push(root.clone());
    checked(&c, &a, Kind::Coloured);
    let mut a = os(&["check", "--isolated", "--statistics"]);
    a.push(root.clone());
    checked(&c, &a, Kind::Plain);
    for f in &c.files {
        let mut a = os(&["check", "--isolated", "--format", "concise"]);
        a.push(f.clone().into());
        checked(&c, &a, Kind::Plain);
        let mut a = os(&["cards"]);
        a.push(f.clone().into());
        checked(&c, &a, Kind::Plain);
    }
    for (format, kind) in [
        ("table", Kind::Plain),
        ("json", Kind::Plain),
        ("csv", Kind::Csv),
        ("markdown", Kind::Markdown),
    ] {
        let mut a = os(&["summary", "--format", format]);
        a.push(root.clone());
        checked(&c, &a, kind);
    }
    for format in ["table", "json"] {
        let mut a = os(&["capacity", "--format", format, "--floor", "20"]);
        a.push(root.clone());
        checked(&c, &a, Kind::Plain);
    }
    for format in ["text", "json"] {
        let mut a = os(&["compare", "--format", format]);
        a.push(c.ids[0].clone().into());
        a.push(c.ids[3].clone().into());
        a.push(root.clone());
        checked(&c, &a, Kind::Plain);
    }
    for (format, kind) in [("markdown", Kind::Markdown), ("json", Kind::Plain)] {
        let mut a = os(&["audit", "--isolated", "--format", format, "--claims"]);
        a.push(c.claims.clone().into());
        a.push(root.clone());
        checked(&c, &a, kind);
    }
    let mut a = os(&["audit", "--isolated", "--claims"]);
    a.push(c.claims.clone().into());
    a.push(root.clone());
    a.push("-o".into());
    a.push(c.out.join("audit").into());
    let r = checked(&c, &a, Kind::Plain);
    assert!(matches!(r.code, Some(0 | 1)), "audit -o: {}", r.err());
    // The corpus report (no claims): file names in the tables, the matrix and the lists.
    for (format, kind) in [("markdown", Kind::Markdown), ("json", Kind::Plain)] {
        let mut a = os(&["audit", "--isolated", "--format", format]);
        a.push(root.clone());
        checked(&c, &a, kind);
    }
    let mut a = os(&["audit", "--isolated"]);
    a.push(root.clone());
    a.push("-o".into());
    a.push(c.out.join("corpus-report").into());
    let r = checked(&c, &a, Kind::Plain);
    assert!(matches!(r.code, Some(0 | 1)), "audit -o: {}", r.err());
    let mut a = os(&["import"]);
    a.push(root.clone());
    a.push("-o".into());
    a.push(c.out.join("import").into());
    checked(&c, &a, Kind::Plain);
    // Sidecar skeletons: printed one by one and written as a tree.
    for f in &c.files {
        let mut a = os(&["sidecar", "--isolated"]);
        a.push(f.clone().into());
        checked(&c, &a, Kind::Plain);
    }
    let mut a = os(&["sidecar", "--isolated"]);
    a.push(root.clone());
    a.push("-o".into());
    a.push(c.out.join("sidecars").into());
    checked(&c, &a, Kind::Plain);
    // A folder's cards.
    let mut a = os(&["cards"]);
    a.push(root.clone());
    checked(&c, &a, Kind::Plain);
    let written = every_file(&c.out);
    assert!(
        written.iter().any(|f| f.ends_with("report.html"))
            && written
                .iter()
                .filter(|f| f.starts_with(c.out.join("import")))
                .count()
                >= 4,
        "{written:?}"
    );
    for f in written {
        check(
            &f.display().to_string(),
            &std::fs::read(&f).unwrap(),
            kind_of(&f),
            &c.secrets,
        );
        // A file name written is an output too.
        let name = f.file_name().unwrap().to_string_lossy().into_owned();
        check(
            &format!("the name of {}", f.display()),
            name.as_bytes(),
            Kind::Plain,
            &c.secrets,
        );
    }
    // Errors on stderr: a missing path, an unknown id, both hostile.
    let mut rng = Rng(seed ^ 0xABCD);
    let mut more = c.secrets.clone();
    let missing = hostile_name(&mut rng, &mut more);
    let c2 = Hostile { secrets: more, ..c };
    let mut a = os(&["summary"]);
    a.push(c2.root.join(&missing).into());
    let r = checked(&c2, &a, Kind::Plain);
    assert_eq!(r.code, Some(2));
    let mut a = os(&["compare"]);
    a.push(missing.clone().into());
    a.push(missing.clone().into());
    a.push(root.clone());
    let r = checked(&c2, &a, Kind::Plain);
    assert_eq!(r.code, Some(2));
}

/// Eight corpora on every run (`BENCHLINT_INJECTION_SEEDS=N` runs N, for a longer search).
#[test]
fn no_input_reaches_any_output_raw() {
    let n: u64 = std::env::var("BENCHLINT_INJECTION_SEEDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(8);
    let mut seeds = Rng(0x9E37_79B9_7F4A_7C15);
    for _ in 0..n {
        every_command_over(seeds.next());
    }
}

/// A broken config file (found inside the checked paths, or named) is echoed with a snippet:
/// its control characters, invisible characters and secrets never reach the terminal.
#[test]
fn a_broken_config_is_echoed_inert() {
    for seed in [3_u64, 5, 11] {
        let mut rng = Rng(seed);
        let mut secrets = Vec::new();
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("c");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::copy(BASE, dir.join("r.json")).unwrap();
        let (s1, k1) = hostile_gen::secret(&mut rng);
        secrets.push(k1);
        let text = format!(
            "# {}\napi_key = \"{}\"\nselect = [\"E\", {}]\n[thresholds]\nmax_depth = \"{}\"\n{s1}\n",
            hostile(&mut rng, &mut secrets).replace(['\n', '\r'], " "),
            hostile_gen::secret(&mut rng).0.replace('"', "'"),
            hostile(&mut rng, &mut secrets),
            hostile(&mut rng, &mut secrets),
        );
        // The secret cores of `api_key = "..."` are masked too: add them.
        for line in text.lines() {
            if let Some(v) = line.strip_prefix("api_key = \"") {
                let v = v.trim_end_matches('"');
                secrets.push(
                    v.split_whitespace()
                        .last()
                        .unwrap_or(v)
                        .chars()
                        .skip(8)
                        .collect(),
                );
            }
        }
        std::fs::write(dir.join("benchlint.toml"), &text).unwrap();
        let hs = Hostile {
            _tmp: tmp,
            out: dir.join("o"),
            claims: dir.join("none"),
            files: vec![],
            ids: vec![],
            root: dir.clone(),
            secrets,
        };
        for args in [
            vec![OsString::from("check"), dir.clone().into()],
            vec![
                "check".into(),
                "--config".into(),
                dir.join("benchlint.toml").into(),
                dir.clone().into(),
            ],
            vec!["capacity".into(), dir.clone().into()],
        ] {
            let r = checked(&hs, &args, Kind::Plain);
            assert_eq!(r.code, Some(2), "{}", r.err());
            assert!(r.err().contains("benchlint.toml"), "{}", r.err());
        }
    }
}

/// Rule pages and rule documentation quote no input, and keep the invariants.
#[test]
fn rule_pages_keep_the_invariants() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("rules");
    let r = exec(&[
        "rules".into(),
        "--markdown".into(),
        dir.clone().into_os_string(),
    ]);
    assert_eq!(r.code, Some(0), "{}", r.err());
    for f in every_file(&dir) {
        check(
            &f.display().to_string(),
            &std::fs::read(&f).unwrap(),
            Kind::Plain,
            &[],
        );
    }
    for code in ["M018", "E002"] {
        let r = exec(&["rule".into(), code.into()]);
        check(code, &r.stdout, Kind::Plain, &[]);
    }
}

/// Ordinary values are not secrets: model names, image digests, git commits, UUID run ids,
/// URLs without a password, `$VARIABLE` references stay as they are in every output.
#[test]
fn ordinary_values_are_not_masked() {
    let tmp = tempfile::tempdir().unwrap();
    let mut v: Value = serde_json::from_str(&std::fs::read_to_string(BASE).unwrap()).unwrap();
    let kept = [
        ("/id", "123e4567-e89b-12d3-a456-426614174000"),
        ("/model/name", "meta-llama/Llama-3.1-8B-Instruct"),
        (
            "/model/revision",
            "4b825dc642cb6eb9a060e54bf8d69288fbee4904",
        ),
        (
            "/engine/image_digest",
            "sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
        ),
        (
            "/notes",
            "see https://huggingface.co/meta-llama and --api-key $OPENAI_API_KEY",
        ),
    ];
    for (p, s) in kept {
        set(&mut v, p, json!(s));
    }
    let file = tmp.path().join("r.json");
    write_json(&file, &v);
    // Cards show the id, the model's name and revision as they are.
    let r = exec(&["cards".into(), file.clone().into()]);
    let out = r.out();
    for (p, s) in kept.iter().take(3) {
        assert!(out.contains(s), "{p}: {s} masked in cards:\n{out}");
    }
    let r = exec(&[
        "check".into(),
        "--isolated".into(),
        "--format".into(),
        "json".into(),
        file.into(),
    ]);
    assert!(
        !r.out().contains("M018"),
        "an ordinary value taken for a secret: {}",
        r.out()
    );
}

/// The inputs the `output_writers` fuzz target once broke, replayed through the writers as the
/// target feeds them: the parts between `\u{1}` bytes in every text field of findings and of an
/// audit report, every format held to the invariants.
#[test]
fn writer_regressions_stay_fixed() {
    use benchlint::audit::{
        AuditReport, Checklist, ChecklistItem, ClaimOutcome, ConfigLadder, Coverage, FileCoverage,
        LosingRun, Verdict,
    };
    use benchlint::diagnostic::{Finding, Location, Severity};
    use benchlint::report::{self, AuditContext};
    use benchlint::text::Text;
    let dir = Path::new("testdata/hostile/fuzz-regressions");
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if !name.starts_with("output_writers-") {
            continue;
        }
        let input = String::from_utf8_lossy(&std::fs::read(entry.path()).unwrap()).into_owned();
        let parts: Vec<&str> = input.split('\u{1}').collect();
        let s = |i: usize| parts[i % parts.len()].to_string();
        // As the target: a secret that also stands where it is none is not held against it.
        let found: Vec<(usize, usize, usize)> = parts
            .iter()
            .enumerate()
            .flat_map(|(k, p)| {
                benchlint::secrets::find_in_text(p)
                    .into_iter()
                    .map(move |(a, b)| (k, a, b))
            })
            .collect();
        let secrets: Vec<String> = found
            .iter()
            .map(|&(k, a, b)| parts[k][a..b].to_string())
            .filter(|x| x.len() >= 12)
            .filter(|x| {
                parts.iter().enumerate().all(|(k, p)| {
                    p.match_indices(x.as_str()).all(|(i, _)| {
                        found
                            .iter()
                            .any(|&(fk, a, b)| fk == k && a <= i && i + x.len() <= b)
                    })
                })
            })
            .collect();
        // The first part is a file whose snippet is drawn.
        let tmp = tempfile::tempdir().unwrap();
        let file = tmp.path().join("f.json");
        std::fs::write(&file, s(0)).unwrap();
        let file_name = file.to_string_lossy().into_owned();
        let mut findings: Vec<Finding> = (0..4)
            .map(|k| Finding {
                rule: benchlint::rules::RULES[(k * 11) % benchlint::rules::RULES.len()].meta,
                severity: Severity::Error,
                pre_rule: false,
                primary: {
                    let mut l =
                        Location::new(if k == 0 { file_name.clone() } else { s(k) }, s(k + 1));
                    if k % 2 == 1 {
                        l.offset = Some(k * 7);
                    }
                    l
                },
                related: vec![Location::new(s(k + 4), s(k + 5))],
                message: Text::file(s(k + 2)),
                label: Some(Text::file(s(k + 6))),
                help: Some(Text::quoting(s(k + 7))),
                absent: None,
                key: None,
                placed: None,
                corpus: false,
            })
            .collect();
        benchlint::positions::place_in_text(&file_name, &s(0), &mut findings);
        let p = report::prepare(
            findings.clone(),
            benchlint::engine::Summary::default(),
            1 << 20,
            false,
        );
        for (format, bytes, kind) in [
            ("human", report::human(&p), Kind::Plain),
            ("concise", report::concise(&p), Kind::Plain),
            ("json", report::json(&p), Kind::Plain),
            ("sarif", report::sarif(&p), Kind::Plain),
            ("github", report::github(&p), Kind::Github),
            ("junit", report::junit(&p), Kind::Plain),
        ] {
            check(&format!("{name} {format}"), &bytes, kind, &secrets);
        }
        let report = AuditReport {
            floor_tok_s: 20.0,
            claims: vec![ClaimOutcome {
                id: s(1).into(),
                statement: Some(s(2).into()),
                kind: "ratio".into(),
                metric: s(3).into(),
                verdict: Verdict::Restated,
                codes: vec!["C001".into()],
                published_value: 2.0,
                restated_value: Some(1.1),
                basis: Some(Text::quoting(s(4))),
                reasons: vec![Text::quoting(s(5))],
                subject: vec![s(8).into()],
                baseline: vec![s(9).into()],
            }],
            ladders: vec![ConfigLadder {
                label: s(10).into(),
                fingerprint: "0123456789ab".into(),
                results: vec![s(11).into()],
                points: Vec::new(),
                capacity: None,
                replication: None,
            }],
            losing_runs: vec![LosingRun {
                id: s(12).into(),
                outcome: "failed".into(),
                path: s(13).into(),
                notes: Some(s(14).into()),
            }],
            // The corpus sections over the same findings, and a coverage row of a hostile path.
            corpus: Some(benchlint::audit::corpus::build(
                findings.len(),
                &[],
                benchlint::audit::corpus::FindingTally::of(&findings),
                Checklist {
                    items: vec![ChecklistItem {
                        code: "M001",
                        field: "platform.host".into(),
                        pointer: "/platform/host".into(),
                    }],
                    files: vec![FileCoverage::new(s(17).into(), 1, vec![Coverage::Missing])],
                },
            )),
        };
        let ctx = AuditContext::new(vec![s(15).into()], Some(s(16).into()));
        check(
            &name,
            &report::audit_markdown(&report, &ctx),
            Kind::Markdown,
            &secrets,
        );
        check(
            &name,
            &report::audit_html(&report, &ctx),
            Kind::Html,
            &secrets,
        );
        check(
            &name,
            &report::audit_json(&report, &ctx),
            Kind::Plain,
            &secrets,
        );
    }
}
