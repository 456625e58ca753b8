//! Characters a file must not be able to pass through to a terminal, a CI log or a rendered
//! page: control characters (they move the cursor, colour or clear a terminal, ring its bell,
//! open an OSC hyperlink), line and paragraph separators, bidirectional overrides (they reorder
//! what is shown: U+202E makes `txt.exe` read `exe.txt`) and invisible characters (zero-width
//! spaces and joiners, tag characters, variation selectors, which hide text from a reviewer).

/// Whether `c` is shown as an escape instead of itself.
pub fn is_hidden(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{00AD}'
                | '\u{034F}'
                | '\u{061C}'
                | '\u{115F}'
                | '\u{1160}'
                | '\u{17B4}'
                | '\u{17B5}'
                | '\u{180B}'..='\u{180F}'
                | '\u{200B}'..='\u{200F}'
                | '\u{2028}'..='\u{202E}'
                | '\u{2060}'..='\u{206F}'
                | '\u{3164}'
                | '\u{FE00}'..='\u{FE0F}'
                | '\u{FEFF}'
                | '\u{FFA0}'
                | '\u{FFF0}'..='\u{FFFB}'
                | '\u{1BCA0}'..='\u{1BCA3}'
                | '\u{1D173}'..='\u{1D17A}'
                | '\u{E0000}'..='\u{E0FFF}'
        )
}

/// Whether a byte string may hold a hidden character: ASCII controls, or any non-ASCII byte
/// (then the characters are looked at). Printable ASCII text, most of what a report shows, is
/// passed by this one test.
fn may_hide(s: &str) -> bool {
    s.bytes().any(|b| !(0x20..0x7F).contains(&b))
}

/// Whether a backslash in `s` could be read as the start of one of the escapes below.
fn has_escape_like(s: &str) -> bool {
    s.as_bytes()
        .windows(2)
        .any(|w| w[0] == b'\\' && matches!(w[1], b'n' | b'r' | b't' | b'u' | b'\\'))
}

/// `s` with every hidden character written as an escape (`\n`, `\r`, `\t`, `\u{1b}`,
/// `\u{202e}`) and the second mark of every `::` and `##` written `\u{3a}`, `\u{23}` (see
/// [`super::commands`]), so that nothing in it can act on a terminal or a log, reorder or hide
/// text, or start a command of a CI runner. `None` when nothing changes.
///
/// Escaped text reads back to one input only: when anything is escaped, or a backslash of `s`
/// would read as an escape, every backslash is doubled, so a file literally named
/// `a:\u{3a}b` is never shown as the file `a::b` (escape, never substitute).
pub fn escaped(s: &str) -> Option<String> {
    let commands = super::commands::may_command(s);
    if !may_hide(s) && !commands && !s.contains('\\') {
        return None;
    }
    let escape_like = has_escape_like(s);
    if !commands && !escape_like && !s.chars().any(is_hidden) {
        return None;
    }
    let mut out = String::with_capacity(s.len() + 16);
    let mut prev = None;
    for c in s.chars() {
        match c {
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\\' => out.push_str("\\\\"),
            c if prev == Some(c) && super::commands::is_mark(c) => {
                out.extend(c.escape_unicode());
                prev = None;
                continue;
            }
            c if is_hidden(c) => out.extend(c.escape_unicode()),
            c => out.push(c),
        }
        prev = Some(c);
    }
    Some(out)
}

/// Replaces each hidden character of a file's text by a visible stand-in of the same byte
/// length (`?`, `¿`, `�`, `????`), so a snippet shows none of them and no byte offset moves;
/// the second mark of a runner's command form becomes `?` too (`#?[error]`, see
/// [`super::commands`]).
/// Line feeds and tabs stay: they are the snippet's own layout. A carriage return becomes a
/// space (alone, it would send the cursor back over the line; before a line feed it is
/// invisible anyway).
pub fn stand_in(text: &mut String) {
    super::commands::stand_in(text);
    let shown = |c: char| matches!(c, '\n' | '\t') || !is_hidden(c);
    if !may_hide(text) || text.chars().all(shown) {
        return;
    }
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            c if shown(c) => out.push(c),
            '\r' => out.push(' '),
            c => match c.len_utf8() {
                1 => out.push('?'),
                2 => out.push('¿'),
                3 => out.push('\u{FFFD}'),
                _ => out.push_str("????"),
            },
        }
    }
    *text = out;
}

/// [`stand_in`] on the bytes `from..to` of `text` alone (both on character boundaries): the
/// same characters replaced the same way, since each stand-in depends on its character only.
pub fn stand_in_within(text: &mut String, from: usize, to: usize) {
    if !may_hide(&text[from..to]) && !text[from..to].contains("##") {
        return;
    }
    let mut part = text[from..to].to_string();
    stand_in(&mut part);
    if part != text[from..to] {
        text.replace_range(from..to, &part);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_what_acts_or_hides() {
        assert_eq!(
            escaped("x\u{1b}[2Jy\u{7}\n::error file=a::b\u{202e}c\u{200b}d").as_deref(),
            Some("x\\u{1b}[2Jy\\u{7}\\n:\\u{3a}error file=a:\\u{3a}b\\u{202e}c\\u{200b}d")
        );
        assert_eq!(escaped("plain text: é, 3.5 tok/s"), None);
        assert_eq!(escaped("a\u{2028}b").as_deref(), Some("a\\u{2028}b"));
        assert_eq!(escaped(":::").as_deref(), Some(":\\u{3a}:"));
    }

    #[test]
    fn no_pair_of_runner_marks_survives() {
        assert_eq!(
            escaped("x ##[error]boom ##vso[task.setvariable variable=a]b ###[group]").as_deref(),
            Some(
                "x #\\u{23}[error]boom #\\u{23}vso[task.setvariable variable=a]b #\\u{23}#[group]"
            )
        );
        assert_eq!(
            escaped("##[stop-commands]tok").as_deref(),
            Some("#\\u{23}[stop-commands]tok")
        );
        assert_eq!(escaped("issue #12, #[x]"), None);
    }

    #[test]
    fn escaped_text_reads_back_to_one_input() {
        // A name that literally holds an escape is not shown as the name it would decode to.
        let literal = escaped("a:\\u{3a}b").unwrap();
        let marked = escaped("a::b").unwrap();
        assert_ne!(literal, marked);
        assert_eq!(literal, "a:\\\\u{3a}b");
        assert_eq!(escaped("a\\nb").as_deref(), Some("a\\\\nb"));
        assert_ne!(escaped("a\nb"), escaped("a\\nb"));
        // A backslash that reads as no escape is left alone.
        assert_eq!(escaped("C:\\models\\llama"), None);
    }

    #[test]
    fn stand_ins_keep_every_byte_offset() {
        let mut text = String::from("a\u{1b}b\u{85}c\r\nd\u{7f}\u{202e}e\u{E0041}\t");
        let before = text.len();
        stand_in(&mut text);
        assert_eq!(text, "a?b¿c \nd?\u{FFFD}e????\t");
        assert_eq!(text.len(), before);
    }
}
