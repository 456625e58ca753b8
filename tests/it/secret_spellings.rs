//! M018 on secrets in every spelling and in every place a result holds free text, and on the
//! values that only look like one. Corpora are generated from seeds: each file carries one
//! spelling of one credential (URL-encoded, JSON-escaped, `curl -u`, `--user`, `Authorization:`
//! and `authorization=Token` values, key names such as `OPENAI_KEY` and `auth` in free-form
//! maps) in one position; each must fire M018, and no output of `check` nor any file `import`
//! writes may hold the credential. Files of placeholders, masked values and reprs that merely
//! name a field must fire nothing.

use std::path::{Path, PathBuf};

use crate::support::hostile_gen::Rng;
use crate::support::watchdog::{LIMIT, bin, run};
use serde_json::{Value, json};

const BASE: &str = "testdata/rules/M018-secret-in-result/pass/no-secret.json";

const ALNUM: &str = "abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789";

/// A credential of `core` in one of the spellings M018 must read through.
fn spelling(rng: &mut Rng, core: &str) -> String {
    match rng.below(11) {
        0 => format!("GET /v1/models?api_key%3D{core}"),
        1 => format!("GET /v1/models?api%5Fkey={core}&stream=1"),
        2 => format!("curl -u admin:{core} http://10.0.0.5:8000/health"),
        3 => format!("curl --user admin:{core} http://10.0.0.5:8000/health"),
        4 => format!("curl --user=admin:{core} http://10.0.0.5:8000/health"),
        5 => format!("headers authorization=Token {core}"),
        6 => format!("sent Authorization: {core}"),
        7 => format!("body {{\\\"api_key\\\": \\\"{core}\\\"}}"),
        8 => format!("config {{\\\"api\\u005fkey\\\": \\\"{core}\\\"}}"),
        9 => format!("proxy https://gw/?token%3D{core}%26x%3D1"),
        _ => format!("wget --user bench:{core} http://10.0.0.5/"),
    }
}

/// Where a spelling is put: a free-text field, or a value under a secret name in the engine's
/// environment (a free-form map).
fn place(rng: &mut Rng, v: &mut Value, core: &str) {
    match rng.below(5) {
        0 => v["notes"] = json!(spelling(rng, core)),
        1 => v["platform"]["description"] = json!(spelling(rng, core)),
        2 => v["launch"]["id"] = json!(spelling(rng, core)),
        _ => {
            let key = *[
                "OPENAI_KEY",
                "WANDB_KEY",
                "ANTHROPICKEY",
                "auth",
                "openai_key",
                "x-auth",
            ]
            .get(rng.below(6))
            .unwrap();
            v["engine"]["environment"] = json!({ key: core, "VLLM_USE_V1": "1" });
        }
    }
}

/// Placeholders and masked values: what a config holds under a secret's name when it holds
/// none.
fn placeholder(rng: &mut Rng) -> &'static str {
    [
        "your-openai-api-key",
        "****_key",
        "test_key",
        "sk-****abcd",
        "YOUR_HF_TOKEN_HERE",
        "<your-token>",
        "None",
        "",
    ][rng.below(8)]
}

/// Values that say there is no secret, and reprs that merely name a field, as free text holds
/// them.
fn harmless(rng: &mut Rng) -> String {
    let n = rng.below(9);
    match n {
        0 => "your-openai-api-key".into(),
        1 => "****_key".into(),
        2 => "test_key".into(),
        3 => format!(
            "ClientConnectorError(ConnectionKey(host='10.0.0.{}', port=8000, is_ssl=False, ssl=True, proxy=None, proxy_auth=None, proxy_headers_hash=None))",
            rng.below(250)
        ),
        4 => "Authorization: <your-token>".into(),
        5 => "sk-****abcd".into(),
        6 => "api_key=None, password=null".into(),
        7 => "YOUR_HF_TOKEN_HERE".into(),
        _ => "docker run -u 1000:1000 vllm/vllm-openai".into(),
    }
}

fn base() -> Value {
    serde_json::from_str(&std::fs::read_to_string(BASE).unwrap()).unwrap()
}

fn write(dir: &Path, name: &str, v: &Value) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, serde_json::to_string_pretty(v).unwrap()).unwrap();
    p
}

/// `check --format json` over `dir`: the M018 findings' paths.
fn m018_paths(dir: &Path) -> (Vec<String>, String, String) {
    let mut cmd = bin();
    cmd.args(["check", "--isolated", "--format", "json"])
        .arg(dir);
    let r = run(cmd, LIMIT);
    r.assert_ran("check");
    let v: Value = serde_json::from_slice(&r.stdout).unwrap();
    let paths = v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["code"] == "M018")
        .map(|d| d["path"].as_str().unwrap().to_string())
        .collect();
    let mut human = bin();
    human.args(["check", "--isolated"]).arg(dir);
    let h = run(human, LIMIT);
    (paths, r.out() + &r.err(), h.out() + &h.err())
}

