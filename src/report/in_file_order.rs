//! The findings a streamed report writes last (those known once every file is read), handed
//! over in the order it lists them, a few thousand at a time, however many lie in one file.
//!
//! A streamed report lists each file's findings by where they lie in it, known only once they
//! are placed, and the engine hands them over in its own order. Batches that ended only where a
//! file's findings ended held every finding of a file at once: a claims file with a claim for
//! each of 20,000 results draws 120,000 C findings, over 100 MB. A file that draws more than a
//! batch is placed a batch at a time instead, each batch sorted by place and written to an
//! unnamed temporary file ([`KeyedRuns`]), and the batches merged back by place, each finding
//! numbered in the engine's order so equal places keep it: what one sort of all of them gives.

use crate::diagnostic::Finding;
use crate::engine::{BATCH, Key, KeyedMerge, KeyedRuns, Last};

/// Hands over the findings of a [`Last`] in listing order, a batch at a time.
pub struct InFileOrder<'l> {
    last: &'l mut Last,
    max_file_bytes: u64,
    /// The first finding of the next batch, taken to see where the last one ended.
    pending: Option<Finding>,
    /// The findings of a file that drew more than a batch, in place order.
    merging: Option<KeyedMerge>,
    failure: Option<String>,
    batch: usize,
    folder: Option<std::path::PathBuf>,
}

impl<'l> InFileOrder<'l> {
    /// The findings of `last`, placed in files of at most `max_file_bytes`.
    pub fn new(last: &'l mut Last, max_file_bytes: u64) -> Self {
        InFileOrder {
            last,
            max_file_bytes,
            pending: None,
            merging: None,
            failure: None,
            batch: BATCH,
            folder: None,
        }
    }

    /// [`InFileOrder::new`] with batches of `batch` findings and the temporary file in
    /// `folder`.
    #[cfg(test)]
    pub(super) fn with_batch(
        last: &'l mut Last,
        max_file_bytes: u64,
        batch: usize,
        folder: &std::path::Path,
    ) -> Self {
        InFileOrder {
            batch,
            folder: Some(folder.to_path_buf()),
            ..InFileOrder::new(last, max_file_bytes)
        }
    }

    /// The next findings in listing order: whole files of a batch or more together, or a part
    /// of a file that draws more (in place order, placed but for their related places, which
    /// the writer's `prepare` finds); `None` once all are out.
    pub fn next_batch(&mut self) -> Option<Vec<Finding>> {
        if let Some(part) = self.merged_part() {
            return Some(part);
        }
        let mut batch: Vec<Finding> = Vec::new();
        // Where the file being read starts in `batch`.
        let mut file_start = 0;
        while let Some(f) = self.pending.take().or_else(|| self.last.next()) {
            if batch
                .last()
                .is_some_and(|l| l.primary.path != f.primary.path)
            {
                if batch.len() >= self.batch {
                    self.pending = Some(f);
                    break;
                }
                file_start = batch.len();
            }
            batch.push(f);
            if batch.len() - file_start < self.batch {
                continue;
            }
            // The file alone fills a batch: is there more of it?
            match self.last.next() {
                Some(next) if next.primary.path == batch[file_start].primary.path => {
                    let first = batch.split_off(file_start);
                    self.sort_by_place(first, next);
                    if batch.is_empty() {
                        return self.merged_part();
                    }
                    return Some(batch);
                }
                Some(next) => {
                    self.pending = Some(next);
                    break;
                }
                None => break,
            }
        }
        (!batch.is_empty()).then_some(batch)
    }

    /// Why some findings could not be read back, if any could not.
    pub fn failure(&self) -> Option<&str> {
        self.failure.as_deref()
    }

    /// Up to a batch of the file being merged, `None` when no file is.
    fn merged_part(&mut self) -> Option<Vec<Finding>> {
        let merging = self.merging.as_mut()?;
        let part: Vec<Finding> = merging.by_ref().take(self.batch).collect();
        if part.len() < self.batch {
            if let Some(e) = merging.failure() {
                self.failure.get_or_insert_with(|| e.to_string());
            }
            self.merging = None;
        }
        if part.is_empty() {
            return self.next_batch();
        }
        Some(part)
    }

    /// Reads the rest of the file of `first` (a batch of its findings, `next` the one after),
    /// placing each batch and writing it sorted by place, and starts merging them.
    fn sort_by_place(&mut self, first: Vec<Finding>, next: Finding) {
        let path = next.primary.path.clone();
        // The file is read once and kept while its batches are placed, but a JSON Lines file,
        // never held whole, is read again for each: batches of at least one finding for every
        // 2 KB of it keep that reading to about 2 KB a finding.
        let size = std::fs::metadata(path.raw()).map_or(0, |m| m.len());
        let limit = self
            .batch
            .max(usize::try_from(size / 2048).unwrap_or(usize::MAX));
        let mut kept = super::placing::Kept::new(path.raw());
        let mut runs = KeyedRuns::new(self.folder.as_deref());
        let mut number = 0u64;
        let mut chunk = first;
        chunk.push(next);
        loop {
            let mut more = true;
            while chunk.len() < limit {
                match self.last.next() {
                    Some(f) if f.primary.path == path => chunk.push(f),
                    other => {
                        self.pending = other;
                        more = false;
                        break;
                    }
                }
            }
            // Only the file's own places are needed to order its findings: their related places
            // (in other files) are left to the writer, which places each batch handed over,
            // where adjacent findings share the files they point to.
            let related: Vec<Vec<crate::diagnostic::Location>> = chunk
                .iter_mut()
                .map(|f| std::mem::take(&mut f.related))
                .collect();
            super::placing::place_the_rest_keeping(
                &mut chunk,
                self.max_file_bytes,
                Some(&mut kept),
            );
            for (f, related) in chunk.iter_mut().zip(related) {
                f.related = related;
            }
            let mut keyed: Vec<(Key, Finding)> = chunk
                .drain(..)
                .map(|f| {
                    // Unplaced first, as the writers order them; then by the first byte.
                    let place = f
                        .placed
                        .as_ref()
                        .and_then(|p| p.primary)
                        .map_or(0, |p| p.start as u64 + 1);
                    number += 1;
                    ((place, number), f)
                })
                .collect();
            runs.write_run(&mut keyed);
            if !more {
                break;
            }
        }
        self.merging = Some(runs.merge());
    }
}

#[cfg(test)]
#[path = "in_file_order_tests.rs"]
mod tests;
