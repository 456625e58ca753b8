//! The `levels` of a canonical result read straight from the text into the typed model.
//!
//! Half of a canonical document's values outside the per-request samples are in its levels.
//! Building a `serde_json::Value` for each (a map per level, a key string per field), asking
//! the schema validator about each, and reading them again into [`Level`]s cost a fifth of a
//! clean run. When the pre-scan ([`super::scan`]) found the root's `levels` array, in a
//! document whose sample arrays it reads as numbers, the array's text is checked here against
//! what the result schema says of a level (`$defs/level`), by a strict reading that accepts a
//! level only where the schema would, and read into `Vec<Level>`; the parser then sees `[]`
//! in its place, and the loader puts one `null` there per level, so the rest of the document
//! is validated as before and the schema's count of levels (`minItems` when the outcome is
//! `ok`) is checked on it.
//!
//! Anything the strict reading does not accept, or is not sure of, leaves the array in the
//! text: a `null`, a key the schema does not know, a number below a minimum, `32.0` where the
//! schema wants an integer (which JSON Schema accepts and the typed model reads only once made
//! whole), a string, `NaN`, an array cut at the bound. The parser, the schema validator and
//! the rules then see the levels exactly as before and report them in their own words.
//!
//! A schema-valid level holds no free-form string (only `request_rate: "inf"` and
//! `power_w.kind`), so the rules that walk the document's strings (M016, M018) find nothing
//! in the levels taken this way.

use std::marker::PhantomData;

use serde::de::{self, Deserialize, Deserializer, SeqAccess, Visitor};
use serde_json::Value;

use super::cut::cut_ranges;
use super::samples::SampleArray;
use super::scan::Scan;
use crate::model::Level;

/// A canonical result's levels read from its text, with where the array is.
#[derive(Debug, Clone, PartialEq)]
pub struct TypedLevels {
    /// The levels, each one valid against the result schema.
    pub levels: Vec<Level>,
    /// Byte offset of the array's `[` (in the file, once in a [`super::Document`]).
    pub start: usize,
    /// One past its `]`.
    pub end: usize,
}

/// The levels of the document `piece` the scan `found` located, when every one of them is
/// one the result schema accepts; `None` leaves them to the parser.
pub(super) fn read(piece: &str, found: &Scan) -> Option<TypedLevels> {
    let (start, end) = found.levels?;
    // An array cut at the bound inside (or around) the levels: the parser reads the cut text.
    if found
        .long_arrays
        .iter()
        .any(|a| a.start < end && a.close >= start)
    {
        return None;
    }
    let text = levels_text(piece, (start, end), &found.samples);
    if !schema_accepts(&text) {
        return None;
    }
    let mut levels: Vec<Level> = serde_json::from_str(&text).ok()?;
    // Read from text, the vector grew by doubling; the corpus rules keep it to the end.
    levels.shrink_to_fit();
    Some(TypedLevels { levels, start, end })
}

/// The text of the levels array at `start..end` of `piece`, with the sample arrays read into
/// numbers left as `[]`.
fn levels_text(piece: &str, (start, end): (usize, usize), samples: &[SampleArray]) -> String {
    let ranges: Vec<(usize, usize)> = samples
        .iter()
        .filter(|s| s.start > start && s.end < end)
        .map(|s| (s.start + 1 - start, s.end - 1 - start))
        .collect();
    cut_ranges(&piece[start..end], &ranges).0
}

/// Puts the levels of `typed` back into `value` as the file writes them (the sample arrays
/// read into numbers as `[]`), as many as `value` holds (fewer when cut at `max_levels`).
/// `text` is the file's text.
pub fn restore_levels(value: &mut Value, typed: &TypedLevels, samples: &[SampleArray], text: &str) {
    let Some(slot) = value.get_mut("levels") else {
        return;
    };
    let kept = slot.as_array().map_or(0, Vec::len);
    let written = levels_text(text, (typed.start, typed.end), samples);
    // The text was read as these levels once: it is JSON.
    if let Ok(Value::Array(mut levels)) = serde_json::from_str::<Value>(&written) {
        levels.truncate(kept);
        *slot = Value::Array(levels);
    }
}

