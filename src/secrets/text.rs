//! Secrets inside free text (notes, a logged command line, a message that quotes a value):
//! a credential-shaped word, the value after a secret flag (`--api-key X`, `--api-key=X`), after
//! an assignment to a secret name (`OPENAI_API_KEY=X`, `password: X`, `"token": "X"`), after
//! an authorisation scheme (`Bearer X`, `Basic X`), and the password of a
//! `scheme://user:password@host` URL. [`find`] returns their byte ranges; callers redact them
//! (messages) or overwrite them byte for byte (snippets).

use super::{is_harmless, is_secret_key, shapes};

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
            .map(|(s, e)| (map[s], map[e])),
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

/// Where `core` splits into a secret name and its value: the first `=` or `:` whose left side
/// is a secret name (`KEY=VALUE`, `--flag=VALUE`, `key:VALUE`, `x=PGPASSWORD=VALUE`).
fn secret_split(core: &str) -> Option<usize> {
    core.match_indices(['=', ':'])
        .map(|(i, _)| i)
        .find(|&i| is_secret_key(core[..i].trim_matches(['"', '\''])))
}

/// Whether `core` ends with a secret flag (`--api-key`, `X='--api-key`).
fn ends_with_secret_flag(core: &str) -> bool {
    // A flag starts with a `-`; most words hold none.
    if !core.contains('-') {
        return false;
    }
    let tail = core.rfind("--").map_or_else(
        || {
            core.rsplit(['=', '\'', '"', '(', ',', ';', '[', '{', '/'])
                .next()
                .unwrap_or(core)
        },
        |i| &core[i..],
    );
    tail.starts_with('-') && !tail.contains(':') && is_secret_key(tail.trim_start_matches('-'))
}

/// Ranges of the secrets in `text` as written, not decoded.
fn find_in_words(text: &str) -> Vec<(usize, usize)> {
    let mut out: Vec<(usize, usize)> = Vec::new();
    // Words with their byte offsets, one word of lookahead (no allocation: this runs on every
    // string of every document).
    let base = text.as_ptr() as usize;
    let mut words = text
        .split(word_break)
        .filter(|w| !w.is_empty())
        .map(|w| (w.as_ptr() as usize - base, w))
        .peekable();
    let mut awaiting = Awaiting::default();
    while let Some((at, word)) = words.next() {
        read_word(
            &mut awaiting,
            at,
            word,
            words.peek().copied(),
            Some(&mut out),
        );
    }
    merged(out)
}

/// What the words read so far leave awaited of the next one.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
struct Awaiting {
    /// The value after a secret name or flag, or after `Bearer`: the next word (or the word
    /// after an `=`/`:` standing alone, or after an authorisation scheme).
    value: bool,
    /// After `-u` or `--user` (curl, wget, httpie): the next word is `user:password`.
    user: bool,
}

