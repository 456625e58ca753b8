//! Text for the sieve's tests, from a fixed seed: credentials of every shape the secret
//! search knows and near misses of them, secret names with their values in every form free
//! text gives them (encoded too), command lines passing one, random text built of the pieces
//! every reading acts on, and key names.

use crate::secrets::shapes::MARKS;

/// Draws from [`crate::seeded`]: a fixed sequence, so a failure reproduces.
pub(super) struct Rng(pub(super) u64);

impl Rng {
    pub(super) fn below(&mut self, n: usize) -> usize {
        crate::seeded::below(&mut self.0, n)
    }

    fn pick<'a>(&mut self, from: &[&'a str]) -> &'a str {
        from[self.below(from.len())]
    }

    /// `least` characters drawn from `alphabet`, and fewer than `more` besides.
    pub(super) fn run(&mut self, alphabet: &str, least: usize, more: usize) -> String {
        let chars: Vec<char> = alphabet.chars().collect();
        let n = least + self.below(more);
        (0..n).map(|_| chars[self.below(chars.len())]).collect()
    }

    /// One of `from`, with some ASCII letters' case flipped now and then (names and schemes
    /// are matched in any case).
    pub(super) fn pick_recased(&mut self, from: &[&str]) -> String {
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
pub(super) const NOISE: &str =
    "abcdeksptuyABKPSTJ0189 -_.:=@%\\/\"'`,;()[]{}<>?&*#$\t\n\u{200b}\u{a0}\u{e9}";

/// Secret names, ordinary names that look like them, and flags.
pub(super) const NAMES: [&str; 52] = [
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
pub(super) fn credential(rng: &mut Rng) -> String {
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
pub(super) fn value(rng: &mut Rng) -> String {
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
pub(super) fn key(rng: &mut Rng) -> String {
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
