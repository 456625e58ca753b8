//! The named thresholds of every rule, with the source each default comes from.
//!
//! The configuration file may override any of them; rules read them only from here.

/// Thresholds in force for a run.
#[derive(Debug, Clone, PartialEq)]
pub struct Thresholds {
    /// Largest file read, bytes (E001). Files are never read whole before this is checked.
    pub max_file_bytes: u64,
}

impl Default for Thresholds {
    fn default() -> Self {
        Thresholds {
            max_file_bytes: 256 * 1024 * 1024,
        }
    }
}
