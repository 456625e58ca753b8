//! Key names whose values are secrets: `api_key`, `OPENAI_API_KEY`, `accessToken`, `db_pass`,
//! `PGPASSWORD`, `session_id`, ... A key is read as words (split at `_`, `-`, `.`, spaces and
//! camelCase humps) and judged by its last one or two, so `eos_token` and `max_tokens` stay
//! ordinary while `hf_token` and `authToken` do not.

use super::memo::{self, Naming};
use super::{decode, sieve};

/// Last words that make any key a secret's.
const SECRET_WORDS: [&str; 22] = [
    "password",
    "passwd",
    "pwd",
    "secret",
    "secrets",
    "credential",
    "credentials",
    "cookie",
    "cookies",
    "authorization",
    "bearer",
    "passphrase",
    "apikey",
    "privatekey",
    "secretkey",
    "accesstoken",
    "authtoken",
    "sessionid",
    "hftoken",
    "dbpass",
    "pgpassword",
    "apitoken",
];

/// Endings of a one-word key that make it a secret's (`PGPASSWORD`, `MYSQLPASSWD`, `XAPIKEY`).
const SECRET_ENDINGS: [&str; 4] = ["password", "passwd", "apikey", "secret"];

/// Words before `token` that make it a count or a vocabulary entry, not a credential.
const ORDINARY_TOKENS: [&str; 31] = [
    "eos",
    "bos",
    "pad",
    "unk",
    "sep",
    "cls",
    "mask",
    "start",
    "end",
    "stop",
    "special",
    "max",
    "min",
    "num",
    "first",
    "last",
    "total",
    "output",
    "input",
    "prompt",
    "next",
    "per",
    "mean",
    "avg",
    "decode",
    "prefill",
    "generated",
    "completion",
    "image",
    "think",
    "reasoning",
];

/// Words before `key` that make it a secret's (`api_key`, `secret_key`, `aws_secret_access_key`).
const KEY_KINDS: [&str; 9] = [
    "api",
    "secret",
    "private",
    "access",
    "encryption",
    "signing",
    "master",
    "auth",
    "session",
];

/// Words before `pass` that make it a password (`db_pass`, `user_pass`), not a pass of a loop.
const PASS_KINDS: [&str; 12] = [
    "db", "user", "admin", "root", "sql", "pg", "mysql", "redis", "smtp", "ftp", "proxy", "ldap",
];

/// Byte ranges of the last two words of `k` (last first).
fn last_words(k: &[u8]) -> [Option<(usize, usize)>; 2] {
    let sep = |b: u8| !b.is_ascii_alphanumeric();
    let mut out = [None, None];
    let mut i = k.len();
    for slot in &mut out {
        while i > 0 && sep(k[i - 1]) {
            i -= 1;
        }
        if i == 0 {
            break;
        }
        let end = i;
        i -= 1;
        while i > 0 {
            let (prev, cur) = (k[i - 1], k[i]);
            let hump = cur.is_ascii_uppercase()
                && (prev.is_ascii_lowercase()
                    || prev.is_ascii_digit()
                    || (prev.is_ascii_uppercase()
                        && k.get(i + 1).is_some_and(u8::is_ascii_lowercase)));
            if sep(prev) || hump {
                break;
            }
            i -= 1;
        }
        *slot = Some((i, end));
    }
    out
}

