//! Preparing findings for rendering: resolving every pointer to a byte span, line and column
//! (in the worker that checked the file while its text is in memory, or here by reading the
//! few files corpus-wide findings point into), and loading a file's text, secrets masked, for
//! the formats that show snippets.

use std::collections::BTreeMap;

use rayon::prelude::*;

pub use crate::diagnostic::Position;
use crate::diagnostic::{Finding, Location, Placed};
use crate::engine::Summary;
use crate::json::Locator;

/// Findings with everything a reporter needs.
#[derive(Debug)]
pub struct Prepared {
    /// Findings, sorted.
    pub findings: Vec<Finding>,
    /// Position of each finding's primary location (None when the file could not be read).
    pub positions: Vec<Option<Position>>,
    /// Position of each related location, per finding.
    pub related_positions: Vec<Vec<Option<Position>>>,
    /// Counts.
    pub summary: Summary,
    /// Whether to use colour (human format only).
    pub color: bool,
    /// Largest file read again for a snippet.
    pub max_file_bytes: u64,
    /// How each file was read, for the overview and `--show-files` (empty unless the caller
    /// sets it).
    pub files: Vec<crate::corpus::FileRead>,
}

impl Prepared {
    /// The text of `path` with every secret masked (the values `in_file`'s M018 findings point
    /// at, and anything else that looks like one), for a snippet. Read on demand, one file at a
    /// time, so memory does not hold every file with findings at once.
    pub fn masked_source(
        &self,
        path: &str,
        in_file: &[Finding],
        positions: &[Option<Position>],
    ) -> Option<String> {
        let (mut text, _) =
            crate::corpus::read_text(std::path::Path::new(path), self.max_file_bytes).ok()?;
        mask_secrets(in_file.iter().zip(positions), &mut text);
        // Then every other secret a snippet could show (a repeated key, a cut array, broken
        // text), and every character that could act on a terminal or hide text.
        super::mask::mask_all(&mut text);
        crate::text::stand_in(&mut text);
        Some(text)
    }
}

