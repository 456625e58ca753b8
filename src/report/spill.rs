//! Long documents handed to their writer in pieces: a report of many configurations runs to
//! hundreds of megabytes, and building it whole before writing it would hold all of it.

use std::io::{self, Write};

/// How much text a writer gathers before it hands it over.
const SPILL_AT: usize = 1 << 20;

/// Hands `out` to `sink` and empties it once it holds [`SPILL_AT`] bytes or more; called
/// between the sections of a document, so the text is written in the order it was made.
pub(crate) fn spill(out: &mut String, sink: &mut dyn Write) -> io::Result<()> {
    if out.len() >= SPILL_AT {
        sink.write_all(out.as_bytes())?;
        out.clear();
    }
    Ok(())
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
    fn text_is_handed_over_only_past_the_mark_and_in_order() {
        let mut out = String::from("head ");
        let mut sink = Vec::new();
        spill(&mut out, &mut sink).unwrap();
        assert!(sink.is_empty(), "short text stays gathered");
        out.push_str(&"x".repeat(SPILL_AT));
        spill(&mut out, &mut sink).unwrap();
        assert!(out.is_empty());
        assert_eq!(sink.len(), 5 + SPILL_AT);
        assert!(sink.starts_with(b"head x"));
    }
}
