//! The findings a run knows only once every file is read (the corpus-wide rules, E004, E006):
//! held in memory up to a budget, then sorted and written in runs to an unnamed temporary file,
//! and merged back in output order as they are written out. A corpus of a hundred thousand
//! configurations makes half a million of them, a kilobyte each with their words; memory holds
//! a budget's worth whatever their number.
//!
//! What comes out is what sorting them all at once gives ([`sort_findings`]): each run is sorted
//! stably, the merge takes equal findings in the order their runs were written, and a finding
//! that repeats the one before it is dropped as it is merged. The temporary file is the
//! system's (`TMPDIR`), never the corpus, and is gone when the run ends, however it ends. If it
//! cannot be made or written, the findings stay in memory, as they always did.
//!
//! [`sort_findings`]: crate::diagnostic::sort_findings

use std::cmp::Ordering;
use std::collections::BinaryHeap;
use std::fs::File;
use std::io::{BufWriter, Read, Seek, SeekFrom, Write};

use crate::config::Selection;
use crate::diagnostic::codec::RuleTable;
use crate::diagnostic::{Finding, Location, Omitted, RuleMeta, repeats, sort_keeping_repeats};
use crate::text::PathText;
use crate::text::bytes::Reader;

/// What the held findings may weigh in memory before a run of them is written out: a few
/// thousand findings, enough that the runs of a large corpus stay few.
pub const BUDGET: usize = 8 << 20;

/// Findings of a listed batch ([`Last::next_batch`]) before it ends at the next file.
const BATCH: usize = 4096;

/// Bytes read from a run at a time while merging.
const READ_AHEAD: usize = 64 << 10;

/// The findings held until the end of a run.
pub struct Held<'s> {
    selection: &'s Selection,
    budget: usize,
    buffer: Vec<Finding>,
    weight: usize,
    spill: Option<Spill>,
    /// The temporary file could not be made or written: every finding from then on stays in
    /// memory.
    in_memory: bool,
    /// Rules that panicked: what they made before is dropped, as their findings were before
    /// any were written out.
    dropped: Vec<&'static RuleMeta>,
}

/// The runs written so far, one after another in one file.
struct Spill {
    file: File,
    rules: RuleTable,
    /// Each run's first byte and the byte past its last.
    runs: Vec<(u64, u64)>,
    end: u64,
}

impl<'s> Held<'s> {
    /// Nothing held yet; `selection` is applied to every finding before it is sorted (which
    /// rules run on which files, at what severity), `budget` bytes are held before a run is
    /// written.
    pub fn new(selection: &'s Selection, budget: usize) -> Self {
        Held {
            selection,
            budget,
            buffer: Vec::new(),
            weight: 0,
            spill: None,
            in_memory: false,
            dropped: Vec::new(),
        }
    }

    /// Drops every finding of `rule` held so far and to come: the rule panicked, and a rule's
    /// findings are listed whole or not at all.
    pub fn drop_rule(&mut self, rule: &'static RuleMeta) {
        self.buffer.retain(|f| !std::ptr::eq(f.rule, rule));
        self.dropped.push(rule);
    }

    /// Holds `finding`.
    pub fn push(&mut self, finding: Finding) {
        if self.dropped.iter().any(|r| std::ptr::eq(*r, finding.rule)) {
            return;
        }
        self.weight += weight_of(&finding);
        self.buffer.push(finding);
        if self.weight > self.budget && !self.in_memory {
            self.write_run();
        }
    }

    /// The buffer selected and sorted, written as the next run; kept in memory if it cannot be.
    fn write_run(&mut self) {
        self.selection.apply(&mut self.buffer);
        sort_keeping_repeats(&mut self.buffer);
        let spill = if let Some(s) = self.spill.take() {
            s
        } else if let Ok(file) = tempfile::tempfile() {
            Spill {
                file,
                rules: RuleTable::default(),
                runs: Vec::new(),
                end: 0,
            }
        } else {
            self.in_memory = true;
            return;
        };
        let mut spill = spill;
        match spill.append(&self.buffer) {
            Ok(()) => {
                self.buffer = Vec::new();
                self.weight = 0;
            }
            Err(_) => self.in_memory = true,
        }
        self.spill = Some(spill);
    }

    /// Every held finding, selected, in output order, deduplicated, the first `cap` listed and
    /// the rest counted ([`Last`]).
    pub fn finish(mut self, cap: usize) -> Last {
        self.selection.apply(&mut self.buffer);
        sort_keeping_repeats(&mut self.buffer);
        let mut sources = Vec::new();
        let mut failure = None;
        let spill = self.spill.map(|spill| {
            for &(start, end) in &spill.runs {
                sources.push(Source::Disk(DiskRun {
                    next: start,
                    end,
                    buf: Vec::new(),
                    at: 0,
                    path: PathText::default(),
                }));
            }
            (spill.file, spill.rules)
        });
        sources.push(Source::Memory(self.buffer.into_iter()));
        let mut last = Last {
            sources,
            spill,
            heap: BinaryHeap::new(),
            pending: None,
            cap,
            listed: 0,
            omitted: Omitted::default(),
            failure: None,
            dropped: self.dropped,
        };
        for i in 0..last.sources.len() {
            match last.pull(i) {
                Ok(Some(f)) => last.heap.push(Head {
                    finding: f,
                    source: i,
                }),
                Ok(None) => {}
                Err(e) => failure = Some(e),
            }
        }
        last.failure = failure;
        last
    }
}

impl Spill {
    /// Writes `findings` as one run: each a length, then its record.
    fn append(&mut self, findings: &[Finding]) -> std::io::Result<()> {
        let start = self.end;
        let mut out = BufWriter::with_capacity(READ_AHEAD, &self.file);
        out.seek(SeekFrom::Start(start))?;
        let mut record = Vec::new();
        let mut end = start;
        for f in findings {
            record.clear();
            self.rules.write(f, &mut record);
            out.write_all(&(record.len() as u64).to_le_bytes())?;
            out.write_all(&record)?;
            end += 8 + record.len() as u64;
        }
        out.flush()?;
        self.runs.push((start, end));
        self.end = end;
        Ok(())
    }
}

/// What a held finding weighs: itself, its words, its places.
fn weight_of(f: &Finding) -> usize {
    let place = |l: &Location| size_of::<Location>() + l.pointer.raw().len();
    size_of::<Finding>()
        + f.message.stored_len()
        + f.label.as_ref().map_or(0, crate::text::Text::stored_len)
        + f.help.as_ref().map_or(0, crate::text::Text::stored_len)
        + f.primary.pointer.raw().len()
        + f.related.iter().map(place).sum::<usize>()
        + f.absent.as_ref().map_or(0, |a| 256 + a.words.len())
        + f.key.as_ref().map_or(0, |k| k.len())
}

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
struct DiskRun {
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

impl Last {
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
    /// The next finding of this run, `None` at its end.
    fn read(&mut self, file: &File, rules: &RuleTable) -> std::io::Result<Option<Finding>> {
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
        let mut r = Reader::new(&self.buf[start..start + len]);
        let finding = rules.read(&mut r, &mut self.path).ok_or_else(damaged)?;
        if !r.is_done() {
            return Err(damaged());
        }
        Ok(Some(finding))
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

fn damaged() -> std::io::Error {
    std::io::Error::new(
        std::io::ErrorKind::InvalidData,
        "a record of the temporary file is damaged",
    )
}

#[cfg(test)]
#[path = "held_tests.rs"]
mod tests;
