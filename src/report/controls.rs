//! Keeping control characters quoted from a file out of every output: a result file must not
//! be able to colour, move or clear a terminal or a CI log through benchlint's report.

/// Control characters other than a line break or a tab: they would move the cursor, colour or
/// clear a terminal, or be dropped silently by a log viewer.
fn is_unprintable(c: char) -> bool {
    c.is_control() && c != '\n' && c != '\t'
}

/// `text` with each unprintable character written as a `\u{..}` escape; `None` when there is
/// none. For messages, labels and help texts, which may quote a value from a file.
pub fn escaped(text: &str) -> Option<String> {
    if !text.chars().any(is_unprintable) {
        return None;
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if is_unprintable(c) {
            out.extend(c.escape_unicode());
        } else {
            out.push(c);
        }
    }
    Some(out)
}

/// Replaces each unprintable character of a file's text (JSON forbids them in strings, but a
/// broken file can hold them) by a stand-in of the same byte length, `?` or `¿`, so a snippet
/// shows no raw control character and no offset or column moves. Carriage returns stay: they
/// end lines.
pub fn stand_in(text: &mut String) {
    let shown = |c: char| c == '\r' || !is_unprintable(c);
    if text.chars().all(shown) {
        return;
    }
    *text = text
        .chars()
        .map(|c| match c {
            c if shown(c) => c,
            c if c.len_utf8() == 1 => '?',
            _ => '¿',
        })
        .collect();
}

#[cfg(test)]
mod tests {
    use super::{escaped, stand_in};

    #[test]
    fn terminal_escapes_in_quoted_values_are_written_out() {
        assert_eq!(
            escaped("schema \"x\u{1b}[2Jy\u{7}\" line\nnext\ttab").as_deref(),
            Some("schema \"x\\u{1b}[2Jy\\u{7}\" line\nnext\ttab")
        );
        assert_eq!(escaped("plain\ttext\n"), None);
    }

    #[test]
    fn stand_ins_keep_every_byte_offset() {
        let mut text = String::from("a\u{1b}b\u{85}c\r\nd\u{7f}");
        let before = text.len();
        stand_in(&mut text);
        assert_eq!(text, "a?b¿c\r\nd?");
        assert_eq!(text.len(), before);
    }
}
