//! Masking every secret in a text before any part of it is shown, whatever the findings are.
//!
//! M018's findings mask the values they point at, but a snippet shows whole lines: a second
//! `api_key` in the same object (only the last one is parsed), a key in the part of an array
//! past `max_array_items`, or a token in a file too broken to parse would still show. This pass
//! walks the text itself (strings and bare words, keys tracked per object, no recursion) and
//! overwrites, byte for byte, every string or word [`classify`] takes for a secret, every key
//! that is a credential, and the value after a secret flag in an argv array (`"--api-key",
//! "VALUE"`). Then the text is read as free text too (`api_key = VALUE` in a config file,
//! `Bearer VALUE` in a broken line). No offset moves and every line keeps its length.

use crate::secrets::{classify, find_in_text, find_in_text_within, is_harmless, is_secret_key};

mod rest;

pub use rest::WalkRest;

/// A string of the text: where it opens (its quote), one past where it ends, and whether a
/// quote closes it. Read (decoded) only when a string in sight needs it.
#[derive(Clone, Copy)]
struct Quoted {
    at: usize,
    end: usize,
    closed: bool,
}

impl Quoted {
    fn inner(self) -> (usize, usize) {
        (
            self.at + 1,
            if self.closed { self.end - 1 } else { self.end },
        )
    }

    fn read(self, text: &str) -> String {
        if self.closed {
            decode(&text[self.at..self.end])
        } else {
            let (from, to) = self.inner();
            text[from..to].to_string()
        }
    }
}

struct Frame {
    array: bool,
    expect_key: bool,
    key: Option<Quoted>,
    /// In an array: the last string value, which may be a secret flag (`--api-key`) making
    /// the next one its value.
    last_string: Option<Quoted>,
}

/// Overwrites every secret-looking string, key and bare word of `text` with `*`.
pub fn mask_all(text: &mut String) {
    mask_within(text, None);
}

/// The same as [`mask_all`] on every byte of `regions` (sorted, not overlapping, each from a
/// line's start to a line's end; `None`: the whole text) and on the line feeds around them,
/// for snippets that show only these lines. Bytes further out may be left as they are.
///
/// The walk still goes through the whole text, since a string's reading depends on the keys
/// and flags before it, but only the strings and words touching a region or its line feeds
/// are decoded and looked at, each as the whole walk would; the free-text search reads the
/// regions alone when that is proven to give the same answer there
/// ([`find_in_text_within`]). A secret that runs over a line feed (a string broken over
/// lines) would move the lines a snippet shows: then the whole text is masked.
pub fn mask_within(text: &mut String, regions: Option<&[(usize, usize)]>) {
    let mut ranges = secret_ranges(text, regions);
    if regions.is_some()
        && ranges
            .iter()
            .any(|&(from, to)| text.as_bytes()[from..to].contains(&b'\n'))
    {
        mask_within(text, None);
        return;
    }
    let in_text = regions
        .and_then(|r| find_in_text_within(text, r))
        .unwrap_or_else(|| find_in_text(text));
    ranges.extend(in_text);
    if ranges.is_empty() {
        return;
    }
    let mut bytes = std::mem::take(text).into_bytes();
    for (start, end) in ranges {
        // Whole characters are replaced, each by as many `*` as it has bytes: still UTF-8.
        bytes[start..end].fill(b'*');
    }
    // Valid UTF-8 still (no copy of a large text); the lossy path is only a guard.
    *text = String::from_utf8(bytes)
        .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
}

fn decode(raw_with_quotes: &str) -> String {
    let inner = &raw_with_quotes[1..raw_with_quotes.len() - 1];
    if inner.contains('\\') {
        serde_json::from_str::<String>(raw_with_quotes).unwrap_or_else(|_| inner.to_string())
    } else {
        inner.to_string()
    }
}

