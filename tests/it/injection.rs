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

mod configs_pages_and_plain_values;
mod every_command;
mod writer_regressions;

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
