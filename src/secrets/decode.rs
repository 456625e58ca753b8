//! The spellings a secret takes inside other text: URL-encoded (`api_key%3Dabc`, `api%5Fkey=`,
//! a query string copied into a log) and JSON-escaped (`{\"api_key\": \"abc\"}`, `\u005f`,
//! a JSON document quoted inside a string). Text is decoded once, with a map from every byte of
//! the decoded text back to the text as written, so what is found in the decoded text is
//! masked where it is written.

/// `text` decoded, and for each byte of it (and one past the end) the byte of `text` it was
/// read from; `None` when nothing in `text` is encoded.
pub(super) fn decoded(text: &str) -> Option<(String, Vec<usize>)> {
    let bytes = text.as_bytes();
    if !bytes.iter().any(|&b| b == b'%' || b == b'\\') {
        return None;
    }
    let mut out: Vec<u8> = Vec::with_capacity(bytes.len());
    let mut map = Vec::with_capacity(bytes.len() + 1);
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
        map.push(i);
        if let Some(b) = byte {
            changed = true;
            // A control character read from an escape is a word break, as a space is.
            out.push(if b < 0x20 || b == 0x7f { b' ' } else { b });
            i += len;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    map.push(bytes.len());
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
        assert_eq!(&text[map[at]..map[at + 6]], "abc123");
        let (d, _) = decoded(r#"{\"api\u005fkey\": \"s3cr3tvalue\"}"#).unwrap();
        assert_eq!(d, r#"{"api_key": "s3cr3tvalue"}"#);
        assert_eq!(decoded("100% sure"), None);
        assert_eq!(decoded("C:\\models"), None);
        // A non-ASCII character is copied whole; an escape of one is left as written.
        let (d, _) = decoded("é%3D\\u00e9").unwrap();
        assert_eq!(d, "é=\\u00e9");
    }
}
