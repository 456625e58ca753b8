//! Strings already found to hold no secret, remembered per thread.
//!
//! The secret checks look at every string of every file, and most of them repeat from file to
//! file: model names, dates' shapes aside, engine flags, image names, a lab's notes template.
//! Looking a string up costs a hash; classifying it again costs a walk over its words. Only
//! the verdict "no secret" is kept (a secret is rare, and its finding needs the full answer),
//! only for strings long enough to be worth it, and the memory is bounded: the set is emptied
//! when it holds [`MAX_BYTES`]. The verdicts are those of pure functions of the string, so a
//! remembered one is the one that would be computed again.

use std::cell::RefCell;
use std::collections::HashSet;

/// Strings this short are checked again rather than looked up: the checks cost less.
pub(super) const MIN_LEN: usize = 9;
/// Longer strings are not kept (one would fill the set for one file).
const MAX_LEN: usize = 1024;
/// Most bytes of strings kept per thread, per kind of check.
const MAX_BYTES: usize = 2 << 20;

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

#[derive(Default)]
struct Seen {
    strings: HashSet<Box<str>>,
    bytes: usize,
}

thread_local! {
    static CLEAN: RefCell<[Seen; 3]> = RefCell::default();
}

/// Whether `s` is worth remembering at all.
pub(super) fn worth(s: &str) -> bool {
    (MIN_LEN..=MAX_LEN).contains(&s.len())
}

/// Whether `s` was found to hold no secret by `check` on this thread.
pub(super) fn known_clean(check: Check, s: &str) -> bool {
    CLEAN.with(|c| c.borrow()[check as usize].strings.contains(s))
}

/// Remembers that `s` holds no secret for `check`.
pub(super) fn remember_clean(check: Check, s: &str) {
    CLEAN.with(|c| {
        let seen = &mut c.borrow_mut()[check as usize];
        if seen.bytes + s.len() > MAX_BYTES {
            seen.strings.clear();
            seen.bytes = 0;
        }
        if seen.strings.insert(s.into()) {
            seen.bytes += s.len();
        }
    });
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
        let total = CLEAN.with(|c| c.borrow()[Check::Value as usize].bytes);
        assert!(total <= MAX_BYTES, "{total}");
    }
}
