//! The one byte-level step every hand-written JSON walk shares: skipping a string. It sits
//! apart from the document splitter and the pre-scan so that each uses it without the other.

/// Index one past the string that opens at `i` (or the end of the text if it never closes).
pub(super) fn skip_string(bytes: &[u8], mut i: usize) -> usize {
    i += 1;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b'"' => return i + 1,
            _ => i += 1,
        }
    }
    bytes.len()
}
