//! One pass over a document's bytes before it is parsed: the resource bounds and the things a
//! parser silently accepts.
//!
//! - Nesting deeper than [`Limits::max_depth`] is reported and the document is never handed to
//!   `serde_json` (whose own limit is 128 levels).
//! - An array with more than [`Limits::max_array_items`] items is cut: the items past the
//!   bound are removed from the text before parsing, so memory follows the bound, not the file.
//! - A key repeated in one object (`serde_json` keeps the last value; other parsers keep the
//!   first) and an integer beyond 64 bits (read as the nearest double, its last digits lost)
//!   are recorded so the loader can report them.
//!
//! - With a schema to look for ([`scan_capturing`]), the per-request sample arrays of a
//!   document of that schema are read into numbers as they are met ([`super::samples`]) and
//!   stepped over.
//!
//! Like the segment splitter, the scan tracks only strings, brackets and commas, never
//! recurses, and tolerates bare `NaN` and anything else a broken document holds: it is total
//! on every input and linear in its size.

mod limits;

use foldhash::HashSet;
use std::borrow::Cow;

use super::samples::{SAMPLE_METRICS, SampleArray, read_numbers};
use super::strings::skip_string;

pub use limits::{
    CONTAINER_FLOOR, DEFAULT_MAX_ARRAY_ITEMS, DEFAULT_MAX_DEPTH, Limits, PARSER_MAX_DEPTH,
    container_budget,
};

/// An array longer than the bound.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LongArray {
    /// Byte offset of its `[`.
    pub start: usize,
    /// How many items it holds (counted to its end, or to the end of the text).
    pub items: usize,
    /// Byte offset of the comma before the first item dropped.
    pub cut: usize,
    /// Byte offset of its `]` (the end of the text if it never closes).
    pub close: usize,
}

/// What the scan found.
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Scan {
    /// Offset of the bracket that went deeper than the bound, if one did (the scan stops there).
    pub too_deep: Option<usize>,
    /// Repeated keys: offset of the repeated key's opening quote, and the key.
    pub duplicate_keys: Vec<(usize, String)>,
    /// Offsets of integers beyond the 64-bit range.
    pub wide_integers: Vec<usize>,
    /// Arrays over the bound, in the order of their cuts, none inside another's dropped part.
    pub long_arrays: Vec<LongArray>,
    /// Sample arrays read into numbers ([`scan_capturing`] only), in the order of the text.
    pub samples: Vec<SampleArray>,
    /// Arrays and objects opened (sample arrays read into numbers aside): what the tree built
    /// from the document will allocate, counted before it is built (see
    /// [`container_budget`]).
    pub containers: usize,
    /// One past the bracket that closes the first container ([`scan_document`] only; `None`
    /// when it never closes or the scan stopped at the depth bound).
    pub end: Option<usize>,
    /// The root's `levels` array, from its `[` to one past its `]` ([`scan_capturing`] only,
    /// under the same conditions as [`Scan::samples`]; `None` when it never closes).
    pub levels: Option<(usize, usize)>,
    /// The root's `schema` string, from its opening quote to one past its closing one (the last
    /// one written; [`scan_capturing`] only): what the document says it is, known before it is
    /// parsed.
    pub root_schema: Option<(usize, usize)>,
}

/// Keys of one object, linear for small objects and hashed for large ones (so an object with
/// a million keys stays linear).
#[derive(Default)]
struct KeySet<'a> {
    small: Vec<Cow<'a, str>>,
    large: HashSet<Cow<'a, str>>,
}

impl<'a> KeySet<'a> {
    const SMALL: usize = 16;

    fn clear(&mut self) {
        self.small.clear();
        self.large.clear();
    }

    /// Adds `key`; `false` when it was already there.
    fn insert(&mut self, key: Cow<'a, str>) -> bool {
        if self.large.is_empty() {
            if self.small.contains(&key) {
                return false;
            }
            if self.small.len() < Self::SMALL {
                self.small.push(key);
                return true;
            }
            self.large.extend(self.small.drain(..));
        }
        self.large.insert(key)
    }
}

/// Where a container sits on the path to the per-request samples of a canonical result:
/// `{"schema": .., "levels": [{"samples": {"<metric>": [..]}}]}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Role {
    Other,
    Root,
    /// The root's `schema` value (a role only as `Frame::next`).
    Schema,
    Levels,
    Level,
    Samples,
    /// Index in [`SAMPLE_METRICS`].
    Metric(usize),
}