#[test]
fn every_spelling_in_every_place_fires_and_is_never_shown_or_copied() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("corpus");
    std::fs::create_dir_all(&dir).unwrap();
    let mut rng = Rng(0x05EC_2E75);
    let mut cores = Vec::new();
    let mut files = Vec::new();
    for n in 0..40 {
        let core = format!("{}9{}", rng.word(ALNUM, 10), rng.word(ALNUM, 5));
        let mut v = base();
        v["id"] = json!(format!("spelling-{n}"));
        place(&mut rng, &mut v, &core);
        files.push(write(&dir, &format!("r{n:02}.json"), &v));
        cores.push(core);
    }
    let (paths, json_out, human_out) = m018_paths(&dir);
    for (f, core) in files.iter().zip(&cores) {
        let shown = f.display().to_string();
        let text = std::fs::read_to_string(f).unwrap();
        assert!(
            paths.iter().any(|p| p == &shown),
            "no M018 on {shown}: {}",
            &text[text.find(core.as_str()).map_or(0, |i| i.saturating_sub(80))..]
                .chars()
                .take(200)
                .collect::<String>()
        );
        assert!(!json_out.contains(core.as_str()), "json shows {core}");
        assert!(!human_out.contains(core.as_str()), "human shows {core}");
    }
    // `import` redacts what it recognises.
    let out = tmp.path().join("imported");
    let mut cmd = bin();
    cmd.arg("import").arg(&dir).arg("-o").arg(&out);
    let r = run(cmd, LIMIT);
    assert!(matches!(r.code, Some(0 | 1)), "{}", r.err());
    for e in std::fs::read_dir(&out).unwrap() {
        let text = std::fs::read_to_string(e.unwrap().path()).unwrap();
        for core in &cores {
            assert!(!text.contains(core.as_str()), "import copied {core}");
        }
    }
}

#[test]
fn placeholders_masked_values_and_reprs_fire_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let mut rng = Rng(0x0DD_BA11);
    for n in 0..40 {
        let mut v = base();
        v["id"] = json!(format!("harmless-{n}"));
        let h = harmless(&mut rng);
        match rng.below(3) {
            0 => v["notes"] = json!(h),
            1 => {
                v["engine"]["environment"] = json!({
                    "OPENAI_API_KEY": placeholder(&mut rng),
                    "auth": placeholder(&mut rng),
                    "WANDB_KEY": placeholder(&mut rng),
                    "NOTE": h,
                });
            }
            _ => v["platform"]["description"] = json!(h),
        }
        write(tmp.path(), &format!("h{n:02}.json"), &v);
    }
    let (paths, json_out, _) = m018_paths(tmp.path());
    assert!(paths.is_empty(), "M018 on {paths:?}: {json_out}");
}

/// Real AIPerf exports whose error summaries quote aiohttp's `ConnectionKey(... proxy_auth=None
/// ...)` raise no M018.
#[test]
fn realworld_connection_errors_raise_no_secret() {
    let root = Path::new(crate::support::realworld::REALWORLD);
    if !root.exists() {
        eprintln!("SKIP: {} is absent", root.display());
        return;
    }
    let mut with_repr = Vec::new();
    let mut stack = vec![root.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "json")
                && std::fs::read_to_string(&p).is_ok_and(|t| t.contains("proxy_auth"))
            {
                with_repr.push(p);
            }
        }
    }
    // The project's own fixture holds the same repr: it is checked whatever the corpus holds.
    with_repr.push(PathBuf::from(
        "testdata/rules/M018-secret-in-result/pass/aiperf-connection-errors-and-placeholders.json",
    ));
    if with_repr.len() == 1 {
        eprintln!(
            "SKIP (in part): no file under {} quotes `proxy_auth`; only the fixture is checked",
            root.display()
        );
    }
    let mut cmd = bin();
    cmd.args([
        "check",
        "--isolated",
        "--select",
        "M018",
        "--format",
        "json",
    ])
    .args(&with_repr);
    let r = run(cmd, LIMIT);
    r.assert_ran("check");
    let v: Value = serde_json::from_slice(&r.stdout).unwrap();
    let m018: Vec<&Value> = v["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["code"] == "M018")
        .collect();
    assert!(m018.is_empty(), "{m018:#?}");
}

/// A snippet never shows a file benchlint refused to read: the E001 on a symlink leading out
/// of the corpus once drew the outside file's first lines.
#[cfg(unix)]
#[test]
fn a_symlink_out_of_the_corpus_shows_nothing_of_its_target() {
    let tmp = tempfile::tempdir().unwrap();
    let outside = tmp.path().join("outside.json");
    std::fs::write(
        &outside,
        "{\"aws_secret\": \"OUTSIDE-wJalrXUtnFEMI-K7MDENG\",\n \"x\": 1}\n",
    )
    .unwrap();
    let corpus = tmp.path().join("corpus");
    std::fs::create_dir_all(&corpus).unwrap();
    std::fs::copy(BASE, corpus.join("r.json")).unwrap();
    std::os::unix::fs::symlink(&outside, corpus.join("leak.json")).unwrap();
    for format in ["human", "concise", "json", "sarif", "github"] {
        let mut cmd = bin();
        cmd.args(["check", "--isolated", "--format", format])
            .arg(&corpus);
        let r = run(cmd, LIMIT);
        r.assert_ran(format);
        let all = r.out() + &r.err();
        assert!(all.contains("leak.json"), "{format}: {all}");
        assert!(
            !all.contains("OUTSIDE") && !all.contains("aws_secret"),
            "{format} shows the outside file: {all}"
        );
    }
}
