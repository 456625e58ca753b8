//! `secret-in-result` (M018): an API key, token or password stored in a result file.

use serde_json::Value;

use crate::json::{Visit, walk_under};
use crate::secrets::{
    argv_secrets_of, classify, classify_in, classify_number, command_line_has_secret,
};

use super::{DocumentCtx, Emitter, declare_rule};

declare_rule! {
    /// ## What it checks
    /// Every string in the file, whatever its format: a non-empty value under a key such as
    /// `api_key`, `token`, `password`, `authorization` or an environment variable's
    /// `OPENAI_KEY` (and, in free-form maps such as `environment` or `headers`, any key ending
    /// in `key` or naming `auth`), a number under such a key (`"password": 12345`), or a value
    /// shaped like a known credential (`sk-…`, `hf_…`, `ghp_…`, `nvapi-…`, `AKIA…`,
    /// `Bearer …`, a PEM private key). Inside free text it reads the value after a secret flag
    /// or name (`--api-key X`, `api_key=X`), the password of `curl -u user:pass` and
    /// `--user user:pass`, the credential of `Authorization: X` and `authorization=Token X`,
    /// in the text as written and once URL-decoded and JSON-unescaped (`api_key%3DX`,
    /// `api%5Fkey=X`, `{\"api_key\": \"X\"}`). The finding names the kind and length of
    /// the secret and its location, never the value; every output format of benchlint masks
    /// it, and `import` writes `<redacted>` in its place.
    ///
    /// A value that says there is no secret is not one: empty, `EMPTY`, `None`, `null`,
    /// `<redacted>`, a reference to the environment (`$OPENAI_API_KEY`), a made-up key built
    /// only of placeholder words (`test_key`, `fake-token`, `my_api_key`), a slot to fill in
    /// (`your-openai-api-key`, `<your-token>`), or a masked value (`****_key`, `sk-****abcd`).
    /// A repr that merely names a field is no secret either: aiohttp's
    /// `ConnectionKey(host='10.0.0.5', ..., proxy_auth=None, ...)`, which AIPerf quotes in every
    /// connection error.
    ///
    /// ## Why is this bad?
    /// Harnesses copy their whole command line into the result: AIPerf's `input_config` keeps
    /// the `api_key` it was given. Result files get published, and a key in a published file is
    /// a leaked key.
    ///
    /// ## Example
    /// ```json
    /// { "input_config": { "endpoint": { "api_key": "sk-…" } } }
    /// ```
    ///
    /// ## What to do instead
    /// Revoke the key, remove it from the file (and from the repository history), and pass
    /// keys to harnesses through the environment.
    pub static RULE = {
        code: "M018",
        name: "secret-in-result",
        severity: Error,
        scope: Document,
        source: "research/formats.md (AIPerf input_config)",
        summary: "API key, token or password in the file",
    }
}

pub fn check(ctx: &DocumentCtx<'_>, out: &mut Emitter<'_>) {
    walk_under(ctx.under, ctx.value, &mut |path, value| {
        match value {
            Value::Number(n) => {
                if let Some(kind) = classify_number(path.parent_key(), path.key(), n) {
                    let pointer = path.pointer();
                    out.emit(
                        &pointer,
                        crate::text!("`{}` holds {}; the value is not shown", &pointer, kind.0),
                    )
                    .label("secret (masked)")
                    .help(HELP);
                }
            }
            Value::String(s) => {
                if let Some(kind) = classify_in(path.parent_key(), path.key(), s) {
                    let pointer = path.pointer();
                    out.emit(
                        &pointer,
                        crate::text!("`{}` holds {}; the value is not shown", &pointer, kind.0),
                    )
                    .label("secret (masked)")
                    .help(HELP);
                } else if command_line_has_secret(s) {
                    let pointer = path.pointer();
                    out.emit(&pointer, crate::text!("`{}` is a command line that passes a secret argument (`--api-key VALUE` or alike); the value is not shown", &pointer))
                        .label("secret (masked)")
                        .help(HELP);
                }
            }
            // Per-request samples: nothing below a list of numbers can be a secret.
            Value::Array(items) if items.iter().all(Value::is_number) => return Visit::Skip,
            // An argv: the value after `--api-key` is a secret whatever it looks like. Only an
            // array with a string that could be a flag can be one; samples are numbers.
            Value::Array(items)
                if items.iter().any(|v| {
                    v.as_str()
                        .is_some_and(|s| s.contains('-') || s.contains('='))
                }) =>
            {
                let strings: Vec<&str> = items
                    .iter()
                    .map(|v| v.as_str().unwrap_or_default())
                    .collect();
                for i in argv_secrets_of(&strings) {
                    if classify(path.key(), strings[i]).is_none() && items[i].is_string() {
                        let at = format!("{}/{i}", path.pointer());
                        out.emit(&at, crate::text!("`{}` is the value of a secret argument (`--api-key VALUE` or alike, {} characters); the value is not shown", &at, strings[i].chars().count()))
                            .label("secret (masked)")
                            .help(HELP);
                    }
                }
            }
            _ => {}
        }
        Visit::Descend
    });
}

const HELP: &str = "revoke the credential, remove it from the file and its history, and pass keys through the environment";
