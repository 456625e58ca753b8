//! Where the free-text search stands after a text read a line at a time: for a reader that
//! keeps only some of a long text, the places where the search over what follows reads it as
//! a search over the whole text does.

use super::words::{Awaiting, auth_scheme, looks_ahead_for_assignment, read_word};
use super::{trim_word, word_break};

/// Where the free-text search stands after a text fed to it a piece at a time: what its
/// words leave awaited, as written and as decoded, and the last word, whose reading waits for
/// the word after it. Where it stands at rest, the search over the text that follows finds
/// there what a search over that text alone finds.
#[derive(Debug, Default)]
pub struct FreeTextRest {
    written: WordsRest,
    /// The reading of the decoded text, once a piece read differs decoded (before, it is the
    /// written one's).
    decoded: Option<WordsRest>,
}

#[derive(Debug, Default, Clone)]
struct WordsRest {
    awaiting: Awaiting,
    last: Option<String>,
}

impl WordsRest {
    fn feed(&mut self, text: &str) {
        let mut words = text.split(word_break).filter(|w| !w.is_empty()).peekable();
        let Some(&first) = words.peek() else {
            return;
        };
        if let Some(last) = self.last.take() {
            read_word(&mut self.awaiting, 0, &last, Some((0, first)), None);
        }
        while let Some(word) = words.next() {
            match words.peek() {
                Some(&next) => read_word(&mut self.awaiting, 0, word, Some((0, next)), None),
                None => self.last = Some(word.to_string()),
            }
        }
    }

    /// Whether nothing is awaited and the last word, read whatever follows it, leaves nothing
    /// awaited and reaches nothing past itself: a word that looks at the one after it (a
    /// scheme, a secret name before an `=`) is never at rest.
    fn at_rest(&self) -> bool {
        if self.awaiting != Awaiting::default() {
            return false;
        }
        let Some(last) = &self.last else {
            return true;
        };
        let core = trim_word(last).1;
        if core.is_empty() {
            return true;
        }
        if auth_scheme(core).is_some() || looks_ahead_for_assignment(core) {
            return false;
        }
        let mut after = self.awaiting;
        read_word(&mut after, 0, last, None, None);
        after == Awaiting::default()
    }
}

impl FreeTextRest {
    /// Reads `text`, which follows what was fed before at a word break (a line, say).
    pub fn feed(&mut self, text: &str) {
        match super::super::decode::decoded(text) {
            Some((decoded, _)) => {
                self.decoded
                    .get_or_insert_with(|| self.written.clone())
                    .feed(&decoded);
            }
            None => {
                if let Some(d) = &mut self.decoded {
                    d.feed(text);
                }
            }
        }
        self.written.feed(text);
    }

    /// Whether the search stands at rest after what was fed.
    pub fn at_rest(&self) -> bool {
        self.written.at_rest() && self.decoded.as_ref().is_none_or(WordsRest::at_rest)
    }
}
