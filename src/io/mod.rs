//! Files read and consulted within bounds: one file read as UTF-8 text under a size limit,
//! whole (`read`) or a line at a time (`lines`), I/O errors in words, and the files beside a
//! document that an adapter may consult (`beside`). Below every reader (adapters, config, the loader, reporters that quote a file),
//! so none of them reaches up into the loader to read a file.

pub mod beside;
mod lines;
mod read;

pub use lines::LineFile;
pub use read::{ReadError, describe_io, identity, read_seen, read_text};
