//! The results of a long JSON Lines file put away on the worker reading it, a chunk of lines at
//! a time, for a command that puts every result away itself (`Options::put_away`, no hand): they
//! are read back one at a time when the file's turn comes. Kept until the file's last line was
//! read, a file of twenty thousand lines held every result at once (1.3 KB each), which the
//! command then put away anyway.
//!
//! What is put away is what such a command keeps of a result: where it was read and its typed
//! document ([`ResultSpool`]), exactly as the command's own spool writes them.

use super::LoadedResult;
use crate::model::loaded::spool::ResultSpool;

/// How many results a file's outcome holds before they are put away: a file of a few hundred
/// lines keeps them in memory, as any other file does, and never makes a temporary file.
pub(super) const PARK_AT: usize = 256;

/// The threshold in force ([`PARK_AT`]; a test sets another, to hold or put away every result).
#[cfg(test)]
pub(super) static PARK_AT_TEST: std::sync::atomic::AtomicUsize =
    std::sync::atomic::AtomicUsize::new(PARK_AT);

/// Results put away so far by every run of the tests.
#[cfg(test)]
pub(super) static PARKED_TEST: std::sync::atomic::AtomicUsize =
    std::sync::atomic::AtomicUsize::new(0);

/// Whether an outcome holding `held` results puts them away.
pub(super) fn parks(held: usize) -> bool {
    #[cfg(test)]
    return held >= PARK_AT_TEST.load(std::sync::atomic::Ordering::Relaxed);
    #[cfg(not(test))]
    return held >= PARK_AT;
}

/// Results put away, in the order they were read.
#[derive(Debug, Default)]
pub(super) struct Parked {
    spool: Option<Box<ResultSpool>>,
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
        if self.stuck {
            return;
        }
        let spool = self.spool.get_or_insert_with(Box::default);
        let mut parked = 0;
        for r in results.iter() {
            if spool.put(r).is_err() {
                self.stuck = true;
                break;
            }
            parked += 1;
        }
        #[cfg(test)]
        PARKED_TEST.fetch_add(parked, std::sync::atomic::Ordering::Relaxed);
        results.drain(..parked);
    }

    /// Each result put away, read back in order, to `keep`; then the temporary file is let go.
    /// `Err` at the first that cannot be read back: those after it are not handed.
    pub(super) fn drain(&mut self, keep: &mut dyn FnMut(LoadedResult)) -> Result<(), String> {
        let Some(spool) = self.spool.take() else {
            return Ok(());
        };
        for k in 0..spool.len() {
            keep(spool.get(k)?);
        }
        Ok(())
    }
}
