//! Reading free text a word at a time: what each word holds (a credential shape, the value
//! after a secret name, flag or scheme) and what it leaves awaited of the next.

use super::super::{is_harmless, is_secret_key, shapes};
use super::{merged, token_break, trim_word, word_break};

/// Where `core` splits into a secret name and its value: the first `=` or `:` whose left side
/// is a secret name (`KEY=VALUE`, `--flag=VALUE`, `key:VALUE`, `x=PGPASSWORD=VALUE`).
pub(super) fn secret_split(core: &str) -> Option<usize> {
    core.match_indices(['=', ':'])
        .map(|(i, _)| i)
        .find(|&i| is_secret_key(core[..i].trim_matches(['"', '\''])))
}

/// Whether `core` ends with a secret flag (`--api-key`, `X='--api-key`).
pub(super) fn ends_with_secret_flag(core: &str) -> bool {
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
pub(super) fn find_in_words(text: &str) -> Vec<(usize, usize)> {
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
pub(super) struct Awaiting {
    /// The value after a secret name or flag, or after `Bearer`: the next word (or the word
    /// after an `=`/`:` standing alone, or after an authorisation scheme).
    pub(super) value: bool,
    /// After `-u` or `--user` (curl, wget, httpie): the next word is `user:password`.
    pub(super) user: bool,
}

/// Reads `word` (at byte `at`, `next` the word after it, if any), pushing the ranges of the
/// secrets it holds (or the next word holds, after `Bearer`) onto `out`.
pub(super) fn read_word(
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
        // The word itself may hold a credential before its scheme (`sk-…-Bearer`).
        if let Some(out) = out {
            tokens(core, core_at, out);
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
        // And any credential after them (a token in the query string).
        if let Some(out) = out {
            tokens(&core[from..], core_at + from, out);
        }
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
pub(super) fn auth_scheme(core: &str) -> Option<bool> {
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
pub(super) fn looks_ahead_for_assignment(core: &str) -> bool {
    !core.contains(['=', ':']) && is_secret_key(core)
}

/// Whether a word is a flag whose value is `user:password` (`curl -u`, `--user`).
pub(super) enum UserFlag {
    /// It is not.
    No,
    /// The value is the next word.
    ValueNext,
    /// The value starts at this byte of the same word (`--user=u:p`, `-uu:p`).
    ValueAt(usize),
}

pub(super) fn user_flag(core: &str) -> UserFlag {
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
pub(super) fn is_scheme(w: &str) -> bool {
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
