//! Offsets moved from a chunk of a file's text to the whole file's. A JSON Lines file is checked
//! a chunk of lines at a time, each chunk read, parsed and checked as a text of its own; what
//! leaves a chunk (findings, results, claims, the documents no adapter reads) says where it is
//! in the file, so it is moved by the chunk's start as it leaves, and nothing else needs to know
//! that the file was never whole in memory.

use crate::diagnostic::{Finding, Location};
use crate::text::PathText;

use super::FileOutcome;

/// How much of a file's outcome there was before a chunk's document was checked: what it adds
/// past these is the chunk's.
#[derive(Clone, Copy)]
pub(super) struct Before {
    findings: usize,
    unknown: usize,
    results: usize,
    claims: usize,
}

impl Before {
    /// What `out` holds now.
    pub(super) fn mark(out: &FileOutcome) -> Self {
        Before {
            findings: out.findings.len(),
            unknown: out.unknown.len(),
            results: out.results.len(),
            claims: out.claims.len(),
        }
    }

    /// Moves what `out` gained since the mark, from a chunk starting at byte `base` of the file
    /// `path`, to the file's offsets.
    pub(super) fn move_since(self, out: &mut FileOutcome, path: &PathText, base: usize) {
        if base == 0 {
            return;
        }
        move_findings(tail(&mut out.findings, self.findings), path, base);
        move_findings(tail(&mut out.unknown, self.unknown), path, base);
        for r in tail(&mut out.results, self.results) {
            r.origin.doc_start += base;
            r.value.move_samples_apart(base);
        }
        for c in tail(&mut out.claims, self.claims) {
            c.origin.doc_start += base;
        }
    }
}

/// What `list` holds past `from` (nothing when a cap cut it below).
fn tail<T>(list: &mut [T], from: usize) -> &mut [T] {
    let from = from.min(list.len());
    &mut list[from..]
}

/// Moves the locations in the file `path` of `findings`, made in a chunk starting at byte
/// `base`, to the file's offsets. A finding is placed once its file is read, never before.
pub(super) fn move_findings(findings: &mut [Finding], path: &PathText, base: usize) {
    if base == 0 {
        return;
    }
    for f in findings {
        debug_assert!(
            f.placed.is_none(),
            "a finding placed before its file was read"
        );
        move_location(&mut f.primary, path, base);
        for r in &mut f.related {
            move_location(r, path, base);
        }
    }
}

/// Moves `loc` by `base` if it is in the file `path`: a pointer's document, or the exact offset
/// that overrides it (whose `doc_start` is the file's start, as the whole-text read makes it).
fn move_location(loc: &mut Location, path: &PathText, base: usize) {
    if loc.path.raw() != path.raw() {
        return;
    }
    match loc.offset.as_mut() {
        Some(offset) => *offset += base,
        None => loc.doc_start += base,
    }
}
