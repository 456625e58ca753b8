//! An array read an item at a time: a document of one long list (a claims file of a claim per
//! result, a sweep's aggregate of a row per run) is parsed with the list left empty in its
//! value, and its items are handed to the caller one by one, each let go before the next is
//! parsed, so the list is never a tree held whole.
//!
//! Both passes are `serde_json` on the text the whole-document parse reads (the items past the
//! bound cut, bare `NaN` and `Infinity` quoted), so a failure, its offset and its message are
//! the ones the whole parse gives, and each item is the value the whole parse would hold.

use serde::de::{DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};
use std::fmt;

use crate::json::locate;
use crate::json::scan::Scan;

/// Which array to read apart: in a document whose root `schema` is `schema`, the array at the
/// root's `key`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Apart {
    /// The root `schema` of the documents whose array is read apart, as written (no escapes).
    pub schema: &'static str,
    /// The root key of the array.
    pub key: &'static str,
}

/// Where the array read apart lies in its document.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Within {
    /// At this key of the root object (a claims file's `claims`).
    Member(&'static str),
    /// The document is the array (a sweep's aggregate, a list of runs).
    Root,
}

/// A document's array left out of its value (`[]` in its place), to be read an item at a time
/// by [`super::read_apart`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApartItems {
    /// Where the array lies.
    pub within: Within,
    /// The document's length in bytes: kept as a length, not an end, so that it holds however
    /// the document's `start` is moved (a JSON Lines chunk's lines are placed in its text).
    pub(super) len: usize,
    /// The ranges cut from the document before it is parsed (items past the bound), in the
    /// document's own offsets.
    pub(super) cuts: Vec<(usize, usize)>,
    /// Whether the document parsed only with its bare `NaN` and `Infinity` quoted.
    pub(super) tolerant: bool,
}

/// Whether the document `original` (scanned as `found`) is one whose array `apart` names: its
/// root `schema` is `apart.schema` as written, the root holds `apart.key` as an array, and no
/// key is written twice (the parser keeps the last value, which may not be the one found).
pub(super) fn reads_apart(original: &str, found: &Scan, apart: Apart) -> bool {
    found.duplicate_keys.is_empty()
        && found
            .root_schema
            .is_some_and(|(s, e)| e > s + 1 && original.get(s + 1..e - 1) == Some(apart.schema))
        && locate(original, 0, &format!("/{}", apart.key))
            .is_some_and(|span| span.exact && original.as_bytes().get(span.start) == Some(&b'['))
}

/// Whether the document `original` is an array: its first byte past white space opens one.
pub(super) fn is_array(original: &str) -> bool {
    original.trim_start().starts_with('[')
}

/// Parses `piece` as `serde_json::from_str` does, but for the array `within` names (when it
/// names one), whose items are handed to `each` as they are parsed and which is left `[]`.
pub(super) fn from_str_apart(
    piece: &str,
    within: Option<Within>,
    each: &mut dyn FnMut(Value),
) -> Result<Value, serde_json::Error> {
    let mut de = serde_json::Deserializer::from_str(piece);
    let value = match within {
        None => return serde_json::from_str(piece),
        Some(Within::Member(key)) => RootApart { key, each }.deserialize(&mut de)?,
        // A document that is no array is parsed as it is: its value is what the whole parse
        // gives, and nothing is handed on.
        Some(Within::Root) => Items { each }.deserialize(&mut de)?,
    };
    de.end()?;
    Ok(value)
}

/// The root object, every member a value but the array at `key`.
struct RootApart<'k, 'f> {
    key: &'k str,
    each: &'f mut dyn FnMut(Value),
}

impl<'de> DeserializeSeed<'de> for RootApart<'_, '_> {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for RootApart<'_, '_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Value, A::Error> {
        let mut members = Map::new();
        while let Some(key) = map.next_key::<String>()? {
            let value = if key == self.key {
                map.next_value_seed(Items {
                    each: &mut *self.each,
                })?
            } else {
                map.next_value::<Value>()?
            };
            members.insert(key, value);
        }
        Ok(Value::Object(members))
    }
}

/// The array read apart: each item handed on as it is parsed.
struct Items<'f> {
    each: &'f mut dyn FnMut(Value),
}

impl<'de> DeserializeSeed<'de> for Items<'_> {
    type Value = Value;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Items<'_> {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON array")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        while let Some(item) = seq.next_element::<Value>()? {
            (self.each)(item);
        }
        Ok(Value::Array(Vec::new()))
    }
}
