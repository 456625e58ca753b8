//! Strict JSON first; then the tolerant pass that accepts bare `NaN`, `Infinity` and
//! `-Infinity` (Python's `json.dumps` writes them, `SGLang`'s JSON Lines carry them) as strings,
//! so the run goes on and the finding says what was accepted.

mod apart;
mod document;

use serde_json::Value;

use super::levels::{self, TypedLevels};
use super::samples::SampleArray;
use super::scan::{Limits, PARSER_MAX_DEPTH, Scan, container_budget};
use super::segment::{Segment, scan_documents};
pub use apart::{Apart, ApartItems, Within};
pub use document::read_apart;
use document::{cuts_of, parse_cut, parse_one};

/// One top-level document of a file.
#[derive(Debug, Clone)]
pub struct Document {
    /// The parsed value (bare non-finite numbers become the strings `"NaN"`, `"Infinity"`,
    /// `"-Infinity"`).
    pub value: Value,
    /// Byte offset of the document's first byte in the file.
    pub start: usize,
    /// Position of the document in the file, from 0.
    pub index: usize,
    /// Per-request sample arrays read straight into numbers ([`parse_text_typed`]), with
    /// file offsets; `value` holds `[]` in their place.
    pub samples: Vec<SampleArray>,
    /// The root's levels read straight into the typed model ([`parse_text_lean`]), every one
    /// valid against the result schema; `value` holds one `null` per level in their place.
    pub levels: Option<TypedLevels>,
    /// The array read apart ([`Apart`], [`Reading::read_items_apart`]): `value` holds `[]` in
    /// its place, and [`read_apart`] hands its items over one at a time.
    pub apart: Option<ApartItems>,
}

impl Document {
    /// A document read by another reader (YAML, a log) as `value`: nothing read apart from it.
    pub fn of_value(value: Value, start: usize, index: usize) -> Self {
        Document {
            value,
            start,
            index,
            samples: Vec::new(),
            levels: None,
            apart: None,
        }
    }
}

/// A document that could not be parsed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseFailure {
    /// Byte offset in the file where the parser stopped.
    pub offset: usize,
    /// The parser's message, without its own position suffix.
    pub message: String,
    /// Position of the broken document in the file, from 0.
    pub index: usize,
}

/// A non-standard token accepted by the tolerant pass.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Nonstandard {
    /// Byte offset of the token in the file.
    pub offset: usize,
    /// The token as written.
    pub token: &'static str,
}

/// A key written twice in one object (`serde_json` keeps the last value).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DuplicateKey {
    /// Byte offset of the second occurrence's opening quote in the file.
    pub offset: usize,
    /// The key.
    pub key: String,
}

/// An array longer than [`Limits::max_array_items`]: only the first items were read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TruncatedArray {
    /// Byte offset of its `[` in the file.
    pub offset: usize,
    /// How many items it holds.
    pub items: usize,
    /// How many were read.
    pub kept: usize,
}

/// Everything read from one text.
#[derive(Debug, Default)]
pub struct ParsedText {
    /// Documents that parsed.
    pub documents: Vec<Document>,
    /// Documents that did not.
    pub failures: Vec<ParseFailure>,
    /// Non-standard tokens that were accepted.
    pub nonstandard: Vec<Nonstandard>,
    /// Keys repeated in one object.
    pub duplicate_keys: Vec<DuplicateKey>,
    /// Byte offsets of integers beyond 64 bits (read as the nearest double).
    pub wide_integers: Vec<usize>,
    /// Arrays cut at the bound.
    pub truncated_arrays: Vec<TruncatedArray>,
    /// Broken documents past [`Limits::max_failures`]: counted, not described.
    pub failures_omitted: usize,
}

/// Parses every document in `text`.
///
/// `lines_hint` asks for JSON Lines splitting from the start (a `.jsonl` file). Without it the
/// text is split at top-level document boundaries; if that leaves a broken document and the
/// text reads like JSON Lines, it is split again by line so one bad line does not hide the rest.
pub fn parse_text(text: &str, lines_hint: bool) -> ParsedText {
    parse_text_with(text, lines_hint, &Limits::default())
}

