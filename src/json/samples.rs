//! Per-request sample arrays read straight from the text into numbers.
//!
//! A canonical result is mostly `levels[i].samples.<metric>`: arrays of thousands of numbers,
//! one per request. Building a `serde_json::Value` for each number, validating it against the
//! schema, reading it again into the typed model and freeing it cost more than everything else
//! the loader does with the document. The pre-scan ([`super::scan`]) finds these arrays while
//! it walks the document and reads each one here into a `Vec<f64>`, with `serde_json`'s own
//! number parser (so every value is the same double the `Value` path gives); the parser then
//! sees `[]` in its place, and the typed model gets the numbers.
//!
//! Only an array of JSON numbers is taken this way, in a document whose root `schema` is the
//! one asked for; the schema's other constraint on them (`minimum: 0`) is checked on the
//! numbers by the loader. Anything else — a string, `null`, `NaN`, `1e999`, an integer beyond
//! 64 bits, an array over `max_array_items`, a key written twice anywhere in the document —
//! leaves the array in the text, so the parser, the schema validator and the rules see it
//! exactly as before and report it in their own words.

use serde::de::{DeserializeSeed, Deserializer, Error as _, SeqAccess, Visitor};
use serde_json::Value;

/// The per-request metrics of a level's `samples` object, as the result schema names them.
pub const SAMPLE_METRICS: [&str; 4] = ["ttft_s", "tpot_ms", "per_user_tok_s", "output_tokens"];

/// Beyond this a number may be an integer outside 64 bits, which the pre-scan reports: such an
/// array is left to the ordinary path (2^63 is about 9.22e18).
const WIDE: f64 = 9.0e18;

/// One `levels[level].samples.<metric>` array read into numbers.
#[derive(Debug, Clone, PartialEq)]
pub struct SampleArray {
    /// Index of the level in `levels`.
    pub level: usize,
    /// The metric: one of [`SAMPLE_METRICS`].
    pub metric: &'static str,
    /// The numbers, in order.
    pub values: Vec<f64>,
    /// Byte offset of the array's `[` (in the file, once in a [`super::Document`]).
    pub start: usize,
    /// One past its `]`.
    pub end: usize,
}

/// Reads the array of numbers that opens `text`: the numbers and the length of the array's
/// text, or `None` when it is not an array of at most `max_items` numbers inside the 64-bit
/// integer range.
pub(super) fn read_numbers(text: &str, max_items: usize) -> Option<(Vec<f64>, usize)> {
    short_decimals(text.as_bytes(), max_items).or_else(|| any_numbers(text, max_items))
}

/// Items a list of numbers holds before the rest of a long array is counted
/// ([`items_before_bracket`]) and the list made to its length at once: a file of one array of
/// millions of per-token latencies held, while its list grew by doubling, up to twice the
/// numbers and the copy between, three times what they take. Below it, the arrays of an
/// ordinary result, counting first would be a second pass over every sample for nothing.
const SIZED_FROM: usize = 4096;

/// The items of the array whose rest is `bytes` if it holds numbers only: one more than its
/// commas before the first `]` (a bound otherwise).
fn items_before_bracket(bytes: &[u8]) -> usize {
    let end = bytes.iter().position(|&b| b == b']').unwrap_or(bytes.len());
    #[expect(
        clippy::naive_bytecount,
        reason = "once per long sample array, vectorised by the compiler; not worth a dependency"
    )]
    let commas = bytes[..end].iter().filter(|&&b| b == b',').count();
    commas + 1
}

/// Makes room in `out` for the rest of a long array (`rest`, the bytes after the item about to
/// be pushed) once `out` is full at [`SIZED_FROM`] items or more, within `max_items` + 1.
fn room_for_the_rest(out: &mut Vec<f64>, rest: &[u8], max_items: usize) {
    if out.len() == out.capacity() && out.len() >= SIZED_FROM {
        // The item about to be pushed, then one for each comma left.
        let wanted = items_before_bracket(rest);
        out.reserve_exact(wanted.min(max_items.saturating_add(1).saturating_sub(out.len())));
    }
}

/// The powers of ten a double holds exactly.
const POW10: [f64; 23] = [
    1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
    1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
];

/// Most significant digits of a number read by [`short_decimals`]: below 2^53, every such
/// significand is a double exactly.
const SHORT_DIGITS: u32 = 15;

