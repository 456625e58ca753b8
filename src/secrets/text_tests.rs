//! The search for secrets in free text, on the shapes it must find and the text it must leave.

use super::find;

fn redacted(s: &str) -> String {
    let mut out = s.to_string();
    for (a, b) in find(s).into_iter().rev() {
        out.replace_range(a..b, "<x>");
    }
    out
}

#[test]
fn multi_word_forms() {
    assert_eq!(redacted("auth: Bearer abc123def"), "auth: Bearer <x>");
    assert_eq!(
        redacted("--api-key plain1234 --port 8"),
        "--api-key <x> --port 8"
    );
    assert_eq!(redacted("--api-key=plain1234"), "--api-key=<x>");
    assert_eq!(
        redacted("OPENAI_API_KEY=abc123 vllm"),
        "OPENAI_API_KEY=<x> vllm"
    );
    assert_eq!(redacted("PGPASSWORD=hunter2 psql"), "PGPASSWORD=<x> psql");
    assert_eq!(redacted("password: hunter2"), "password: <x>");
    assert_eq!(redacted(r#""api_key": "abc123""#), r#""api_key": "<x>""#);
    assert_eq!(redacted("api_key = abc123"), "api_key = <x>");
    assert_eq!(redacted("--secret-key s3cr3t"), "--secret-key <x>");
    assert_eq!(
        redacted("Authorization: Basic dXNlcjpwYXNzd29yZA=="),
        "Authorization: Basic <x>"
    );
    assert_eq!(
        redacted("db at postgres://app:hunter22@db:5432/x"),
        "db at postgres://app:<x>@db:5432/x"
    );
    assert_eq!(
        redacted("file results/sk-proj-ABCDEFGHIJKLMNOPQRSTUVWX1234.json"),
        "file results/<x>"
    );
    assert_eq!(
        redacted("`/env/hf_abcdefghijklmnopqrstuvwxyz0123456789` is"),
        "`/env/<x>` is"
    );
}

#[test]
fn encoded_and_shell_forms() {
    assert_eq!(
        redacted("GET /v1?api_key%3Dabc123def"),
        "GET /v1?api_key%3D<x>"
    );
    // The rest of a query string goes with the value, as it does unencoded.
    assert_eq!(redacted("api%5Fkey=abc123def&x=1"), "api%5Fkey=<x>");
    assert_eq!(
        redacted(r#"{\"api_key\": \"abc123def\"}"#),
        r#"{\"api_key\": \"<x>\"}"#
    );
    assert_eq!(
        redacted("curl -u admin:hunter22 http://x"),
        "curl -u admin:<x> http://x"
    );
    assert_eq!(
        redacted("curl --user admin:hunter22"),
        "curl --user admin:<x>"
    );
    assert_eq!(
        redacted("curl --user=admin:hunter22"),
        "curl --user=admin:<x>"
    );
    assert_eq!(redacted("curl -uadmin:hunter22 x"), "curl -uadmin:<x> x");
    assert_eq!(
        redacted("headers authorization=Token 9f8e7d6c5b4a"),
        "headers authorization=Token <x>"
    );
    assert_eq!(
        redacted("Authorization: abc123def456"),
        "Authorization: <x>"
    );
    for s in [
        "docker run -u 1000:1000 img",
        "python -u bench.py",
        "curl -u user: http://x",
        "100% of requests",
    ] {
        assert!(find(s).is_empty(), "{s}: {:?}", find(s));
    }
}

#[test]
fn ordinary_text() {
    for s in [
        "ran with eager mode off",
        "image sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
        "commit 4b825dc642cb6eb9a060e54bf8d69288fbee4904",
        "run 123e4567-e89b-12d3-a456-426614174000",
        "model meta-llama/Llama-3.1-8B-Instruct at 32 streams",
        "max_tokens: 256, eos_token: </s>",
        "api_key: EMPTY",
        "--api-key $OPENAI_API_KEY",
        "token count 512",
        "the Bearer scheme",
        "vllm serve m --max-num-seqs 8",
    ] {
        assert!(find(s).is_empty(), "{s}: {:?}", find(s));
    }
}

/// Where [`super::FreeTextRest`] says the search stands at rest after a line, the search over
/// the text after it finds there what the search over the whole text finds: drawn lines of
/// secret names, flags, schemes and their values, split over line feeds, encoded and not.
#[test]
fn at_rest_the_text_after_reads_as_in_the_whole_text() {
    const WORDS: &[&str] = &[
        "api_key",
        "=",
        ":",
        "password:",
        "PGPASSWORD=",
        "--api-key",
        "-u",
        "admin:pa55word",
        "Bearer",
        "Authorization:",
        "Basic",
        "dXNlcjpwYXNzd29yZA==",
        "token=Bearer",
        "hunter2hunter2",
        "sk-proj-Q9vLx2mT7rB4nK8wE1yZ5cH3jD6fA0gP",
        "https://user:pa55w0rd@host/x",
        "api%5Fkey%3D",
        "\\u0061pi_key=",
        "plain",
        "words",
        "{",
        "],",
        "\"",
    ];
    let mut state = 0x00f0_7e47_u64;
    let mut cuts = 0;
    for case in 0..400 {
        let lines = 1 + crate::seeded::below(&mut state, 12);
        let text: String = (0..lines)
            .map(|_| {
                let n = crate::seeded::below(&mut state, 5);
                let words: Vec<&str> = (0..n)
                    .map(|_| WORDS[crate::seeded::below(&mut state, WORDS.len())])
                    .collect();
                words.join(" ") + "\n"
            })
            .collect();
        let whole = find(&text);
        let mut rest = super::FreeTextRest::default();
        let mut at = 0;
        for line in text.split_inclusive('\n') {
            rest.feed(line);
            at += line.len();
            if !rest.at_rest() {
                continue;
            }
            cuts += 1;
            let after: Vec<(usize, usize)> = find(&text[at..])
                .into_iter()
                .map(|(s, e)| (s + at, e + at))
                .collect();
            let whole_after: Vec<(usize, usize)> =
                whole.iter().copied().filter(|&(s, _)| s >= at).collect();
            assert_eq!(
                after, whole_after,
                "case {case}, after byte {at} of {text:?}"
            );
        }
    }
    assert!(cuts > 500, "{cuts} places at rest");
}

/// A credential-shaped token glued to a scheme that opens a value (`…-Bearer X`), or sharing a
/// word with a URL's password, is found as in any other word: those readings once ended the
/// word before its tokens were looked at. Every shape, glued every way.
#[test]
fn a_credential_sharing_its_word_with_a_scheme_or_a_url_is_found() {
    let keys = [
        "sk-proj-Q9vLx2mT7rB4nK8wE1yZ5cH3jD6fA0gP",
        "hf_abcdefghijklmnopqrstuvwxyz0123456789",
        "ghp_abcdefghijklmnopqrstuvwxyz0123456789",
        "xoxb-123456789012-abcdefghijklmnop",
        "AKIAIOSFODNN7EXAMPLE",
    ];
    let glued = [
        "auth {key}-Bearer abcdefghij0123456789",
        "auth {key}_Basic dXNlcjpwYXNzd29yZA==",
        "see https://user:pa55w0rd@host.example/x?k={key}",
        "see https://user:pa55w0rd@host.example/x,{key}",
        "x=https://user:pa55w0rd@host.example/{key} done",
    ];
    for key in keys {
        for form in glued {
            let text = form.replace("{key}", key);
            let out = redacted(&text);
            assert!(!out.contains(key), "{text} -> {out}");
        }
    }
    // The word with the scheme and nothing else in it is left as it reads.
    assert_eq!(redacted("auth=Bearer plain"), "auth=Bearer plain");
}
