//! Credentials recognised by their shape, whatever key they sit under: provider prefixes
//! (`sk-…`, `hf_…`, `ghp_…`, `xoxp-…`, `AIza…`, `AKIA…`, `npm_…`), JSON Web Tokens, PEM private
//! keys and `scheme://user:password@host` URLs. Ordinary values (model names, `sha256:` image
//! digests, git commit hashes, UUIDs) have none of these shapes.

use super::SecretKind;

/// Prefix, least number of ASCII letters and digits after it, and what it is.
const PREFIXES: [(&str, usize, &str); 26] = [
    ("sk-", 20, "an OpenAI-style secret key"),
    ("sk_live_", 16, "a Stripe secret key"),
    ("sk_test_", 16, "a Stripe secret key"),
    ("rk_live_", 16, "a Stripe restricted key"),
    ("hf_", 30, "a Hugging Face token"),
    ("ghp_", 30, "a GitHub token"),
    ("gho_", 30, "a GitHub token"),
    ("ghu_", 30, "a GitHub token"),
    ("ghs_", 30, "a GitHub token"),
    ("ghr_", 30, "a GitHub token"),
    ("github_pat_", 30, "a GitHub token"),
    ("glpat-", 20, "a GitLab token"),
    ("nvapi-", 30, "an NVIDIA API key"),
    ("xoxb-", 20, "a Slack token"),
    ("xoxp-", 20, "a Slack token"),
    ("xoxa-", 20, "a Slack token"),
    ("xoxr-", 20, "a Slack token"),
    ("xoxs-", 20, "a Slack token"),
    ("xapp-", 20, "a Slack token"),
    ("npm_", 30, "an npm token"),
    ("pypi-", 50, "a PyPI token"),
    ("AIza", 30, "a Google API key"),
    ("r8_", 30, "a Replicate token"),
    ("gsk_", 30, "a Groq API key"),
    ("dop_v1_", 40, "a DigitalOcean token"),
    ("sq0atp-", 20, "a Square token"),
];

/// What a credential [`known_shape`] recognises holds, as written (case included): a provider
/// prefix, an AWS key id's `AKIA`/`ASIA`, a JSON Web Token's `eyJ`. The other shapes need a `@`
/// (a URL password), start with `Bearer `/`Basic ` (in either case of the first letter), or
/// hold `-----BEGIN` and `PRIVATE KEY` (a PEM key: a `-` and the name stem `key`).
/// [`super::sieve`] rules text out by these.
pub(super) const MARKS: [&str; PREFIXES.len() + 3] = {
    let mut out = [""; PREFIXES.len() + 3];
    let mut i = 0;
    while i < PREFIXES.len() {
        out[i] = PREFIXES[i].0;
        i += 1;
    }
    out[i] = "AKIA";
    out[i + 1] = "ASIA";
    out[i + 2] = "eyJ";
    out
};

/// Whether a byte can start one of the shapes: most strings of a result (names, versions,
/// units, numbers) are ruled out by their first byte alone.
fn may_start(b: u8) -> bool {
    matches!(
        b,
        b's' | b'h' | b'g' | b'n' | b'x' | b'r' | b'p' | b'd' | b'A' | b'B' | b'b' | b'e' | b'-'
    )
}

/// The credential `v` is, by its shape alone (`v` is one word: no surrounding text).
pub fn known_shape(v: &str) -> Option<SecretKind> {
    let first = *v.as_bytes().first()?;
    // A character is found far faster than a substring: only text with a colon is searched
    // for `://`.
    let may_be_url = v.contains('@') || (v.contains(':') && v.contains("://"));
    if !may_start(first) && !may_be_url {
        return None;
    }
    let alnum = |s: &str| s.bytes().filter(u8::is_ascii_alphanumeric).count();
    let word = !v.contains(char::is_whitespace);
    for (prefix, min, name) in PREFIXES {
        // The first byte alone rules out all but a prefix or two.
        if prefix.as_bytes()[0] != first {
            continue;
        }
        if let Some(rest) = v.strip_prefix(prefix)
            && word
            && alnum(rest) >= min
        {
            return Some(SecretKind(format!(
                "{name} (`{prefix}` prefix, {} characters)",
                v.chars().count()
            )));
        }
    }
    // AWS access key ids: four letters and sixteen capitals or digits, then no more of them.
    if (v.starts_with("AKIA") || v.starts_with("ASIA"))
        && v.len() >= 20
        && v.as_bytes()[..20]
            .iter()
            .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit())
        && v.as_bytes()
            .get(20)
            .is_none_or(|b| !b.is_ascii_alphanumeric())
    {
        return Some(SecretKind(format!(
            "an AWS access key id (`{}` prefix, 20 characters)",
            &v[..4]
        )));
    }
    if is_jwt(v) {
        return Some(SecretKind(format!(
            "a JSON Web Token ({} characters)",
            v.chars().count()
        )));
    }
    if let Some(rest) = v
        .strip_prefix("Bearer ")
        .or_else(|| v.strip_prefix("bearer "))
        && auth_value(rest.trim())
    {
        return Some(SecretKind(format!(
            "a bearer token ({} characters)",
            rest.trim().chars().count()
        )));
    }
    if let Some(rest) = v
        .strip_prefix("Basic ")
        .or_else(|| v.strip_prefix("basic "))
        && basic_credentials(rest.trim())
    {
        return Some(SecretKind("HTTP basic credentials".into()));
    }
    // `-----BEGIN` and `PRIVATE KEY` take 21 bytes at the least.
    if v.len() >= 21 && v.contains('-') && v.contains("-----BEGIN") && v.contains("PRIVATE KEY") {
        return Some(SecretKind("a private key".into()));
    }
    if url_password(v).is_some() {
        return Some(SecretKind("a URL with a password in it".into()));
    }
    None
}