/// Byte ranges (inside quotes, or a bare word) that hold a secret, of the strings and words
/// touching `regions` (all of them when `None`).
fn secret_ranges(text: &str, regions: Option<&[(usize, usize)]>) -> Vec<(usize, usize)> {
    let shown = |from: usize, to: usize| {
        regions.is_none_or(|r| {
            // The first region ending (with its line feed) at or after `from`: the range
            // touches it if it starts before the range ends (the line feed before it counted).
            let k = r.partition_point(|&(_, end)| end < from);
            r.get(k)
                .is_some_and(|&(start, _)| start.saturating_sub(1) < to)
        })
    };
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut stack: Vec<Frame> = Vec::new();
    // The first region not wholly before the walk.
    let mut next_region = 0;
    let mut i = 0;
    while i < bytes.len() {
        // Inside an array and before the next region (and the line feed before it), what comes
        // up to the next string or bracket (numbers, commas, white space: a sample array)
        // changes no frame of an array and is not looked at: it is stepped over eight bytes at
        // a time.
        if let (Some(r), Some(Frame { array: true, .. })) = (regions, stack.last())
            && !matches!(bytes[i], b'{' | b'}' | b'[' | b']' | b'"')
        {
            while r.get(next_region).is_some_and(|&(_, end)| end < i) {
                next_region += 1;
            }
            let limit = r
                .get(next_region)
                .map_or(bytes.len(), |&(start, _)| start.saturating_sub(1));
            // Searched no further than the region: inside it (`limit` behind the walk) every
            // word is read, and a search to the array's end from each of them made a long
            // one-line array quadratic.
            let mut stop = crate::json::next_structural(&bytes[..limit.max(i)], i);
            // Never into a word: a word the region may touch is read whole.
            while stop > i && stop < bytes.len() && !ends_bare_word(bytes[stop - 1]) {
                stop -= 1;
            }
            if stop > i {
                i = stop;
                continue;
            }
        }
        match bytes[i] {
            b'{' | b'[' => {
                stack.push(Frame {
                    array: bytes[i] == b'[',
                    expect_key: bytes[i] == b'{',
                    key: None,
                    last_string: None,
                });
                i += 1;
            }
            b'}' | b']' => {
                stack.pop();
                i += 1;
            }
            b',' => {
                if let Some(f) = stack.last_mut().filter(|f| !f.array) {
                    f.expect_key = true;
                }
                i += 1;
            }
            b'"' => {
                let end = string_end(bytes, i);
                let string = Quoted {
                    at: i,
                    end,
                    closed: end > i + 1 && bytes[end - 1] == b'"',
                };
                let (inner_start, inner_end) = string.inner();
                let in_sight = inner_end > inner_start && shown(inner_start, inner_end);
                if let Some(f) = stack.last_mut().filter(|f| !f.array && f.expect_key) {
                    f.expect_key = false;
                    // A credential used as a key (or in one).
                    if in_sight && classify(None, &string.read(text)).is_some() {
                        out.push((inner_start, inner_end));
                    }
                    f.key = Some(string);
                } else {
                    if in_sight && value_is_secret(text, &stack, string) {
                        out.push((inner_start, inner_end));
                    }
                    if let Some(f) = stack.last_mut().filter(|f| f.array) {
                        f.last_string = Some(string);
                    }
                }
                i = end;
            }
            b if b.is_ascii_whitespace() || b == b':' => i += 1,
            _ => {
                // A bare word (a number, `true`, or what a broken file holds instead of JSON).
                let start = i;
                while i < bytes.len() && !ends_bare_word(bytes[i]) {
                    i += 1;
                }
                // Stop on a character boundary (the stop bytes are ASCII, so `i` is one).
                if shown(start, i) && classify(None, &text[start..i]).is_some() {
                    out.push((start, i));
                }
            }
        }
    }
    out
}

/// Whether `b` ends a bare word (white space, or what JSON puts between values).
fn ends_bare_word(b: u8) -> bool {
    b.is_ascii_whitespace() || b"{}[],:\"".contains(&b)
}

/// Whether the string value `string`, where `stack` stands, is a secret: by itself or under
/// its member's key (or the key of the array holding it), or as the value after a secret flag
/// in an argv array.
fn value_is_secret(text: &str, stack: &[Frame], string: Quoted) -> bool {
    let key = stack
        .iter()
        .rev()
        .find(|f| !f.array)
        .and_then(|f| f.key)
        .map(|k| k.read(text));
    let value = string.read(text);
    if classify(key.as_deref(), &value).is_some() {
        return true;
    }
    let after_flag = stack
        .last()
        .filter(|f| f.array)
        .and_then(|f| f.last_string)
        .is_some_and(|flag| {
            let flag = flag.read(text);
            flag.starts_with('-')
                && !flag.contains('=')
                && is_secret_key(flag.trim_start_matches('-'))
        });
    after_flag && !value.starts_with("--") && !is_harmless(&value)
}

