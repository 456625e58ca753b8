//! Cheap tests that rule a string out of the secret search before any word of it is read:
//! what every finding of the search needs to see in the text as written, looked for in one
//! pass over its bytes. Most strings of a result (model names, dates, paths, prose) hold none
//! of it, and most of those are seen once, where the per-thread memo cannot help.
//!
//! Why a text [`may_hold_secret`] refuses yields no finding from [`super::classify`] with no
//! secret key, nor from [`super::find_in_text`]: every finding comes from one of the readings
//! below, and each needs, in the text as written, one of the needles this module looks for.
//! Each word, token, name and value those readings look at is a piece of the text (trimmed,
//! split, cut at an `=`), so what one of them holds the text holds.
//!
//! - A credential shape ([`super::shapes::known_shape`]) of the text, a word or a token: a
//!   mark of [`super::shapes::MARKS`] as written, a `@` (a URL password), a leading
//!   `Bearer `/`Basic ` (any case: the `bearer`/`basic` needles), or a PEM key's
//!   `-----BEGIN` and `PRIVATE KEY` (a `-` and the stem `key`, as a secret name's value).
//! - `Bearer X` or `Basic X` across two words: a word ending in `bearer` or `basic`, any case.
//! - A URL password or `user:password@host`: a `@`.
//! - The password of `-u`, `-U`, `--user`, `--proxy-user` (alone, with `=`, or `-uNAME:PASS`):
//!   every such flag holds `-u` or `-U`, and [`super::shapes::user_password`] needs a `:`.
//! - The value of a secret name (`api_key=X`, `--api-key X`, `api_key = X`, `"token": "X"`):
//!   the name passes [`super::is_secret_key`], whose every accepted last word (or, for `id`,
//!   the word before it: `session`) holds one of [`NAME_STEMS`] (any case; `keys.rs` tests it
//!   of each), and the name is tied to its value by an `=`, a `:` (an assignment, or a lone
//!   `=`/`:` word next) or the `-` of a flag.
//! - Any of these in the URL-decoded, JSON-unescaped text: only text with a `%` or a `\` is
//!   decoded at all ([`super::decode::decoded`]), and such text is always searched.
//!
//! A key name [`may_name_secret`] refuses is no secret's ([`super::keys::names_secret`]): as
//! above, an accepted name holds a stem, and a name is read URL-decoded only when it has a `%`.

use super::shapes::MARKS;

/// Pieces (lower case, matched in any case) one of which every key name
/// [`super::is_secret_key_in`] accepts holds: each accepted last word or ending (`password`,
/// `pwd`, `apikey`, `hftoken`, `sessionid`, `authorization`, `cookies`, ...) holds one, and
/// `id` is accepted only after `session`.
pub(super) const NAME_STEMS: [&str; 10] = [
    "pass",
    "pwd",
    "secret",
    "credential",
    "cookie",
    "auth",
    "bearer",
    "key",
    "token",
    "session",
];

/// What a needle found in a text opens the way to.
#[derive(Clone, Copy)]
#[repr(u8)]
enum Opens {
    /// A finding by itself: the text must be searched.
    Any,
    /// A secret name's value, when an `=`, `:` or `-` ties the name to one.
    Named,
    /// `curl -u user:password`, when a `:` is there.
    User,
}

/// A piece of text to look for.
struct Needle {
    text: &'static [u8],
    /// Matched in any ASCII case (`Bearer`, `API_KEY`), or only as written (`AKIA`).
    any_case: bool,
    opens: Opens,
}

impl Needle {
    fn is_at(&self, b: &[u8], i: usize) -> bool {
        b.get(i..i + self.text.len()).is_some_and(|at| {
            if self.any_case {
                at.eq_ignore_ascii_case(self.text)
            } else {
                at == self.text
            }
        })
    }
}

/// Every needle: the shapes' marks as written, the authorisation schemes, the name stems and
/// the user flag.
const NEEDLES: [Needle; MARKS.len() + 2 + NAME_STEMS.len() + 1] = {
    const fn needle(text: &'static str, any_case: bool, opens: Opens) -> Needle {
        Needle {
            text: text.as_bytes(),
            any_case,
            opens,
        }
    }
    let mut out = [const { needle("", false, Opens::Any) }; MARKS.len() + 2 + NAME_STEMS.len() + 1];
    let mut n = 0;
    let mut i = 0;
    while i < MARKS.len() {
        out[n] = needle(MARKS[i], false, Opens::Any);
        n += 1;
        i += 1;
    }
    out[n] = needle("bearer", true, Opens::Any);
    out[n + 1] = needle("basic", true, Opens::Any);
    n += 2;
    i = 0;
    while i < NAME_STEMS.len() {
        out[n] = needle(NAME_STEMS[i], true, Opens::Named);
        n += 1;
        i += 1;
    }
    out[n] = needle("-u", true, Opens::User);
    out
};

