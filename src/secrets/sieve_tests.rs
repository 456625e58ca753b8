//! The sieve changes no verdict: over generated values, free text and key names (secrets of
//! every shape the search knows, under and beside every kind of secret name, encoded, embedded
//! in prose; near misses; random text), the quick path and the search that reads every word
//! answer the same, and what the sieve refuses the whole search finds nothing in.

use super::generated::{NAMES, NOISE, Rng, credential, key, value};
use super::{may_hold_secret, may_name_secret};
use crate::secrets::keys::{names_secret, names_secret_as_read};
use crate::secrets::{SecretKind, classify_in, classify_value, text};

/// [`text::find`] reading every text of six bytes or more, as it did before the sieve.
fn find_as_read(text: &str) -> Vec<(usize, usize)> {
    if text.len() < 6 {
        return Vec::new();
    }
    text::find_decoded_too(text)
}

/// [`classify_in`] as it reads every value, with neither the sieve nor the memo: what the
/// quick answers are held to.
fn classify_in_as_read(parent: Option<&str>, key: Option<&str>, value: &str) -> Option<SecretKind> {
    let secret_key = key.is_some_and(|k| names_secret_as_read(parent, k));
    classify_value(key.filter(|_| secret_key), value.trim(), find_as_read)
}

/// Every answer the quick paths give about `value` under `key` in the object under `parent`
/// is the one the whole search gives.
fn same_verdicts(parent: Option<&str>, key: Option<&str>, value: &str) {
    let at = format!("{parent:?} {key:?} {value:?}");
    assert_eq!(
        classify_in(parent, key, value),
        classify_in_as_read(parent, key, value),
        "{at}"
    );
    assert_eq!(text::find(value), find_as_read(value), "{at}");
    if let Some(k) = key {
        assert_eq!(
            names_secret(parent, k),
            names_secret_as_read(parent, k),
            "{at}"
        );
        assert_eq!(text::find(k), find_as_read(k), "{at}");
        if !may_name_secret(k) {
            for p in [None, Some("environment"), Some("headers"), Some("model")] {
                assert!(!names_secret_as_read(p, k), "{p:?} {k:?}");
            }
        }
    }
    let v = value.trim();
    if !may_hold_secret(v) {
        assert!(find_as_read(v).is_empty(), "{at}");
        assert_eq!(classify_value(None, v, find_as_read), None, "{at}");
    }
}

#[test]
fn quick_paths_give_the_verdicts_of_the_whole_search() {
    let mut rng = Rng(0x5eed_0f5e_c7e7);
    let parents = [None, Some("environment"), Some("headers"), Some("engine")];
    let mut found = 0;
    let mut sieved = 0;
    let cases = 40_000;
    for _ in 0..cases {
        let v = value(&mut rng);
        let k = match rng.below(3) {
            0 => None,
            _ => Some(key(&mut rng)),
        };
        let parent = parents[rng.below(parents.len())];
        same_verdicts(parent, k.as_deref(), &v);
        // Near misses: the value one character short, or with one character changed.
        let chars: Vec<char> = v.chars().collect();
        let at = rng.below(chars.len().max(1));
        let mut shorter = chars.clone();
        if at < shorter.len() {
            shorter.remove(at);
        }
        let mut changed = chars;
        if at < changed.len() {
            changed[at] = rng.run(NOISE, 1, 1).chars().next().expect("one");
        }
        for near in [shorter, changed] {
            let near: String = near.into_iter().collect();
            same_verdicts(parent, k.as_deref(), &near);
        }
        found += usize::from(classify_in_as_read(None, None, &v).is_some());
        sieved += usize::from(!may_hold_secret(v.trim()));
    }
    // The cases are neither all secrets nor all refused at once.
    eprintln!("found {found} sieved {sieved}");
    assert!(found > cases / 5 && found < cases * 9 / 10, "{found}");
    assert!(sieved > cases / 50, "{sieved}");
}

#[test]
fn every_known_shape_and_secret_name_is_let_through() {
    let mut rng = Rng(42);
    for _ in 0..400 {
        let c = credential(&mut rng);
        same_verdicts(None, None, &c);
        for name in NAMES {
            same_verdicts(Some("environment"), Some(name), &c);
            same_verdicts(None, None, &format!("{name}={c}"));
            same_verdicts(None, None, &format!("run with {name} {c} today"));
        }
    }
    // Key names are read URL-decoded too, the stem hidden or not.
    for k in ["api%5Fkey", "pass%77ord", "%74oken"] {
        assert!(names_secret(None, k), "{k}");
    }
    assert!(names_secret(Some("headers"), "x%2Dauth"));
    // Secrets of each kind the search knows pass the sieve and are found.
    for s in [
        "sk-proj-ABCDEFGHIJKLMNOPQRSTUVWX1234",
        "AKIAIOSFODNN7EXAMPLE",
        "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
        "auth: Bearer abc123def",
        "Basic dXNlcjpwYXNzd29yZA==",
        "db at postgres://app:hunter22@db:5432/x",
        "postgres://app:hunter22@",
        "curl -u admin:hunter22 http://x",
        "curl -uadmin:hunter22 x",
        "--api-key plain1234 --port 8",
        "PGPASSWORD=hunter2 psql",
        "api_key = abc123def",
        "sessionId: abc123def",
        "GET /v1?api_key%3Dabc123def",
        r#"{\"api\u005fkey\": \"abc123def\"}"#,
        "-----BEGIN RSA PRIVATE KEY-----\nMIIE",
    ] {
        assert!(may_hold_secret(s), "{s}");
        assert!(classify_in(None, None, s).is_some(), "{s}");
    }
}

#[test]
fn ordinary_values_are_ruled_out_at_once() {
    for s in [
        "2020-01-01T01:05:00Z",
        "pool00000-prose-l1-r1",
        "nvidia/Qwen3.8-Flash-Next-NVFP4",
        "r000000.power.csv",
        "output tokens only, at the measured peak (338.32 tok/s aggregate at 24 streams)",
        "Generated prose run (launch 1, repeat 1).",
        "sha256:4b8f2c1d9e7a6b5c3d2e1f0a9b8c7d6e5f4a3b2c1d0e9f8a7b6c5d4e3f2a1b0c",
    ] {
        assert!(!may_hold_secret(s), "{s}");
    }
    for k in [
        "model",
        "max_num_seqs",
        "measured_at",
        "cost",
        "NCCL_IB_HCA",
    ] {
        assert!(!may_name_secret(k), "{k}");
    }
}
