//! Strings already found to hold no secret, remembered per thread.
//!
//! The secret checks look at every string of every file, and most of them repeat from file to
//! file: model names, dates' shapes aside, engine flags, image names, a lab's notes template.
//! Looking a string up costs a hash; classifying it again costs a walk over its words. Only
//! the verdict "no secret" is kept (a secret is rare, and its finding needs the full answer),
//! only for strings long enough to be worth it, and the memory is bounded: the set is emptied
//! when it holds [`MAX_BYTES`]. The verdicts are those of pure functions of the string, so a
//! remembered one is the one that would be computed again.

use foldhash::{HashMap, HashMapExt};
use std::cell::RefCell;

/// Strings this short are checked again rather than looked up: the checks cost less.
pub(super) const MIN_LEN: usize = 9;
/// Longer strings are not kept (one would fill the set for one file).
const MAX_LEN: usize = 1024;
/// Most bytes a table of each kind of check holds per thread, its entries' own cost counted.
const MAX_BYTES: usize = 1 << 20;

/// What an entry costs beside its key's and answer's bytes: its slot in the table (the key's
/// pointer and length, the answer, a control byte, the room a table keeps free) and the key's
/// allocation rounded up. Counting only the strings' bytes let a table of short strings hold
/// three times its bound.
const ENTRY_COST: usize = 64;

/// A table of strings and what was worked out from each, held to a number of bytes: once full
/// it is emptied and filled again. The answers kept are those of pure functions of the string,
/// so emptying it only costs the work of finding them again. The output's masking memo
/// ([`crate::text`]) keeps its answers in one too.
pub(crate) struct Bounded<V> {
    entries: HashMap<Box<str>, V>,
    bytes: usize,
    max_bytes: usize,
}

impl<V> Bounded<V> {
    /// An empty table that holds at most `max_bytes` of keys and answers.
    pub(crate) fn new(max_bytes: usize) -> Self {
        Bounded {
            entries: HashMap::new(),
            bytes: 0,
            max_bytes,
        }
    }

    /// The answer kept for `key`.
    pub(crate) fn get(&self, key: &str) -> Option<&V> {
        self.entries.get(key)
    }

    /// Keeps `value` for `key`, counting `extra` bytes for the value beside the key's own.
    pub(crate) fn insert(&mut self, key: &str, value: V, extra: usize) {
        let size = key.len() + extra + ENTRY_COST;
        if self.bytes + size > self.max_bytes {
            self.entries.clear();
            self.bytes = 0;
        }
        if self.entries.insert(key.into(), value).is_none() {
            self.bytes += size;
        }
    }

    #[cfg(test)]
    pub(crate) fn bytes(&self) -> usize {
        self.bytes
    }

    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.entries.len()
    }
}

/// Which check a verdict belongs to.
#[derive(Clone, Copy)]
pub(super) enum Check {
    /// [`super::classify`] with no key, or a key that does not name a secret.
    Value,
    /// [`super::command_line_has_secret`].
    CommandLine,
    /// [`super::argv_secrets_of`], keyed by the argv's items with their lengths.
    Argv,
}

thread_local! {
    static CLEAN: RefCell<[Bounded<()>; 3]> =
        RefCell::new(std::array::from_fn(|_| Bounded::new(MAX_BYTES)));
    /// What each key name says of the values under it ([`super::keys::names_secret`]).
    static NAMINGS: RefCell<Bounded<Naming>> = RefCell::new(Bounded::new(MAX_BYTES));
}

/// What a key name says of the values under it, whatever object holds it
/// ([`super::keys::names_secret`]): [`super::is_secret_key_in`] reads the object only as a
/// free-form map or not, and a free-form map takes every name any other object takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Naming {
    /// No secret under any object.
    Never,
    /// A secret under every object.
    Always,
    /// A secret in a free-form map only (`openai_key`, `auth`).
    InFreeFormMaps,
}

/// Key names this short are read again rather than looked up: the sieve costs less.
const NAME_MIN_LEN: usize = 5;

/// What `key` says of its values, as `work_out` gives it (a pure function of the key), worked
/// out once per thread.
pub(super) fn naming(key: &str, work_out: fn(&str) -> Naming) -> Naming {
    if !(NAME_MIN_LEN..=MAX_LEN).contains(&key.len()) {
        return work_out(key);
    }
    if let Some(known) = NAMINGS.with(|n| n.borrow().get(key).copied()) {
        return known;
    }
    let naming = work_out(key);
    NAMINGS.with(|n| n.borrow_mut().insert(key, naming, 1));
    naming
}

/// Whether `s` is worth remembering at all.
pub(super) fn worth(s: &str) -> bool {
    (MIN_LEN..=MAX_LEN).contains(&s.len())
}

/// Whether `s` was found to hold no secret by `check` on this thread.
pub(super) fn known_clean(check: Check, s: &str) -> bool {
    CLEAN.with(|c| c.borrow()[check as usize].get(s).is_some())
}

/// Remembers that `s` holds no secret for `check`.
pub(super) fn remember_clean(check: Check, s: &str) {
    CLEAN.with(|c| c.borrow_mut()[check as usize].insert(s, (), 0));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verdicts_are_kept_per_check_and_bounded() {
        let s = "nvidia/Qwen3.8-Flash-Next-NVFP4";
        assert!(!known_clean(Check::Value, s));
        remember_clean(Check::Value, s);
        assert!(known_clean(Check::Value, s));
        assert!(!known_clean(Check::CommandLine, s));
        let long = "x".repeat(MAX_LEN);
        for i in 0..(MAX_BYTES / MAX_LEN + 10) {
            remember_clean(Check::Value, &format!("{i}{long}"));
        }
        let total = CLEAN.with(|c| c.borrow()[Check::Value as usize].bytes());
        assert!(total <= MAX_BYTES, "{total}");
    }

    /// Short strings fill a table by their number, not their bytes: a file's paths and ids,
    /// distinct in every file, are each an entry.
    #[test]
    fn a_table_of_short_strings_holds_its_bound_with_its_entries_counted() {
        let mut table: Bounded<()> = Bounded::new(MAX_BYTES);
        let mut most = 0;
        for i in 0..MAX_BYTES {
            table.insert(&format!("r{i:08}"), (), 0);
            most = most.max(table.len());
        }
        assert!(most <= MAX_BYTES / (9 + ENTRY_COST), "{most} entries");
        assert!(most >= MAX_BYTES / (9 + ENTRY_COST) - 1, "{most} entries");
    }
}