/// Whether every item of the JSON array `text` is a level the result schema accepts.
fn schema_accepts(text: &str) -> bool {
    serde_json::from_str::<Vec<Object<StrictLevel>>>(text).is_ok_and(|levels| {
        levels
            .iter()
            .all(|Object(l)| l.concurrency.0 || l.request_rate.0)
    })
}

// The strict reading. Every field is a validator that fails on anything the schema rejects
// (and on what it accepts but the typed model does not read as written); `bool` says it was
// there. An absent field is its `Default`, a present `null` fails: `Option` would take it.

/// `$defs/level`: `additionalProperties: false`, and `anyOf` a concurrency or a request rate
/// (checked on the flags once read).
#[derive(Default, serde::Deserialize)]
#[serde(default, deny_unknown_fields)]
#[allow(dead_code, reason = "the fields are read for their checks")]
struct StrictLevel {
    concurrency: Count<1>,
    request_rate: Rate,
    achieved_request_rate: Number,
    max_concurrency: Count<1>,
    mean_in_flight: Number,
    requests: Count<0>,
    failed: Count<0>,
    total_requests: Count<0>,
    error_rate: Fraction,
    duration_s: Number,
    output_tokens: Count<0>,
    server_output_tokens: Count<0>,
    reasoning_tokens: Count<0>,
    throughput_tok_s: Object<ThroughputFields>,
    per_user_tok_s: Object<PerUserFields>,
    ttft_s: Object<P3Fields>,
    tpot_ms: Object<P2Fields>,
    e2e_s: Object<P2Fields>,
    gpu_mem_gib: Number,
    power_w: Object<PowerFields>,
    samples: Object<SampleFields>,
}

#[derive(Default, serde::Deserialize)]
#[serde(default, deny_unknown_fields)]
#[allow(dead_code, reason = "the fields are read for their checks")]
struct ThroughputFields {
    decode: Number,
    prefill: Number,
    aggregate: Number,
}

#[derive(Default, serde::Deserialize)]
#[serde(default, deny_unknown_fields)]
#[allow(dead_code, reason = "the fields are read for their checks")]
struct PerUserFields {
    mean: Number,
    median: Number,
    p10: Number,
}

#[derive(Default, serde::Deserialize)]
#[serde(default, deny_unknown_fields)]
#[allow(dead_code, reason = "the fields are read for their checks")]
struct P3Fields {
    p50: Number,
    p95: Number,
    p99: Number,
}

#[derive(Default, serde::Deserialize)]
#[serde(default, deny_unknown_fields)]
#[allow(dead_code, reason = "the fields are read for their checks")]
struct P2Fields {
    p50: Number,
    p95: Number,
}

#[derive(Default, serde::Deserialize)]
#[serde(default, deny_unknown_fields)]
#[allow(dead_code, reason = "the fields are read for their checks")]
struct PowerFields {
    mean: Number,
    kind: PowerKindWord,
}

#[derive(Default, serde::Deserialize)]
#[serde(default, deny_unknown_fields)]
#[allow(dead_code, reason = "the fields are read for their checks")]
struct SampleFields {
    ttft_s: Numbers,
    tpot_ms: Numbers,
    per_user_tok_s: Numbers,
    output_tokens: Numbers,
}

/// An object of the schema's (`type: object`), read with its fields' own checks; `null`
/// fails, and so does an array (serde reads a struct from an array of its fields in order).
#[derive(Default)]
struct Object<T>(T);

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Object<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct ObjectOnly<T>(PhantomData<T>);
        impl<'de, T: Deserialize<'de>> Visitor<'de> for ObjectOnly<T> {
            type Value = T;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: de::MapAccess<'de>>(self, map: A) -> Result<T, A::Error> {
                T::deserialize(de::value::MapAccessDeserializer::new(map))
            }
        }
        d.deserialize_map(ObjectOnly::<T>(PhantomData)).map(Object)
    }
}