/// [`parse_text`] with resource bounds: a document nested deeper than `limits.max_depth` is a
/// failure and is never parsed; an array longer than `limits.max_array_items` is cut before
/// parsing (recorded in `truncated_arrays`).
pub fn parse_text_with(text: &str, lines_hint: bool, limits: &Limits) -> ParsedText {
    parse_text_read(text, lines_hint, limits, None, (None, false))
}

/// [`parse_text_with`], reading the per-request samples of every document whose root
/// `schema` is `schema` straight into numbers ([`Document::samples`], see
/// [`super::samples`]); every finding is the same as [`parse_text_with`]'s.
pub fn parse_text_typed(text: &str, lines_hint: bool, limits: &Limits, schema: &str) -> ParsedText {
    parse_text_read(
        text,
        lines_hint,
        limits,
        Some((schema, false)),
        (None, false),
    )
}

/// [`parse_text_typed`], also reading the levels of every such document straight into the
/// typed model where each is valid against the result schema ([`Document::levels`], see
/// [`super::levels`]); every finding is the same as [`parse_text_with`]'s.
pub fn parse_text_lean(text: &str, lines_hint: bool, limits: &Limits, schema: &str) -> ParsedText {
    parse_text_read(
        text,
        lines_hint,
        limits,
        Some((schema, true)),
        (None, false),
    )
}

/// What to read straight from the text of a document of a schema: its samples, and whether
/// its levels too.
type Capture<'s> = Option<(&'s str, bool)>;

/// [`parse_text_typed`] or [`parse_text_lean`] (with `lean`), the root array `apart.0` names
/// read apart in each document it names, and with `apart.1` every document that is an array
/// read an item at a time ([`Document::apart`]); every finding is the same.
pub fn parse_text_apart(
    text: &str,
    lines_hint: bool,
    limits: &Limits,
    (schema, lean): (&str, bool),
    apart: (Option<Apart>, bool),
) -> ParsedText {
    parse_text_read(text, lines_hint, limits, Some((schema, lean)), apart)
}

fn parse_text_read(
    text: &str,
    lines_hint: bool,
    limits: &Limits,
    capture: Capture<'_>,
    apart: (Option<Apart>, bool),
) -> ParsedText {
    let first = parse_segments(text, lines_hint, limits, capture, apart);
    if lines_hint
        || (first.failures.is_empty() && first.failures_omitted == 0)
        || !looks_like_json_lines(text)
    {
        return first;
    }
    parse_segments(text, true, limits, capture, apart)
}

fn parse_segments(
    text: &str,
    by_line: bool,
    limits: &Limits,
    capture: Capture<'_>,
    (apart, items): (Option<Apart>, bool),
) -> ParsedText {
    let mut out = ParsedText::default();
    let (schema, with_levels) = capture.unzip();
    let mut state = Reading::new(text.len(), with_levels == Some(true));
    state.read_apart(apart);
    state.read_items_apart(items);
    for (index, (seg, found)) in scan_documents(text, by_line, limits, schema).enumerate() {
        if !state.read(text, limits, index, (seg, found), &mut out) {
            break;
        }
    }
    out
}

/// What reading a text's documents one at a time carries from one to the next: the bound on
/// arrays and objects, which is the text's, and the broken documents described so far.
pub(super) struct Reading {
    with_levels: bool,
    apart: Option<Apart>,
    items: bool,
    budget: usize,
    containers: usize,
    failures: usize,
}

impl Reading {
    /// Nothing read yet of a text of `len` bytes.
    pub(super) fn new(len: usize, with_levels: bool) -> Self {
        Reading {
            with_levels,
            apart: None,
            items: false,
            budget: container_budget(len),
            containers: 0,
            failures: 0,
        }
    }

    /// Reading the root array `apart` names apart in each document it names.
    pub(super) fn read_apart(&mut self, apart: Option<Apart>) {
        self.apart = apart;
    }

    /// Reading every document that is an array an item at a time (`on`).
    pub(super) fn read_items_apart(&mut self, on: bool) {
        self.items = on;
    }

    fn fail(&mut self, out: &mut ParsedText, failure: ParseFailure, limits: &Limits) {
        if self.failures < limits.max_failures {
            self.failures += 1;
            out.failures.push(failure);
        } else {
            out.failures_omitted += 1;
        }
    }

