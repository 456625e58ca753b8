//! The sieve changes no verdict: over generated values, free text and key names (secrets of
//! every shape the search knows, under and beside every kind of secret name, encoded, embedded
//! in prose; near misses; random text), the quick path and the search that reads every word
//! answer the same, and what the sieve refuses the whole search finds nothing in.

use super::{may_hold_secret, may_name_secret};
use crate::secrets::keys::{names_secret, names_secret_as_read};
use crate::secrets::shapes::MARKS;
use crate::secrets::{classify_in, classify_in_as_read, classify_value, text};

/// xorshift64*: a fixed sequence, so a failure reproduces.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        usize::try_from(self.next() % n as u64).expect("small")
    }

    fn pick<'a>(&mut self, from: &[&'a str]) -> &'a str {
        from[self.below(from.len())]
    }

    /// `least` characters drawn from `alphabet`, and fewer than `more` besides.
    fn run(&mut self, alphabet: &str, least: usize, more: usize) -> String {
        let chars: Vec<char> = alphabet.chars().collect();
        let n = least + self.below(more);
        (0..n).map(|_| chars[self.below(chars.len())]).collect()
    }

    /// One of `from`, with some ASCII letters' case flipped now and then (names and schemes
    /// are matched in any case).
    fn pick_recased(&mut self, from: &[&str]) -> String {
        let s = self.pick(from);
        let flip = self.below(3) == 0;
        s.chars()
            .map(|c| {
                if flip && self.below(2) == 0 {
                    if c.is_ascii_lowercase() {
                        c.to_ascii_uppercase()
                    } else {
                        c.to_ascii_lowercase()
                    }
                } else {
                    c
                }
            })
            .collect()
    }
}

const ALNUM: &str = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
const B64: &str = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_";
/// Characters of random text: letters, digits, every punctuation the readings act on, white
/// space, and non-ASCII (a hidden character, a non-breaking space, a letter).
const NOISE: &str = "abcdeksptuyABKPSTJ0189 -_.:=@%\\/\"'`,;()[]{}<>?&*#$\t\n\u{200b}\u{a0}\u{e9}";

/// Secret names, ordinary names that look like them, and flags.
const NAMES: [&str; 52] = [
    "api_key",
    "API_KEY",
    "apiKey",
    "OPENAI_API_KEY",
    "openai_key",
    "WANDB_KEY",
    "token",
    "tokens",
    "max_tokens",
    "eos_token",
    "hf_token",
    "HF_TOKEN",
    "accessToken",
    "authToken",
    "password",
    "PGPASSWORD",
    "passwd",
    "pwd",
    "PWD",
    "db_pass",
    "dbPass",
    "pass",
    "bypass",
    "secret",
    "client_secret",
    "secretKey",
    "credentials",
    "cookie",
    "Set-Cookie",
    "authorization",
    "Authorization",
    "auth",
    "basic_auth",
    "x-auth",
    "session_id",
    "sessionId",
    "key",
    "cache_key",
    "monkey",
    "private_key",
    "passphrase",
    "api%5Fkey",
    "api%5fkey",
    "--api-key",
    "--hf-token",
    "--secret-key",
    "--password",
    "model",
    "notes",
    "run_id",
    "author",
    "ANTHROPICKEY",
];

/// Pieces of text every reading of the search acts on, and ordinary ones.
const PIECES: [&str; 68] = [
    "-u",
    "-U",
    "--user",
    "--user=",
    "--proxy-user=",
    "-uadmin:",
    "--port",
    "Bearer",
    "bearer",
    "Basic",
    "Token",
    "Digest",
    "sk-proj-",
    "-----BEGIN RSA PRIVATE KEY-----",
    "PRIVATE KEY",
    "https://",
    "postgres://",
    "://",
    "@",
    "admin:hunter22@db.example.com",
    "user:",
    "@localhost",
    "%3D",
    "%5F",
    "%3A",
    "%40",
    "%",
    "\\u005f",
    "\\u003d",
    "\\\"",
    "\\x3d",
    "\\n",
    "\\",
    "meta-llama/Llama-3.1-8B",
    "vllm serve",
    "sha256:",
    "2025-01-01T00:00:00Z",
    "338.32 tok/s",
    "EMPTY",
    "None",
    "$OPENAI_API_KEY",
    "<your-token>",
    "****",
    "test_key",
    "your-api-key",
    "=",
    ":",
    " = ",
    ": ",
    " ",
    "\t",
    "\n",
    "\"",
    "'",
    ",",
    ";",
    "(",
    ")",
    "[",
    "{",
    "}",
    "/",
    ".",
    "-",
    "_",
    "\u{200b}",
    "\u{a0}",
    "\u{202e}",
];

