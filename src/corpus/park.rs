//! The results of a long JSON Lines file put away on the worker reading it, a chunk of lines at
//! a time, for a command that puts every result away itself (`Options::put_away`, no hand): they
//! are read back one at a time when the file's turn comes. Kept until the file's last line was
//! read, a file of twenty thousand lines held every result at once (1.3 KB each), which the
//! command then put away anyway.
//!
//! What is put away is what such a command keeps of a result: where it was read and its typed
//! document ([`ResultSpool`]), exactly as the command's own spool writes them.

use std::sync::atomic::{AtomicUsize, Ordering};

use super::LoadedResult;
use crate::model::ProvenanceMap;
use crate::model::loaded::spool::ResultSpool;

/// Temporary files of results put away that may be open at once: each holds a file descriptor
/// until its file's turn, and the files in flight are a few chunks of 256. Past this, a file
/// keeps its results until another's are read back (what every file did before), rather than
/// leave the loader no descriptor to open the next input with.
const MAX_OPEN: usize = 64;

/// Temporary files of results put away open now, across the run's workers.
static OPEN: AtomicUsize = AtomicUsize::new(0);

/// How many results a file's outcome holds before they are put away: a file of a few hundred
/// lines keeps them in memory, as any other file does, and never makes a temporary file.
pub(crate) const PARK_AT: usize = 256;

/// The threshold in force ([`PARK_AT`]; a test sets another, to hold or put away every result).
#[cfg(test)]
pub(crate) static PARK_AT_TEST: AtomicUsize = AtomicUsize::new(PARK_AT);

/// Results put away so far by every run of the tests.
#[cfg(test)]
pub(super) static PARKED_TEST: AtomicUsize = AtomicUsize::new(0);

/// Whether an outcome holding `held` results puts them away.
pub(super) fn parks(held: usize) -> bool {
    #[cfg(test)]
    return held >= PARK_AT_TEST.load(Ordering::Relaxed);
    #[cfg(not(test))]
    return held >= PARK_AT;
}

/// Results put away, in the order they were read.
#[derive(Debug, Default)]
pub(super) struct Parked {
    spool: Option<Box<ResultSpool>>,
    /// Where the values of each result put away came from (the spool keeps the document
    /// alone): given back with it, to place the corpus-wide rules' findings (`check`).
    provenance: Vec<ProvenanceMap>,
    /// The count of open temporary files this one is counted in, while it is open.
    slot: Option<&'static AtomicUsize>,
    /// A result could not be written out: it and every later one stay with the outcome, after
    /// those put away, so the file's order holds.
    stuck: bool,
}

impl Parked {
    /// How many results are put away.
    pub(super) fn len(&self) -> usize {
        self.spool.as_ref().map_or(0, |s| s.len())
    }

    /// Whether none is.
    pub(super) fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The adapters' names the results put away were read by.
    pub(super) fn formats(&self) -> &[&'static str] {
        self.spool.as_ref().map_or(&[], |s| s.formats())
    }

    /// Puts `results` away, in order, and lets them go; once one cannot be written out, it and
    /// those after it stay in `results` (a result the command's own spool cannot write either,
    /// which it reports).
    pub(super) fn park(&mut self, results: &mut Vec<LoadedResult>) {
        self.park_within(results, &OPEN, MAX_OPEN);
    }

    /// [`Parked::park`], its temporary file counted in `open`, of which at most `max` may be
    /// open at once: when as many are, the results stay until a later call finds a place (the
    /// results held are put away first then, so the file's order holds).
    fn park_within(
        &mut self,
        results: &mut Vec<LoadedResult>,
        open: &'static AtomicUsize,
        max: usize,
    ) {
        if self.stuck {
            return;
        }
        if self.slot.is_none() {
            if open
                .fetch_update(Ordering::AcqRel, Ordering::Acquire, |n| {
                    (n < max).then_some(n + 1)
                })
                .is_err()
            {
                return;
            }
            self.slot = Some(open);
        }
        let spool = self.spool.get_or_insert_with(Box::default);
        let mut parked = 0;
        for r in results.iter() {
            if spool.put(r).is_err() {
                self.stuck = true;
                break;
            }
            self.provenance.push(r.provenance.clone());
            parked += 1;
        }
        #[cfg(test)]
        PARKED_TEST.fetch_add(parked, Ordering::Relaxed);
        results.drain(..parked);
    }

    /// Each result put away, read back in order, to `keep`; then the temporary file is let go.
    /// `Err` at the first that cannot be read back: those after it are not handed.
    pub(super) fn drain(&mut self, keep: &mut dyn FnMut(LoadedResult)) -> Result<(), String> {
        let Some(spool) = self.spool.take() else {
            return Ok(());
        };
        let provenance = std::mem::take(&mut self.provenance);
        let read = (0..spool.len())
            .zip(provenance)
            .try_for_each(|(k, provenance)| {
                spool.get(k).map(|mut r| {
                    r.provenance = provenance;
                    keep(r);
                })
            });
        drop(spool);
        self.release();
        read
    }

    /// Its temporary file is closed: no longer counted as open.
    fn release(&mut self) {
        if let Some(open) = self.slot.take() {
            open.fetch_sub(1, Ordering::AcqRel);
        }
    }
}

impl Drop for Parked {
    fn drop(&mut self) {
        self.release();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Results as a long JSON Lines file makes them: `n` of them, each its own id.
    fn results(n: usize) -> Vec<LoadedResult> {
        (0..n)
            .map(|i| LoadedResult {
                origin: crate::model::translate::Origin {
                    path: "runs.jsonl".into(),
                    doc_start: i * 100,
                    format: "vllm",
                },
                doc: crate::model::ResultDoc {
                    id: format!("r{i}"),
                    ..crate::model::ResultDoc::default()
                },
                value: crate::model::loaded::Canonical::none(),
                provenance: crate::model::ProvenanceMap::default(),
                checklist: None,
            })
            .collect()
    }

    /// Past the files that may be open at once, a file keeps its results and puts them away,
    /// first, once another's are read back; a file let go unread frees its place too.
    #[test]
    fn at_most_so_many_files_are_open_and_the_order_holds() {
        static OPEN_HERE: AtomicUsize = AtomicUsize::new(0);
        let mut first = Parked::default();
        let mut second = Parked::default();
        let mut third = Parked::default();
        let (mut a, mut b, mut c) = (results(3), results(2), results(1));
        first.park_within(&mut a, &OPEN_HERE, 2);
        second.park_within(&mut b, &OPEN_HERE, 2);
        third.park_within(&mut c, &OPEN_HERE, 2);
        assert_eq!((a.len(), b.len(), c.len()), (0, 0, 1));
        assert_eq!(OPEN_HERE.load(Ordering::Acquire), 2);
        let mut back = Vec::new();
        first.drain(&mut |r| back.push(r.doc.id)).unwrap();
        assert_eq!(back, ["r0", "r1", "r2"]);
        assert_eq!(OPEN_HERE.load(Ordering::Acquire), 1);
        // The held one goes first, then the one made since.
        c.push(results(2).pop().unwrap());
        third.park_within(&mut c, &OPEN_HERE, 2);
        assert!(c.is_empty());
        drop(second);
        assert_eq!(OPEN_HERE.load(Ordering::Acquire), 1);
        let mut back = Vec::new();
        third.drain(&mut |r| back.push(r.doc.id)).unwrap();
        assert_eq!(back, ["r0", "r1"]);
        assert_eq!(OPEN_HERE.load(Ordering::Acquire), 0);
    }
}
