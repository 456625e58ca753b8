//! Preparing findings for rendering: reading the texts they point into (only files with
//! findings), masking secrets, and resolving every pointer to a byte span, line and column.

use std::collections::BTreeMap;

use crate::diagnostic::{Finding, Location};
use crate::engine::Summary;
use crate::json::{Locator, locate};

/// A resolved place.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Position {
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
    /// First byte of the labelled text.
    pub start: usize,
    /// Length of the labelled text in bytes (one line at most).
    pub len: usize,
}

/// Findings with everything a reporter needs.
#[derive(Debug)]
pub struct Prepared {
    /// Findings, sorted.
    pub findings: Vec<Finding>,
    /// Position of each finding's primary location (None when the file could not be read).
    pub positions: Vec<Option<Position>>,
    /// Position of each related location, per finding.
    pub related_positions: Vec<Vec<Option<Position>>>,
    /// Texts of the files findings point into, secrets masked.
    pub sources: BTreeMap<String, String>,
    /// Counts.
    pub summary: Summary,
    /// Whether to use colour (human format only).
    pub color: bool,
}

/// Reads the sources and resolves positions.
pub fn prepare(
    mut findings: Vec<Finding>,
    summary: Summary,
    max_file_bytes: u64,
    color: bool,
) -> Prepared {
    // No message, label or help quotes a secret, whichever rule wrote it.
    for f in &mut findings {
        for text in std::iter::once(&mut f.message)
            .chain(f.label.as_mut())
            .chain(f.help.as_mut())
        {
            if let Some(clean) = super::mask::redact_words(text) {
                *text = clean;
            }
        }
    }
    let mut sources: BTreeMap<String, String> = BTreeMap::new();
    let wanted = findings
        .iter()
        .flat_map(|f| std::iter::once(&f.primary).chain(f.related.iter()))
        .map(|l| l.path.clone());
    for path in wanted {
        if sources.contains_key(&path) {
            continue;
        }
        if let Ok((text, _)) = crate::corpus::read_text(std::path::Path::new(&path), max_file_bytes)
        {
            sources.insert(path, text);
        }
    }
    mask_secrets(&findings, &mut sources);
    // Then every other secret a snippet could show (a repeated key, a cut array, broken text).
    for text in sources.values_mut() {
        super::mask::mask_all(text);
    }
    // One line index per file, so each position is a binary search, not a scan from the start.
    let lines: BTreeMap<&str, Vec<usize>> = sources
        .iter()
        .map(|(path, text)| {
            (
                path.as_str(),
                std::iter::once(0)
                    .chain(text.match_indices('\n').map(|(i, _)| i + 1))
                    .collect(),
            )
        })
        .collect();
    let mut locators: BTreeMap<&str, Locator> = BTreeMap::new();
    let mut resolve = |l: &Location| {
        let (path, text) = sources.get_key_value(&l.path)?;
        let locator = locators.entry(path.as_str()).or_default();
        Some(resolve_in(text, &lines[path.as_str()], locator, l))
    };
    let positions: Vec<Option<Position>> = findings.iter().map(|f| resolve(&f.primary)).collect();
    let related_positions: Vec<Vec<Option<Position>>> = findings
        .iter()
        .map(|f| f.related.iter().map(&mut resolve).collect())
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
    let related_positions = order
        .iter()
        .map(|&i| related_positions[i].clone())
        .collect();
    Prepared {
        findings,
        positions,
        related_positions,
        sources,
        summary,
        color,
    }
}

fn resolve_in(text: &str, line_starts: &[usize], locator: &mut Locator, l: &Location) -> Position {
    let (start, end) = match l.offset {
        Some(o) => {
            let o = o.min(text.len());
            (o, (o + 1).min(text.len()))
        }
        None => match locator.locate_first_line(text, l.doc_start, &l.pointer) {
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
    let end = end.max(start);
    let line = line_starts.partition_point(|&s| s <= start).max(1);
    let line_start = line_starts[line - 1];
    let column = text
        .get(line_start..start)
        .map_or(1, |t| t.chars().count() + 1);
    Position {
        line,
        column,
        start,
        len: end - start,
    }
}

/// Overwrites every secret the M018 findings point at with asterisks, byte for byte, so no
/// snippet can show it and no offset moves.
fn mask_secrets(findings: &[Finding], sources: &mut BTreeMap<String, String>) {
    for f in findings.iter().filter(|f| f.rule.code == "M018") {
        let Some(text) = sources.get_mut(&f.primary.path) else {
            continue;
        };
        let Some(span) = locate(text, f.primary.doc_start, &f.primary.pointer) else {
            continue;
        };
        if !span.exact
            || span.end <= span.start + 1
            || !text.is_char_boundary(span.start)
            || !text.is_char_boundary(span.end)
        {
            continue;
        }
        let masked: String = text[span.start..span.end]
            .char_indices()
            .map(|(i, c)| {
                if i == 0 || c == '"' {
                    c.to_string()
                } else {
                    "*".repeat(c.len_utf8())
                }
            })
            .collect();
        text.replace_range(span.start..span.end, &masked);
    }
}
