//! Preparing findings for rendering: resolving every pointer to a byte span, line and column
//! (in the worker that checked the file while its text is in memory, or here by reading the
//! few files corpus-wide findings point into), and loading a file's text, secrets masked, for
//! the formats that show snippets.

use super::pieces::{MaskPiece, Masked, fill_spans};
use super::placing::place_the_rest;
use crate::diagnostic::Finding;
pub use crate::diagnostic::Position;
use crate::engine::Summary;

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
    /// The project root the CI formats' paths are relative to (the current folder unless the
    /// caller sets it).
    pub project: super::project::Project,
    /// The lowest severity that fails the run (`--fail-on`): JUnit writes such findings as
    /// failures, the others as passing cases.
    pub fail_on: crate::diagnostic::Severity,
    /// `--quiet`: the findings only, no table of files and no summary line.
    pub quiet: bool,
    /// `files` in path order (indices into it), built when a snippet first needs it.
    pub(crate) file_index: std::sync::OnceLock<Vec<usize>>,
}

impl Prepared {
    /// How the loader read `path`, if it is one of [`Prepared::files`].
    fn file_read(&self, path: &str) -> Option<&crate::corpus::FileRead> {
        let index = self.file_index.get_or_init(|| {
            let mut index: Vec<usize> = (0..self.files.len()).collect();
            index.sort_by(|&a, &b| self.files[a].path.raw().cmp(self.files[b].path.raw()));
            index
        });
        let at = index
            .binary_search_by(|&i| self.files[i].path.raw().cmp(path))
            .ok()?;
        Some(&self.files[index[at]])
    }

    /// The text of `path` with every secret masked (the values `in_file`'s M018 findings point
    /// at, and anything else that looks like one), for a snippet. Read on demand, one file at a
    /// time, so memory does not hold every file with findings at once.
    ///
    /// Only the lines the snippets at `drawn` can show are masked and cleaned
    /// ([`super::snippet::shown_regions`]): there every byte is as masking the whole text
    /// makes it, and the rest of the text, which no snippet reads, may be left as it is.
    pub fn masked_source(
        &self,
        path: &str,
        in_file: &[Finding],
        positions: &[Option<Position>],
        drawn: &[Position],
    ) -> Option<Masked> {
        // Only the file the loader read: one refused, or replaced at its path since (by a
        // link to a place outside the corpus, say), is not quoted. A path the loader did not
        // list (a caller that sets no `files`) has no identity to check.
        let seen = match self.file_read(path) {
            Some(read) if read.seen.is_none() || read.read_as.starts_with("none (E001") => {
                return None;
            }
            Some(read) => read.seen,
            None => None,
        };
        let path = std::path::Path::new(path);
        let starts = super::pieces::label_starts(drawn);
        // A JSON Lines file is read a line at a time, and only the runs of lines around its
        // snippets are kept: it can be hundreds of megabytes.
        if crate::corpus::is_line_file(path) && !whole_only() {
            let mut lines = crate::io::LineFile::open(path, self.max_file_bytes, seen).ok()?;
            let len = usize::try_from(lines.len()).unwrap_or(usize::MAX);
            let spans = json_secret_spans(in_file.iter().zip(positions), len);
            // A label past the text's end is drawn at its end, as from the whole text.
            let starts: Vec<usize> = starts.iter().map(|&at| at.min(len)).collect();
            let masker = Masker { starts: &starts };
            if let Some(masked) = super::pieces::line_pieces(&mut lines, &starts, &spans, &masker) {
                return Some(masked);
            }
        }
        let (mut text, _) = crate::io::read_seen(path, self.max_file_bytes, seen).ok()?;
        mask_secrets(in_file.iter().zip(positions), &mut text);
        // Then every other secret a snippet could show (a repeated key, a cut array, broken
        // text), and every character that could act on a terminal or hide text.
        mask_shown(&mut text, &starts);
        Some(Masked::whole(text))
    }
}

/// Masks every secret and hidden character the snippets at `starts` (offsets in `text`,
/// sorted) can show.
fn mask_shown(text: &mut String, starts: &[usize]) {
    let regions = super::snippet::shown_regions(text, starts);
    super::mask::mask_within(text, Some(&regions));
    for &(from, to) in &regions {
        crate::text::stand_in_within(text, from, to);
    }
}

