//! The bounds a document is scanned under: its depth, its arrays' length and the broken
//! documents described per text, with their defaults, and the arrays and objects a whole text
//! may build.

/// The bounds of one document.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Deepest nesting of arrays and objects read; deeper documents are not parsed.
    pub max_depth: usize,
    /// Most items read from one array; the rest are dropped before parsing (at least 1).
    pub max_array_items: usize,
    /// Most broken documents described per text; the rest are only counted
    /// (`ParsedText::failures_omitted`), so a file of a million broken lines holds one counter,
    /// not a million messages.
    pub max_failures: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_depth: DEFAULT_MAX_DEPTH,
            max_array_items: DEFAULT_MAX_ARRAY_ITEMS,
            max_failures: DEFAULT_MAX_FAILURES,
        }
    }
}

/// Default of [`Limits::max_failures`]: as many as a file keeps findings.
pub const DEFAULT_MAX_FAILURES: usize = 1_000;

/// Default of [`Limits::max_depth`]: well below `serde_json`'s 128, far above any real result
/// (a canonical result nests about 6 levels).
pub const DEFAULT_MAX_DEPTH: usize = 64;
/// Default of [`Limits::max_array_items`]: a million per-request samples in one array.
pub const DEFAULT_MAX_ARRAY_ITEMS: usize = 1_000_000;
/// Arrays and objects one text may build however short it is (see [`container_budget`]).
pub const CONTAINER_FLOOR: usize = 250_000;

/// The most arrays and objects the documents of a text of `text_len` bytes may build in all:
/// one per 16 bytes of text, [`CONTAINER_FLOOR`] at least. Each non-empty container is an
/// allocation of 64 to 600 bytes in the tree, written in as little as 2 bytes (`[[[[]]]]`):
/// without this bound a 9 MB JSON Lines file of nested arrays builds 1.4 GB of trees within the
/// depth bound. Real results hold one container per 76 bytes or more (the densest file of the
/// project's fixtures and of a public corpus of 75 result files; objects of a few keys,
/// arrays of numbers).
pub fn container_budget(text_len: usize) -> usize {
    (text_len / 16).max(CONTAINER_FLOOR)
}

/// `serde_json`'s recursion limit: a `max_depth` above it is this in effect.
pub const PARSER_MAX_DEPTH: usize = 128;