/// Reads `word` (at byte `at`, `next` the word after it, if any), pushing the ranges of the
/// secrets it holds (or the next word holds, after `Bearer`) onto `out`.
fn read_word(
    awaiting: &mut Awaiting,
    at: usize,
    word: &str,
    next: Option<(usize, &str)>,
    mut out: Option<&mut Vec<(usize, usize)>>,
) {
    // Without `out`, only where the reading leaves the next word is worked out: the
    // credential shapes, which change nothing of that, are not looked for.
    let (lead, core) = trim_word(word);
    let core_at = at + lead;
    if core.is_empty() {
        return;
    }
    if std::mem::take(&mut awaiting.user)
        && let Some((s, e)) = shapes::user_password(core)
    {
        put(&mut out, (core_at + s, core_at + e));
        return;
    }
    match user_flag(core) {
        UserFlag::No => {}
        UserFlag::ValueNext => {
            awaiting.user = true;
            return;
        }
        UserFlag::ValueAt(from) => {
            if let Some((s, e)) = shapes::user_password(&core[from..]) {
                put(&mut out, (core_at + from + s, core_at + from + e));
            }
            return;
        }
    }
    if awaiting.value {
        awaiting.value = false;
        if matches!(core, "=" | ":") {
            awaiting.value = true;
            return;
        }
        if is_scheme(core) {
            awaiting.value = true;
            return;
        }
        if !core.starts_with("--") && !is_harmless(core) {
            put(&mut out, (core_at, core_at + core.len()));
            return;
        }
    }
    // `Bearer X`, also when the scheme ends a longer word (`(Bearer X`, `auth=Bearer X`).
    if let Some(bearer) = auth_scheme(core)
        && let Some((next_at, next)) = next
    {
        let (nl, nc) = trim_word(next);
        let ok = if bearer {
            shapes::auth_value(nc)
        } else {
            shapes::basic_credentials(nc)
        };
        if ok {
            put(&mut out, (next_at + nl, next_at + nl + nc.len()));
        }
        return;
    }
    // Every URL password in the word (`a://u:p@h/x,b://u:q@h`).
    let mut from = 0;
    while let Some((s, e)) = shapes::url_password(&core[from..]) {
        put(&mut out, (core_at + from + s, core_at + from + e));
        from += e;
    }
    if from > 0 {
        return;
    }
    // `KEY=VALUE`, `--flag=VALUE`, `key:VALUE`; `KEY=` or `key:` with the value next. The
    // name is the last word before an `=` or `:` (`x=PGPASSWORD=VALUE` too).
    if let Some(split) = secret_split(core) {
        // What stands before the name may hold a credential too.
        if let Some(out) = out.as_deref_mut() {
            tokens(&core[..split], core_at, out);
        }
        let value = core[split + 1..].trim_matches(['"', '\'']);
        // `authorization=Token X`: the credential is the word after the scheme.
        if value.is_empty() || is_scheme(value) {
            awaiting.value = true;
        } else if !is_harmless(value) {
            let v_at = core_at
                + split
                + 1
                + (core[split + 1..].len()
                    - core[split + 1..].trim_start_matches(['"', '\'']).len());
            put(&mut out, (v_at, v_at + value.len()));
        }
        return;
    }
    // `--api-key VALUE`, also when the flag ends a longer word (`X='--api-key VALUE`).
    if ends_with_secret_flag(core) {
        awaiting.value = true;
        if let Some(out) = out.as_deref_mut() {
            tokens(core, core_at, out);
        }
        return;
    } else if looks_ahead_for_assignment(core)
        && next.is_some_and(|(_, n)| matches!(trim_word(n).1, "=" | ":"))
    {
        // `api_key = VALUE`.
        awaiting.value = true;
        return;
    }
    // Credential-shaped tokens anywhere in the word (a file name, a pointer, a quoted value).
    if let Some(out) = out {
        tokens(core, core_at, out);
    }
}

/// Pushes `range` onto `out`, if there is one.
fn put(out: &mut Option<&mut Vec<(usize, usize)>>, range: (usize, usize)) {
    if let Some(out) = out.as_deref_mut() {
        out.push(range);
    }
}

/// The authorisation scheme `core` ends with, whose credential is the next word (`Bearer`,
/// `Basic`; `(Bearer`, `auth=Bearer` too): `Some(true)` for `Bearer`, `Some(false)` for
/// `Basic`.
fn auth_scheme(core: &str) -> Option<bool> {
    let scheme = core
        .rsplit(|c: char| !c.is_ascii_alphanumeric())
        .next()
        .unwrap_or(core);
    if scheme.eq_ignore_ascii_case("bearer") {
        Some(true)
    } else if scheme.eq_ignore_ascii_case("basic") {
        Some(false)
    } else {
        None
    }
}

/// Whether `core` is a secret name that an `=` or `:` standing alone next would assign to.
fn looks_ahead_for_assignment(core: &str) -> bool {
    !core.contains(['=', ':']) && is_secret_key(core)
}

/// Where the free-text search stands after a text fed to it a piece at a time: what its
/// words leave awaited, as written and as decoded, and the last word, whose reading waits for
/// the word after it. Where it stands at rest, the search over the text that follows finds
/// there what a search over that text alone finds.
#[derive(Debug, Default)]
pub struct FreeTextRest {
    written: WordsRest,
    /// The reading of the decoded text, once a piece read differs decoded (before, it is the
    /// written one's).
    decoded: Option<WordsRest>,
}

#[derive(Debug, Default, Clone)]
struct WordsRest {
    awaiting: Awaiting,
    last: Option<String>,
}

