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

use std::fs::File;
use std::io::{BufWriter, Seek, SeekFrom, Write};

use super::last::{Last, Written};
use crate::config::Selection;
use crate::diagnostic::codec::RuleTable;
use crate::diagnostic::{Finding, Location, RuleMeta, sort_keeping_repeats};

/// What the held findings may weigh in memory before a run of them is written out: a few
/// thousand findings, enough that the runs of a large corpus stay few.
pub const BUDGET: usize = 8 << 20;

/// Bytes written to a run at a time.
const WRITE_BEHIND: usize = 64 << 10;

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
    /// The folder of the temporary file, where not the system's (tests).
    folder: Option<std::path::PathBuf>,
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
            folder: None,
        }
    }

    /// [`Held::new`], its temporary file made in `folder`.
    #[cfg(test)]
    pub(super) fn in_folder(
        selection: &'s Selection,
        budget: usize,
        folder: &std::path::Path,
    ) -> Self {
        Held {
            folder: Some(folder.to_path_buf()),
            ..Held::new(selection, budget)
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
        let mut spill = if let Some(s) = self.spill.take() {
            s
        } else if let Ok(file) = crate::io::unnamed_file(self.folder.as_deref()) {
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
        match spill.append(&self.buffer) {
            Ok(()) => {
                // Its room kept for the next run: a budget's worth, never more.
                self.buffer.clear();
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
        let written = self.spill.map(|spill| Written {
            file: spill.file,
            rules: spill.rules,
            runs: spill.runs,
        });
        Last::merge(written, self.buffer, cap, self.dropped)
    }
}

impl Spill {
    /// Writes `findings` as one run: each a length, then its record.
    fn append(&mut self, findings: &[Finding]) -> std::io::Result<()> {
        let start = self.end;
        let mut out = BufWriter::with_capacity(WRITE_BEHIND, &self.file);
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

#[cfg(test)]
#[path = "held_tests.rs"]
mod tests;
