//! Long documents handed to their writer in pieces: a report of many configurations runs to
//! hundreds of megabytes, and building it whole before writing it would hold all of it.

use std::io::{self, Write};

/// The bytes a streamed report (`json`, `json-lines`, `concise`) gathers before handing them
/// to the output: the findings known only at the end of a run can be tens of thousands, and
/// their text is written a chunk at a time rather than built whole.
pub(crate) const CHUNK: usize = 1 << 16;

/// How much text a writer gathers before it hands it over.
const SPILL_AT: usize = 1 << 20;

/// A document's text being written: gathered as a `String` (it derefs to one, so `push_str`
/// and `write!` work on it), and handed to its sink whenever a loop over the corpus's files calls
/// [`Spilling::spill`], so a section with a row per file is never held whole. A failed write
/// stops the writing; [`Spilling::finish`] reports it.
pub(crate) struct Spilling<'s> {
    text: String,
    sink: &'s mut dyn Write,
    failed: Option<io::Error>,
}

impl<'s> Spilling<'s> {
    pub(crate) fn new(sink: &'s mut dyn Write) -> Self {
        Spilling {
            text: String::new(),
            sink,
            failed: None,
        }
    }

    /// Hands the text gathered so far to the sink and empties it once it holds [`SPILL_AT`]
    /// bytes or more; called between sections and rows, so the text is written in the order it
    /// was made. After a failed write, the text is dropped.
    pub(crate) fn spill(&mut self) {
        if self.text.len() < SPILL_AT {
            return;
        }
        if self.failed.is_none()
            && let Err(e) = self.sink.write_all(self.text.as_bytes())
        {
            self.failed = Some(e);
        }
        self.text.clear();
    }

    /// Writes what is left, or reports the first write that failed.
    pub(crate) fn finish(self) -> io::Result<()> {
        match self.failed {
            Some(e) => Err(e),
            None => self.sink.write_all(self.text.as_bytes()),
        }
    }
}

impl std::ops::Deref for Spilling<'_> {
    type Target = String;
    fn deref(&self) -> &String {
        &self.text
    }
}

impl std::ops::DerefMut for Spilling<'_> {
    fn deref_mut(&mut self) -> &mut String {
        &mut self.text
    }
}

/// The whole of a document that [`spill`]s as it is written, in memory.
pub(crate) fn in_memory(write: impl FnOnce(&mut dyn Write) -> io::Result<()>) -> Vec<u8> {
    let mut bytes = Vec::new();
    write(&mut bytes).expect("a document writes into memory");
    bytes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_spilling_text_hands_over_past_the_mark_and_keeps_the_order() {
        let mut sink = Vec::new();
        let mut out = Spilling::new(&mut sink);
        out.push_str("head ");
        out.spill();
        assert_eq!(out.len(), 5, "short text stays gathered");
        for _ in 0..3 {
            out.push_str(&"x".repeat(SPILL_AT / 2 + 1));
            out.spill();
        }
        out.push_str(" tail");
        out.finish().unwrap();
        assert_eq!(sink.len(), 5 + 3 * (SPILL_AT / 2 + 1) + 5);
        assert!(sink.starts_with(b"head x") && sink.ends_with(b"x tail"));
    }

    #[test]
    fn a_failed_write_is_reported_once_the_text_is_finished() {
        struct Closed;
        impl Write for Closed {
            fn write(&mut self, _: &[u8]) -> io::Result<usize> {
                Err(io::Error::new(io::ErrorKind::BrokenPipe, "closed"))
            }
            fn flush(&mut self) -> io::Result<()> {
                Ok(())
            }
        }
        let mut closed = Closed;
        let mut out = Spilling::new(&mut closed);
        out.push_str(&"x".repeat(SPILL_AT));
        out.spill();
        assert!(out.is_empty(), "the text is dropped, not kept growing");
        out.push_str("more");
        let e = out.finish().unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::BrokenPipe);
    }
}
