//! A broken config file echoed inert, rule pages kept to the invariants, and ordinary values
//! left unmasked.

use std::ffi::OsString;

use serde_json::{Value, json};

use super::{BASE, Hostile, checked, every_file, exec, set, write_json};
use crate::support::hostile_gen::{self, Kind, Rng, check, hostile};

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
