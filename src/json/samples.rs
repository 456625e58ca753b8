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
//! Only an array that already meets the schema (`items: {"type": "number", "minimum": 0}`) is
//! taken this way, in a document whose root `schema` is the one asked for. Anything else — a
//! string, `null`, `NaN`, a negative number, `1e999`, an integer beyond 64 bits, an array over
//! `max_array_items`, a key written twice anywhere in the document — leaves the array in the
//! text, so the parser, the schema validator and the rules see it exactly as before and report
//! it in their own words. The fast path never decides a finding.

use serde_json::Value;

/// The per-request metrics of a level's `samples` object, as the result schema names them.
pub const SAMPLE_METRICS: [&str; 4] = ["ttft_s", "tpot_ms", "per_user_tok_s", "output_tokens"];

/// Above this a number may be an integer beyond 64 bits, which the pre-scan reports: such an
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
/// text, or `None` when it is not an array of at most `max_items` numbers from 0 up to the
/// 64-bit integer range.
pub(super) fn read_numbers(text: &str, max_items: usize) -> Option<(Vec<f64>, usize)> {
    let mut stream = serde_json::Deserializer::from_str(text).into_iter::<Vec<f64>>();
    let values = stream.next()?.ok()?;
    let end = stream.byte_offset();
    let fits = values.len() <= max_items
        && values
            .iter()
            .all(|v| *v >= 0.0 && v.is_sign_positive() && *v < WIDE);
    fits.then_some((values, end))
}

/// Puts the arrays of `samples` back into `value` as the parser would have read them from
/// `text` (the file the offsets refer to): for a document merged with another that may hold
/// levels of its own.
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
mod tests {
    use super::*;

    #[test]
    fn numbers_from_zero_up_are_read_with_the_array_length() {
        let text = "[1, 0.5,\n 2e3, 0]  , 7";
        let (values, end) = read_numbers(text, 10).unwrap();
        assert_eq!(values, [1.0, 0.5, 2000.0, 0.0]);
        assert_eq!(&text[..end], "[1, 0.5,\n 2e3, 0]");
    }

    #[test]
    fn anything_the_schema_or_the_scan_would_report_is_left_alone() {
        for text in [
            "[1, -2]",
            "[-0]",
            "[1, \"2\"]",
            "[1, null]",
            "[1, NaN]",
            "[Infinity]",
            "[1e999]",
            "[18446744073709551616]",
            "[[1]]",
            "[1, {}]",
            "[1, 2",
            "[1 2]",
            "{}",
        ] {
            assert_eq!(read_numbers(text, 10), None, "{text}");
        }
        assert_eq!(read_numbers("[1, 2, 3]", 2), None, "over the array bound");
    }

    #[test]
    fn the_same_doubles_as_the_value_path() {
        let text = "[0.1, 3, 12345678901234567, 2.5e-308, 8.9e18, 0.30000000000000004, 1E2, 0e0]";
        let (values, _) = read_numbers(text, 100).unwrap();
        let via_value: Vec<u64> = serde_json::from_str::<Value>(text)
            .unwrap()
            .as_array()
            .unwrap()
            .iter()
            .filter_map(Value::as_f64)
            .map(f64::to_bits)
            .collect();
        assert_eq!(
            values.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
            via_value
        );
        assert_eq!(read_numbers("[9.3e18]", 10), None, "may be a wide integer");
    }
}
