//! Text removed before parsing (items past the array bound, sample arrays already read into
//! numbers), and the map from the shortened text back to the original offsets.

use super::scan::LongArray;

/// `piece` with the dropped items of `long` removed, and the map back to `piece`'s offsets.
pub fn cut(piece: &str, long: &[LongArray]) -> (String, Cuts) {
    let ranges: Vec<(usize, usize)> = long.iter().map(|a| (a.cut, a.close)).collect();
    cut_ranges(piece, &ranges)
}

/// `piece` with the byte ranges `ranges` (sorted by start) removed, and the map back to
/// `piece`'s offsets.
pub fn cut_ranges(piece: &str, ranges: &[(usize, usize)]) -> (String, Cuts) {
    let mut text = String::with_capacity(piece.len().min(1 << 20));
    let mut cuts = Cuts::default();
    let mut last = 0;
    for &(from, to) in ranges {
        // Nested long arrays inside a dropped part are never recorded; guard anyway.
        if from < last {
            continue;
        }
        text.push_str(&piece[last..from]);
        cuts.0.push((text.len(), to - from));
        last = to;
    }
    text.push_str(&piece[last..]);
    (text, cuts)
}

/// Where text was removed: (offset in the cut text, bytes removed there).
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Cuts(Vec<(usize, usize)>);

impl Cuts {
    /// The offset in the original text of `offset` in the cut text.
    pub fn to_original(&self, offset: usize) -> usize {
        offset
            + self
                .0
                .iter()
                .take_while(|(at, _)| *at <= offset)
                .map(|(_, n)| n)
                .sum::<usize>()
    }
}
