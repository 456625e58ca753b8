//! Records sorted by their bytes, with memory bounded by a budget: they are held until the
//! budget is reached, then sorted and put away in the [`Spool`] as one run, a block at a time;
//! they are read back merged, holding one block of each run. A command that must walk a
//! corpus's results in an order other than the one they were read in (`summary`: by label,
//! with every result a configuration of its own) holds a budget's worth of its keys, not all
//! of them.
//!
//! What comes out is exactly what sorting every record at once gives: each run is sorted, and
//! the merge takes the least record of all runs each time (equal records are the same bytes,
//! so which run gives one first cannot be seen).

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use super::{Spool, Ticket};

/// Bytes of records a run's blocks are put away in.
const BLOCK: usize = 16 << 10;

/// What a held record costs beside its bytes: its box in the list.
const RECORD_COST: usize = 24;

/// Records being gathered, to be read back sorted ([`SortedRecords::sorted`]).
#[derive(Debug)]
pub struct SortedRecords {
    budget: usize,
    held: Vec<Box<[u8]>>,
    weight: usize,
    spool: Spool,
    /// The runs put away so far, each its blocks in order.
    runs: Vec<Vec<Ticket>>,
}

impl SortedRecords {
    /// Nothing gathered yet; `budget` bytes of records are held before a run is put away.
    pub fn new(budget: usize) -> Self {
        SortedRecords {
            budget,
            held: Vec::new(),
            weight: 0,
            spool: Spool::default(),
            runs: Vec::new(),
        }
    }

    /// As [`SortedRecords::new`], its runs put away in `folder` (tests: a folder that cannot
    /// hold a file keeps every run in memory).
    #[cfg(test)]
    pub(crate) fn in_folder(budget: usize, folder: &std::path::Path) -> Self {
        SortedRecords {
            spool: Spool::in_folder(folder),
            ..SortedRecords::new(budget)
        }
    }

    /// Gathers `record`.
    pub fn push(&mut self, record: Box<[u8]>) {
        self.weight += record.len() + RECORD_COST;
        self.held.push(record);
        if self.weight > self.budget {
            self.put_away();
        }
    }

    /// How many runs were put away (tests).
    #[cfg(test)]
    pub(crate) fn runs(&self) -> usize {
        self.runs.len()
    }

    /// Sorts what is held and puts it away as a run: each record as its length (four bytes,
    /// little-endian) and its bytes, in blocks of about [`BLOCK`] bytes that never split one.
    fn put_away(&mut self) {
        let mut held = std::mem::take(&mut self.held);
        self.weight = 0;
        held.sort_unstable();
        let mut run = Vec::new();
        let mut block = Vec::with_capacity(BLOCK);
        for record in held {
            // A record is a key of a few kilobytes at most; one past four gigabytes cannot be
            // made, as the corpus's files are bounded far below that.
            let len = u32::try_from(record.len()).unwrap_or(u32::MAX);
            block.extend_from_slice(&len.to_le_bytes());
            block.extend_from_slice(&record);
            if block.len() >= BLOCK {
                run.push(
                    self.spool
                        .put(std::mem::replace(&mut block, Vec::with_capacity(BLOCK))),
                );
            }
        }
        if !block.is_empty() {
            run.push(self.spool.put(block));
        }
        self.runs.push(run);
    }

    /// Every record gathered, least first.
    pub fn sorted(mut self) -> Sorted {
        if self.runs.is_empty() {
            let mut held = std::mem::take(&mut self.held);
            held.sort_unstable();
            return Sorted {
                spool: self.spool,
                from: From::Memory(held.into_iter()),
            };
        }
        if !self.held.is_empty() {
            self.put_away();
        }
        let runs: Vec<Run> = self
            .runs
            .into_iter()
            .map(|blocks| Run {
                blocks: blocks.into_iter(),
                block: Vec::new(),
                at: 0,
            })
            .collect();
        Sorted {
            spool: self.spool,
            from: From::Runs {
                runs,
                heap: BinaryHeap::new(),
                started: false,
                failed: false,
            },
        }
    }
}

/// The records of a [`SortedRecords`], least first; an error reading a run back ends them.
#[derive(Debug)]
pub struct Sorted {
    spool: Spool,
    from: From,
}

#[derive(Debug)]
enum From {
    /// Nothing was put away: the records held, sorted.
    Memory(std::vec::IntoIter<Box<[u8]>>),
    /// The runs put away, merged: the least unread record of each run in the heap.
    Runs {
        runs: Vec<Run>,
        heap: BinaryHeap<Reverse<(Box<[u8]>, usize)>>,
        started: bool,
        failed: bool,
    },
}

/// A run being read back: its blocks not yet read, and the one being read.
#[derive(Debug)]
struct Run {
    blocks: std::vec::IntoIter<Ticket>,
    block: Vec<u8>,
    at: usize,
}

