//! The canonical form of a fingerprint, packed: each key written as two bytes instead of its
//! quoted dotted path. A configuration's fingerprint is kept for every configuration of a run
//! (as many as results when none repeats), and its keys were most of its text: about a
//! kilobyte of `"engine.max_num_batched_tokens":` and the like, against a few hundred bytes
//! of values.
//!
//! # Why the packed bytes sort as the canonical text does
//!
//! The canonical text is `{"k1":v1,"k2":v2,…}` with each `v` canonical JSON; the packed form is
//! `MARK i1 v1 MARK i2 v2 … }`, where `i` is the key's rank among [`KEYS`] sorted by their
//! quoted text. Two texts first differ in one of these places, and the packed forms order the
//! same way there:
//!
//! * two different keys at one position: their quoted texts decide, and so do their ranks;
//! * inside two values: the same bytes are compared;
//! * one value ending where the other goes on: only a number can be a proper prefix of another
//!   value (a string, literal, object or array closes itself), and what continues a number is a
//!   digit, `.`, `e` or `E`. In the text the shorter value is followed by `,` (below every one of
//!   those) or `}` (above every one); in the packed form by `MARK` (below) or `}` (above);
//! * one text ending where the other goes on with a key: `}` against `,` in the text, `}` against
//!   `MARK` in the packed form; the ended one is the greater both times.
//!
//! `MARK` is a control byte, which canonical JSON never holds raw (strings escape it), so the
//! packed form also reads back to exactly the text it came from ([`unpack_into`]). The rank
//! that follows each `MARK` is read by its position, whatever its value.

use super::fields::DEFINING_FIELDS;

/// The byte before each key's rank.
const MARK: u8 = 0x01;

/// The key an unidentified result's fingerprint adds ([`super::Fingerprint::unpooled`]).
pub(super) const UNPOOLED: &str = "unpooled";

/// Every key a canonical form may hold (the defining fields and [`UNPOOLED`]) with its quoted
/// text, sorted by that text: a key's index here is its rank, its byte in the packed form.
/// Quoted once: the text is written back for every short fingerprint printed.
fn ranked() -> &'static [(&'static str, String)] {
    static RANKED: std::sync::OnceLock<Vec<(&'static str, String)>> = std::sync::OnceLock::new();
    RANKED.get_or_init(|| {
        let mut keys: Vec<(&'static str, String)> = DEFINING_FIELDS
            .iter()
            .copied()
            .chain([UNPOOLED])
            .map(|k| (k, super::json_string(k)))
            .collect();
        keys.sort_by(|a, b| a.1.cmp(&b.1));
        keys
    })
}

/// The rank of `key`. Every key the canonical form is built with is one of [`ranked`] (a test
/// builds every one); were one not, it would take a rank of its own past them all.
fn rank(key: &str) -> u8 {
    let keys = ranked();
    let at = keys
        .iter()
        .position(|(k, _)| *k == key)
        .unwrap_or(keys.len());
    u8::try_from(at).unwrap_or(u8::MAX)
}

/// Builds a packed canonical form a field at a time.
#[derive(Debug, Default)]
pub(super) struct Packer(Vec<u8>);

impl Packer {
    /// Adds `key` (one of [`DEFINING_FIELDS`] or [`UNPOOLED`]) with its canonical JSON value.
    pub(super) fn field(&mut self, key: &str, value: &str) {
        self.0.push(MARK);
        self.0.push(rank(key));
        self.0.extend_from_slice(value.as_bytes());
    }

    /// The packed form, closed.
    pub(super) fn finish(mut self) -> Box<[u8]> {
        self.0.push(b'}');
        self.0.into_boxed_slice()
    }

    /// Reopens a packed form to add fields after its last.
    pub(super) fn reopen(packed: &[u8]) -> Self {
        let mut bytes = packed.to_vec();
        bytes.pop();
        Packer(bytes)
    }
}

/// Hands the canonical text of `packed` to `out` piece by piece, in order. Read by position: a
/// field is `MARK`, its rank (any byte, `MARK` included), then its value up to the next `MARK`
/// or the closing `}`, the last byte.
pub(super) fn unpack_into(packed: &[u8], out: &mut impl FnMut(&[u8])) {
    out(b"{");
    let body = packed.strip_suffix(b"}").unwrap_or(packed);
    let mut at = 0;
    let mut first = true;
    while let [MARK, r, rest @ ..] = &body[at..] {
        let len = rest.iter().position(|&b| b == MARK).unwrap_or(rest.len());
        if !first {
            out(b",");
        }
        first = false;
        let quoted = ranked()
            .get(usize::from(*r))
            .map_or("\"?\"", |(_, q)| q.as_str());
        out(quoted.as_bytes());
        out(b":");
        out(&rest[..len]);
        at += 2 + len;
    }
    out(b"}");
}

/// The canonical text of `packed`.
pub(super) fn unpack(packed: &[u8]) -> String {
    let mut text = Vec::with_capacity(packed.len() * 4);
    unpack_into(packed, &mut |piece| text.extend_from_slice(piece));
    String::from_utf8(text).expect("packed from UTF-8 text")
}