/// `header.payload.signature`, each part base64url, the first two JSON objects (`eyJ`).
fn is_jwt(v: &str) -> bool {
    let mut parts = v.split('.');
    let (Some(h), Some(p), Some(s), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return false;
    };
    let b64 = |x: &str| {
        x.len() >= 8
            && x.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_' || b == b'=')
    };
    h.starts_with("eyJ") && p.starts_with("eyJ") && b64(h) && b64(p) && b64(s)
}

/// Whether the word after `Bearer` is a token (not a placeholder such as `<token>`, `$TOKEN`
/// or `{token}`).
pub fn auth_value(v: &str) -> bool {
    let n = v.chars().count();
    // A short token holds a digit or a symbol; a short word alone is prose ("the Bearer scheme").
    let token_like = n >= 12
        || v.bytes().any(|b| {
            b.is_ascii_digit() || matches!(b, b'-' | b'_' | b'.' | b'~' | b'+' | b'/' | b'=')
        });
    n >= 6
        && token_like
        && !v.starts_with(['<', '$', '{', '%'])
        && !super::is_harmless(v)
        && v.bytes().any(|b| b.is_ascii_alphanumeric())
}

/// Whether the word after `Basic` is base64 credentials.
pub fn basic_credentials(v: &str) -> bool {
    // Base64 from the start (what follows it in the word goes with it).
    v.bytes()
        .take_while(|&b| b.is_ascii_alphanumeric() || b == b'+' || b == b'/' || b == b'=')
        .count()
        >= 8
}

/// The byte range of the password in the `user:password` a `curl -u` or `--user` takes, if `v`
/// is one.
pub fn user_password(v: &str) -> Option<(usize, usize)> {
    let (user, pass) = v.split_once(':')?;
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    // `docker -u 1000:1000` names a user and a group; `-u a:/x` is no credential either.
    if user.is_empty()
        || pass.is_empty()
        || user.contains('/')
        || pass.starts_with('/')
        || (digits(user) && digits(pass))
        || super::is_harmless(pass)
    {
        return None;
    }
    Some((user.len() + 1, v.len()))
}

/// The byte range of the password in `scheme://user:password@host`, or in a connection
/// string without its scheme (`user:password@db.example.com`), if `v` holds one.
pub fn url_password(v: &str) -> Option<(usize, usize)> {
    // Both shapes end their user information with an `@`.
    if !v.contains('@') {
        return None;
    }
    // The first `scheme://` in the word, whatever stands before it (`see:https://…`).
    let scheme = v
        .match_indices("://")
        .find(|&(i, _)| i > 0 && v.as_bytes()[i - 1].is_ascii_alphanumeric());
    let Some((scheme_end, _)) = scheme else {
        return bare_userinfo(v);
    };
    let authority_start = scheme_end + 3;
    let rest = &v[authority_start..];
    let authority_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let at = rest[..authority_end].rfind('@')?;
    let userinfo = &rest[..at];
    let colon = userinfo.find(':')?;
    let password = &userinfo[colon + 1..];
    if password.is_empty() || super::is_harmless(password) {
        return None;
    }
    let start = authority_start + colon + 1;
    Some((start, start + password.len()))
}

/// `user:password@host` with a host name (a dot in it, or `localhost`).
fn bare_userinfo(v: &str) -> Option<(usize, usize)> {
    let name = |b: u8| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'-' | b'_');
    let at = v.find('@')?;
    let host: String = v[at + 1..]
        .bytes()
        .take_while(|&b| name(b))
        .map(char::from)
        .collect();
    if !(host.contains('.') || host.eq_ignore_ascii_case("localhost")) {
        return None;
    }
    let colon = v[..at].rfind(':')?;
    let password = &v[colon + 1..at];
    let user_ok = v[..colon].bytes().last().is_some_and(name);
    if !user_ok
        || password.len() < 4
        || password.contains(['/', ' '])
        || super::is_harmless(password)
    {
        return None;
    }
    Some((colon + 1, at))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes() {
        for s in [
            "sk-proj-ABCDEFGHIJKLMNOPQRSTUVWX1234",
            "sk_live_51HfQx2ABCDEFGHijklmnop",
            "hf_abcdefghijklmnopqrstuvwxyz0123456789",
            "ghp_abcdefghijklmnopqrstuvwxyz0123456789",
            "xoxp-1234567890-1234567890-abcdefghijkl",
            "AKIAIOSFODNN7EXAMPLE",
            "ASIAIOSFODNN7EXAMPLE",
            "AIzaSyA1b2C3d4E5f6G7h8I9j0KlMnOpQrStUvW",
            "npm_abcdefghijklmnopqrstuvwxyz0123456789",
            "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
            "Bearer abc123xyz",
            "Basic dXNlcjpwYXNzd29yZA==",
            "https://admin:hunter22@db.example.com/x",
            "admin:hunter22@db.example.com",
            "-----BEGIN RSA PRIVATE KEY-----\nMIIE",
        ] {
            assert!(known_shape(s).is_some(), "{s}");
        }
    }

    #[test]
    fn ordinary_values() {
        for s in [
            "meta-llama/Llama-3.1-8B-Instruct",
            "sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
            "4b825dc642cb6eb9a060e54bf8d69288fbee4904",
            "123e4567-e89b-12d3-a456-426614174000",
            "https://huggingface.co/meta-llama/Llama-3.1-8B",
            "https://user@host/x",
            "Bearer <token>",
            "Bearer $TOKEN",
            "nvidia/DeepSeek-R1-FP4",
            "sglang",
            "ASIA-PACIFIC",
            "hf_transfer",
            "batch",
            "Basic",
        ] {
            assert!(known_shape(s).is_none(), "{s}");
        }
    }
}