/// Whether a key name is one whose value is a secret (`OPENAI_API_KEY`, `hf_token`,
/// `accessToken`, `db_pass`, `--secret-key`, ...). Called for every string of every document:
/// compares bytes, allocates nothing.
pub fn is_secret_key(key: &str) -> bool {
    let k = key.as_bytes();
    let [last, prev] = last_words(k);
    let Some((a, b)) = last else {
        return false;
    };
    let word = &k[a..b];
    let is = |w: &[u8], s: &str| w.eq_ignore_ascii_case(s.as_bytes());
    let prev_word = prev.map(|(x, y)| &k[x..y]);
    let prev_in = |list: &[&str]| prev_word.is_some_and(|p| list.iter().any(|s| is(p, s)));
    let only_word = prev.is_none();
    SECRET_WORDS.iter().any(|s| is(word, s))
        || (only_word
            && SECRET_ENDINGS
                .iter()
                .any(|s| word.len() > s.len() && is(&word[word.len() - s.len()..], s)))
        || (is(word, "token") && !prev_in(&ORDINARY_TOKENS))
        || (is(word, "key") && prev_in(&KEY_KINDS))
        || (is(word, "id") && prev_in(&["session"]))
        || (is(word, "pass") && (only_word || prev_in(&PASS_KINDS)))
        // `auth` alone is as often a method (`--auth user_principal`) as a credential.
        || (is(word, "auth") && prev_in(&["basic", "http", "proxy"]))
        // An environment variable's name (`OPENAI_KEY`, `WANDB_KEY`, `ANTHROPICKEY`): in capitals,
        // a key is a credential's.
        || (is_shouted(k)
            && (is(word, "key") && !only_word
                || only_word && word.len() > 3 && is(&word[word.len() - 3..], "key")))
}

/// Whether `k` is written as an environment variable is: capitals, digits and `_`, with a
/// letter.
fn is_shouted(k: &[u8]) -> bool {
    k.iter().any(u8::is_ascii_uppercase)
        && k.iter()
            .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || *b == b'_')
}

/// Keys of maps whose keys are free-form names chosen by whoever ran the benchmark (the
/// environment, HTTP headers, extra arguments), not a harness's schema: there a key ending in
/// `key` or naming `auth` holds a credential (`openai_key`, `auth`, `x-auth`), where in a schema
/// `cache_key` or `auth: none` are ordinary.
const FREE_FORM_MAPS: [&str; 14] = [
    "environment",
    "env",
    "environ",
    "env_vars",
    "envs",
    "extra_env",
    "headers",
    "extra_headers",
    "http_headers",
    "request_headers",
    "extra_args",
    "extra_body",
    "secrets",
    "variables",
];

/// Whether `key`, the key of a member of the object under `parent`, names a secret: as
/// [`is_secret_key`], and in a free-form map ([`FREE_FORM_MAPS`]) also any key whose last word
/// is `key` or `auth`.
pub fn is_secret_key_in(parent: Option<&str>, key: &str) -> bool {
    if is_secret_key(key) {
        return true;
    }
    if !is_free_form_map(parent) {
        return false;
    }
    let k = key.as_bytes();
    let [last, _] = last_words(k);
    last.is_some_and(|(a, b)| {
        let w = &k[a..b];
        w.eq_ignore_ascii_case(b"key")
            || w.eq_ignore_ascii_case(b"auth")
            || (w.len() > 3 && w[w.len() - 3..].eq_ignore_ascii_case(b"key"))
    })
}

/// Whether `parent`, the key of an object, is a free-form map's ([`FREE_FORM_MAPS`]).
fn is_free_form_map(parent: Option<&str>) -> bool {
    parent.is_some_and(|p| FREE_FORM_MAPS.iter().any(|f| p.eq_ignore_ascii_case(f)))
}

/// Whether `key` names a secret under `parent`, read as written and URL-decoded
/// (`api%5Fkey`). Asked of the key of every string and number of every document; keys repeat
/// from value to value and file to file, so what one says is worked out once per thread
/// ([`memo::naming`]), and most keys, holding no stem of a secret name, at once
/// ([`sieve::may_name_secret`]).
pub(super) fn names_secret(parent: Option<&str>, key: &str) -> bool {
    match memo::naming(key, naming) {
        Naming::Never => false,
        Naming::Always => true,
        Naming::InFreeFormMaps => is_free_form_map(parent),
    }
}

/// What `key` says of its values, worked out.
fn naming(key: &str) -> Naming {
    if !sieve::may_name_secret(key) {
        Naming::Never
    } else if names_secret_as_read(None, key) {
        Naming::Always
    } else if names_secret_as_read(Some(FREE_FORM_MAPS[0]), key) {
        Naming::InFreeFormMaps
    } else {
        Naming::Never
    }
}

