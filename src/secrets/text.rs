//! Secrets inside free text (notes, a logged command line, a message that quotes a value):
//! a credential-shaped word, the value after a secret flag (`--api-key X`, `--api-key=X`), after
//! an assignment to a secret name (`OPENAI_API_KEY=X`, `password: X`, `"token": "X"`), after
//! an authorisation scheme (`Bearer X`, `Basic X`), and the password of a
//! `scheme://user:password@host` URL. [`find`] returns their byte ranges; callers redact them
//! (messages) or overwrite them byte for byte (snippets).

use super::is_secret_key;

mod rest;
mod words;

pub use rest::FreeTextRest;
use words::{UserFlag, ends_with_secret_flag, find_in_words, is_scheme, secret_split, user_flag};

/// Characters that end a token inside a word: everything but ASCII letters, digits, `-`, `_`
/// and `.`, of which every credential shape is made (quotes, brackets, `/` of a path or a
/// pointer, `:` and `=` of an assignment, an invisible or bidirectional character glued to it).
fn token_break(c: char) -> bool {
    !(c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
}

/// Characters that end a word: white space, and the control, bidirectional and invisible
/// characters that could hide a word boundary from a reader.
fn word_break(c: char) -> bool {
    c.is_whitespace() || crate::text::is_hidden(c)
}

/// Quotes and brackets around a word.
fn trim_word(w: &str) -> (usize, &str) {
    // A backslash goes with a quote it escapes (`\"value\"` in JSON quoted in a string).
    let trimmed_start = w.trim_start_matches(|c: char| {
        matches!(
            c,
            '"' | '\'' | '`' | '(' | '[' | '{' | '<' | ',' | ';' | '\\'
        )
    });
    let start = w.len() - trimmed_start.len();
    let core = trimmed_start.trim_end_matches(|c: char| {
        matches!(
            c,
            '"' | '\''
                | '`'
                | ')'
                | ']'
                | '}'
                | '>'
                | ','
                | ';'
                | '.'
                | '('
                | '['
                | '{'
                | '<'
                | '\\'
        )
    });
    (start, core)
}

/// Whether `text` may hold a secret at all: cheap tests that rule out most labels, numbers,
/// names and prose before any word is looked at (too short for any reading, or holding
/// nothing one needs: [`super::sieve`]).
fn worth_a_look(text: &str) -> bool {
    text.len() >= 6 && super::sieve::may_hold_secret(text)
}

/// Byte ranges of `text` that hold secrets, sorted, not overlapping: as written, and as the
/// text reads once URL-decoded and JSON-unescaped ([`super::decode`]), each range found there
/// mapped back to the bytes that spell it.
pub fn find(text: &str) -> Vec<(usize, usize)> {
    if !worth_a_look(text) {
        return Vec::new();
    }
    find_decoded_too(text)
}

/// [`find`] without its first test.
pub(super) fn find_decoded_too(text: &str) -> Vec<(usize, usize)> {
    let found = find_in_words(text);
    let Some((decoded, map)) = super::decode::decoded(text) else {
        return found;
    };
    let mut all = found;
    all.extend(
        find_in_words(&decoded)
            .into_iter()
            .map(|(s, e)| (map.at(s), map.at(e))),
    );
    merged(all)
}

/// Ranges sorted, repeats dropped, overlaps merged.
fn merged(mut out: Vec<(usize, usize)>) -> Vec<(usize, usize)> {
    out.sort_unstable();
    out.dedup();
    let mut merged: Vec<(usize, usize)> = Vec::with_capacity(out.len());
    for (s, e) in out {
        match merged.last_mut() {
            Some(last) if s <= last.1 => last.1 = last.1.max(e),
            _ => merged.push((s, e)),
        }
    }
    merged
}

/// The ranges [`find`] gives for `text`, as far as they touch `regions` (sorted, not
/// overlapping, each running from the start of a line to the end of one), reading only the
/// words of the regions and one word past each. `None` when a region's first word could be
/// read differently by the word before it (a secret name, flag or scheme waiting for its
/// value): the caller then reads the whole text.
///
/// Why the result is the same: the reading of a word depends on the words before it only
/// through one flag (a value is awaited) and on the word after it only through a look ahead.
/// A region starts after a line break, a word break, so its words are the text's own. When
/// the last word before it with anything left once trimmed is one that [`may_carry`] denies,
/// that word leaves the flag down and reaches nothing past itself whatever was awaited before
/// it, so the region's first word is read as in the whole text, and with it every later one
/// of the region; the word past the region is read too, so the region's last word sees its
/// look ahead. Only ranges starting before the region's end are kept: those of the word past
/// it may differ, and lie outside it.
pub fn find_within(text: &str, regions: &[(usize, usize)]) -> Option<Vec<(usize, usize)>> {
    // How many words may be looked back over (each trimmed to nothing, `{` or `],`) for the
    // word that decides: past it, the whole text is read instead.
    const LOOK_BACK: usize = 64;
    if !worth_a_look(text) {
        return Some(Vec::new());
    }
    let mut out = Vec::new();
    for &(from, to) in regions {
        let mut before = text[..from]
            .rsplit(word_break)
            .filter(|w| !w.is_empty())
            .map(|w| trim_word(w).1);
        let mut decided = false;
        for core in before.by_ref().take(LOOK_BACK) {
            if core.is_empty() {
                continue;
            }
            // An encoded word may read as a secret name once decoded: the whole text then.
            if may_carry(core) || core.contains(['%', '\\']) {
                return None;
            }
            decided = true;
            break;
        }
        if !decided && before.next().is_some() {
            return None;
        }
        // One word past the region, for its last word's look ahead.
        let rest = &text[to..];
        let gap = rest.len() - rest.trim_start_matches(word_break).len();
        let end = rest[gap..]
            .find(word_break)
            .map_or(text.len(), |i| to + gap + i);
        // Decoding is local (an escape never spans a word break), so the region's encoded
        // spellings read in it alone as in the whole text.
        out.extend(
            find_decoded_too(&text[from..end])
                .into_iter()
                .map(|(s, e)| (from + s, from + e))
                .filter(|&(s, _)| s < to),
        );
    }
    Some(out)
}

/// Whether `text` holds a word: the word a region's last word looks ahead to
/// ([`find_within`]) lies in the first text after it that holds one.
pub fn holds_word(text: &str) -> bool {
    text.split(word_break).any(|w| !w.is_empty())
}

/// Whether reading `core` (a trimmed word) may leave a value awaited, or reach into the next
/// word: `=`, `:` or a scheme after a secret name, `Bearer`/`Basic` ending it, a secret name
/// before an `=` or `:`, a secret flag, or a secret name alone (`api_key = X`). More than
/// [`find_in_words`] acts on, never less.
fn may_carry(core: &str) -> bool {
    let scheme = core
        .rsplit(|c: char| !c.is_ascii_alphanumeric())
        .next()
        .unwrap_or(core);
    matches!(core, "=" | ":")
        || is_scheme(core)
        || scheme.eq_ignore_ascii_case("bearer")
        || scheme.eq_ignore_ascii_case("basic")
        || secret_split(core).is_some()
        || ends_with_secret_flag(core)
        || is_secret_key(core)
        || !matches!(user_flag(core), UserFlag::No)
}

#[cfg(test)]
#[path = "text_tests.rs"]
mod tests;