/// Bits of [`FIRST`] past the needles' own: a byte that sends the text to the search at once
/// (`@` of user information, `%` and `\\` of encoded text), a byte that ties a name to its
/// value (`=`, `:`, `-`), and a `:` (of `user:password`).
const STOP: u64 = 1 << 63;
const TIE: u64 = 1 << 62;
const COLON: u64 = 1 << 61;

/// The needles (bit `j` for `NEEDLES[j]`) that open the way to `opens`.
const fn needles_opening(opens: Opens) -> u64 {
    assert!(
        NEEDLES.len() <= 61,
        "one bit per needle, below the bytes' own"
    );
    let mut mask = 0;
    let mut j = 0;
    while j < NEEDLES.len() {
        if NEEDLES[j].opens as u8 == opens as u8 {
            mask |= 1 << j;
        }
        j += 1;
    }
    mask
}
const ANY: u64 = needles_opening(Opens::Any);
const NAMED: u64 = needles_opening(Opens::Named);
const USER: u64 = needles_opening(Opens::User);

/// For each byte, the needles whose byte at `at` it can be.
const fn needles_by_byte(at: usize) -> [u64; 256] {
    let mut table = [0u64; 256];
    let mut j = 0;
    while j < NEEDLES.len() {
        let n = &NEEDLES[j];
        // Every needle is two bytes long at the least: no needle starts at a text's last byte.
        assert!(n.text.len() >= 2, "needles of two bytes or more");
        let b = n.text[at];
        if n.any_case {
            table[b.to_ascii_lowercase() as usize] |= 1 << j;
            table[b.to_ascii_uppercase() as usize] |= 1 << j;
        } else {
            table[b as usize] |= 1 << j;
        }
        j += 1;
    }
    table
}

/// For each byte, the needles it can start, and what it is itself: most bytes of a text are
/// nothing to either and cost one look-up.
static FIRST: [u64; 256] = {
    let mut table = needles_by_byte(0);
    table[b'@' as usize] |= STOP;
    table[b'%' as usize] |= STOP;
    table[b'\\' as usize] |= STOP;
    table[b'=' as usize] |= TIE;
    table[b'-' as usize] |= TIE;
    table[b':' as usize] |= TIE | COLON;
    table
};
/// For each byte, the needles whose second byte it can be: a needle is looked for in full only
/// where its first two bytes are.
static SECOND: [u64; 256] = needles_by_byte(1);

/// Of the needles `candidates` whose first two bytes stand at byte `i` of `b`, those there in
/// full.
fn there(b: &[u8], i: usize, mut candidates: u64) -> u64 {
    let mut found = 0;
    while candidates != 0 {
        let j = candidates.trailing_zeros() as usize;
        candidates &= candidates - 1;
        if NEEDLES[j].is_at(b, i) {
            found |= 1 << j;
        }
    }
    found
}

/// Whether what was seen of a text (needles' bits, and [`STOP`], [`TIE`], [`COLON`]) opens the
/// way to a finding.
fn opens_the_way(seen: u64) -> bool {
    seen & (STOP | ANY) != 0
        || (seen & NAMED != 0 && seen & TIE != 0)
        || (seen & USER != 0 && seen & COLON != 0)
}

/// Whether `text` may hold a secret by itself (under no key that names one): `false` only when
/// neither [`super::classify`] under no secret key nor [`super::find_in_text`] can find one in
/// it (see the module's comment for why).
pub(super) fn may_hold_secret(text: &str) -> bool {
    const BYTES: u64 = STOP | TIE | COLON;
    let b = text.as_bytes();
    let Some(&last) = b.last() else {
        return false;
    };
    // The last byte starts no needle (each is two bytes long at the least).
    let mut seen = FIRST[usize::from(last)] & BYTES;
    for (i, pair) in b.windows(2).enumerate() {
        let first = FIRST[usize::from(pair[0])];
        let hit = first & (BYTES | SECOND[usize::from(pair[1])]);
        if hit != 0 {
            seen |= (hit & BYTES) | there(b, i, hit & !BYTES);
            if opens_the_way(seen) {
                return true;
            }
        }
    }
    opens_the_way(seen)
}

/// Whether `key` may name a secret: `false` only when [`super::is_secret_key_in`] refuses it
/// under any parent, as written and URL-decoded (only a key with a `%` is decoded; a `@` or a
/// `\\` lets one through too, which costs a reading and changes no answer).
pub(super) fn may_name_secret(key: &str) -> bool {
    let b = key.as_bytes();
    b.last().is_some_and(|&c| FIRST[usize::from(c)] & STOP != 0)
        || b.windows(2).enumerate().any(|(i, pair)| {
            let first = FIRST[usize::from(pair[0])];
            let candidates = first & NAMED & SECOND[usize::from(pair[1])];
            first & STOP != 0 || (candidates != 0 && there(b, i, candidates) != 0)
        })
}

#[cfg(test)]
#[path = "sieve_generated.rs"]
mod generated;
#[cfg(test)]
#[path = "sieve_tests.rs"]
mod tests;
