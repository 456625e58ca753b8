//! Recognising secrets (API keys, tokens, passwords) so they are reported and never echoed.

mod argv;
mod decode;
mod harmless;
mod keys;
pub mod mask;
pub(crate) mod memo;
mod shapes;
mod sieve;
mod text;

pub use argv::{argv_secrets, argv_secrets_of, command_line_has_secret, redact_argv};
pub use harmless::is_harmless;
use keys::names_secret;
pub use keys::{is_secret_key, is_secret_key_in};
pub use shapes::known_shape;
pub use text::FreeTextRest;

/// Why a value was taken for a secret. The text never contains the value itself.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SecretKind(pub String);

/// Classifies `value` (under `key`, when it has one) as a secret, or not.
pub fn classify(key: Option<&str>, value: &str) -> Option<SecretKind> {
    classify_in(None, key, value)
}

/// [`classify`] of a member of the object under the key `parent` (see [`is_secret_key_in`]).
pub fn classify_in(parent: Option<&str>, key: Option<&str>, value: &str) -> Option<SecretKind> {
    let v = value.trim();
    // The verdict on a value under no key, or a key that names no secret, depends on the
    // value alone: a value seen before on this thread is not classified again.
    let secret_key = key.is_some_and(|k| names_secret(parent, k));
    let memo = !secret_key && memo::worth(v);
    if memo && memo::known_clean(memo::Check::Value, v) {
        return None;
    }
    // Under no secret key, a value with nothing a finding needs is clean without reading its
    // words (most values new to the thread are: ids, dates, a cost basis quoting a run).
    let kind = if secret_key || sieve::may_hold_secret(v) {
        classify_value(key.filter(|_| secret_key), v, text::find)
    } else {
        None
    };
    if memo && kind.is_none() {
        memo::remember_clean(memo::Check::Value, v);
    }
    kind
}

/// [`classify`] of the trimmed value `v`, under `secret_key` when it has a key that names a
/// secret, with `search` finding the credentials of free text ([`text::find`]).
fn classify_value(
    secret_key: Option<&str>,
    v: &str,
    search: fn(&str) -> Vec<(usize, usize)>,
) -> Option<SecretKind> {
    if let Some(kind) = known_shape(v) {
        return Some(kind);
    }
    if let Some(key) = secret_key
        && !is_harmless(v)
        && !is_working_directory(key, v)
    {
        return Some(SecretKind(format!(
            "a non-empty value under the key `{key}` ({} characters)",
            v.chars().count()
        )));
    }
    // Free text (notes, a logged command line) may carry a credential among other words: a
    // credential-shaped word or a bearer token is named for what it is.
    if v.contains(' ') {
        let mut words = v.split_whitespace().take(4096).peekable();
        while let Some(w) = words.next() {
            let w = w.trim_matches(|c: char| matches!(c, '"' | '\'' | ',' | ';' | '(' | ')'));
            if let Some(kind) = known_shape(w) {
                return Some(kind);
            }
            if w.eq_ignore_ascii_case("bearer")
                && let Some(next) = words.peek()
                && shapes::auth_value(next)
            {
                return Some(SecretKind(format!(
                    "a bearer token ({} characters)",
                    next.chars().count()
                )));
            }
        }
    }
    if v.len() > 8 && !v.bytes().all(|b| b.is_ascii_alphanumeric()) && !search(v).is_empty() {
        return Some(SecretKind(format!(
            "a credential inside a text of {} characters",
            v.chars().count()
        )));
    }
    None
}

/// Classifies a number stored under `key` (`"password": 12345`, a PIN, a numeric token):
/// under a key that names a secret, every number but 0 is one.
pub fn classify_number(
    parent: Option<&str>,
    key: Option<&str>,
    n: &serde_json::Number,
) -> Option<SecretKind> {
    let key = key.filter(|k| names_secret(parent, k))?;
    if n.as_f64() == Some(0.0) {
        return None;
    }
    Some(SecretKind(format!(
        "a number under the key `{key}` ({} digits)",
        n.to_string().bytes().filter(u8::is_ascii_digit).count()
    )))
}

/// `PWD=/home/user/bench`: the shell's working folder, not a password.
fn is_working_directory(key: &str, v: &str) -> bool {
    matches!(key, "PWD" | "OLDPWD") && v.starts_with('/')
}

/// Byte ranges of `text` that hold secrets (credential-shaped words, the values of secret
/// flags and assignments, bearer tokens, URL passwords), sorted and not overlapping.
pub fn find_in_text(text: &str) -> Vec<(usize, usize)> {
    text::find(text)
}