/// Resolves the locations of `findings` that point into `path`, whose text is `text`. A
/// finding whose locations all lie in this file is marked placed; the others are left for
/// [`prepare`], which reads their files.
pub fn place_in_text(path: &str, text: &str, findings: &mut [Finding]) {
    let mine = |f: &Finding| {
        f.placed.is_none() && f.primary.path == path && f.related.iter().all(|r| r.path == path)
    };
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

/// Positions of `locations` in `text`, in order. Spans are found first; lines are then counted
/// in one forward pass up to the last span, since a pretty-printed file with per-request
/// samples has a line per number and an index of every line would cost more than the search.
fn resolve_all(text: &str, locations: &[&Location]) -> Vec<Position> {
    let mut locator = Locator::default();
    // A YAML report or a loadgen log: its values are placed by the reader of its format.
    let unplaced: Vec<&Location> = locations
        .iter()
        .copied()
        .filter(|l| l.offset.is_none())
        .collect();
    let mut text_places = crate::corpus::places_in_text(text, &unplaced)
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
                    span_in(text, &mut locator, &at)
                }
                None => span_in(text, &mut locator, l),
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

/// Resolves what is not resolved yet and orders findings for reading.
pub fn prepare(
    mut findings: Vec<Finding>,
    summary: Summary,
    max_file_bytes: u64,
    color: bool,
) -> Prepared {
    // Messages, labels and help texts keep the origin of what they quote: each writer masks
    // and escapes it for its format (crate::text).
    place_the_rest(&mut findings, max_file_bytes);
    let positions: Vec<Option<Position>> = findings
        .iter()
        .map(|f| f.placed.as_ref().and_then(|p| p.primary))
        .collect();
    // Within a file, findings read top to bottom: by position, then in their engine order
    // (pointer, code, message), which keeps the order total and deterministic.
    let mut order: Vec<usize> = (0..findings.len()).collect();
    order.sort_by(|&a, &b| {
        let key = |i: usize| positions[i].map(|p| p.start);
        findings[a]
            .primary
            .path
            .cmp(&findings[b].primary.path)
            .then(key(a).cmp(&key(b)))
            .then(a.cmp(&b))
    });
    let mut slots: Vec<Option<Finding>> = findings.into_iter().map(Some).collect();
    let findings: Vec<Finding> = order
        .iter()
        .map(|&i| slots[i].take().expect("each index once"))
        .collect();
    let positions = order.iter().map(|&i| positions[i]).collect();
    let related_positions = findings
        .iter()
        .map(|f| {
            f.placed
                .as_ref()
                .map_or_else(|| vec![None; f.related.len()], |p| p.related.clone())
        })
        .collect();
    Prepared {
        findings,
        positions,
        related_positions,
        summary,
        color,
        max_file_bytes,
        files: Vec::new(),
    }
}

/// Places the findings no worker could: corpus-wide ones, and those pointing into a second
/// file (a sidecar). Each file is read once, in parallel, and dropped when its places are known.
fn place_the_rest(findings: &mut [Finding], max_file_bytes: u64) {
    // Which location of which finding: `None` is the primary, `Some(k)` the k-th related one.
    type Wanted<'a> = Vec<(usize, Option<usize>, &'a Location)>;
    let mut by_path: BTreeMap<&str, Wanted<'_>> = BTreeMap::new();
    for (i, f) in findings
        .iter()
        .enumerate()
        .filter(|(_, f)| f.placed.is_none())
    {
        // The corpus is no file: a finding about it has no position.
        if !f.corpus {
            by_path
                .entry(f.primary.path.raw())
                .or_default()
                .push((i, None, &f.primary));
        }
        for (k, r) in f.related.iter().enumerate() {
            by_path
                .entry(r.path.raw())
                .or_default()
                .push((i, Some(k), r));
        }
    }
    let resolved: Vec<(usize, Option<usize>, Position)> = by_path
        .into_par_iter()
        .flat_map_iter(|(path, wanted)| {
            let text = crate::corpus::read_text(std::path::Path::new(path), max_file_bytes)
                .ok()
                .map(|(t, _)| t);
            let Some(text) = text else {
                return Vec::new();
            };
            let locations: Vec<&Location> = wanted.iter().map(|w| w.2).collect();
            wanted
                .iter()
                .zip(resolve_all(&text, &locations))
                .map(|(&(i, k, _), pos)| (i, k, pos))
                .collect()
        })
        .collect();
    for f in findings.iter_mut().filter(|f| f.placed.is_none()) {
        f.placed = Some(Placed {
            primary: None,
            related: vec![None; f.related.len()],
        });
    }
    for (i, k, pos) in resolved {
        if let Some(placed) = findings[i].placed.as_mut() {
            match k {
                None => placed.primary = Some(pos),
                Some(k) => placed.related[k] = Some(pos),
            }
        }
    }
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

/// Overwrites every secret the M018 findings point at with asterisks, byte for byte, so no
/// snippet can show it and no offset moves. Each finding's span was found when the file was
/// checked: no pointer is looked up again. In a YAML report or a log, the finding is placed at
/// its key: the value after it on that line is masked.
fn mask_secrets<'a>(
    findings: impl Iterator<Item = (&'a Finding, &'a Option<Position>)>,
    text: &mut String,
) {
    let mut json = None;
    let mut spans = Vec::new();
    for (f, pos) in findings {
        let Some(pos) = pos.filter(|_| f.rule.code == "M018") else {
            continue;
        };
        let is_json =
            *json.get_or_insert_with(|| crate::corpus::places_in_text(text, &[]).is_none());
        let span = if is_json {
            Some((pos.start, pos.start + pos.len))
        } else if pos.start <= text.len() && text.is_char_boundary(pos.start) {
            crate::corpus::value_span(text, pos.start)
        } else {
            None
        };
        spans.extend(span.filter(|&(start, end)| end <= text.len() && end > start + 1));
    }
    if spans.is_empty() {
        return;
    }
    let mut bytes = std::mem::take(text).into_bytes();
    for (start, end) in spans {
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
