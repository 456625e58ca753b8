//! Recognising secrets (API keys, tokens, passwords) so they are reported and never echoed.

/// Why a value was taken for a secret. The text never contains the value itself.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SecretKind(pub String);

/// Key names whose non-empty values are secrets.
const SECRET_KEYS: [&str; 12] = [
    "api_key",
    "apikey",
    "api-key",
    "token",
    "access_token",
    "auth_token",
    "hf_token",
    "password",
    "passwd",
    "secret",
    "authorization",
    "bearer",
];

/// Values that say "no secret here".
const HARMLESS: [&str; 10] = [
    "",
    "none",
    "null",
    "empty",
    "n/a",
    "redacted",
    "<redacted>",
    "***",
    "dummy",
    "not-set",
];

/// Whether a key name is one whose value is a secret (`OPENAI_API_KEY`, `hf_token`, ...).
pub fn is_secret_key(key: &str) -> bool {
    // Called for every string of every document: compare bytes, allocate nothing.
    let k = key.as_bytes();
    let ends_with = |s: &[u8]| k.len() >= s.len() && k[k.len() - s.len()..].eq_ignore_ascii_case(s);
    let contains = |s: &[u8]| k.windows(s.len()).any(|w| w.eq_ignore_ascii_case(s));
    SECRET_KEYS.iter().any(|s| {
        let s = s.as_bytes();
        k.eq_ignore_ascii_case(s)
            || (k.len() > s.len()
                && ends_with(s)
                && matches!(k[k.len() - s.len() - 1], b'_' | b'-'))
    }) || ends_with(b"_key") && (contains(b"api") || contains(b"secret") || contains(b"access"))
}

/// Classifies `value` (under `key`, when it has one) as a secret, or not.
pub fn classify(key: Option<&str>, value: &str) -> Option<SecretKind> {
    let v = value.trim();
    if let Some(kind) = known_format(v) {
        return Some(kind);
    }
    // Free text (notes, a logged command line) may carry a credential among other words.
    if v.contains(' ') {
        let words: Vec<&str> = v.split_whitespace().take(4096).collect();
        for (i, w) in words.iter().enumerate() {
            let w = w.trim_matches(|c: char| matches!(c, '"' | '\'' | ',' | ';' | '(' | ')'));
            let found = known_format(w).or_else(|| {
                let next = words.get(i + 1)?;
                w.eq_ignore_ascii_case("bearer")
                    .then(|| known_format(&format!("Bearer {next}")))?
            });
            if found.is_some() {
                return found;
            }
        }
    }
    let key = key?;
    if !is_secret_key(key)
        || HARMLESS.iter().any(|h| v.eq_ignore_ascii_case(h))
        || v.chars().all(|c| c == '*')
        || is_template(v)
    {
        return None;
    }
    Some(SecretKind(format!(
        "a non-empty value under the key `{key}` ({} characters)",
        v.chars().count()
    )))
}

/// A slot a shared config leaves for the user to fill, not a value: `<your-hf-token>`,
/// `${HF_TOKEN}`, `$HF_TOKEN`.
fn is_template(v: &str) -> bool {
    let word = |s: &str| {
        !s.is_empty()
            && s.bytes()
                .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b' ' | b'.'))
    };
    v.strip_prefix('<')
        .and_then(|r| r.strip_suffix('>'))
        .is_some_and(word)
        || v.strip_prefix("${")
            .and_then(|r| r.strip_suffix('}'))
            .is_some_and(word)
        || v.strip_prefix('$').is_some_and(|r| {
            r.bytes()
                .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_')
                && !r.is_empty()
        })
}