/// The ranges [`find_in_text`] gives, as far as they touch `regions` (sorted, not
/// overlapping, each from a line's start to a line's end), reading little more than the
/// regions; `None` when the word before a region could change how it reads (then read the
/// whole text).
pub fn find_in_text_within(text: &str, regions: &[(usize, usize)]) -> Option<Vec<(usize, usize)>> {
    text::find_within(text, regions)
}

/// Whether `text` holds a word of free text (anything but white space and hidden characters).
pub fn free_text_holds_word(text: &str) -> bool {
    text::holds_word(text)
}

/// `text` with every secret [`find_in_text`] finds replaced by `<redacted>`; `None` when there
/// is none.
pub fn redact_text(text: &str) -> Option<String> {
    // A JSON pointer writes a `/` inside a key as `~1`: each of its tokens is read as written.
    if text.contains("~1") {
        let mut changed = false;
        let tokens: Vec<String> = text
            .split('/')
            .map(|t| {
                let key = crate::json::unescape_token(t);
                if t.contains("~1") && !text::find(&key).is_empty() {
                    changed = true;
                    "<redacted>".to_string()
                } else {
                    t.to_string()
                }
            })
            .collect();
        if changed {
            let joined = tokens.join("/");
            return Some(redact_text(&joined).unwrap_or(joined));
        }
    }
    let ranges = text::find(text);
    if ranges.is_empty() {
        return None;
    }
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for (s, e) in ranges {
        out.push_str(&text[at..s]);
        out.push_str("<redacted>");
        at = e;
    }
    out.push_str(&text[at..]);
    Some(out)
}

/// Replaces every secret in `value` with `"<redacted>"`, in place: strings [`classify`] takes
/// for one (under their key), secret arguments of argv arrays, one-line commands that pass one
/// (redacted word by word, then joined with spaces), and key names that are credentials
/// themselves (renamed `<redacted>`, `<redacted-2>`, ...). Returns how many values changed.
pub fn redact_value(value: &mut serde_json::Value) -> usize {
    use serde_json::Value;
    let mut changed = 0;
    // Each value with its key and the key of the object holding that key.
    let mut stack: Vec<(Option<String>, Option<String>, &mut Value)> = vec![(None, None, value)];
    while let Some((parent, key, v)) = stack.pop() {
        match v {
            Value::Number(n) if classify_number(parent.as_deref(), key.as_deref(), n).is_some() => {
                *v = Value::String("<redacted>".to_string());
                changed += 1;
            }
            Value::String(s) => {
                // Secrets inside text first, in place (their context intact), then a command
                // line's secret arguments, then a value that is a secret as a whole.
                let mut hit = false;
                if let Some(clean) = redact_text(s) {
                    *s = clean;
                    hit = true;
                }
                if command_line_has_secret(s) {
                    *s = redact_argv(&crate::serve_command::split_command_line(s)).join(" ");
                    hit = true;
                }
                if classify_in(parent.as_deref(), key.as_deref(), s).is_some() {
                    *s = "<redacted>".to_string();
                    hit = true;
                }
                changed += usize::from(hit);
            }
            Value::Array(items) => {
                let strings: Vec<String> = items
                    .iter()
                    .map(|i| i.as_str().unwrap_or_default().to_string())
                    .collect();
                for i in argv_secrets(&strings) {
                    if items[i].is_string() {
                        items[i] = Value::String("<redacted>".to_string());
                        changed += 1;
                    }
                }
                stack.extend(items.iter_mut().map(|i| (parent.clone(), key.clone(), i)));
            }
            Value::Object(map) => {
                changed += redact_keys(map);
                stack.extend(
                    map.iter_mut()
                        .map(|(k, v)| (key.clone(), Some(k.clone()), v)),
                );
            }
            _ => {}
        }
    }
    changed
}

