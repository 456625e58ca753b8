//! The masked text of a file for its snippets, held as the pieces the snippets read: the whole
//! text for most files, and for a JSON Lines file (which the loader never holds whole) only
//! the runs of lines around its findings, read a line at a time and masked piece by piece.
//!
//! Masking a piece alone gives the bytes the snippets show exactly as masking the whole text
//! does, because a piece starts and ends where nothing before it changes how what follows
//! reads:
//! - the masking walk stands where it started (no string, object or array open:
//!   [`WalkRest`]), so the keys and flags it reads the piece's strings by are the piece's own;
//! - the free-text search, as written and as decoded, awaits no value and its last word
//!   reaches nothing past itself ([`crate::secrets::FreeTextRest`]);
//! - no M018 value runs over the piece's edge;
//! - it holds every byte a snippet reads ([`REACH`] either side of each label) and, past the
//!   last of them, a line holding a word, the look ahead of the free-text search.
//!
//! A file whose text is not JSON, or whose pieces never close (a string left open near its
//! start runs to its end), is masked as one piece: memory is then what reading it whole costs,
//! as it always was.

use crate::diagnostic::Position;
use crate::secrets::mask::WalkRest;

use super::snippet::REACH;

/// A file's masked text, or the pieces of it the snippets read, each with its first byte's
/// offset in the file, in file order.
#[derive(Debug)]
pub struct Masked {
    pieces: Vec<(usize, String)>,
}

impl Masked {
    /// The whole text, masked.
    pub(super) fn whole(text: String) -> Self {
        Masked {
            pieces: vec![(0, text)],
        }
    }

    /// The piece holding byte `at` of the file, and its offset: the last piece starting at
    /// or before it (every label drawn lies in one; a label past the text's end, in the last).
    pub fn piece_at(&self, at: usize) -> Option<(usize, &str)> {
        let k = self.pieces.partition_point(|&(start, _)| start <= at);
        let (start, text) = self.pieces.get(k.checked_sub(1)?)?;
        Some((*start, text.as_str()))
    }

    /// How many bytes of text are held.
    #[cfg(test)]
    pub(super) fn held(&self) -> usize {
        self.pieces.iter().map(|(_, t)| t.len()).sum()
    }
}

/// How a piece is masked once it is read and its M018 values overwritten.
pub(super) trait MaskPiece {
    /// Masks `text`, the piece of the file starting at byte `start`.
    fn mask(&self, start: usize, text: &mut String);
}

