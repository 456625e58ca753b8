//! Findings placed in a JSON Lines file read a line at a time: each location lies in one line
//! (its document, or the byte a parser stopped at), so it is resolved in that line alone and
//! moved to the file's lines and bytes, and the file is never held whole to place them.

use crate::diagnostic::{Finding, Location, Placed, Position};
use crate::json::LineSource;

use super::resolve_all;

/// [`super::place_in_text`] for the JSON Lines file `path` whose lines `lines` gives: the same
/// positions, with only the lines that hold a location kept, one at a time. `lists` are placed
/// in one pass over the file. A line that cannot be read leaves what it would have placed
/// unplaced, for the report to place or say it could not.
pub fn place_in_lines(
    path: &str,
    lines: &mut impl LineSource,
    lists: &mut [&mut [Finding]],
) -> Result<(), String> {
    let mine = |f: &Finding| super::to_place_in(path, f);
    let wanted: Vec<&Location> = lists
        .iter()
        .flat_map(|l| l.iter())
        .filter(|f| mine(f))
        .flat_map(|f| std::iter::once(&f.primary).chain(&f.related))
        .collect();
    if wanted.is_empty() {
        return Ok(());
    }
    let positions = resolve_by_line(lines, &wanted)?;
    let mut positions = positions.into_iter();
    for list in lists.iter_mut() {
        for f in list.iter_mut().filter(|f| mine(f)) {
            let primary = positions.next().flatten();
            let related = f
                .related
                .iter()
                .map(|_| positions.next().flatten())
                .collect();
            f.placed = Some(Placed { primary, related });
        }
    }
    Ok(())
}

/// Where a location is looked for: the byte that overrides its pointer, or its document.
fn anchor(l: &Location) -> usize {
    l.offset.unwrap_or(l.doc_start)
}

/// The positions of `wanted` in the text of `lines`, in order, as [`resolve_all`] gives them in
/// the whole text, each line read once and dropped.
pub fn resolve_by_line(
    lines: &mut impl LineSource,
    wanted: &[&Location],
) -> Result<Vec<Option<Position>>, String> {
    let mut order: Vec<usize> = (0..wanted.len()).collect();
    order.sort_by_key(|&i| anchor(wanted[i]));
    let mut positions: Vec<Option<Position>> = vec![None; wanted.len()];
    let mut line = String::new();
    // Where the line read starts, and how many lines come before it.
    let (mut start, mut before) = (0usize, 0usize);
    let mut next = 0;
    // Pointers whose document start fell on white space only: the whole-text read looks for
    // their value past it, in the next line that holds something.
    let mut carried: Vec<Carried> = Vec::new();
    while next < order.len() || !carried.is_empty() {
        if !lines.read_line(&mut line)? {
            break;
        }
        let end = start + line.len();
        // The last line, when it has no end of line, also holds the end of the text.
        let ended = line.ends_with('\n');
        let mut here: Vec<(usize, usize)> = Vec::new();
        if !line.trim().is_empty() {
            let lead = line.len() - line.trim_start().len();
            here.extend(carried.drain(..).map(|c| (c.index, start + lead)));
        }
        while next < order.len() {
            let i = order[next];
            let a = anchor(wanted[i]);
            if !(a < end || (!ended && a == end)) {
                break;
            }
            next += 1;
            let blank = wanted[i].offset.is_none()
                && line
                    .get(a - start..)
                    .is_some_and(|rest| rest.trim().is_empty());
            if blank {
                let before_anchor = line.get(..a - start).unwrap_or("");
                carried.push(Carried {
                    index: i,
                    at: Position {
                        line: before + 1,
                        column: before_anchor.chars().count() + 1,
                        start: a,
                        len: 0,
                        chars: 0,
                    },
                });
            } else {
                here.push((i, wanted[i].doc_start));
            }
        }
        place_in_line(&line, (start, before), (&here, wanted), &mut positions);
        start = end;
        before += 1;
    }
    // Past the last end of line: the empty line that ends the text.
    let rest: Vec<(usize, usize)> = order[next..]
        .iter()
        .map(|&i| (i, wanted[i].doc_start))
        .collect();
    place_in_line("", (start, before), (&rest, wanted), &mut positions);
    // A pointer with nothing after it: placed, empty, where its document was said to start.
    for c in carried {
        positions[c.index] = Some(c.at);
    }
    Ok(positions)
}

/// A pointer location carried past white space to the next line that holds something, with
/// where it is placed should none.
struct Carried {
    index: usize,
    at: Position,
}

