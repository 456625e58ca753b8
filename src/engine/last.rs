//! The findings held until a run's end coming back out ([`Last`]): the runs written to the
//! temporary file and the findings still in memory merged in output order, each run read ahead
//! a little at a time, a finding that repeats the one before it dropped, the first `cap` listed
//! and the rest counted. Equal findings come out in the order their runs were written, so the
//! whole is what one stable sort and deduplication of them all gives.

use std::cmp::Ordering;
use std::collections::BinaryHeap;
use std::fs::File;
use std::io::{Read, Seek, SeekFrom};

use crate::diagnostic::codec::RuleTable;
use crate::diagnostic::{Finding, Omitted, RuleMeta, repeats};
use crate::text::PathText;
use crate::text::bytes::Reader;

/// Findings of a listed batch ([`Last::next_batch`]) before it ends at the next file.
pub const BATCH: usize = 4096;

/// Bytes read from a run at a time while merging.
const READ_AHEAD: usize = 64 << 10;

/// The held findings coming out in order: listed up to the cap, counted past it.
pub struct Last {
    sources: Vec<Source>,
    spill: Option<(File, RuleTable)>,
    heap: BinaryHeap<Head>,
    /// The first finding of the next batch, taken to see where the last one ended.
    pending: Option<Finding>,
    cap: usize,
    listed: usize,
    omitted: Omitted,
    failure: Option<String>,
    /// Rules whose findings written out before they panicked are left out.
    dropped: Vec<&'static RuleMeta>,
}

enum Source {
    Disk(DiskRun),
    Memory(std::vec::IntoIter<Finding>),
}

/// A run on disk being read: the next byte to read, the end, and what was read ahead.
pub(super) struct DiskRun {
    next: u64,
    end: u64,
    buf: Vec<u8>,
    at: usize,
    /// The path of the last finding read, shared with the next one on the same file.
    path: PathText,
}

/// A source's next finding, ordered for a min-heap: the first in output order, and of equal
/// ones the one from the earlier run.
struct Head {
    finding: Finding,
    source: usize,
}

