//! Reading JSON as real harnesses write it: one document, several concatenated documents, or
//! JSON Lines; bare `NaN` / `Infinity` tolerated and reported; positions kept for diagnostics.

mod locate;
mod scan;
mod segment;
mod tolerant;
mod walk;

pub use locate::{Locator, Span, escape_pointer_token, locate, position};
pub use scan::{
    Cuts, DEFAULT_MAX_ARRAY_ITEMS, DEFAULT_MAX_DEPTH, Limits, LongArray, PARSER_MAX_DEPTH, Scan,
    cut, scan,
};
pub use segment::{Segment, split_documents};
pub use tolerant::{
    Document, DuplicateKey, Nonstandard, ParseFailure, ParsedText, TruncatedArray, parse_text,
    parse_text_with,
};
pub use walk::{Path as WalkPath, Step, Visit, walk};