    /// Reads the document `index` (its segment of `text` and its scan) into `out`, its offsets
    /// `text`'s; `false` once the text's bound on arrays and objects is reached, when the rest
    /// of the text is not read.
    pub(super) fn read(
        &mut self,
        text: &str,
        limits: &Limits,
        index: usize,
        (seg, mut found): (Segment, Scan),
        out: &mut ParsedText,
    ) -> bool {
        let original = &text[seg.start..seg.end];
        // Counted before the tree is built: once the text's documents would build more arrays
        // and objects than its size allows, this document is a failure and the rest of the
        // text is neither scanned nor parsed.
        self.containers = self.containers.saturating_add(found.containers);
        if self.containers > self.budget {
            let budget = self.budget;
            self.fail(
                out,
                ParseFailure {
                    offset: seg.start,
                    message: format!(
                        "the file's documents hold more than {budget} arrays and objects (the bound of one per 16 bytes of text); this document and the rest of the file were not parsed"
                    ),
                    index,
                },
                limits,
            );
            return false;
        }
        if let Some(off) = found.too_deep {
            let bound = limits.max_depth.min(PARSER_MAX_DEPTH);
            self.fail(
                out,
                ParseFailure {
                    offset: seg.start + off,
                    message: format!(
                        "arrays and objects are nested more than {bound} levels deep (the `max_depth` bound); the document was not parsed"
                    ),
                    index,
                },
                limits,
            );
            return true;
        }
        // Decided before the repeated keys are taken: a document with one is read whole.
        let within = match self.apart {
            Some(a) if apart::reads_apart(original, &found, a) => Some(Within::Member(a.key)),
            _ if self.items && apart::is_array(original) => Some(Within::Root),
            _ => None,
        };
        out.duplicate_keys
            .extend(
                std::mem::take(&mut found.duplicate_keys)
                    .into_iter()
                    .map(|(off, key)| DuplicateKey {
                        offset: seg.start + off,
                        key,
                    }),
            );
        out.wide_integers
            .extend(found.wide_integers.iter().map(|off| seg.start + off));
        out.truncated_arrays
            .extend(found.long_arrays.iter().map(|a| TruncatedArray {
                offset: seg.start + a.start,
                items: a.items,
                kept: limits.max_array_items.max(1),
            }));
        let mut typed = if self.with_levels {
            levels::read(original, &found)
        } else {
            None
        };
        let mut cuts = cuts_of(&found, typed.as_ref());
        let mut parsed = parse_cut(original, &cuts, within);
        // Cutting the levels out never makes a document parse that would not: should the rest
        // fail, it is parsed whole, so the failure is the parser's on the text as written.
        if typed.is_some() && parsed.is_err() {
            typed = None;
            cuts = cuts_of(&found, None);
            parsed = parse_cut(original, &cuts, within);
        }
        match parsed {
            Ok((mut value, tokens)) => {
                let tokens_read = tokens.len();
                out.nonstandard
                    .extend(tokens.into_iter().map(|(off, token)| Nonstandard {
                        offset: seg.start + off,
                        token,
                    }));
                let mut samples = std::mem::take(&mut found.samples);
                for s in &mut samples {
                    s.start += seg.start;
                    s.end += seg.start;
                }
                let levels = typed.and_then(|mut t| {
                    // One `null` per level: the schema's count of levels is checked on them.
                    let slot = value.get_mut("levels")?;
                    *slot = Value::Array(vec![Value::Null; t.levels.len()]);
                    t.start += seg.start;
                    t.end += seg.start;
                    Some(t)
                });
                let apart = within.map(|within| ApartItems {
                    within,
                    len: seg.end - seg.start,
                    cuts,
                    tolerant: tokens_read > 0,
                });
                out.documents.push(Document {
                    value,
                    start: seg.start,
                    index,
                    samples,
                    levels,
                    apart,
                });
            }
            Err((off, message)) => self.fail(
                out,
                ParseFailure {
                    offset: seg.start + off,
                    message,
                    index,
                },
                limits,
            ),
        }
        true
    }
}

/// Two or more lines, the first of which is a complete JSON value on its own.
fn looks_like_json_lines(text: &str) -> bool {
    let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty());
    let Some(first) = lines.next() else {
        return false;
    };
    lines.next().is_some() && parse_one(first).is_ok()
}

#[cfg(test)]
#[path = "tolerant_tests.rs"]
mod tests;