impl Run {
    /// The run's next record, `None` past its last.
    fn next(&mut self, spool: &Spool) -> std::io::Result<Option<Box<[u8]>>> {
        if self.at >= self.block.len() {
            let Some(ticket) = self.blocks.next() else {
                return Ok(None);
            };
            self.block = spool.take(&ticket)?;
            self.at = 0;
        }
        let bad = || std::io::Error::other("a run of sorted records was read back cut short");
        let head = self.block.get(self.at..self.at + 4).ok_or_else(bad)?;
        let len = u32::from_le_bytes([head[0], head[1], head[2], head[3]]) as usize;
        let start = self.at + 4;
        let record = self.block.get(start..start + len).ok_or_else(bad)?;
        self.at = start + len;
        Ok(Some(record.into()))
    }
}

impl Iterator for Sorted {
    type Item = std::io::Result<Box<[u8]>>;

    fn next(&mut self) -> Option<Self::Item> {
        match &mut self.from {
            From::Memory(records) => records.next().map(Ok),
            From::Runs {
                runs,
                heap,
                started,
                failed,
            } => {
                if *failed {
                    return None;
                }
                if !*started {
                    *started = true;
                    for (k, run) in runs.iter_mut().enumerate() {
                        match run.next(&self.spool) {
                            Ok(Some(record)) => heap.push(Reverse((record, k))),
                            Ok(None) => {}
                            Err(e) => {
                                *failed = true;
                                return Some(Err(e));
                            }
                        }
                    }
                }
                let Reverse((record, k)) = heap.pop()?;
                match runs[k].next(&self.spool) {
                    Ok(Some(next)) => heap.push(Reverse((next, k))),
                    Ok(None) => {}
                    Err(e) => {
                        *failed = true;
                        return Some(Err(e));
                    }
                }
                Some(Ok(record))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::seeded::{below, next};

    /// Records drawn short and long, with repeats and with one a prefix of another.
    fn drawn(seed: u64, n: usize) -> Vec<Box<[u8]>> {
        // xorshift stays at zero from zero.
        let mut state = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
        let mut out: Vec<Box<[u8]>> = Vec::new();
        for _ in 0..n {
            let record: Box<[u8]> = match below(&mut state, 5) {
                // A repeat of an earlier record.
                0 if !out.is_empty() => {
                    let k = below(&mut state, out.len());
                    out[k].clone()
                }
                // An earlier record with a byte more: a prefix pair.
                1 if !out.is_empty() => {
                    let k = below(&mut state, out.len());
                    let mut r = out[k].to_vec();
                    r.push((next(&mut state) & 0xff) as u8);
                    r.into()
                }
                _ => {
                    let len = below(&mut state, 300);
                    // Few distinct bytes, so that records share long prefixes.
                    (0..len)
                        .map(|_| b"\0ab\xff"[below(&mut state, 4)])
                        .collect()
                }
            };
            out.push(record);
        }
        out
    }

    fn read_back(sorter: SortedRecords) -> Vec<Box<[u8]>> {
        sorter
            .sorted()
            .collect::<std::io::Result<Vec<_>>>()
            .expect("read back")
    }

    /// Whatever the budget (everything held, a run every few records, a run a record), the
    /// records come back as sorting them all at once gives, repeats kept.
    #[test]
    fn records_come_back_as_one_sort_gives_them_at_every_budget() {
        for seed in 0..40_usize {
            let records = drawn(seed as u64, 1 + (seed * 37) % 700);
            let mut expected = records.clone();
            expected.sort();
            for budget in [0, 1_000, 20_000, usize::MAX] {
                let mut sorter = SortedRecords::new(budget);
                for r in &records {
                    sorter.push(r.clone());
                }
                if budget == 0 {
                    assert_eq!(sorter.runs(), records.len(), "a run a record");
                }
                assert_eq!(read_back(sorter), expected, "seed {seed}, budget {budget}");
            }
        }
    }

    /// Runs larger than a block are put away in several blocks and read back whole.
    #[test]
    fn runs_of_many_blocks_are_read_back_whole() {
        let records: Vec<Box<[u8]>> = (0..3_000u32)
            .rev()
            .map(|k| {
                let mut r = format!("{k:08}").into_bytes();
                r.resize(100 + (k as usize % 97), b'x');
                r.into()
            })
            .collect();
        let mut sorter = SortedRecords::new(150_000);
        for r in &records {
            sorter.push(r.clone());
        }
        assert!(sorter.runs() >= 2, "{} runs", sorter.runs());
        let back = read_back(sorter);
        let mut expected = records;
        expected.sort();
        assert_eq!(back, expected);
    }

    /// Without a temporary folder the runs stay in memory and still come back sorted.
    #[test]
    fn without_a_temporary_folder_the_runs_are_held() {
        let folder = std::env::temp_dir().join("benchlint-no-such/folder");
        let records = drawn(7, 500);
        let mut sorter = SortedRecords::in_folder(2_000, &folder);
        for r in &records {
            sorter.push(r.clone());
        }
        let mut expected = records;
        expected.sort();
        assert_eq!(read_back(sorter), expected);
    }
}
