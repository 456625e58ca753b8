//! Splitting one shell line into an argument vector, the way a POSIX shell would quote it.

/// Splits a command line into arguments like a POSIX shell, without running any expansion.
///
/// Handles single quotes (everything literal), double quotes (backslash escapes only
/// `$`, `` ` ``, `"`, `\` and a newline), unquoted backslash escapes, and line
/// continuations (`\` before a newline, also before `\r\n`). An unquoted `#` at the start
/// of a word starts a comment that runs to the end of the line. `$VAR`, globs and `~` are
/// kept as written, and operators such as `|` or `&&` are ordinary characters: benchlint
/// only reads the words, it never runs them.
///
/// `\r` counts as a separator so that a command pasted from a CRLF file splits the same
/// way as the original. An unterminated quote runs to the end of the line.
#[must_use]
pub fn split_command_line(line: &str) -> Vec<String> {
    // Work on bytes: every byte the shell treats specially is ASCII, and UTF-8 never uses an
    // ASCII byte inside a multi-byte character, so copying the other bytes in order keeps
    // each word valid UTF-8.
    let bytes = line.as_bytes();
    let mut words = Vec::new();
    let mut word: Vec<u8> = Vec::new();
    // A word can be empty (`''`), so "inside a word" is tracked apart from its length.
    let mut in_word = false;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        i += 1;
        match b {
            b'\\' => {
                if let Some(skip) = continuation_len(bytes, i) {
                    i += skip;
                } else if let Some(&next) = bytes.get(i) {
                    word.push(next);
                    in_word = true;
                    i += 1;
                } else {
                    // A trailing backslash has nothing to escape: keep it.
                    word.push(b'\\');
                    in_word = true;
                }
            }
            b'\'' => {
                in_word = true;
                while let Some(&c) = bytes.get(i) {
                    i += 1;
                    if c == b'\'' {
                        break;
                    }
                    word.push(c);
                }
            }
            b'"' => {
                in_word = true;
                i = double_quoted(bytes, i, &mut word);
            }
            b'#' if !in_word => {
                while bytes.get(i).is_some_and(|&c| c != b'\n') {
                    i += 1;
                }
            }
            b' ' | b'\t' | b'\n' | b'\r' => {
                if in_word {
                    words.push(into_string(std::mem::take(&mut word)));
                    in_word = false;
                }
            }
            _ => {
                word.push(b);
                in_word = true;
            }
        }
    }
    if in_word {
        words.push(into_string(word));
    }
    words
}

/// Copies a double-quoted span starting at `i` (just after the opening quote) into `word`
/// and returns the index just after the closing quote (or the end of the input).
fn double_quoted(bytes: &[u8], mut i: usize, word: &mut Vec<u8>) -> usize {
    while let Some(&c) = bytes.get(i) {
        i += 1;
        match c {
            b'"' => break,
            b'\\' => {
                if let Some(skip) = continuation_len(bytes, i) {
                    i += skip;
                } else if let Some(&next @ (b'$' | b'`' | b'"' | b'\\')) = bytes.get(i) {
                    word.push(next);
                    i += 1;
                } else {
                    // Inside double quotes any other backslash is an ordinary character.
                    word.push(b'\\');
                }
            }
            _ => word.push(c),
        }
    }
    i
}

/// The number of bytes after a backslash at `i` that form a line continuation, if any.
fn continuation_len(bytes: &[u8], i: usize) -> Option<usize> {
    match (bytes.get(i), bytes.get(i + 1)) {
        (Some(b'\n'), _) => Some(1),
        (Some(b'\r'), Some(b'\n')) => Some(2),
        _ => None,
    }
}

fn into_string(word: Vec<u8>) -> String {
    // Cannot fail (see above), but a lossy fallback keeps this total instead of panicking.
    String::from_utf8(word).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}
