//! Findings put in an order the engine's does not give (where each lies in its file, known only
//! once it is placed), a batch at a time: each batch sorted in memory by its key and written as
//! a run to an unnamed temporary file, then the runs merged back by key. Memory holds a batch
//! and a read-ahead buffer for each run, whatever the number of findings. A batch that cannot
//! be written stays in memory and is merged with the runs all the same.

use std::cmp::{Ordering, Reverse};
use std::collections::BinaryHeap;
use std::fs::File;
use std::io::{BufWriter, Seek, SeekFrom, Write};

use super::last::{DiskRun, damaged};
use crate::diagnostic::Finding;
use crate::diagnostic::codec::RuleTable;
use crate::text::bytes::Reader;

/// What findings are ordered by, smallest first. A caller that numbers its findings in the
/// second place makes every key distinct, so the order is total.
pub type Key = (u64, u64);

/// Bytes written to a run at a time.
const WRITE_BEHIND: usize = 64 << 10;

/// The runs written so far, and the batches that could not be written.
pub struct KeyedRuns {
    /// The temporary file, once made; `None` if it could not be.
    spill: Option<File>,
    rules: RuleTable,
    runs: Vec<(u64, u64)>,
    end: u64,
    in_memory: Vec<(Key, Finding)>,
    folder: Option<std::path::PathBuf>,
}

impl KeyedRuns {
    /// No run yet; the temporary file is made in `folder` (the system's when `None`) with the
    /// first run.
    pub fn new(folder: Option<&std::path::Path>) -> Self {
        KeyedRuns {
            spill: None,
            rules: RuleTable::default(),
            runs: Vec::new(),
            end: 0,
            in_memory: Vec::new(),
            folder: folder.map(std::path::Path::to_path_buf),
        }
    }

    /// Sorts `batch` by key and writes it as one run; `batch` is left empty. Kept in memory if
    /// it cannot be written.
    pub fn write_run(&mut self, batch: &mut Vec<(Key, Finding)>) {
        batch.sort_unstable_by_key(|(k, _)| *k);
        if self.spill.is_none() {
            self.spill = crate::io::unnamed_file(self.folder.as_deref()).ok();
        }
        let written = match &self.spill {
            Some(file) => append(file, &mut self.rules, self.end, batch),
            None => Err(damaged()),
        };
        match written {
            Ok(end) => {
                self.runs.push((self.end, end));
                self.end = end;
                batch.clear();
            }
            // What part of the run was written is not counted: the next run is written over it.
            Err(_) => self.in_memory.append(batch),
        }
    }

    /// Every finding written or kept, merged by key.
    pub fn merge(mut self) -> KeyedMerge {
        self.in_memory.sort_unstable_by_key(|(k, _)| *k);
        let mut merge = KeyedMerge {
            file: self.spill,
            rules: self.rules,
            runs: self
                .runs
                .iter()
                .map(|&(start, end)| DiskRun::new(start, end))
                .collect(),
            memory: self.in_memory.into_iter(),
            heap: BinaryHeap::new(),
            failure: None,
        };
        for i in 0..=merge.runs.len() {
            merge.refill(i);
        }
        merge
    }
}

/// Writes `batch` into `file` from byte `from`: each record a length, the key, the finding.
/// The byte past the last record.
fn append(
    file: &File,
    rules: &mut RuleTable,
    from: u64,
    batch: &[(Key, Finding)],
) -> std::io::Result<u64> {
    let mut out = BufWriter::with_capacity(WRITE_BEHIND, file);
    out.seek(SeekFrom::Start(from))?;
    let mut record = Vec::new();
    let mut end = from;
    for ((place, number), f) in batch {
        record.clear();
        record.extend_from_slice(&place.to_le_bytes());
        record.extend_from_slice(&number.to_le_bytes());
        rules.write(f, &mut record);
        out.write_all(&(record.len() as u64).to_le_bytes())?;
        out.write_all(&record)?;
        end += 8 + record.len() as u64;
    }
    out.flush()?;
    Ok(end)
}

/// The runs of a [`KeyedRuns`] and the batches it kept in memory, merged by key.
pub struct KeyedMerge {
    file: Option<File>,
    rules: RuleTable,
    runs: Vec<DiskRun>,
    memory: std::vec::IntoIter<(Key, Finding)>,
    heap: BinaryHeap<Reverse<Head>>,
    failure: Option<String>,
}

/// A source's next finding: a run's, or (at the place past the runs) the memory's.
struct Head {
    key: Key,
    source: usize,
    finding: Finding,
}

impl Ord for Head {
    fn cmp(&self, other: &Self) -> Ordering {
        self.key
            .cmp(&other.key)
            .then_with(|| self.source.cmp(&other.source))
    }
}

impl PartialOrd for Head {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for Head {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for Head {}

impl KeyedMerge {
    /// Source `i`'s next finding and its key: run `i`, or the memory past the last run.
    fn pull(&mut self, i: usize) -> std::io::Result<Option<(Key, Finding)>> {
        let (Some(run), Some(file)) = (self.runs.get_mut(i), self.file.as_ref()) else {
            return Ok(self.memory.next());
        };
        let Some(range) = run.record(file)? else {
            return Ok(None);
        };
        let (buffer, path) = run.buffer();
        let record = &buffer[range];
        let (Some(place), Some(number)) = (record.get(..8), record.get(8..16)) else {
            return Err(damaged());
        };
        let key = (
            u64::from_le_bytes(place.try_into().expect("eight bytes")),
            u64::from_le_bytes(number.try_into().expect("eight bytes")),
        );
        let mut r = Reader::new(&record[16..]);
        let finding = self.rules.read(&mut r, path).ok_or_else(damaged)?;
        if !r.is_done() {
            return Err(damaged());
        }
        Ok(Some((key, finding)))
    }

    fn refill(&mut self, source: usize) {
        match self.pull(source) {
            Ok(Some((key, finding))) => self.heap.push(Reverse(Head {
                key,
                source,
                finding,
            })),
            Ok(None) => {}
            Err(e) => {
                self.failure.get_or_insert(format!(
                    "the findings held on disk could not be read back: {e}"
                ));
            }
        }
    }

    /// Why some findings could not be read back, if any could not.
    pub fn failure(&self) -> Option<&str> {
        self.failure.as_deref()
    }
}

impl Iterator for KeyedMerge {
    type Item = Finding;

    /// The finding of the smallest key.
    fn next(&mut self) -> Option<Finding> {
        let Reverse(head) = self.heap.pop()?;
        self.refill(head.source);
        Some(head.finding)
    }
}

#[cfg(test)]
#[path = "keyed_tests.rs"]
mod tests;