struct Frame<'a> {
    array: bool,
    role: Role,
    /// Objects: the role of the value of the key just read.
    next: Role,
    /// Index of the level this container is in (for a level and what is inside it).
    level: usize,
    start: usize,
    /// Commas seen at this level.
    commas: usize,
    /// Whether an item has started (an empty container has none).
    any: bool,
    /// Objects: the next string is a key.
    expect_key: bool,
    keys: KeySet<'a>,
    /// Arrays: where the items past the bound begin, once known.
    cut: Option<usize>,
}

/// Scans `piece`, one document.
pub fn scan(piece: &str, limits: &Limits) -> Scan {
    scan_with(piece, limits, None, false)
}

/// [`scan`], reading the per-request sample arrays into [`Scan::samples`] when the document's
/// root `schema` is `schema` (written without escapes) and no key in it is written twice; the
/// other findings of the scan are the same as [`scan`]'s.
pub fn scan_capturing(piece: &str, limits: &Limits, schema: &str) -> Scan {
    scan_with(piece, limits, Some(schema), false)
}

/// Scans the document that opens `rest` with a bracket up to the bracket that closes it
/// ([`Scan::end`]): finding where a document ends is then part of the same pass.
pub fn scan_document(rest: &str, limits: &Limits, capture: Option<&str>) -> Scan {
    scan_with(rest, limits, capture, true)
}

