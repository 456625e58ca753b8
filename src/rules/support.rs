//! Helpers the rules share: how a level is named in a message, counts as floats for ratios,
//! and what counts as a placeholder rather than a value. They live here, not in the first rule
//! that needed them, so a rule depends on the helper, never on another rule; configuration
//! fingerprints use the placeholder test too.

use crate::model::LevelKey;

/// "at 1 stream", "at 32 streams", "at 10 req/s": how the per-level R rules name a level in a
/// message (the pointer carries its index).
pub(crate) fn at_streams(key: LevelKey) -> String {
    format!("at {key}")
}

/// A token or request count as a float, for ratios.
#[expect(
    clippy::cast_precision_loss,
    reason = "token and request counts are far below 2^52, where u64 to f64 is exact"
)]
pub(crate) fn count_f64(n: u64) -> f64 {
    n as f64
}

const PLACEHOLDERS: [&str; 10] = [
    "",
    "n/a",
    "na",
    "unknown",
    "tbd",
    "todo",
    "?",
    "-",
    "null",
    "undefined",
];

/// Whether `s` is a placeholder rather than a value.
pub fn is_placeholder(s: &str) -> bool {
    let t = s.trim();
    PLACEHOLDERS.iter().any(|p| t.eq_ignore_ascii_case(p))
}
