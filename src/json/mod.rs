//! Reading JSON as real harnesses write it: one document, several concatenated documents, or
//! JSON Lines; bare `NaN` / `Infinity` tolerated and reported; positions kept for diagnostics;
//! the per-request samples of canonical results read straight into numbers ([`SampleArray`]).

mod chunks;
mod cut;
mod levels;
mod locate;
mod locator;
mod samples;
mod scan;
mod segment;
mod spliced;
mod strings;
mod tolerant;
#[cfg(test)]
mod typed_tests;
mod walk;

pub use chunks::{LineChunk, LineChunks, LineSource, TextLines, parse_line_chunks};
pub use cut::{Cuts, cut, cut_ranges};
pub use levels::{TypedLevels, restore_levels};
pub(crate) use locate::next_structural;
pub use locate::{Span, escape_pointer_token, locate, position, unescape_token};
pub use locator::Locator;
pub use samples::{SAMPLE_METRICS, SampleArray, restore_samples};
pub use scan::{
    CONTAINER_FLOOR, DEFAULT_MAX_ARRAY_ITEMS, DEFAULT_MAX_DEPTH, Limits, LongArray,
    PARSER_MAX_DEPTH, Scan, container_budget, scan, scan_capturing,
};
pub use segment::{Segment, split_documents};
pub use spliced::{SampleSpan, WithSamples};
pub use tolerant::{
    Apart, ApartItems, Document, DuplicateKey, Nonstandard, ParseFailure, ParsedText,
    TruncatedArray, Within, parse_text, parse_text_apart, parse_text_lean, parse_text_typed,
    parse_text_with, read_apart,
};
pub use walk::{Path as WalkPath, Step, Visit, walk, walk_under};

use serde_json::Value;

/// The reference tokens of a JSON pointer after its leading `/`, unescaped (`""` has none).
pub fn pointer_tokens(pointer: &str) -> Vec<String> {
    pointer.split('/').skip(1).map(unescape_token).collect()
}

/// Sets `value` at the JSON pointer `pointer` in `target`, making objects as needed; an
/// array is entered only at an index it already has, and a pointer through a scalar changes
/// nothing.
pub fn insert_at(target: &mut Value, pointer: &str, value: Value) {
    let mut cur = target;
    let tokens = pointer_tokens(pointer);
    let Some((last, parents)) = tokens.split_last() else {
        return;
    };
    for t in parents {
        cur = match cur {
            Value::Object(obj) => obj
                .entry(t.clone())
                .or_insert_with(|| Value::Object(serde_json::Map::new())),
            Value::Array(items) => match t.parse::<usize>().ok().and_then(|i| items.get_mut(i)) {
                Some(item) => item,
                None => return,
            },
            _ => return,
        };
    }
    match cur {
        Value::Object(obj) => {
            obj.insert(last.clone(), value);
        }
        Value::Array(items) => {
            if let Some(slot) = last.parse::<usize>().ok().and_then(|i| items.get_mut(i)) {
                *slot = value;
            }
        }
        _ => {}
    }
}