/// A credential in one of the shapes the search knows, or a near miss of one (a body too
/// short, a mark cut).
fn credential(rng: &mut Rng) -> String {
    let body = |rng: &mut Rng| rng.run(ALNUM, 4, 56);
    match rng.below(9) {
        0 | 1 => {
            let mark = rng.pick(&MARKS);
            format!("{mark}{}", body(rng))
        }
        2 => format!(
            "{}{}",
            rng.pick(&["AKIA", "ASIA"]),
            rng.run("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 14, 4)
        ),
        3 => {
            let part = |rng: &mut Rng| rng.run(B64, 6, 30);
            format!("eyJ{}.eyJ{}.{}", part(rng), part(rng), part(rng))
        }
        // A URL cut after its user information (`postgres://app:pass@`) too.
        4 => format!(
            "{}://{}:{}@{}",
            rng.pick(&["https", "postgres", "redis"]),
            rng.run(ALNUM, 1, 8),
            rng.run(ALNUM, 0, 12),
            rng.pick(&["db.example.com/x", "localhost", "10.0.0.5:5432", ""])
        ),
        5 => format!(
            "{}:{}@{}",
            rng.run(ALNUM, 1, 8),
            body(rng),
            rng.pick(&["db.example.com", "localhost", "host"])
        ),
        6 => format!(
            "{} {}",
            rng.pick(&["Bearer", "bearer", "Basic", "basic"]),
            body(rng)
        ),
        7 => format!(
            "-----BEGIN {}PRIVATE KEY-----\n{}",
            rng.pick(&["", "RSA ", "EC "]),
            body(rng)
        ),
        _ => body(rng),
    }
}

/// A value: a credential alone, a secret name with its value in one of the forms free text
/// gives it (encoded ones too), a command line passing one, or random text built of pieces;
/// each embedded in prose or punctuation now and then.
fn value(rng: &mut Rng) -> String {
    let core = match rng.below(6) {
        0 => credential(rng),
        1 => {
            let name = rng.pick_recased(&NAMES);
            let sep = rng.pick(&["=", ":", ": ", " = ", "%3D", "%3d", "\": \"", "\\\": \\\""]);
            let scheme = rng.pick(&["", "", "Bearer ", "Token ", "basic "]);
            format!("{name}{sep}{scheme}{}", credential(rng))
        }
        2 => format!(
            "{} {} {}",
            rng.pick(&[
                "vllm serve m",
                "curl",
                "aiperf profile",
                "python -u bench.py"
            ]),
            rng.pick(&[
                "--api-key",
                "--hf-token",
                "-u",
                "--user",
                "--user=",
                "-U",
                "--port"
            ]),
            if rng.below(2) == 0 {
                format!("admin:{}", credential(rng))
            } else {
                credential(rng)
            }
        ),
        _ => {
            let mut s = String::new();
            for _ in 0..=rng.below(8) {
                match rng.below(4) {
                    0 => s.push_str(&rng.pick_recased(&NAMES)),
                    1 => s.push_str(&rng.pick_recased(&PIECES)),
                    2 => s.push_str(&credential(rng)),
                    _ => s.push_str(&rng.run(NOISE, 1, 12)),
                }
            }
            s
        }
    };
    let core = encoded(rng, core);
    match rng.below(4) {
        0 => format!(
            "{}{core}{}",
            rng.pick(&["see ", "(", "\"", "`/env/", "x=", " "]),
            rng.pick(&[" in the notes", ")", "\",", ".json", "` is", " "])
        ),
        _ => core,
    }
}

/// `s` with one ASCII character, now and then, written URL-encoded (`api_ke%79`), which only
/// the decoded reading sees for what it is.
fn encoded(rng: &mut Rng, s: String) -> String {
    let ascii: Vec<usize> = s
        .char_indices()
        .filter(|(_, c)| c.is_ascii())
        .map(|(i, _)| i)
        .collect();
    if ascii.is_empty() || rng.below(4) != 0 {
        return s;
    }
    let at = ascii[rng.below(ascii.len())];
    let byte = s.as_bytes()[at];
    let hex = if rng.below(2) == 0 {
        format!("%{byte:02X}")
    } else {
        format!("%{byte:02x}")
    };
    format!("{}{hex}{}", &s[..at], &s[at + 1..])
}

/// A key name: a listed one, or one made of words, separators and humps; now and then with a
/// character URL-encoded.
fn key(rng: &mut Rng) -> String {
    let k = key_as_written(rng);
    encoded(rng, k)
}

fn key_as_written(rng: &mut Rng) -> String {
    if rng.below(2) == 0 {
        return rng.pick_recased(&NAMES);
    }
    let words = [
        "api", "secret", "access", "session", "db", "pg", "hf", "auth", "max", "eos", "openai",
        "key", "token", "pass", "id", "pwd", "cookie", "bearer", "x", "cache", "model",
    ];
    let mut k = String::new();
    for i in 0..=rng.below(3) {
        if i > 0 {
            k.push_str(rng.pick(&["_", "-", ".", "", " ", "%5F"]));
        }
        k.push_str(&rng.pick_recased(&words));
    }
    k
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
    assert_eq!(text::find(value), text::find_as_read(value), "{at}");
    if let Some(k) = key {
        assert_eq!(
            names_secret(parent, k),
            names_secret_as_read(parent, k),
            "{at}"
        );
        assert_eq!(text::find(k), text::find_as_read(k), "{at}");
        if !may_name_secret(k) {
            for p in [None, Some("environment"), Some("headers"), Some("model")] {
                assert!(!names_secret_as_read(p, k), "{p:?} {k:?}");
            }
        }
    }
    let v = value.trim();
    if !may_hold_secret(v) {
        assert!(text::find_as_read(v).is_empty(), "{at}");
        assert_eq!(classify_value(None, v, text::find_as_read), None, "{at}");
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