/// One past the closing quote of the string opening at `i` (the end of the text if none).
fn string_end(bytes: &[u8], mut i: usize) -> usize {
    i += 1;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b'"' => return i + 1,
            _ => i += 1,
        }
    }
    bytes.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEY: &str = "sk-proj-Q9vLx2mT7rB4nK8wE1yZ5cH3jD6fA0gP";

    fn masked(text: &str) -> String {
        let mut t = text.to_string();
        mask_all(&mut t);
        assert_eq!(t.len(), text.len());
        t
    }

    #[test]
    fn masks_repeated_keys_arrays_and_broken_text() {
        let text = format!(
            r#"{{"api_key": "first-one", "api_key": "{KEY}", "env": ["A=1", "{KEY}"], "n": 3}}"#
        );
        let t = masked(&text);
        assert!(!t.contains(KEY) && !t.contains("first-one"), "{t}");
        assert!(t.contains("\"n\": 3") && t.contains("\"A=1\""), "{t}");
        let broken = format!("api_key: {KEY}\n{{\"token\": \"abc-é-def\"");
        let t = masked(&broken);
        assert!(!t.contains(KEY) && !t.contains("abc-é-def"), "{t}");
    }

    #[test]
    fn masks_argv_values_keys_and_config_text() {
        let argv = r#"{"cmd": ["vllm", "serve", "--api-key", "plainvalue99", "--port", "8000"]}"#;
        let t = masked(argv);
        assert!(!t.contains("plainvalue99") && t.contains("\"8000\""), "{t}");
        let key = format!(r#"{{"env": {{"{KEY}": 1}}}}"#);
        assert!(!masked(&key).contains(KEY));
        let toml = "[[sidecar]]\napi_key = \"hunter2hunter2\"\nPGPASSWORD=s3cr3t psql\n";
        let t = masked(toml);
        assert!(
            !t.contains("hunter2hunter2") && !t.contains("s3cr3t"),
            "{t}"
        );
    }

    #[test]
    fn leaves_harmless_text_alone() {
        let text = r#"{"model": "meta-llama/Llama-3.1-8B", "api_key": "EMPTY", "max_tokens": 256, "notes": "é"}"#;
        assert_eq!(masked(text), text);
    }

    /// Each line of `text` (with the lines around it) masked alone, against the whole text
    /// masked: the same bytes there, its line feeds included.
    fn same_on_every_line(text: &str) {
        let mut whole = text.to_string();
        mask_all(&mut whole);
        let mut start = 0;
        for line in text.split_inclusive('\n') {
            let end = start + line.trim_end_matches('\n').len();
            let mut part = text.to_string();
            mask_within(&mut part, Some(&[(start, end)]));
            let (from, to) = (start.saturating_sub(1), (end + 1).min(text.len()));
            assert_eq!(
                &part.as_bytes()[from..to],
                &whole.as_bytes()[from..to],
                "line at {start} of {text:?}"
            );
            start += line.len();
        }
    }

    #[test]
    fn the_shown_lines_are_masked_as_the_whole_text_masks_them() {
        let texts = [
            format!(
                "{{\n  \"engine\": {{\n    \"api_key\": \"first-one\",\n    \"cmd\": [\n      \"--api-key\",\n      \"plainvalue99\",\n      \"--port\",\n      \"8000\"\n    ],\n    \"env\": {{\n      \"{KEY}\": 1\n    }}\n  }},\n  \"notes\": \"auth Bearer\\nabc\"\n}}\n"
            ),
            "[[sidecar]]\napi_key =\n  hunter2hunter2\nPGPASSWORD=\ns3cr3t psql\nAuthorization: Bearer\n  abcdef123456\n--api-key\nsecretvalue\n".to_string(),
            format!("{{\"token\": \"abc\ndef-{KEY}\nghi\", \"n\": 1}}\nplain line\n"),
            format!("{{\"a\": 1}}\n{{\"token\": \"{KEY}\n"),
            format!("password:\n\n\n{KEY}\nok\n"),
            // Sample arrays, stepped over outside the shown lines: a bare secret among
            // numbers, a flag and its value split by a number, words glued to line feeds.
            format!(
                "{{\"samples\": [\n  0.1, 0.2,\n  0.3, {KEY}, 4,\n  5\n], \"argv\": [\"--api-key\", 7,\n \"{KEY}\"],\n\"n\": [1,\n2{KEY}\n, 3]}}\n"
            ),
        ];
        for text in &texts {
            same_on_every_line(text);
        }
        // The rule's own fixtures, as a snippet of any of their lines would mask them.
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("testdata/rules/M018-secret-in-result");
        for sub in ["fail", "pass"] {
            for entry in std::fs::read_dir(dir.join(sub)).unwrap() {
                let text = std::fs::read_to_string(entry.unwrap().path()).unwrap();
                same_on_every_line(&text);
            }
        }
    }

    #[test]
    fn total_on_garbage() {
        for t in [
            "\"",
            "\"\\",
            "{\"a\":\"\\",
            "]]]",
            "{\"é",
            "é\"é",
            "{\"token\": \"x\\u00e9\"}",
        ] {
            let _ = masked(t);
        }
    }
}
