//! The spellings a secret takes inside other text: URL-encoded (`api_key%3Dabc`, `api%5Fkey=`,
//! a query string copied into a log) and JSON-escaped (`{\"api_key\": \"abc\"}`, `\u005f`,
//! a JSON document quoted inside a string). Text is decoded once, with a map from every byte of
//! the decoded text back to the text as written, so what is found in the decoded text is
//! masked where it is written.

/// Where each byte of a decoded text was read from in the text as written: a byte past the
/// escapes before it sits as many bytes further on as those escapes were longer than what they
/// spell. Kept as one entry an escape, not one a byte: a text of megabytes with a few escapes
/// (a one-line result with a quoted string) took eight bytes of map for each of its bytes.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct Offsets {
    /// For each escape, the first decoded byte after it, and how much further on the written
    /// text is from there.
    after: Vec<(usize, usize)>,
}

impl Offsets {
    /// The byte of the written text that decoded byte `at` (or one past the end) was read from.
    pub(super) fn at(&self, at: usize) -> usize {
        let k = self.after.partition_point(|&(from, _)| from <= at);
        at + k.checked_sub(1).map_or(0, |k| self.after[k].1)
    }
}

/// `text` decoded, and where each byte of it (and one past the end) was read from in `text`;
/// `None` when nothing in `text` is encoded.
pub(super) fn decoded(text: &str) -> Option<(String, Offsets)> {
    let bytes = text.as_bytes();
    if !bytes.iter().any(|&b| b == b'%' || b == b'\\') {
        return None;
    }
    let mut out: Vec<u8> = Vec::with_capacity(bytes.len());
    let mut map = Offsets { after: Vec::new() };
    let mut changed = false;
    let mut i = 0;
    while i < bytes.len() {
        let (byte, len) = match bytes[i] {
            b'%' => match hex_byte(bytes.get(i + 1..i + 3)) {
                Some(b) => (Some(b), 3),
                None => (None, 1),
            },
            b'\\' => match bytes.get(i + 1) {
                Some(b'"' | b'\\' | b'/' | b'\'') => (Some(bytes[i + 1]), 2),
                Some(b'n' | b'r' | b't' | b'b' | b'f') => (Some(b' '), 2),
                Some(b'u') => match bytes.get(i + 2..i + 6).and_then(hex_unit) {
                    Some(b) => (Some(b), 6),
                    None => (None, 1),
                },
                Some(b'x') => match hex_byte(bytes.get(i + 2..i + 4)) {
                    Some(b) => (Some(b), 4),
                    None => (None, 1),
                },
                _ => (None, 1),
            },
            _ => (None, 1),
        };
        if let Some(b) = byte {
            changed = true;
            // A control character read from an escape is a word break, as a space is.
            out.push(if b < 0x20 || b == 0x7f { b' ' } else { b });
            i += len;
            map.after.push((out.len(), i - out.len()));
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    if !changed {
        return None;
    }
    // Only ASCII bytes were decoded, every other byte copied whole: the text is UTF-8.
    String::from_utf8(out).ok().map(|s| (s, map))
}

/// The ASCII byte two hex digits spell (`3D` is `=`); `None` for anything else.
fn hex_byte(digits: Option<&[u8]>) -> Option<u8> {
    let d = digits?;
    let s = std::str::from_utf8(d).ok()?;
    let b = u8::from_str_radix(s, 16).ok()?;
    b.is_ascii().then_some(b)
}

/// The ASCII byte four hex digits of a `\u` escape spell; `None` for anything else.
fn hex_unit(digits: &[u8]) -> Option<u8> {
    let s = std::str::from_utf8(digits).ok()?;
    let unit = u16::from_str_radix(s, 16).ok()?;
    u8::try_from(unit).ok().filter(u8::is_ascii)
}

/// `s` URL-decoded (ASCII escapes only), for a key name (`api%5Fkey`); `None` when unchanged.
pub(super) fn url_decoded(s: &str) -> Option<String> {
    if !s.contains('%') {
        return None;
    }
    decoded(s).map(|(d, _)| d)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_and_maps_back_to_the_text_as_written() {
        let text = "q=api_key%3Dabc123&x=1";
        let (d, map) = decoded(text).unwrap();
        assert_eq!(d, "q=api_key=abc123&x=1");
        let at = d.find("abc123").unwrap();
        assert_eq!(&text[map.at(at)..map.at(at + 6)], "abc123");
        // The escape's byte maps to where the escape starts, the end past the whole text.
        let eq = d.find('=').unwrap() + 8;
        assert_eq!(&text[map.at(eq)..map.at(eq + 1)], "%3D");
        assert_eq!(map.at(d.len()), text.len());
        let (d, _) = decoded(r#"{\"api\u005fkey\": \"s3cr3tvalue\"}"#).unwrap();
        assert_eq!(d, r#"{"api_key": "s3cr3tvalue"}"#);
        assert_eq!(decoded("100% sure"), None);
        assert_eq!(decoded("C:\\models"), None);
        // A non-ASCII character is copied whole; an escape of one is left as written.
        let (d, _) = decoded("é%3D\\u00e9").unwrap();
        assert_eq!(d, "é=\\u00e9");
    }

    /// The map of escapes says, for every byte, what a map of every byte said: drawn texts of
    /// URL and JSON escapes, broken ones, and other characters.
    #[test]
    fn every_byte_maps_where_it_was_read_from() {
        const PARTS: &[&str] = &[
            "%3D", "%5f", "%", "%zz", "\\\"", "\\n", "\\u005f", "\\u00e9", "\\x41", "\\q", "\\",
            "é", "a", "key", " ", "=",
        ];
        let mut state = 0x0dec_0de5_u64;
        let mut checked = 0;
        for _ in 0..2000 {
            let n = 1 + crate::seeded::below(&mut state, 12);
            let text: String = (0..n)
                .map(|_| PARTS[crate::seeded::below(&mut state, PARTS.len())])
                .collect();
            let Some((d, map)) = decoded(&text) else {
                continue;
            };
            let every = byte_map(&text);
            assert_eq!(every.len(), d.len() + 1, "{text:?}");
            for (at, &from) in every.iter().enumerate() {
                assert_eq!(map.at(at), from, "byte {at} of {d:?} from {text:?}");
            }
            checked += 1;
        }
        assert!(checked > 1000, "{checked} texts decoded");
    }

    /// The reference: the byte of `text` each decoded byte was read from, one entry a byte
    /// (and one past the end), as the map was kept before.
    fn byte_map(text: &str) -> Vec<usize> {
        let bytes = text.as_bytes();
        let mut map = Vec::new();
        let mut i = 0;
        while i < bytes.len() {
            map.push(i);
            let escape = match bytes[i] {
                b'%' => hex_byte(bytes.get(i + 1..i + 3)).map(|_| 3),
                b'\\' => match bytes.get(i + 1) {
                    Some(b'"' | b'\\' | b'/' | b'\'' | b'n' | b'r' | b't' | b'b' | b'f') => Some(2),
                    Some(b'u') => bytes.get(i + 2..i + 6).and_then(hex_unit).map(|_| 6),
                    Some(b'x') => hex_byte(bytes.get(i + 2..i + 4)).map(|_| 4),
                    _ => None,
                },
                _ => None,
            };
            i += escape.unwrap_or(1);
        }
        map.push(bytes.len());
        map
    }
}
