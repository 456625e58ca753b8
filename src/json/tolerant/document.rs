//! Parsing one document: `serde_json` on the text as written, then again with bare `NaN`,
//! `Infinity` and `-Infinity` quoted, with the cut ranges left out; a failure's offset mapped
//! back to the text and its message said in words.

use serde_json::Value;
use std::borrow::Cow;

use super::Document;
use super::apart::{Within, from_str_apart};
use crate::json::cut::cut_ranges;
use crate::json::levels::TypedLevels;
use crate::json::scan::{PARSER_MAX_DEPTH, Scan};
use crate::json::strings::skip_string;

pub(super) type Tokens = Vec<(usize, &'static str)>;

/// The ranges cut from a document before it is parsed: the items dropped at the bound, the
/// sample arrays read into numbers and the levels read into the model (`[]` left for each),
/// sorted. A range inside one already removed is skipped when they are cut.
pub(super) fn cuts_of(found: &Scan, levels: Option<&TypedLevels>) -> Vec<(usize, usize)> {
    let mut ranges: Vec<(usize, usize)> = found
        .long_arrays
        .iter()
        .map(|a| (a.cut, a.close))
        .chain(found.samples.iter().map(|s| (s.start + 1, s.end - 1)))
        .chain(levels.map(|l| (l.start + 1, l.end - 1)))
        .collect();
    ranges.sort_unstable();
    ranges
}

/// Parses the document `original` without the ranges `cuts` ([`cuts_of`]), and with the array
/// `apart` names (when it names one) parsed an item at a time, each let go, and left `[]`;
/// offsets (of a failure, of non-standard tokens) are `original`'s.
pub(super) fn parse_cut(
    original: &str,
    cuts: &[(usize, usize)],
    apart: Option<Within>,
) -> Result<(Value, Tokens), (usize, String)> {
    if cuts.is_empty() {
        return parse_one_apart(original, apart);
    }
    let (piece, map) = cut_ranges(original, cuts);
    match parse_one_apart(&piece, apart) {
        Ok((value, mut tokens)) => {
            for (off, _) in &mut tokens {
                *off = map.to_original(*off);
            }
            Ok((value, tokens))
        }
        Err((off, message)) => Err((map.to_original(off), message)),
    }
}

/// Parses one document; on failure returns the byte offset (inside `piece`) and message.
pub(super) fn parse_one(piece: &str) -> Result<(Value, Tokens), (usize, String)> {
    parse_one_apart(piece, None)
}

/// [`parse_one`], the array `apart` names (when it names one) parsed an item at a time and left
/// `[]`.
fn parse_one_apart(piece: &str, apart: Option<Within>) -> Result<(Value, Tokens), (usize, String)> {
    let strict_error = match from_str_apart(piece, apart, &mut |_| {}) {
        Ok(v) => return Ok((v, Vec::new())),
        Err(e) => e,
    };
    let tokens = find_nonstandard(piece);
    if tokens.is_empty() {
        return Err(describe(piece, &strict_error));
    }
    let rewritten = rewrite(piece, &tokens);
    match from_str_apart(&rewritten, apart, &mut |_| {}) {
        Ok(v) => Ok((v, tokens)),
        Err(e) => {
            let (off, msg) = describe(&rewritten, &e);
            // Each rewritten token grew by two quote bytes; map the offset back.
            let shift = 2 * tokens.iter().filter(|(t, _)| *t < off).count();
            Err((off.saturating_sub(shift), msg))
        }
    }
}

/// Hands each item of the array `doc` left out of its value ([`Document::apart`]) to `each`,
/// in order; `text` is the text `doc.start` is an offset in. Nothing is handed for a document
/// read whole. An error only if the text is not the one the document was read from.
pub fn read_apart(text: &str, doc: &Document, mut each: impl FnMut(Value)) -> Result<(), String> {
    let Some(apart) = &doc.apart else {
        return Ok(());
    };
    let Some(original) = text.get(doc.start..doc.start.saturating_add(apart.len)) else {
        return Err("the document is not in the text given".into());
    };
    let mut piece = if apart.cuts.is_empty() {
        Cow::Borrowed(original)
    } else {
        Cow::Owned(cut_ranges(original, &apart.cuts).0)
    };
    if apart.tolerant {
        let tokens = find_nonstandard(&piece);
        piece = Cow::Owned(rewrite(&piece, &tokens));
    }
    from_str_apart(&piece, Some(apart.within), &mut each)
        .map(drop)
        .map_err(|e| e.to_string())
}

fn describe(piece: &str, e: &serde_json::Error) -> (usize, String) {
    let offset = offset_of(piece, e.line(), e.column());
    let full = e.to_string();
    let message = match full.rfind(" at line ") {
        Some(i) => full[..i].to_string(),
        None => full,
    };
    // serde_json's words for its own bounds, said so that the reader knows what to fix.
    let message = match message.as_str() {
        "recursion limit exceeded" => format!(
            "arrays and objects are nested more than {PARSER_MAX_DEPTH} levels deep (the parser's limit); the document was not parsed"
        ),
        "number out of range" => {
            "number out of range: it is beyond the largest finite double (about 1.8e308), such as `1e999`; write null or a string such as \"inf\"".to_string()
        }
        _ => message,
    };
    (offset, message)
}

/// Byte offset of `serde_json`'s 1-based line and (byte) column.
fn offset_of(text: &str, line: usize, column: usize) -> usize {
    let mut start = 0;
    for _ in 1..line {
        match text[start..].find('\n') {
            Some(i) => start += i + 1,
            None => return text.len(),
        }
    }
    (start + column.saturating_sub(1)).min(text.len())
}

/// Bare `NaN`, `Infinity` and `-Infinity` outside strings, with their offsets.
pub(super) fn find_nonstandard(piece: &str) -> Tokens {
    let bytes = piece.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'"' => {
                i = skip_string(bytes, i);
                continue;
            }
            b'N' if bytes[i..].starts_with(b"NaN") => {
                out.push((i, "NaN"));
                i += 3;
                continue;
            }
            b'I' if bytes[i..].starts_with(b"Infinity") => {
                out.push((i, "Infinity"));
                i += 8;
                continue;
            }
            b'-' if bytes[i..].starts_with(b"-Infinity") => {
                out.push((i, "-Infinity"));
                i += 9;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    out
}

/// `piece` with each of `tokens` quoted.
pub(super) fn rewrite(piece: &str, tokens: &Tokens) -> String {
    let mut out = String::with_capacity(piece.len() + 2 * tokens.len());
    let mut last = 0;
    for &(off, token) in tokens {
        out.push_str(&piece[last..off]);
        out.push('"');
        out.push_str(token);
        out.push('"');
        last = off + token.len();
    }
    out.push_str(&piece[last..]);
    out
}