/// Masks what the snippets of a piece of a JSON Lines file show.
struct Masker<'a> {
    /// The labels drawn in the file, sorted, by offset in the file.
    starts: &'a [usize],
}

impl MaskPiece for Masker<'_> {
    fn mask(&self, start: usize, text: &mut String) {
        let end = start + text.len();
        let starts: Vec<usize> = self
            .starts
            .iter()
            .filter(|&&at| at >= start && at <= end)
            .map(|&at| at - start)
            .collect();
        mask_shown(text, &starts);
    }
}

#[cfg(test)]
thread_local! {
    /// Test only: read every file whole for its snippets, the reference a piece is held to.
    static WHOLE_ONLY: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Whether every file is read whole for its snippets (in tests, to compare).
fn whole_only() -> bool {
    #[cfg(test)]
    return WHOLE_ONLY.with(std::cell::Cell::get);
    #[cfg(not(test))]
    false
}

/// Runs `f` with every file read whole for its snippets.
#[cfg(test)]
pub(super) fn reading_whole<T>(f: impl FnOnce() -> T) -> T {
    WHOLE_ONLY.with(|w| w.set(true));
    let out = f();
    WHOLE_ONLY.with(|w| w.set(false));
    out
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
    // The findings of one file (what the streamed writers hand over) need no path compared.
    let one_path = crate::diagnostic::one_path(&findings);
    let mut order: Vec<usize> = (0..findings.len()).collect();
    order.sort_by(|&a, &b| {
        let key = |i: usize| positions[i].map(|p| p.start);
        let path = || {
            if one_path {
                std::cmp::Ordering::Equal
            } else {
                findings[a].primary.path.cmp(&findings[b].primary.path)
            }
        };
        path().then_with(|| key(a).cmp(&key(b))).then(a.cmp(&b))
    });
    // A file's findings come from the loader already in this order: nothing to move then.
    // Otherwise each finding is moved once, in place: no second list of them.
    let positions = if order.iter().enumerate().all(|(k, &i)| k == i) {
        positions
    } else {
        crate::diagnostic::permute(&mut findings, &order);
        order.iter().map(|&i| positions[i]).collect()
    };
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
        project: super::project::Project::default(),
        fail_on: crate::diagnostic::Severity::Error,
        quiet: false,
        file_index: std::sync::OnceLock::new(),
    }
}

/// Overwrites every secret the M018 findings point at with asterisks, byte for byte, so no
/// snippet can show it and no offset moves. Each finding's span was found when the file was
/// checked: no pointer is looked up again. In a YAML report or a log, the finding is placed at
/// its key: the value after it on that line is masked.
fn mask_secrets<'a>(
    findings: impl Iterator<Item = (&'a Finding, &'a Option<Position>)>,
    text: &mut String,
) {
    let at = secret_positions(findings);
    if at.is_empty() {
        return;
    }
    let spans = if crate::positions::places_in_text(text, &[]).is_none() {
        json_spans(&at, text.len())
    } else {
        at.iter()
            .filter(|p| p.start <= text.len() && text.is_char_boundary(p.start))
            .filter_map(|p| crate::positions::value_span(text, p.start))
            .filter(|&(start, end)| end <= text.len() && end > start + 1)
            .collect()
    };
    fill_spans(text, &spans);
}

/// Where the M018 findings of a file point.
fn secret_positions<'a>(
    findings: impl Iterator<Item = (&'a Finding, &'a Option<Position>)>,
) -> Vec<Position> {
    findings
        .filter(|(f, _)| f.rule.code == "M018")
        .filter_map(|(_, pos)| *pos)
        .collect()
}

/// The spans [`mask_secrets`] masks in a JSON text of `len` bytes, sorted.
fn json_secret_spans<'a>(
    findings: impl Iterator<Item = (&'a Finding, &'a Option<Position>)>,
    len: usize,
) -> Vec<(usize, usize)> {
    json_spans(&secret_positions(findings), len)
}

/// The values at `at` in a JSON text of `len` bytes (each finding's span), sorted.
fn json_spans(at: &[Position], len: usize) -> Vec<(usize, usize)> {
    let mut spans: Vec<(usize, usize)> = at
        .iter()
        .map(|p| (p.start, p.start + p.len))
        .filter(|&(start, end)| end <= len && end > start + 1)
        .collect();
    spans.sort_unstable();
    spans
}
