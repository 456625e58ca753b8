//! Files read and consulted within bounds: one file read as UTF-8 text under a size limit,
//! whole (`read`) or a line at a time (`lines`), I/O errors in words, the files beside a
//! document that an adapter may consult (`beside`), and what a run puts away in an unnamed
//! temporary file until it needs it again (`spool`, `sorted`). Below every reader (adapters,
//! config, the loader, reporters that quote a file), so none of them reaches up into the
//! loader to read a file.

pub mod beside;
mod lines;
mod read;
mod sorted;
mod spool;

pub use lines::LineFile;
pub use read::{ReadError, describe_io, identity, read_seen, read_text};
pub use sorted::{Sorted, SortedRecords};
pub use spool::{Spool, Ticket, unnamed_file};
