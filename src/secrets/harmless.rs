//! Values that say there is no secret: empty, placeholders of documentation and examples, yes
//! and no, masked values, slots left to fill in, and references to a secret kept elsewhere.

/// Values that say "no secret here" (placeholders in documentation and examples included).
const HARMLESS: [&str; 28] = [
    "value",
    "key",
    "token",
    "secret",
    "password",
    "your_api_key",
    "your-api-key",
    "",
    "none",
    "null",
    "empty",
    "n/a",
    "na",
    "redacted",
    "<redacted>",
    "[redacted]",
    "***",
    "dummy",
    "not-set",
    "unset",
    "true",
    "false",
    "yes",
    "no",
    "on",
    "off",
    "-",
    "?",
];

/// Whether `v` says there is no secret: empty, a placeholder (`EMPTY`, `<redacted>`, `***`),
/// a yes/no, or a reference to one kept elsewhere (`$OPENAI_API_KEY`, `${HF_TOKEN}`,
/// `env:TOKEN`).
pub fn is_harmless(v: &str) -> bool {
    // A value as a repr or a log writes it keeps its quotes and the punctuation after it
    // (`proxy_auth=None,` in aiohttp's `ConnectionKey(...)`): read without them.
    let v = v
        .trim()
        .trim_end_matches([',', ';', ')', ']', '}'])
        .trim_matches(['"', '\'']);
    HARMLESS.iter().any(|h| v.eq_ignore_ascii_case(h))
        || v.chars().all(|c| c == '*' || c == 'x' || c == 'X')
        || v.starts_with('$')
        || v.starts_with("env:")
        || v.starts_with("os.environ")
        || is_template(v)
        || is_placeholder_phrase(v)
        || is_addressed_placeholder(v)
        || is_masked(v)
}

/// Words that make a phrase of letters a slot to fill in, not a value (`your-openai-api-key`,
/// `insert_token_here`, `replace-me`): no real credential is made of words and one of these.
const SLOT_WORDS: [&str; 9] = [
    "your",
    "my",
    "example",
    "placeholder",
    "replace",
    "insert",
    "changeme",
    "here",
    "xxx",
];

/// Whether `v` is two or more words of letters joined by `_`, `-`, `.` or spaces, one of them
/// a [`SLOT_WORDS`] word.
fn is_addressed_placeholder(v: &str) -> bool {
    let words: Vec<&str> = v.split(['_', '-', '.', ' ']).collect();
    words.len() >= 2
        && words
            .iter()
            .all(|w| !w.is_empty() && w.bytes().all(|b| b.is_ascii_alphabetic()))
        && words
            .iter()
            .any(|w| SLOT_WORDS.iter().any(|s| w.eq_ignore_ascii_case(s)))
}

/// Whether `v` is a masked value: a run of three or more mask characters (`*`, `•`, `#`)
/// and at most 8 letters or digits besides (`****_key`, `sk-****abcd`, `••••1234`), what a
/// tool prints in place of a key.
fn is_masked(v: &str) -> bool {
    let is_mask = |c: char| matches!(c, '*' | '\u{2022}' | '#');
    let mut run = 0;
    let mut longest = 0;
    let mut visible = 0;
    for c in v.chars() {
        if is_mask(c) {
            run += 1;
            longest = longest.max(run);
        } else {
            run = 0;
            visible += usize::from(c.is_alphanumeric());
        }
    }
    longest >= 3 && visible <= 8
}

/// Words a made-up credential is built from in examples and test set-ups (`test_key`,
/// `fake-token`, `my_api_key`): a value made only of them names no real secret. A word outside
/// the list (a digit, a random run) makes the value a possible secret again.
const PLACEHOLDER_WORDS: [&str; 17] = [
    "test",
    "testing",
    "dummy",
    "fake",
    "example",
    "sample",
    "placeholder",
    "my",
    "your",
    "api",
    "key",
    "token",
    "secret",
    "password",
    "none",
    "empty",
    "foo",
];

/// Whether `v` is two or more placeholder words joined by `_`, `-` or `.` (`test_key`).
fn is_placeholder_phrase(v: &str) -> bool {
    let mut words = 0;
    for w in v.split(['_', '-', '.']) {
        if !PLACEHOLDER_WORDS.iter().any(|p| w.eq_ignore_ascii_case(p)) {
            return false;
        }
        words += 1;
    }
    words >= 2
}

/// A slot a shared config leaves for the user to fill, not a value: `<your-hf-token>`.
fn is_template(v: &str) -> bool {
    v.strip_prefix('<')
        .and_then(|r| r.strip_suffix('>'))
        .is_some_and(|s| {
            !s.is_empty()
                && s.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b' ' | b'.'))
        })
}
