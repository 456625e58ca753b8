//! Reading JSON as real harnesses write it: one document, several concatenated documents, or
//! JSON Lines; bare `NaN` / `Infinity` tolerated and reported; positions kept for diagnostics.

mod locate;
mod segment;
mod tolerant;

pub use locate::{Span, escape_pointer_token, locate, position};
pub use segment::{Segment, split_documents};
pub use tolerant::{Document, Nonstandard, ParseFailure, ParsedText, parse_text};
