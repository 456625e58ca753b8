//! Reading YAML into `serde_json` values, safely: the YAML reports harnesses save (GuideLLM's
//! `.yaml` report, inference-perf's `config.yaml`) become the same values their JSON
//! counterparts would, for the adapters to read.
//!
//! The text is parsed by `saphyr-parser` (the maintained YAML 1.2 event parser of the
//! `yaml-rust` line) and the values are built here from its events, so the bounds are ours:
//!
//! - **Aliases** are expanded, but every node produced counts against [`Limits::max_nodes`]
//!   and every byte of text against [`Limits::max_text_bytes`], checked before an alias is
//!   copied: a "billion laughs" document is refused after at most that many nodes, in time and
//!   memory proportional to the bound, never to the expansion. What aliases add is bounded
//!   apart, by the size of the text ([`Limits::alias_budget`]): a 340-byte file cannot make
//!   four million nodes for every later step (rules, secrets, locating) to walk.
//! - **Time**: reading one text stops after [`Limits::max_time`], whatever the cause.
//! - **Nesting** deeper than [`Limits::max_depth`] (aliases included) is refused.
//! - **Tags execute nothing.** `!!str` keeps a scalar as text; every other tag
//!   (`!!python/tuple`, `!!python/object/apply:...`, `!custom`) is ignored and the node read as
//!   if untagged, so a Python object dumped by PyYAML reads as the plain data it holds.
//! - **Scalars** follow the YAML 1.2 core schema, plus the YAML 1.1 booleans PyYAML reads
//!   (`yes`, `on`, ...); non-finite floats become `"Infinity"`, `"-Infinity"` and `"NaN"`, as
//!   the JSON reader reads Python's bare tokens.
//! - **Keys** are read as their text (`1:` gives the key `"1"`); a mapping or sequence used as
//!   a key cannot be JSON and is an error. A repeated key keeps its last value. The merge key
//!   `<<` (YAML 1.1, common in hand-written configs) merges a mapping, or a list of mappings,
//!   into the mapping that holds it; keys written there win.
//!
//! Errors carry the line and column (1-based) and byte offset where reading stopped.
//! [`locate`] finds where a value of a parsed document sits in the text, for placing findings.

mod build;
mod locate;
mod scalar;

use saphyr_parser::{Event, Marker, Parser, ScanError};
use serde_json::Value;

use build::Builder;
pub use locate::{locate, locate_at_starts};

/// The bounds of one read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Most nodes (scalars, keys, sequences, mappings) produced in total, aliases expanded.
    pub max_nodes: usize,
    /// Deepest nesting of sequences and mappings, aliases expanded.
    pub max_depth: usize,
    /// Most bytes of scalar and key text produced in total, aliases expanded.
    pub max_text_bytes: usize,
    /// Nodes that aliases may add beyond what the text writes out: this many per byte of text
    /// ([`ALIAS_FLOOR_NODES`] at least).
    pub alias_nodes_per_byte: usize,
    /// Longest time one text may take to read.
    pub max_time: std::time::Duration,
}

/// Nodes aliases may always add, however short the text: a hand-written config that anchors a
/// block and aliases it a few hundred times stays far below.
pub const ALIAS_FLOOR_NODES: usize = 100_000;

impl Limits {
    /// The most nodes and bytes of text aliases may add to a text of `text_len` bytes:
    /// [`alias_nodes_per_byte`](Self::alias_nodes_per_byte) nodes and as many bytes per byte
    /// written, at least [`ALIAS_FLOOR_NODES`] nodes and 1 MiB. A YAML report written by a
    /// harness has no aliases at all; what a person writes by hand expands a few times over.
    pub fn alias_budget(&self, text_len: usize) -> (usize, usize) {
        let per = self.alias_nodes_per_byte;
        (
            text_len.saturating_mul(per).max(ALIAS_FLOOR_NODES),
            text_len.saturating_mul(per).max(1024 * 1024),
        )
    }
}

impl Default for Limits {
    /// Four million nodes (a report of about 70 MB written out), 64 levels (the JSON reader's
    /// default), 256 MiB of text (the largest file benchlint reads), aliases adding at most 16
    /// nodes per byte of text, and 20 s per text.
    fn default() -> Self {
        Limits {
            max_nodes: 4_000_000,
            max_depth: 64,
            max_text_bytes: 256 * 1024 * 1024,
            alias_nodes_per_byte: 16,
            max_time: std::time::Duration::from_secs(20),
        }
    }
}

/// One document of a YAML stream.
#[derive(Debug, Clone, PartialEq)]
pub struct Document {
    /// The document as a JSON value.
    pub value: Value,
    /// Byte offset in the text where the document starts.
    pub start: usize,
    /// Position of the document in the stream, from 0.
    pub index: usize,
}

/// Why the text was not read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    /// Not YAML, or YAML that JSON cannot hold (a mapping used as a key, a recursive alias).
    Syntax,
    /// Refused: reading it would pass one of the [`Limits`].
    Bound,
}