/// Renames the keys of `map` that hold a credential (a token used as a key, a pointer through
/// one), the credential replaced by `<redacted>` (`-2`, `-3`, ... on a clash), keeping the
/// order.
fn redact_keys(map: &mut serde_json::Map<String, serde_json::Value>) -> usize {
    let redacted = |k: &str| {
        if known_shape(k.trim()).is_some() {
            Some("<redacted>".to_string())
        } else {
            redact_text(k)
        }
    };
    if !map.keys().any(|k| redacted(k).is_some()) {
        return 0;
    }
    let mut changed = 0;
    let old = std::mem::take(map);
    for (k, v) in old {
        match redacted(&k) {
            Some(base) => {
                changed += 1;
                let mut name = base.clone();
                let mut n = 2;
                while map.contains_key(&name) {
                    name = format!("{base}-{n}");
                    n += 1;
                }
                map.insert(name, v);
            }
            None => {
                map.insert(k, v);
            }
        }
    }
    changed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recognises_keys_and_token_shapes() {
        assert!(classify(Some("api_key"), "abc123secret").is_some());
        assert!(classify(Some("api_key"), "").is_none());
        assert!(classify(Some("api_key"), "EMPTY").is_none());
        assert!(classify(None, "sk-proj-ABCDEFGHIJKLMNOPQRSTUVWX1234").is_some());
        assert!(classify(None, "hf_abcdefghijklmnopqrstuvwxyz0123456789").is_some());
        assert!(classify(None, "Bearer abcdefghijklmnopqrstuv").is_some());
        assert!(classify(Some("model"), "meta-llama/Llama-3.1-8B").is_none());
        assert!(classify(Some("max_tokens"), "256").is_none());
        assert!(
            classify(
                Some("notes"),
                "auth: Bearer sk-proj-Q9vLx2mT7rB4nK8wE1yZ5cH3jD6fA0gP"
            )
            .is_some()
        );
        assert!(classify(Some("notes"), "ran with eager mode off").is_none());
    }

    #[test]
    fn made_up_keys_of_placeholder_words_are_not_secrets() {
        // AIPerf's own examples run against a local server with `--api-key test_key`.
        for v in [
            "test_key",
            "fake-token",
            "my_api_key",
            "Dummy-Secret",
            "example.key",
        ] {
            assert!(classify(Some("api_key"), v).is_none(), "{v}");
            assert!(
                find_in_text(&format!("aiperf profile --api-key \"{v}\" --url x")).is_empty(),
                "{v}"
            );
        }
        // One word outside the list, and it may be a real key again.
        for v in ["test_key_9f3a", "prod-key", "key", "test__key", "testkey1"] {
            let secret = classify(Some("api_key"), v).is_some();
            assert_eq!(secret, v != "key", "{v}");
        }
    }

    #[test]
    fn addressed_placeholders_and_masked_values_are_not_secrets() {
        for v in [
            "your-openai-api-key",
            "YOUR_HF_TOKEN_HERE",
            "insert-key-here",
            "****_key",
            "sk-****abcd",
            "\u{2022}\u{2022}\u{2022}\u{2022}1234",
            "test_key",
        ] {
            assert!(classify(Some("api_key"), v).is_none(), "{v}");
            assert!(find_in_text(&format!("api_key={v}")).is_empty(), "{v}");
        }
        // Words and digits, or more than a few characters left visible: possibly real.
        for v in ["your-key-9f3a1c", "sk-****abcdefghijkl", "my2ndKey77"] {
            assert!(classify(Some("api_key"), v).is_some(), "{v}");
        }
    }

    #[test]
    fn template_slots_are_not_secrets() {
        for v in [
            "<your-hf-token>",
            "${HF_TOKEN}",
            "$HF_TOKEN",
            "<YOUR API KEY>",
        ] {
            assert_eq!(classify(Some("token"), v), None, "{v}");
        }
        assert!(classify(Some("token"), "<not closed").is_some());
        assert!(classify(Some("api_key"), "abc$HF").is_some());
    }

    #[test]
    fn the_message_never_contains_the_value() {
        let secret = "sk-proj-ABCDEFGHIJKLMNOPQRSTUVWX1234";
        let kind = classify(Some("api_key"), secret).unwrap();
        assert!(!kind.0.contains(secret));
    }

    #[test]
    fn values_are_redacted_in_place() {
        let mut v = serde_json::json!({
            "engine": {"serve_command": ["vllm", "serve", "m", "--api-key", "plainvalue123", "--port", "8000"],
                       "line": "vllm serve m --api-key plainvalue123 --port 8000",
                       "environment": {"OPENAI_API_KEY": "abc", "X": "1"}},
            "notes": "Bearer abcdefghijklmnopqrstuvwxyz", "model": "m"
        });
        assert_eq!(redact_value(&mut v), 4);
        let text = v.to_string();
        assert!(
            !text.contains("plainvalue123") && !text.contains("abcdefghijklmnop"),
            "{text}"
        );
        assert_eq!(v["engine"]["serve_command"][5], "--port");
        assert_eq!(
            v["engine"]["line"],
            "vllm serve m --api-key <redacted> --port 8000"
        );
        assert_eq!(v["engine"]["environment"]["X"], "1");
    }
}