/// `type: integer, minimum: MIN`, written as an integer: a whole number written with a
/// fraction or exponent (`32.0`, which the schema counts as an integer) is not taken.
#[derive(Default)]
struct Count<const MIN: u64>(bool);

impl<'de, const MIN: u64> Deserialize<'de> for Count<MIN> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<const MIN: u64>;
        impl<const MIN: u64> Visitor<'_> for V<MIN> {
            type Value = Count<MIN>;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                write!(f, "an integer of at least {MIN}")
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Count<MIN>, E> {
                if v >= MIN {
                    Ok(Count(true))
                } else {
                    Err(E::custom("below the minimum"))
                }
            }
        }
        d.deserialize_u64(V::<MIN>)
    }
}

/// `type: number, minimum: 0` (`-0` included, as the validator compares it).
#[derive(Default)]
struct Number;

impl<'de> Deserialize<'de> for Number {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_f64(NumberIn { max: f64::INFINITY })
            .map(|()| Number)
    }
}

/// `type: number, minimum: 0, maximum: 1`.
#[derive(Default)]
struct Fraction;

impl<'de> Deserialize<'de> for Fraction {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        d.deserialize_f64(NumberIn { max: 1.0 }).map(|()| Fraction)
    }
}

/// A number from 0 to `max`, however it is written.
struct NumberIn {
    max: f64,
}

impl Visitor<'_> for NumberIn {
    type Value = ();
    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "a number from 0 to {}", self.max)
    }
    fn visit_u64<E: de::Error>(self, v: u64) -> Result<(), E> {
        #[expect(clippy::cast_precision_loss, reason = "compared with a bound")]
        self.visit_f64(v as f64)
    }
    fn visit_f64<E: de::Error>(self, v: f64) -> Result<(), E> {
        if v >= 0.0 && v <= self.max {
            Ok(())
        } else {
            Err(E::custom("out of range"))
        }
    }
}

/// `request_rate`: `oneOf` a number above 0 or the string `"inf"`.
#[derive(Default)]
struct Rate(bool);

impl<'de> Deserialize<'de> for Rate {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = Rate;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a number above 0 or \"inf\"")
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Rate, E> {
                if v > 0 {
                    Ok(Rate(true))
                } else {
                    Err(E::custom("not above 0"))
                }
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<Rate, E> {
                if v > 0.0 {
                    Ok(Rate(true))
                } else {
                    Err(E::custom("not above 0"))
                }
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Rate, E> {
                if v == "inf" {
                    Ok(Rate(true))
                } else {
                    Err(E::custom("not \"inf\""))
                }
            }
        }
        d.deserialize_any(V)
    }
}

/// `power_w.kind`: `enum: ["wall", "device"]`.
#[derive(Default)]
struct PowerKindWord;

impl<'de> Deserialize<'de> for PowerKindWord {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = PowerKindWord;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("\"wall\" or \"device\"")
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<PowerKindWord, E> {
                match v {
                    "wall" | "device" => Ok(PowerKindWord),
                    _ => Err(E::custom("not a power kind")),
                }
            }
        }
        d.deserialize_str(V)
    }
}

/// A sample array as written (one the pre-scan did not read into numbers): `type: array`,
/// items `type: number, minimum: 0`.
#[derive(Default)]
struct Numbers;

impl<'de> Deserialize<'de> for Numbers {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Numbers;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("an array of numbers from 0")
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Numbers, A::Error> {
                while seq.next_element::<Number>()?.is_some() {}
                Ok(Numbers)
            }
        }
        d.deserialize_seq(V)
    }
}