impl Ord for Head {
    fn cmp(&self, other: &Self) -> Ordering {
        other
            .finding
            .sort_key_cmp(&self.finding)
            .then_with(|| other.source.cmp(&self.source))
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

/// The runs written to the temporary file.
pub(super) struct Written {
    pub(super) file: File,
    /// The rules its records name.
    pub(super) rules: RuleTable,
    /// Each run's first byte and the byte past its last.
    pub(super) runs: Vec<(u64, u64)>,
}

impl Last {
    /// The runs `written` to the temporary file merged with `in_memory`, sorted: the first `cap`
    /// listed, the findings of `dropped` rules left out.
    pub(super) fn merge(
        written: Option<Written>,
        in_memory: Vec<Finding>,
        cap: usize,
        dropped: Vec<&'static RuleMeta>,
    ) -> Last {
        let mut sources = Vec::new();
        let spill = written.map(|Written { file, rules, runs }| {
            for (start, end) in runs {
                sources.push(Source::Disk(DiskRun::new(start, end)));
            }
            (file, rules)
        });
        sources.push(Source::Memory(in_memory.into_iter()));
        let mut last = Last {
            sources,
            spill,
            heap: BinaryHeap::new(),
            pending: None,
            cap,
            listed: 0,
            omitted: Omitted::default(),
            failure: None,
            dropped,
        };
        for i in 0..last.sources.len() {
            last.refill(i);
        }
        last
    }

    /// Source `i`'s next finding.
    fn pull(&mut self, i: usize) -> Result<Option<Finding>, String> {
        match &mut self.sources[i] {
            Source::Memory(it) => Ok(it.next()),
            Source::Disk(run) => {
                let Some((file, rules)) = &self.spill else {
                    return Ok(None);
                };
                run.read(file, rules)
                    .map_err(|e| format!("the findings held on disk could not be read back: {e}"))
            }
        }
    }

    /// The next finding in order, its repeats and those of dropped rules left out, or `None`
    /// at the end.
    fn next_merged(&mut self) -> Option<Finding> {
        let mut head = self.heap.pop()?;
        while self
            .dropped
            .iter()
            .any(|r| std::ptr::eq(*r, head.finding.rule))
        {
            self.refill(head.source);
            head = self.heap.pop()?;
        }
        self.refill(head.source);
        while let Some(top) = self.heap.peek() {
            if !repeats(&head.finding, &top.finding) {
                break;
            }
            let again = self.heap.pop().expect("peeked");
            self.refill(again.source);
        }
        Some(head.finding)
    }

    fn refill(&mut self, source: usize) {
        match self.pull(source) {
            Ok(Some(finding)) => self.heap.push(Head { finding, source }),
            Ok(None) => {}
            Err(e) => {
                self.failure.get_or_insert(e);
            }
        }
    }

    /// Up to the next listed findings of a few thousand, ending where a file's findings end
    /// (a writer places and orders a file's findings together); `None` once all are out.
    pub fn next_batch(&mut self) -> Option<Vec<Finding>> {
        let mut batch = Vec::new();
        while let Some(f) = self.pending.take().or_else(|| self.next()) {
            if batch.len() >= BATCH
                && batch
                    .last()
                    .is_some_and(|l: &Finding| l.primary.path != f.primary.path)
            {
                self.pending = Some(f);
                break;
            }
            batch.push(f);
        }
        (!batch.is_empty()).then_some(batch)
    }

    /// How many were listed so far.
    pub fn listed(&self) -> usize {
        self.listed
    }

    /// Those past the cap, counted by severity, once every finding is out.
    pub fn omitted(&self) -> Omitted {
        self.omitted
    }

    /// Why some held findings could not be read back, if any could not: an internal error.
    pub fn failure(&self) -> Option<&str> {
        self.failure.as_deref()
    }
}

impl Iterator for Last {
    type Item = Finding;

    /// The next listed finding; those past the cap are counted on the way.
    fn next(&mut self) -> Option<Finding> {
        loop {
            let f = self.next_merged()?;
            if self.listed < self.cap {
                self.listed += 1;
                return Some(f);
            }
            self.omitted.count(f.severity, f.pre_rule);
        }
    }
}

impl DiskRun {
    /// A run of the file from byte `start` to `end`.
    pub(super) fn new(start: u64, end: u64) -> Self {
        DiskRun {
            next: start,
            end,
            buf: Vec::new(),
            at: 0,
            path: PathText::default(),
        }
    }

    /// The next finding of this run, `None` at its end.
    fn read(&mut self, file: &File, rules: &RuleTable) -> std::io::Result<Option<Finding>> {
        let Some(range) = self.record(file)? else {
            return Ok(None);
        };
        let mut r = Reader::new(&self.buf[range]);
        let finding = rules.read(&mut r, &mut self.path).ok_or_else(damaged)?;
        if !r.is_done() {
            return Err(damaged());
        }
        Ok(Some(finding))
    }

    /// The next record of this run (where it lies in the buffer, [`DiskRun::buffer`]), `None`
    /// at its end.
    pub(super) fn record(
        &mut self,
        file: &File,
    ) -> std::io::Result<Option<std::ops::Range<usize>>> {
        if self.at == self.buf.len() && self.next == self.end {
            return Ok(None);
        }
        let len = self.bytes(file, 8)?;
        let len = usize::try_from(u64::from_le_bytes(
            self.buf[len..len + 8].try_into().expect("eight bytes"),
        ))
        .map_err(|_| damaged())?;
        self.at += 8;
        let start = self.bytes(file, len)?;
        self.at += len;
        Ok(Some(start..start + len))
    }

    /// The bytes read ahead, where [`DiskRun::record`] places its records; and the path of the
    /// last finding read, for the next to share.
    pub(super) fn buffer(&mut self) -> (&[u8], &mut PathText) {
        (&self.buf, &mut self.path)
    }

    /// Makes the next `n` bytes readable at `self.at` (returned), reading ahead from the file.
    fn bytes(&mut self, mut file: &File, n: usize) -> std::io::Result<usize> {
        if self.buf.len() - self.at < n {
            self.buf.drain(..self.at);
            self.at = 0;
            let wanted = (n - self.buf.len()).max(READ_AHEAD);
            let left = usize::try_from(self.end - self.next).unwrap_or(usize::MAX);
            let take = wanted.min(left);
            if self.buf.len() + take < n {
                return Err(damaged());
            }
            let from = self.buf.len();
            self.buf.resize(from + take, 0);
            file.seek(SeekFrom::Start(self.next))?;
            file.read_exact(&mut self.buf[from..])?;
            self.next += take as u64;
        }
        Ok(self.at)
    }
}

pub(super) fn damaged() -> std::io::Error {
    std::io::Error::new(
        std::io::ErrorKind::InvalidData,
        "a record of the temporary file is damaged",
    )
}