/// Resolves the locations `here` picks of `wanted` (each with the document start it is looked
/// for from) in `line`, which starts at byte `start` after `before` lines, into `positions`.
fn place_in_line(
    line: &str,
    (start, before): (usize, usize),
    (here, wanted): (&[(usize, usize)], &[&Location]),
    positions: &mut [Option<Position>],
) {
    if here.is_empty() {
        return;
    }
    let moved: Vec<Location> = here
        .iter()
        .map(|&(i, doc_start)| {
            let l = wanted[i];
            Location {
                path: l.path.clone(),
                doc_start: doc_start.saturating_sub(start),
                pointer: l.pointer.clone(),
                offset: l.offset.map(|o| o - start),
            }
        })
        .collect();
    let refs: Vec<&Location> = moved.iter().collect();
    for (&(i, _), p) in here.iter().zip(resolve_all(line, &refs)) {
        positions[i] = Some(Position {
            line: p.line + before,
            start: p.start + start,
            ..p
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::{RuleMeta, Scope, Severity};
    use crate::json::TextLines;

    static RULE: RuleMeta = RuleMeta {
        code: "X001",
        name: "placed",
        severity: Severity::Warning,
        scope: Scope::Input,
        since: None,
        source: "",
        summary: "",
        doc: "",
    };

    /// Lines of every shape a JSON Lines file holds, multi-byte characters among them.
    const LINES: [&str; 9] = [
        "{\"a\": 1, \"b\": {\"c\": [1, 2, 3]}}",
        "  {\"a\": \"\u{e9}t\u{e9}\", \"levels\": [{\"x\": 1}, {\"x\": 2}]}",
        "{broken",
        "",
        "   ",
        "[1, 2, {\"a\": null}]",
        "\"\u{1F600}\"",
        "{\"a\": NaN, \"a\": 2}",
        "42",
    ];

    const POINTERS: [&str; 7] = ["", "/a", "/b/c/1", "/levels/1/x", "/missing", "/2/a", "/b"];

    fn location(path: &str, doc_start: usize, pointer: &str, offset: Option<usize>) -> Location {
        Location {
            path: path.into(),
            doc_start,
            pointer: pointer.into(),
            offset,
        }
    }

    /// Over drawn texts and locations (each line's document with drawn pointers, offsets on
    /// every byte including inside characters and at the text's end, related places): placing a
    /// line at a time gives exactly the positions of placing in the whole text.
    #[test]
    fn placing_by_line_is_placing_in_the_whole_text() {
        let mut state = 0x91ace_u64;
        let path = "runs.jsonl";
        for case in 0..300 {
            let mut text = String::new();
            let mut starts = Vec::new();
            for _ in 0..crate::seeded::below(&mut state, 12) {
                let line = LINES[crate::seeded::below(&mut state, LINES.len())];
                // Every line's first byte past its white space: a document's start, or (on a
                // blank line) a place a pointer is looked for past.
                let lead = line.len() - line.trim_start().len();
                starts.push(text.len() + lead);
                text.push_str(line);
                text.push_str(if crate::seeded::below(&mut state, 4) == 0 {
                    "\r\n"
                } else {
                    "\n"
                });
            }
            if crate::seeded::below(&mut state, 2) == 0 {
                text.pop();
            }
            let mut findings = Vec::new();
            for _ in 0..crate::seeded::below(&mut state, 10) {
                let pick = |state: &mut u64| -> Location {
                    if !starts.is_empty() && crate::seeded::below(state, 2) == 0 {
                        let start = starts[crate::seeded::below(state, starts.len())];
                        let pointer = POINTERS[crate::seeded::below(state, POINTERS.len())];
                        location(path, start, pointer, None)
                    } else {
                        let at = crate::seeded::below(state, text.len() + 1);
                        location(path, 0, "", Some(at))
                    }
                };
                let mut f = crate::model::translate::finding_at(&RULE, pick(&mut state), "m", None);
                for _ in 0..crate::seeded::below(&mut state, 3) {
                    f.related.push(pick(&mut state));
                }
                findings.push(f);
            }
            // A finding with a place in another file is left for the report, either way.
            let mut elsewhere = crate::model::translate::finding_at(
                &RULE,
                location(path, 0, "", Some(0)),
                "m",
                None,
            );
            elsewhere
                .related
                .push(location("other.json", 0, "/a", None));
            findings.push(elsewhere);
            let wanted: Vec<(usize, String, Option<usize>)> = findings
                .iter()
                .flat_map(|f| std::iter::once(&f.primary).chain(&f.related))
                .map(|l| (l.doc_start, l.pointer.raw().to_string(), l.offset))
                .collect();
            let mut whole = findings.clone();
            super::super::place_in_text(path, &text, &mut whole);
            let mut by_line = findings;
            place_in_lines(path, &mut TextLines(&text), &mut [&mut by_line]).unwrap();
            let placed = |fs: &[Finding]| -> Vec<Option<Placed>> {
                fs.iter().map(|f| f.placed.clone()).collect()
            };
            assert_eq!(
                placed(&by_line),
                placed(&whole),
                "case {case}: {text:?} {wanted:?}"
            );
            assert!(by_line.last().is_some_and(|f| f.placed.is_none()));
        }
    }
}
