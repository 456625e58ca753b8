//! `sidecar-conflict` (M019): a sidecar that contradicts what the file records.

use super::declare_rule;

declare_rule! {
    /// ## What it checks
    /// A sidecar (`<file>.meta.json` beside a result, or a `[[sidecar]]` entry of
    /// `benchlint.toml`) supplies a value that the result file already records differently.
    /// The file's own value is kept; the finding points at it and names the sidecar's value
    /// and location.
    ///
    /// ## Why is this bad?
    /// A sidecar exists to add what a file does not record (seed 004: "three of our four
    /// retractions were only checkable because a second document happened to preserve the
    /// missing detail"). When the two disagree, one of them is wrong, and silently preferring
    /// either would publish a configuration nobody can vouch for.
    ///
    /// ## Example
    /// `run1.json` records `"max_num_seqs": 32`; `run1.meta.json` says `"max_num_seqs": 64`.
    ///
    /// ## What to do instead
    /// Find out which is true; fix the sidecar (the result file is the measurement's own
    /// record) or, if the file is wrong, re-export it.
    pub static RULE = {
        code: "M019",
        name: "sidecar-conflict",
        severity: Error,
        scope: Input,
        source: "DESIGN.md (sidecars)",
        summary: "sidecar contradicts the file",
    }
}