/// Well-known token shapes, whatever key they sit under.
fn known_format(v: &str) -> Option<SecretKind> {
    // Every shape below starts with one of these bytes or holds a PEM header; most strings in a
    // result (names, versions, units) are ruled out by their first byte.
    if !matches!(
        v.as_bytes().first(),
        Some(b's' | b'h' | b'g' | b'n' | b'x' | b'A' | b'B' | b'b')
    ) && !v.contains("-----BEGIN")
    {
        return None;
    }
    let body_len = |prefix: &str| {
        v.strip_prefix(prefix)
            .map(|rest| rest.chars().filter(char::is_ascii_alphanumeric).count())
    };
    let shapes: [(&str, usize, &str); 8] = [
        ("sk-", 20, "an OpenAI-style secret key"),
        ("hf_", 30, "a Hugging Face token"),
        ("ghp_", 30, "a GitHub token"),
        ("github_pat_", 30, "a GitHub token"),
        ("nvapi-", 30, "an NVIDIA API key"),
        ("xoxb-", 20, "a Slack token"),
        ("AKIA", 16, "an AWS access key id"),
        ("glpat-", 20, "a GitLab token"),
    ];
    for (prefix, min, name) in shapes {
        if body_len(prefix).is_some_and(|n| n >= min) && !v.contains(' ') {
            return Some(SecretKind(format!(
                "{name} (`{prefix}` prefix, {} characters)",
                v.chars().count()
            )));
        }
    }
    if let Some(rest) = v
        .strip_prefix("Bearer ")
        .or_else(|| v.strip_prefix("bearer "))
        && rest.trim().len() >= 16
    {
        return Some(SecretKind(format!(
            "a bearer token ({} characters)",
            rest.trim().chars().count()
        )));
    }
    if v.contains("-----BEGIN") && v.contains("PRIVATE KEY") {
        return Some(SecretKind("a private key".into()));
    }
    None
}

/// Replaces every secret-looking `KEY=value` or `--flag value` in an argv with a redaction.
pub fn redact_argv(argv: &[String]) -> Vec<String> {
    let mut out = Vec::with_capacity(argv.len());
    let mut redact_next = false;
    for a in argv {
        if redact_next {
            out.push("<redacted>".to_string());
            redact_next = false;
            continue;
        }
        if let Some((k, v)) = a.split_once('=') {
            let key = k.trim_start_matches('-');
            if classify(Some(key), v).is_some() {
                out.push(format!("{k}=<redacted>"));
                continue;
            }
        } else if a.starts_with("--") && is_secret_key(a.trim_start_matches('-')) {
            out.push(a.clone());
            redact_next = true;
            continue;
        }
        if classify(None, a).is_some() {
            out.push("<redacted>".to_string());
        } else {
            out.push(a.clone());
        }
    }
    out
}

/// Positions in an argv whose values are secrets (`--api-key VALUE`, `--hf-token=VALUE`,
/// `HF_TOKEN=VALUE`, a token-shaped word): the places [`redact_argv`] redacts.
pub fn argv_secrets(argv: &[String]) -> Vec<usize> {
    let harmless = |a: &str| {
        let v = a.split_once('=').map_or(a, |(_, v)| v).trim();
        HARMLESS.iter().any(|h| v.eq_ignore_ascii_case(h)) || v.chars().all(|c| c == '*')
    };
    redact_argv(argv)
        .iter()
        .zip(argv)
        .enumerate()
        .filter(|(_, (r, a))| r != a && !harmless(a))
        .map(|(i, _)| i)
        .collect()
}

/// Whether a one-line command (`vllm serve m --api-key KEY`) passes a secret in an argument.
pub fn command_line_has_secret(line: &str) -> bool {
    (line.contains("--") || line.contains('='))
        && !argv_secrets(&crate::serve_command::split_command_line(line)).is_empty()
}

/// Replaces every secret in `value` with `"<redacted>"`, in place: strings [`classify`] takes
/// for one (under their key), secret arguments of argv arrays, and one-line commands that pass
/// one (redacted word by word, then joined with spaces). Returns how many values changed.
pub fn redact_value(value: &mut serde_json::Value) -> usize {
    use serde_json::Value;
    let mut changed = 0;
    let mut stack: Vec<(Option<String>, &mut Value)> = vec![(None, value)];
    while let Some((key, v)) = stack.pop() {
        match v {
            Value::String(s) => {
                if classify(key.as_deref(), s).is_some() {
                    *s = "<redacted>".to_string();
                    changed += 1;
                } else if command_line_has_secret(s) {
                    *s = redact_argv(&crate::serve_command::split_command_line(s)).join(" ");
                    changed += 1;
                }
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
                stack.extend(items.iter_mut().map(|i| (key.clone(), i)));
            }
            Value::Object(map) => stack.extend(map.iter_mut().map(|(k, v)| (Some(k.clone()), v))),
            _ => {}
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

    #[test]
    fn argv_redaction() {
        let argv: Vec<String> = [
            "vllm",
            "serve",
            "m",
            "--api-key",
            "abcdef123456",
            "--hf-token=hf_abcdefghijklmnopqrstuvwxyz0123456789",
        ]
        .iter()
        .map(ToString::to_string)
        .collect();
        let r = redact_argv(&argv);
        assert_eq!(r[4], "<redacted>");
        assert_eq!(r[5], "--hf-token=<redacted>");
        assert_eq!(r[2], "m");
    }
}
