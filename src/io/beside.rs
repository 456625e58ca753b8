//! Consulting the files beside a document: what an adapter may read besides the document it
//! was given, for formats whose meaning spans a folder (an inference-perf run folder, a
//! genai-bench experiment) and for the run-folder companions (the engine's `server.log`, a
//! `vllm_command.txt`).
//!
//! The design is small on purpose:
//!
//! - **Where.** Two places only: the document's own folder ([`Place::Here`]) and the folder
//!   above it ([`Place::Up`], the run folder above `aiperf_artifacts/`, or the folder that holds
//!   an inference-perf `config.yaml` shared by several result folders). Nothing deeper, nothing
//!   higher, no globbing of the tree.
//! - **Inside the corpus.** A consulted file is read only when it is a regular file whose real
//!   path (symlinks resolved) lies inside the corpus root: the folder argument, or for a
//!   document that sits directly in the root, the folder above the root (so a file or a run's
//!   `aiperf_artifacts/` named on the command line still sees its run folder). A symlink that
//!   resolves anywhere else (`~/.aws/credentials`, `/proc/self/environ`) is never opened.
//! - **Bounded.** JSON companions are read up to [`MAX_JSON_BYTES`] and parsed with the
//!   corpus's own limits; short text files (command files) up to [`MAX_TEXT_BYTES`]; logs are
//!   never loaded whole: [`Folder::scan_lines`] streams them a line at a time, keeps no line
//!   longer than [`MAX_LINE_BYTES`], and stops after [`MAX_SCAN_BYTES`] or as soon as the
//!   caller has what it wanted. A folder with more than [`MAX_NAMES`] entries is not listed.
//! - **Cached per folder.** Every read and every value an adapter computes from a folder (a
//!   ladder plan, the facts of a server log) is cached under the folder's real path and a key,
//!   computed once by the first document that asks; the 60 files of a folder share one read of
//!   its metadata. A computation runs on the thread that asked, never on the thread pool, so a
//!   waiting thread can never be asked to run the computation it waits for.
//! - **Deterministic.** Listings are sorted; whichever thread computes a cached value, the
//!   value depends on the files alone. [`Folder::in_corpus`] says whether a file beside is
//!   itself being read in this run, which is how a ladder spread over several files is
//!   assembled exactly once (by its first member in the corpus) whatever order files are read in.

mod folder;
mod neighbourhood;

pub use folder::Folder;
pub use neighbourhood::Neighbourhood;

/// Largest JSON file consulted beside a document, bytes.
pub const MAX_JSON_BYTES: u64 = 64 * 1024 * 1024;
/// Largest short text file (a launch command) consulted, bytes.
pub const MAX_TEXT_BYTES: u64 = 256 * 1024;
/// Longest log line kept by [`Folder::scan_lines`], bytes; a longer line is skipped.
pub const MAX_LINE_BYTES: usize = 1024 * 1024;
/// Most bytes of one log [`Folder::scan_lines`] reads before it stops.
pub const MAX_SCAN_BYTES: u64 = 64 * 1024 * 1024;
/// Most entries of a folder that is listed; a larger folder is not listed at all.
pub const MAX_NAMES: usize = 100_000;

/// Which folder, relative to the document.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Place {
    /// The document's own folder.
    Here,
    /// The folder above it.
    Up,
}

#[cfg(test)]
mod tests;