/// The common case, without `serde_json`: an array of plain decimals (`0.5321`, `128`), none
/// with an exponent, more than 15 significant digits or more than 22 after the point. Such a number is its digits as an integer, exact as
/// a double, divided by an exact power of ten: one correctly rounded operation, so the double
/// is the one a correctly rounding parser gives (`serde_json` with `float_roundtrip`), bit for
/// bit. Anything else returns `None` and is read by [`any_numbers`].
fn short_decimals(bytes: &[u8], max_items: usize) -> Option<(Vec<f64>, usize)> {
    let ws = |i: &mut usize| {
        while matches!(bytes.get(*i), Some(b' ' | b'\n' | b'\r' | b'\t')) {
            *i += 1;
        }
    };
    let digit = |i: usize| {
        bytes
            .get(i)
            .filter(|b| b.is_ascii_digit())
            .map(|b| u64::from(b - b'0'))
    };
    if bytes.first() != Some(&b'[') {
        return None;
    }
    let mut i = 1;
    let mut out = Vec::new();
    ws(&mut i);
    if bytes.get(i) == Some(&b']') {
        return end_of_value(bytes, i + 1).then_some((out, i + 1));
    }
    loop {
        let mut significand = digit(i)?;
        // Significant digits: leading zeros (`0.004`) add nothing to the significand.
        let mut digits = u32::from(significand != 0);
        i += 1;
        if significand != 0 {
            while let Some(d) = digit(i) {
                significand = significand * 10 + d;
                digits += 1;
                i += 1;
                if digits > SHORT_DIGITS {
                    return None;
                }
            }
        }
        let mut fraction = 0;
        if bytes.get(i) == Some(&b'.') {
            i += 1;
            while let Some(d) = digit(i) {
                significand = significand * 10 + d;
                digits += u32::from(significand != 0);
                fraction += 1;
                i += 1;
                if digits > SHORT_DIGITS || fraction >= POW10.len() {
                    return None;
                }
            }
            if fraction == 0 {
                return None;
            }
        }
        if matches!(bytes.get(i), Some(b'e' | b'E' | b'0'..=b'9')) {
            return None;
        }
        #[expect(
            clippy::cast_precision_loss,
            reason = "at most 15 digits: below 2^53, exact"
        )]
        let whole = significand as f64;
        room_for_the_rest(&mut out, &bytes[i..], max_items);
        out.push(whole / POW10[fraction]);
        if out.len() > max_items {
            return None;
        }
        ws(&mut i);
        match bytes.get(i) {
            Some(b',') => {
                i += 1;
                ws(&mut i);
            }
            Some(b']') => return end_of_value(bytes, i + 1).then_some((out, i + 1)),
            _ => return None,
        }
    }
}

/// Whether what follows a value at `i` may follow it in JSON (as `serde_json` checks between
/// values of a stream).
fn end_of_value(bytes: &[u8], i: usize) -> bool {
    matches!(
        bytes.get(i),
        None | Some(b' ' | b'\n' | b'\t' | b'\r' | b'"' | b'[' | b']' | b'{' | b'}' | b',' | b':')
    )
}

/// Any array of at most `max_items` JSON numbers, read by `serde_json`, which stops at the
/// item past the bound: memory follows the bound, not the file.
fn any_numbers(text: &str, max_items: usize) -> Option<(Vec<f64>, usize)> {
    // The rare spellings (exponents, long digits): counted first, whatever the array's length.
    let items = items_before_bracket(text.as_bytes()).min(max_items.saturating_add(1));
    let mut de = serde_json::Deserializer::from_str(text);
    let values = Bounded(max_items, items).deserialize(&mut de).ok()?;
    // An array of numbers holds no string or bracket: it ends at the first `]`.
    let end = text.find(']')? + 1;
    let fits = end_of_value(text.as_bytes(), end) && values.iter().all(|v| v.abs() < WIDE);
    fits.then_some((values, end))
}

/// Reads an array of numbers, failing at the item past the bound (the first field), into a list
/// made as long as the second.
struct Bounded(usize, usize);

impl<'de> DeserializeSeed<'de> for Bounded {
    type Value = Vec<f64>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Vec<f64>, D::Error> {
        deserializer.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for Bounded {
    type Value = Vec<f64>;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "an array of at most {} numbers", self.0)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<f64>, A::Error> {
        let mut out = Vec::with_capacity(self.1);
        while let Some(v) = seq.next_element::<f64>()? {
            if out.len() == self.0 {
                return Err(A::Error::custom("over the array bound"));
            }
            out.push(v);
        }
        Ok(out)
    }
}

/// Puts the arrays of `samples` back into `value` as the parser would have read them from
/// `text` (the file the offsets refer to): the document as the `Value` path reads it.
pub fn restore_samples(value: &mut Value, samples: &[SampleArray], text: &str) {
    for s in samples {
        let Some(array) = text
            .get(s.start..s.end)
            .and_then(|t| serde_json::from_str::<Value>(t).ok())
        else {
            continue;
        };
        if let Some(slot) = value
            .get_mut("levels")
            .and_then(|l| l.get_mut(s.level))
            .and_then(|l| l.get_mut("samples"))
            .and_then(|l| l.get_mut(s.metric))
        {
            *slot = array;
        }
    }
}

#[cfg(test)]
#[path = "samples_tests.rs"]
mod tests;