/// [`names_secret`] by reading the key's words, as written and URL-decoded.
pub(super) fn names_secret_as_read(parent: Option<&str>, key: &str) -> bool {
    is_secret_key_in(parent, key)
        || decode::url_decoded(key).is_some_and(|k| is_secret_key_in(parent, &k))
}

#[cfg(test)]
mod tests {
    use super::is_secret_key;

    #[test]
    fn secret_keys_in_every_spelling() {
        for k in [
            "api_key",
            "apikey",
            "api-key",
            "APIKey",
            "x-api-key",
            "OPENAI_API_KEY",
            "token",
            "access_token",
            "accessToken",
            "authToken",
            "auth_token",
            "hf_token",
            "HF_TOKEN",
            "password",
            "passwd",
            "pwd",
            "MYSQL_PWD",
            "PGPASSWORD",
            "db_pass",
            "dbPass",
            "pass",
            "secret",
            "client_secret",
            "secretKey",
            "secret-key",
            "--secret-key",
            "private_key",
            "credentials",
            "aws_secret_access_key",
            "cookie",
            "Set-Cookie",
            "session_id",
            "sessionId",
            "authorization",
            "Authorization",
            "bearer",
            "basic_auth",
            "OPENAI_KEY",
            "WANDB_API_KEY",
            "ANTHROPICKEY",
            "HF_KEY",
        ] {
            assert!(is_secret_key(k), "{k}");
        }
    }

    /// Every last word or ending a secret name can have holds a stem the sieve looks for: a
    /// word added here and not there would let its names through unread.
    #[test]
    fn every_accepted_word_holds_a_name_stem() {
        let stems = crate::secrets::sieve::NAME_STEMS;
        let holds = |w: &str| stems.iter().any(|s| w.contains(s));
        for w in super::SECRET_WORDS
            .iter()
            .chain(&super::SECRET_ENDINGS)
            // `token`, `key`, `pass`, `auth`, `session` before `id`; `key` and `auth` ending
            // a free-form map's key.
            .chain(&["token", "key", "pass", "auth", "session"])
        {
            assert!(holds(w), "{w}");
        }
    }

    /// What a key says is remembered whatever object held it when first seen: asked under
    /// each parent in turn, twice, each answer is the one reading the key gives there.
    #[test]
    fn remembered_namings_answer_for_every_parent() {
        let parents = [Some("environment"), None, Some("HEADERS"), Some("config")];
        for key in [
            "openai_key",
            "api_key",
            "model_name",
            "auth",
            "api%5Fkey",
            "x-auth",
        ] {
            for _ in 0..2 {
                for parent in parents {
                    assert_eq!(
                        super::names_secret(parent, key),
                        super::names_secret_as_read(parent, key),
                        "{parent:?} {key}"
                    );
                }
            }
        }
    }

    #[test]
    fn free_form_maps_name_secrets_by_their_last_word() {
        for k in [
            "openai_key",
            "auth",
            "x-auth",
            "wandbKey",
            "OPENAI_KEY",
            "mykey",
        ] {
            assert!(super::is_secret_key_in(Some("environment"), k), "{k}");
            assert!(super::is_secret_key_in(Some("headers"), k), "{k}");
        }
        for k in ["cache_key", "auth", "sort_key", "monkey"] {
            assert!(!super::is_secret_key_in(Some("config"), k), "{k}");
            assert!(!super::is_secret_key_in(None, k), "{k}");
        }
        for k in ["CUDA_VISIBLE_DEVICES", "author", "keys", "VLLM_USE_V1"] {
            assert!(!super::is_secret_key_in(Some("environment"), k), "{k}");
        }
    }

    #[test]
    fn ordinary_keys() {
        for k in [
            "max_tokens",
            "eos_token",
            "pad_token",
            "num_tokens",
            "output_token",
            "tokens",
            "tokenizer",
            "key",
            "keys",
            "cache_key",
            "monkey",
            "bypass",
            "first_pass",
            "compass",
            "model",
            "id",
            "run_id",
            "launch_id",
            "author",
            "oauth_scopes",
            "auth",
            "--auth",
            "",
            "___",
        ] {
            assert!(!is_secret_key(k), "{k}");
        }
    }
}
