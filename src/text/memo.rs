//! Input text already masked, remembered per thread, so a report does not search the same
//! string for secrets once per finding.
//!
//! A report repeats its input text: every finding of a file names the same path, the pointers
//! of one format recur from file to file (`/levels/3/output_tokens`), and a rule's message often
//! reads the same in many files. Masking a string walks its words and classifies each one;
//! looking it up costs a hash. Masking is a pure function of the string, so a remembered answer
//! is the one that would be computed again. Memory is bounded: only strings of a useful length
//! are kept, and the table is emptied when it holds [`MAX_BYTES`].

use std::cell::RefCell;

use crate::secrets::memo::Bounded;

/// Strings this short are masked again rather than looked up: the search itself gives up on
/// them at once.
const MIN_LEN: usize = 6;
/// Longer strings are not kept (a long quoted command line is rarely repeated).
const MAX_LEN: usize = 512;
/// Most bytes of strings (and their masked forms) kept per thread, each entry's own cost
/// counted ([`Bounded::insert`]).
const MAX_BYTES: usize = 2 << 20;

thread_local! {
    /// Each string seen, with its masked form, or `None` when masking leaves it as it is.
    static MASKED: RefCell<Bounded<Option<Box<str>>>> = RefCell::new(Bounded::new(MAX_BYTES));
}

/// `s` with every secret replaced (`None`: nothing to replace), as [`crate::secrets::redact_text`]
/// says, remembered for the next time the same string is written on this thread.
pub(super) fn redacted(s: &str) -> Option<String> {
    if !(MIN_LEN..=MAX_LEN).contains(&s.len()) {
        return crate::secrets::redact_text(s);
    }
    if let Some(known) = MASKED.with(|m| m.borrow().get(s).cloned()) {
        return known.map(String::from);
    }
    let out = crate::secrets::redact_text(s);
    MASKED.with(|m| {
        let extra = out.as_ref().map_or(0, String::len);
        m.borrow_mut()
            .insert(s, out.as_deref().map(Box::from), extra);
    });
    out
}

#[cfg(test)]
mod tests {
    use super::redacted;

    #[test]
    fn remembers_the_answer_it_would_compute_again() {
        let key = "token sk-proj-Q9vLx2mT7rB4nK8wE1yZ5cH3jD6fA0gP in the notes";
        let first = redacted(key);
        assert!(first.as_deref().is_some_and(|m| !m.contains("sk-proj")));
        assert_eq!(redacted(key), first);
        assert_eq!(redacted("/levels/3/output_tokens"), None);
        assert_eq!(redacted("/levels/3/output_tokens"), None);
    }
}