/// Where and why reading stopped.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    /// A syntax error or a bound.
    pub kind: ErrorKind,
    /// What went wrong, in words, without the position.
    pub message: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
    /// Byte offset in the text.
    pub offset: usize,
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} at line {} column {}",
            self.message, self.line, self.column
        )
    }
}

impl std::error::Error for Error {}

/// Reads every document of `text`.
pub fn parse(text: &str, limits: &Limits) -> Result<Vec<Document>, Error> {
    let mut offsets = Offsets::new(text);
    let mut builder = Builder::new(*limits, text.len());
    let mut documents = Vec::new();
    let mut start = 0;
    let began = std::time::Instant::now();
    for (n, event) in Parser::new_from_str(text).enumerate() {
        let (event, span) = event.map_err(|e| scan_error(&e, &mut offsets))?;
        let at = span.start;
        // The clock is read every 4096 events: a few microseconds of work between reads.
        if n % 4096 == 4095 && began.elapsed() > limits.max_time {
            return Err(Error {
                kind: ErrorKind::Bound,
                message: format!(
                    "reading it took more than {} s (the bound on time per file); it was not read",
                    limits.max_time.as_secs()
                ),
                line: at.line(),
                column: at.col() + 1,
                offset: offsets.byte(at.index()),
            });
        }
        let fail = |kind: ErrorKind, message: String, offsets: &mut Offsets<'_>| Error {
            kind,
            message,
            line: at.line(),
            column: at.col() + 1,
            offset: offsets.byte(at.index()),
        };
        let step = match event {
            Event::DocumentStart(_) => {
                start = offsets.byte(at.index());
                Ok(())
            }
            Event::DocumentEnd => {
                documents.push(Document {
                    value: builder.take_root().unwrap_or(Value::Null),
                    start,
                    index: documents.len(),
                });
                Ok(())
            }
            Event::Scalar(text, style, anchor, tag) => {
                builder.scalar(&text, style, anchor, tag.as_deref())
            }
            Event::SequenceStart(anchor, _) => builder.open(false, anchor),
            Event::MappingStart(anchor, _) => builder.open(true, anchor),
            Event::SequenceEnd | Event::MappingEnd => builder.close(),
            Event::Alias(id) => builder.alias(id),
            Event::StreamStart | Event::StreamEnd | Event::Nothing => Ok(()),
        };
        step.map_err(|(kind, message)| fail(kind, message, &mut offsets))?;
    }
    Ok(documents)
}

/// Reads a text that holds one document (an empty text is `null`), with the default
/// [`Limits`]: the call for a configuration file.
pub fn from_str(text: &str) -> Result<Value, Error> {
    let mut documents = parse(text, &Limits::default())?;
    if documents.len() > 1 {
        let offset = documents[1].start;
        let (line, column) = line_column(text, offset);
        return Err(Error {
            kind: ErrorKind::Syntax,
            message: format!("{} documents where one was expected", documents.len()),
            line,
            column,
            offset,
        });
    }
    Ok(documents.pop().map_or(Value::Null, |d| d.value))
}

/// 1-based line and column (in characters) of byte `offset` of `text`.
pub fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &text[..offset];
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    (
        before.matches('\n').count() + 1,
        before[line_start..].chars().count() + 1,
    )
}

fn scan_error(e: &ScanError, offsets: &mut Offsets<'_>) -> Error {
    let m: &Marker = e.marker();
    // The parser's own bound on flow nesting, met while it looks ahead of our depth check.
    let (kind, message) = if e.info() == "recursion limit exceeded" {
        (
            ErrorKind::Bound,
            "sequences and mappings are nested deeper than the parser reads (256 levels); the document was not read".to_string(),
        )
    } else {
        (ErrorKind::Syntax, e.info().to_string())
    };
    Error {
        kind,
        message,
        line: m.line(),
        column: m.col() + 1,
        offset: offsets.byte(m.index()),
    }
}

/// The parser counts characters; findings need bytes. Positions arrive in order, so one
/// forward walk converts them all (a text of ASCII needs none).
struct Offsets<'t> {
    text: &'t str,
    ascii: bool,
    chars: usize,
    bytes: usize,
}

impl<'t> Offsets<'t> {
    fn new(text: &'t str) -> Self {
        Offsets {
            text,
            ascii: text.is_ascii(),
            chars: 0,
            bytes: 0,
        }
    }

    fn byte(&mut self, char_index: usize) -> usize {
        if self.ascii {
            return char_index.min(self.text.len());
        }
        if char_index < self.chars {
            (self.chars, self.bytes) = (0, 0);
        }
        for c in self.text[self.bytes..].chars() {
            if self.chars == char_index {
                break;
            }
            self.chars += 1;
            self.bytes += c.len_utf8();
        }
        self.bytes
    }
}

#[cfg(test)]
mod tests;
