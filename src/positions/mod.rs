//! Where findings sit in their file's text: each location's JSON pointer (or, in a YAML report
//! or a loadgen log, its key) resolved to a byte span, a line and a column. Used by the loader,
//! which places a file's findings while its text is in memory (or, for a JSON Lines file never
//! held whole, reading it once more a line at a time), and by the reporters, which place the
//! few left (corpus-wide findings, those pointing into a second file).

mod lines;
mod places;

pub use lines::{place_in_lines, resolve_by_line};
pub use places::{is_json_text, places_in_text, value_span};

use crate::diagnostic::{Finding, Location, Placed, Position};
use crate::json::Locator;

/// Resolves the locations of `findings` that point into `path`, whose text is `text`. A
/// finding whose locations all lie in this file is marked placed; the others are left for
/// [`prepare`], which reads their files.
pub fn place_in_text(path: &str, text: &str, findings: &mut [Finding]) {
    let mine = |f: &Finding| to_place_in(path, f);
    let wanted: Vec<&Location> = findings
        .iter()
        .filter(|f| mine(f))
        .flat_map(|f| std::iter::once(&f.primary).chain(&f.related))
        .collect();
    if wanted.is_empty() {
        return;
    }
    let mut positions = resolve_all(text, &wanted).into_iter();
    for f in findings.iter_mut().filter(|f| mine(f)) {
        let primary = positions.next();
        let related = f.related.iter().map(|_| positions.next()).collect();
        f.placed = Some(Placed { primary, related });
    }
}

/// Whether `f` is still to be placed and every location of it lies in the file `path`: the
/// findings the loader places in a file while it reads it.
pub fn to_place_in(path: &str, f: &Finding) -> bool {
    f.placed.is_none() && f.primary.path == path && f.related.iter().all(|r| r.path == path)
}

/// Positions of `locations` in `text`, in order. Spans are found first; lines are then counted
/// in one forward pass up to the last span, since a pretty-printed file with per-request
/// samples has a line per number and an index of every line would cost more than the search.
pub fn resolve_all(text: &str, locations: &[&Location]) -> Vec<Position> {
    resolve_all_with(text, locations, &mut Locator::default())
}

/// [`resolve_all`] with `locator`, which may have learnt `text`'s containers from an earlier
/// call (never another text's): a file placed a batch of findings at a time is indexed once.
pub fn resolve_all_with(
    text: &str,
    locations: &[&Location],
    locator: &mut Locator,
) -> Vec<Position> {
    // A YAML report or a loadgen log: its values are placed by the reader of its format.
    let unplaced: Vec<&Location> = locations
        .iter()
        .copied()
        .filter(|l| l.offset.is_none())
        .collect();
    let mut text_places = places::places_in_text(text, &unplaced)
        .map(Vec::into_iter)
        .into_iter()
        .flatten();
    let spans: Vec<(usize, usize)> = locations
        .iter()
        .map(|l| {
            let placed = if l.offset.is_none() {
                text_places.next().flatten()
            } else {
                None
            };
            match placed {
                Some(offset) => {
                    let at = Location {
                        offset: Some(offset),
                        ..(*l).clone()
                    };
                    span_in(text, locator, &at)
                }
                None => span_in(text, locator, l),
            }
        })
        .collect();
    let mut starts: Vec<usize> = spans.iter().map(|s| s.0).collect();
    starts.sort_unstable();
    starts.dedup();
    // One forward pass: line and column of every start, counted from the one before (so many
    // findings on one long line cost one pass over it, not one each).
    let bytes = text.as_bytes();
    let mut places: Vec<(usize, usize)> = Vec::with_capacity(starts.len());
    let (mut at, mut line, mut column) = (0usize, 1usize, 1usize);
    for &start in &starts {
        let gap = &bytes[at..start];
        // The compiler vectorises this count; no crate is needed for one loop.
        #[expect(
            clippy::naive_bytecount,
            reason = "one vectorised loop, not worth a crate"
        )]
        let newlines = gap.iter().filter(|&&b| b == b'\n').count();
        if newlines > 0 {
            line += newlines;
            let line_start = at + gap.iter().rposition(|&b| b == b'\n').expect("counted") + 1;
            column = text.get(line_start..start).map_or(0, |t| t.chars().count()) + 1;
        } else {
            column += text.get(at..start).map_or(0, |t| t.chars().count());
        }
        at = start;
        places.push((line, column));
    }
    spans
        .into_iter()
        .map(|(start, end)| {
            let (line, column) = places[starts
                .binary_search(&start)
                .expect("every start was counted")];
            Position {
                line,
                column,
                start,
                len: end - start,
                chars: text[start..end].chars().count(),
            }
        })
        .collect()
}

/// The byte span a location labels: whole characters, one line at most.
fn span_in(text: &str, locator: &mut Locator, l: &Location) -> (usize, usize) {
    let yaml = std::path::Path::new(l.path.raw())
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("yaml") || e.eq_ignore_ascii_case("yml"));
    let (start, end) = match l.offset {
        Some(o) => {
            let o = o.min(text.len());
            (o, (o + 1).min(text.len()))
        }
        // A value read from a YAML file (a run's config.yaml) is placed at its key.
        None if yaml && l.doc_start == 0 => {
            match crate::yaml::locate(text, &[(0, l.pointer.raw())])[0] {
                Some(o) => (o, (o + 1).min(text.len())),
                None => (0, 0),
            }
        }
        None => match locator.locate_first_line(text, l.doc_start, l.pointer.raw()) {
            // An absent field is labelled on the opening of the object that should hold it.
            Some(s) if !s.exact => (s.start, (s.start + 1).min(text.len())),
            Some(s) => (s.start, s.end),
            None => (l.doc_start.min(text.len()), l.doc_start.min(text.len())),
        },
    };
    // An offset can fall inside a multi-byte character (a parser's byte column): widen the
    // span to whole characters before slicing.
    let mut start = start.min(text.len());
    while !text.is_char_boundary(start) {
        start -= 1;
    }
    let mut end = end.clamp(start, text.len());
    while !text.is_char_boundary(end) {
        end += 1;
    }
    let end = text[start..end].find('\n').map_or(end, |i| start + i);
    (start, end.max(start))
}
