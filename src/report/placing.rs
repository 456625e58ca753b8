//! Placing the findings no worker placed (corpus-wide ones, and those pointing into a second
//! file) by reading the files they point into: each once a call, in parallel, or once for every
//! batch of a file that draws many ([`Kept`]).

use std::collections::BTreeMap;

use rayon::prelude::*;

use crate::diagnostic::{Finding, Location, Placed, Position};

/// Places the findings no worker could: corpus-wide ones, and those pointing into a second
/// file (a sidecar). Each file is read once, in parallel, and dropped when its places are known.
pub(super) fn place_the_rest(findings: &mut [Finding], max_file_bytes: u64) {
    place_the_rest_keeping(findings, max_file_bytes, None);
}

/// A file read once for several calls of [`place_the_rest_keeping`]: one that draws more
/// findings than are placed at a time, its text and what was learnt of its containers kept
/// between batches rather than read and indexed again for each.
pub(super) struct Kept {
    path: String,
    text: KeptText,
    locator: crate::json::Locator,
}

/// The text of a [`Kept`] file.
enum KeptText {
    NotRead,
    Read(String),
    /// It cannot be read again: its locations have no position.
    Unreadable,
}

impl Kept {
    /// The file at `path`, not read yet.
    pub(super) fn new(path: &str) -> Self {
        Kept {
            path: path.to_string(),
            text: KeptText::NotRead,
            locator: crate::json::Locator::default(),
        }
    }

    /// Where `locations` sit in the file (none where it cannot be read again).
    fn positions(&mut self, locations: &[&Location], max_file_bytes: u64) -> Vec<Option<Position>> {
        let path = std::path::Path::new(&self.path);
        // A JSON Lines file is never held whole: it is read a line at a time, at each call.
        if crate::corpus::is_line_file(path) {
            return crate::io::LineFile::open(path, max_file_bytes, None)
                .ok()
                .and_then(|mut lines| crate::positions::resolve_by_line(&mut lines, locations).ok())
                .unwrap_or_default();
        }
        if matches!(self.text, KeptText::NotRead) {
            self.text = match crate::io::read_text(path, max_file_bytes) {
                Ok((text, _)) => KeptText::Read(text),
                Err(_) => KeptText::Unreadable,
            };
        }
        match &self.text {
            KeptText::Read(text) => {
                crate::positions::resolve_all_with(text, locations, &mut self.locator)
                    .into_iter()
                    .map(Some)
                    .collect()
            }
            KeptText::NotRead | KeptText::Unreadable => Vec::new(),
        }
    }
}

/// [`place_the_rest`], the locations in `kept`'s file placed from what it keeps.
pub(super) fn place_the_rest_keeping(
    findings: &mut [Finding],
    max_file_bytes: u64,
    kept: Option<&mut Kept>,
) {
    // Which location of which finding: `None` is the primary, `Some(k)` the k-th related one.
    type Wanted<'a> = Vec<(usize, Option<usize>, &'a Location)>;
    let mut by_path: BTreeMap<&str, Wanted<'_>> = BTreeMap::new();
    for (i, f) in findings
        .iter()
        .enumerate()
        .filter(|(_, f)| !fully_placed(f))
    {
        // The corpus is no file: a finding about it has no position. A finding placed but for
        // its related places (`InFileOrder`) wants those only.
        if !f.corpus && f.placed.is_none() {
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
    let mut resolved: Vec<(usize, Option<usize>, Position)> = Vec::new();
    if let Some(kept) = kept
        && let Some(wanted) = by_path.remove(kept.path.as_str())
    {
        let locations: Vec<&Location> = wanted.iter().map(|w| w.2).collect();
        let positions = kept.positions(&locations, max_file_bytes);
        resolved.extend(
            wanted
                .iter()
                .zip(positions)
                .filter_map(|(&(i, k, _), pos)| Some((i, k, pos?))),
        );
    }
    let others: Vec<(usize, Option<usize>, Position)> = by_path
        .into_par_iter()
        .flat_map_iter(|(path, wanted)| {
            let locations: Vec<&Location> = wanted.iter().map(|w| w.2).collect();
            let positions = positions_in(path, &locations, max_file_bytes);
            wanted
                .iter()
                .zip(positions)
                .filter_map(|(&(i, k, _), pos)| Some((i, k, pos?)))
                .collect::<Vec<_>>()
        })
        .collect();
    resolved.extend(others);
    for f in findings.iter_mut().filter(|f| !fully_placed(f)) {
        let related = vec![None; f.related.len()];
        match f.placed.as_mut() {
            Some(placed) => placed.related = related,
            None => {
                f.placed = Some(Placed {
                    primary: None,
                    related,
                });
            }
        }
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

/// Whether `f` is placed, its related places with it: placed by the loader, or by
/// [`place_the_rest`], which places a finding whose related places are not (one placed by
/// `InFileOrder` to be ordered) at those only.
fn fully_placed(f: &Finding) -> bool {
    f.placed
        .as_ref()
        .is_some_and(|p| p.related.len() == f.related.len())
}

/// Where `locations` sit in the file at `path` (none where it cannot be read again): a JSON
/// Lines file, which the loader never holds whole, is read a line at a time.
fn positions_in(path: &str, locations: &[&Location], max_file_bytes: u64) -> Vec<Option<Position>> {
    Kept::new(path).positions(locations, max_file_bytes)
}