impl WordsRest {
    fn feed(&mut self, text: &str) {
        let mut words = text.split(word_break).filter(|w| !w.is_empty()).peekable();
        let Some(&first) = words.peek() else {
            return;
        };
        if let Some(last) = self.last.take() {
            read_word(&mut self.awaiting, 0, &last, Some((0, first)), None);
        }
        while let Some(word) = words.next() {
            match words.peek() {
                Some(&next) => read_word(&mut self.awaiting, 0, word, Some((0, next)), None),
                None => self.last = Some(word.to_string()),
            }
        }
    }

    /// Whether nothing is awaited and the last word, read whatever follows it, leaves nothing
    /// awaited and reaches nothing past itself: a word that looks at the one after it (a
    /// scheme, a secret name before an `=`) is never at rest.
    fn at_rest(&self) -> bool {
        if self.awaiting != Awaiting::default() {
            return false;
        }
        let Some(last) = &self.last else {
            return true;
        };
        let core = trim_word(last).1;
        if core.is_empty() {
            return true;
        }
        if auth_scheme(core).is_some() || looks_ahead_for_assignment(core) {
            return false;
        }
        let mut after = self.awaiting;
        read_word(&mut after, 0, last, None, None);
        after == Awaiting::default()
    }
}

impl FreeTextRest {
    /// Reads `text`, which follows what was fed before at a word break (a line, say).
    pub fn feed(&mut self, text: &str) {
        match super::decode::decoded(text) {
            Some((decoded, _)) => {
                self.decoded
                    .get_or_insert_with(|| self.written.clone())
                    .feed(&decoded);
            }
            None => {
                if let Some(d) = &mut self.decoded {
                    d.feed(text);
                }
            }
        }
        self.written.feed(text);
    }

    /// Whether the search stands at rest after what was fed.
    pub fn at_rest(&self) -> bool {
        self.written.at_rest() && self.decoded.as_ref().is_none_or(WordsRest::at_rest)
    }
}

/// Whether a word is a flag whose value is `user:password` (`curl -u`, `--user`).
enum UserFlag {
    /// It is not.
    No,
    /// The value is the next word.
    ValueNext,
    /// The value starts at this byte of the same word (`--user=u:p`, `-uu:p`).
    ValueAt(usize),
}

fn user_flag(core: &str) -> UserFlag {
    if matches!(core, "-u" | "--user" | "--proxy-user" | "-U") {
        return UserFlag::ValueNext;
    }
    for flag in ["--user=", "--proxy-user="] {
        if core.starts_with(flag) {
            return UserFlag::ValueAt(flag.len());
        }
    }
    // `-uNAME:PASS`, curl's joined short form.
    if core.len() > 3 && core.starts_with("-u") && core[2..].contains(':') {
        return UserFlag::ValueAt(2);
    }
    UserFlag::No
}

/// An authorisation scheme that precedes the credential (`Authorization: Bearer X`).
fn is_scheme(w: &str) -> bool {
    ["bearer", "basic", "token", "digest"]
        .iter()
        .any(|s| w.eq_ignore_ascii_case(s))
}

/// Credential-shaped tokens of `word` (at byte `at` of the text), split at punctuation: a
/// token, or its tail after a `-`, `_` or `.` (`run-sk-proj-…`, `id_ghp_…`).
fn tokens(word: &str, at: usize, out: &mut Vec<(usize, usize)>) {
    if shapes::known_shape(word).is_some() {
        out.push((at, at + word.len()));
        return;
    }
    let mut start = 0;
    for (i, c) in word
        .char_indices()
        .chain(std::iter::once((word.len(), ' ')))
    {
        if i == word.len() || token_break(c) {
            let token = &word[start..i];
            if token.len() >= 8
                && let Some(from) = shaped_tail(token)
            {
                out.push((at + start + from, at + i));
            }
            start = i + c.len_utf8();
        }
    }
}

/// Where in `token` a credential shape starts: at 0, or after a `-`, `_` or `.`.
fn shaped_tail(token: &str) -> Option<usize> {
    if shapes::known_shape(token).is_some() {
        return Some(0);
    }
    token
        .match_indices(['-', '_', '.'])
        .map(|(i, _)| i + 1)
        .filter(|&i| i + 8 <= token.len())
        .find(|&i| shapes::known_shape(&token[i..]).is_some())
}

#[cfg(test)]
#[path = "text_tests.rs"]
mod tests;
