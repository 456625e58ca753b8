//! The commands a CI runner reads from a log line, and the one rule that keeps text from an
//! input from ever spelling one.
//!
//! - GitHub Actions: `::command ...::` at the start of a line (after spaces), and the older
//!   `##[command]` form found anywhere in a line (`##[error]`, `##[group]`, `##[set-output
//!   name=x;]`, and `##[stop-commands]` which switches off every later command of the step);
//! - Azure Pipelines: `##vso[area.action ...]` and `##[section]`-style formatting commands,
//!   anywhere in a line;
//! - TeamCity: `##teamcity[message ...]` service messages, anywhere in a line.
//!
//! Every form needs two equal marks in a row, `::` or `##`: the second of each pair is written
//! as an escape (`:\u{3a}`, `#\u{23}`), so a run of marks never holds a pair, whatever follows
//! it. The escapes are the ones [`super::hidden::escaped`] writes for every other character, so
//! the terminal form reads back to one input only.

/// Whether `s` holds a pair of marks that could start a runner's command.
pub(super) fn may_command(s: &str) -> bool {
    s.contains("::") || s.contains("##")
}

/// Whether `c` is a mark that a second one of itself would turn into a command form.
pub(super) fn is_mark(c: char) -> bool {
    matches!(c, ':' | '#')
}

/// Whether the `#` at byte `at` of `bytes` is the second mark of a command form: `#` before
/// it, then letters (none for GitHub's `##[`, `vso` or `teamcity`), then `[`.
pub(super) fn is_command_pair(bytes: &[u8], at: usize) -> bool {
    at > 0
        && bytes[at] == b'#'
        && bytes[at - 1] == b'#'
        && bytes[at + 1..]
            .iter()
            .find(|b| !b.is_ascii_alphabetic())
            .is_some_and(|&b| b == b'[')
}

/// Replaces the second mark of every command form in `text` ([`is_command_pair`]) by `?`, a
/// stand-in of the same byte length, for snippets whose byte offsets must not move: the line
/// shown reads `#?[error]` and no runner reads a command in it.
pub(super) fn stand_in(text: &mut String) {
    if !text.contains("##") {
        return;
    }
    let bytes = text.as_bytes();
    let at: Vec<usize> = (1..bytes.len())
        .filter(|&i| is_command_pair(bytes, i))
        .collect();
    if at.is_empty() {
        return;
    }
    let mut out = std::mem::take(text).into_bytes();
    for i in at {
        out[i] = b'?';
    }
    // Only an ASCII `#` became an ASCII `?`: the text is still UTF-8.
    *text = String::from_utf8(out).unwrap_or_default();
}

/// Whether the bytes of a JSON string hold `##` (a `::` in a JSON string never starts a line:
/// the quote comes first).
pub(super) fn json_may_command(s: &[u8]) -> bool {
    s.windows(2).any(|w| w == b"##")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snippet_stand_ins_break_every_command_form_and_keep_offsets() {
        let mut t = String::from("a ##[error]x ##vso[task]y ##teamcity[m] ###[g] ## heading #[x]");
        let len = t.len();
        stand_in(&mut t);
        assert_eq!(
            t,
            "a #?[error]x #?vso[task]y #?teamcity[m] ##?[g] ## heading #[x]"
        );
        assert_eq!(t.len(), len);
    }
}
