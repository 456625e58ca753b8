//! Ways a drawn JSON text goes wrong as text, shared by the tests that hold one way of reading
//! a document to another: a number written as a bare `NaN`, the text cut short.

use crate::seeded::below;

/// The first number written after one of `after` (`": 1"`, say, tried in order) replaced by a
/// bare `NaN`, as Python's `json.dumps` writes one.
pub(super) fn bare_nan(text: &mut String, after: &[&str]) {
    if let Some(at) = after.iter().find_map(|a| text.find(a)) {
        let colon = at + 1;
        let end = text[colon..]
            .find([',', '}', '\n'])
            .map_or(text.len(), |e| colon + e);
        text.replace_range(colon..end, " NaN");
    }
}

/// `text` cut short at a drawn place (on a character's boundary).
pub(super) fn cut_short(state: &mut u64, text: &mut String) {
    let cut = below(state, text.len().max(1));
    let cut = (0..=cut)
        .rev()
        .find(|&c| text.is_char_boundary(c))
        .unwrap_or(0);
    text.truncate(cut);
}