fn scan_with(piece: &str, limits: &Limits, capture: Option<&str>, stop: bool) -> Scan {
    let bytes = piece.as_bytes();
    let max_items = limits.max_array_items.max(1);
    let mut out = Scan::default();
    // Frames are reused as the depth goes up and down: no allocation per object.
    let mut frames: Vec<Frame<'_>> = Vec::new();
    let mut depth = 0usize;
    // Depth of the outermost array whose items are being dropped: nothing inside is recorded.
    let mut dropping: Option<usize> = None;
    // Whether the root's `schema` is the one to capture for (the last one written).
    let mut wanted = false;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        match b {
            b'{' | b'[' => {
                let (role, level) = match depth.checked_sub(1).map(|d| &mut frames[d]) {
                    Some(f) => {
                        f.any = true;
                        (child_role(f, b), if f.array { f.commas } else { f.level })
                    }
                    None if capture.is_some() && b == b'{' => (Role::Root, 0),
                    None => (Role::Other, 0),
                };
                depth += 1;
                if depth > limits.max_depth {
                    out.too_deep = Some(i);
                    return out;
                }
                if dropping.is_none() {
                    out.containers += 1;
                }
                let frame = Frame {
                    array: b == b'[',
                    role,
                    next: Role::Other,
                    level,
                    start: i,
                    commas: 0,
                    any: false,
                    expect_key: b == b'{',
                    keys: KeySet::default(),
                    cut: None,
                };
                if frames.len() < depth {
                    frames.push(frame);
                } else {
                    let slot = &mut frames[depth - 1];
                    let keys = std::mem::take(&mut slot.keys);
                    *slot = Frame { keys, ..frame };
                    slot.keys.clear();
                }
                // A sample array of numbers is read here and stepped over: nothing in it is
                // a key, a container or a number the scan reports.
                if let (Role::Metric(m), None) = (role, dropping)
                    && let Some((values, len)) = read_numbers(&piece[i..], max_items)
                {
                    out.samples.push(SampleArray {
                        level,
                        metric: SAMPLE_METRICS[m],
                        values,
                        start: i,
                        end: i + len,
                    });
                    depth -= 1;
                    out.containers -= 1;
                    i += len;
                    continue;
                }
            }
            b'}' | b']' => {
                if depth > 0 {
                    let f = &frames[depth - 1];
                    if f.role == Role::Levels && b == b']' && dropping.is_none() {
                        out.levels = Some((f.start, i + 1));
                    }
                    if let (true, Some(cut)) = (f.array, f.cut) {
                        let items = f.commas + usize::from(f.any);
                        out.long_arrays.push(LongArray {
                            start: f.start,
                            items,
                            cut,
                            close: i,
                        });
                        if dropping == Some(depth) {
                            dropping = None;
                        }
                    }
                    depth -= 1;
                    if stop && depth == 0 {
                        out.end = Some(i + 1);
                        break;
                    }
                }
            }
            b',' => {
                if let Some(f) = depth.checked_sub(1).map(|d| &mut frames[d]) {
                    f.commas += 1;
                    if f.array {
                        if f.commas == max_items && f.cut.is_none() && dropping.is_none() {
                            f.cut = Some(i);
                            dropping = Some(depth);
                        }
                    } else {
                        f.expect_key = true;
                        f.next = Role::Other;
                    }
                }
            }
            b'"' => {
                let end = skip_string(bytes, i);
                let recording = dropping.is_none();
                if let Some(f) = depth.checked_sub(1).map(|d| &mut frames[d]) {
                    f.any = true;
                    if !f.array && f.expect_key {
                        f.expect_key = false;
                        if recording && end > i + 1 && bytes[end - 1] == b'"' {
                            let raw = &piece[i + 1..end - 1];
                            let key = if raw.contains('\\') {
                                serde_json::from_str::<String>(&piece[i..end])
                                    .map_or(Cow::Borrowed(raw), Cow::Owned)
                            } else {
                                Cow::Borrowed(raw)
                            };
                            f.next = key_role(f.role, &key);
                            if !f.keys.insert(key.clone()) {
                                out.duplicate_keys.push((i, key.into_owned()));
                            }
                        }
                    } else if f.next == Role::Schema && recording {
                        wanted = capture.is_some_and(|c| piece.get(i + 1..end - 1) == Some(c));
                        out.root_schema = Some((i, end));
                    }
                }
                i = end;
                continue;
            }
            b'-' | b'0'..=b'9' => {
                let start = i;
                let mut integral = true;
                while i < bytes.len()
                    && matches!(bytes[i], b'-' | b'+' | b'.' | b'e' | b'E' | b'0'..=b'9')
                {
                    integral &= !matches!(bytes[i], b'.' | b'e' | b'E');
                    i += 1;
                }
                if let Some(f) = depth.checked_sub(1).map(|d| &mut frames[d]) {
                    f.any = true;
                }
                let token = &piece[start..i];
                let digits = token.bytes().filter(u8::is_ascii_digit).count();
                if integral
                    && dropping.is_none()
                    && digits >= 19
                    && token.parse::<i64>().is_err()
                    && token.parse::<u64>().is_err()
                {
                    out.wide_integers.push(start);
                }
                continue;
            }
            _ => {
                if !b.is_ascii_whitespace()
                    && let Some(f) = depth.checked_sub(1).map(|d| &mut frames[d])
                {
                    f.any = true;
                }
            }
        }
        i += 1;
    }
    // Containers that never close (a truncated document): an array already over the bound
    // still has its tail dropped, up to the end of the text.
    while depth > 0 {
        let f = &frames[depth - 1];
        if let (true, Some(cut)) = (f.array, f.cut) {
            out.long_arrays.push(LongArray {
                start: f.start,
                items: f.commas + usize::from(f.any),
                cut,
                close: bytes.len(),
            });
        }
        depth -= 1;
    }
    out.long_arrays.sort_by_key(|a| a.cut);
    // Not the schema asked for, or a key written twice (the parser keeps the last value, which
    // may not be the array read): the arrays are left to the parser.
    if !wanted || !out.duplicate_keys.is_empty() {
        out.samples.clear();
        out.levels = None;
    }
    out
}

/// The role of a container opening with `open` inside `parent`.
fn child_role(parent: &Frame<'_>, open: u8) -> Role {
    match (parent.role, parent.next, open) {
        (Role::Levels, _, b'{') => Role::Level,
        (Role::Root, Role::Levels, b'[')
        | (Role::Level, Role::Samples, b'{')
        | (Role::Samples, Role::Metric(_), b'[') => parent.next,
        _ => Role::Other,
    }
}

/// The role of the value of `key` in an object of role `role`.
fn key_role(role: Role, key: &str) -> Role {
    match (role, key) {
        (Role::Root, "levels") => Role::Levels,
        (Role::Root, "schema") => Role::Schema,
        (Role::Level, "samples") => Role::Samples,
        (Role::Samples, _) => SAMPLE_METRICS
            .iter()
            .position(|m| *m == key)
            .map_or(Role::Other, Role::Metric),
        _ => Role::Other,
    }
}

#[cfg(test)]
mod tests;