/// The pieces of the JSON Lines file `lines` around the labels at `drawn` (offsets in the
/// file, sorted), each masked by `masker`, with `spans` the M018 values (sorted);
/// `None` when the file cannot be read again or its text is not JSON (the caller reads it
/// whole then, as for any other file).
pub(super) fn line_pieces(
    lines: &mut crate::io::LineFile,
    drawn: &[usize],
    spans: &[(usize, usize)],
    masker: &dyn MaskPiece,
) -> Option<Masked> {
    // The bytes each label's snippet may read, with a byte's margin either side.
    let mut wanted: Vec<(usize, usize)> = Vec::new();
    for &at in drawn {
        let (from, to) = (at.saturating_sub(REACH + 1), at + REACH + 2);
        match wanted.last_mut() {
            Some(last) if from <= last.1 => last.1 = last.1.max(to),
            _ => wanted.push((from, to)),
        }
    }
    // The M018 values as bytes covered, overlaps merged: looked up in file order.
    let mut covered: Vec<(usize, usize)> = Vec::new();
    for &(from, to) in spans {
        match covered.last_mut() {
            Some(last) if from <= last.1 => last.1 = last.1.max(to),
            _ => covered.push((from, to)),
        }
    }
    // The same values by where they end: each is overwritten once the line it ends on is
    // read, before the walks read it, as the whole text is overwritten before it is walked.
    let mut by_end = spans.to_vec();
    by_end.sort_unstable_by_key(|&(from, to)| (to, from));
    let mut next_fill = 0;
    // How much of the text the walks have read.
    let mut fed = 0;
    let mut pieces = Vec::new();
    // The text since the last place a piece may start, and where it starts in the file.
    let mut held = String::new();
    let mut held_start = 0;
    let mut end = 0;
    let mut walk = WalkRest::default();
    let mut free_text = crate::secrets::FreeTextRest::default();
    // Whether the first line holding anything was read (and was JSON).
    let mut first_read = false;
    let (mut next_wanted, mut next_span) = (0, 0);
    // Whether `held` holds lines a snippet reads, and whether a line holding a word has come
    // after the last of them.
    let (mut open, mut word_after) = (false, false);
    loop {
        let line_at = held.len();
        let got = lines.append_line(&mut held).ok()?;
        if got == 0 {
            break;
        }
        let line_start = end;
        end += got;
        if !first_read && !held[line_at..].trim_start().is_empty() {
            // As `positions::is_json_text` reads the whole text: by its first line that holds
            // anything.
            if !crate::positions::is_json_text(&held[..]) {
                return None;
            }
            first_read = true;
        }
        while wanted
            .get(next_wanted)
            .is_some_and(|&(_, to)| to <= line_start)
        {
            next_wanted += 1;
        }
        let touched = wanted.get(next_wanted).is_some_and(|&(from, _)| from < end);
        // The line feed ending the line, at `end - 1`, inside an M018 value?
        while covered.get(next_span).is_some_and(|&(_, to)| to < end) {
            next_span += 1;
        }
        let in_a_span = covered.get(next_span).is_some_and(|&(from, _)| from < end);
        if !in_a_span {
            // Every value ending so far overwritten (none of them starts before `held`: no
            // piece ends inside one), then the walks read what they have not.
            let filled = next_fill;
            while by_end.get(next_fill).is_some_and(|&(_, to)| to <= end) {
                next_fill += 1;
            }
            let local: Vec<(usize, usize)> = by_end[filled..next_fill]
                .iter()
                .filter(|&&(from, _)| from >= held_start)
                .map(|&(from, to)| (from - held_start, to - held_start))
                .collect();
            fill_spans(&mut held, &local);
            let unread = &held[fed - held_start..];
            walk.feed(unread.as_bytes());
            free_text.feed(unread);
            fed = end;
        }
        let may_cut = !in_a_span && held.ends_with('\n') && walk.at_rest() && free_text.at_rest();
        if touched {
            open = true;
            word_after = false;
        } else if open && crate::secrets::free_text_holds_word(&held[line_at..]) {
            word_after = true;
        }
        if open && !touched && word_after && may_cut {
            let mut text = std::mem::take(&mut held);
            masker.mask(held_start, &mut text);
            pieces.push((held_start, text));
            open = false;
        } else if !open && may_cut {
            held.clear();
        } else {
            continue;
        }
        held_start = end;
    }
    if open {
        let local: Vec<(usize, usize)> = by_end[next_fill..]
            .iter()
            .filter(|&&(from, to)| from >= held_start && to <= end)
            .map(|&(from, to)| (from - held_start, to - held_start))
            .collect();
        fill_spans(&mut held, &local);
        masker.mask(held_start, &mut held);
        pieces.push((held_start, held));
    }
    Some(Masked { pieces })
}

/// The starts of `drawn`, sorted.
pub(super) fn label_starts(drawn: &[Position]) -> Vec<usize> {
    let mut starts: Vec<usize> = drawn.iter().map(|p| p.start).collect();
    starts.sort_unstable();
    starts
}

/// Overwrites `spans` of `text` with asterisks, byte for byte (an M018 value).
pub(super) fn fill_spans(text: &mut String, spans: &[(usize, usize)]) {
    if spans.is_empty() {
        return;
    }
    let mut bytes = std::mem::take(text).into_bytes();
    for &(start, end) in spans {
        // The quotes around a string stay, and everything between them (an escaped quote too,
        // so the string still ends where it did) becomes `*`, byte for byte.
        let quoted = bytes[start] == b'"' && bytes[end - 1] == b'"' && end >= start + 2;
        let (from, to) = if quoted {
            (start + 1, end - 1)
        } else {
            (start, end)
        };
        bytes[from..to].fill(b'*');
    }
    *text = String::from_utf8(bytes)
        .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
}
