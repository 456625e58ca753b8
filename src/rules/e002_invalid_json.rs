//! `invalid-json` (E002): a document that does not parse.

use super::declare_rule;

declare_rule! {
    /// ## What it checks
    /// A document that is not JSON: truncated, a trailing comma, a stray character. The
    /// finding points at the line and column where the parser stopped. In a JSON Lines file
    /// each broken line is its own finding and the other lines are still read. A document
    /// nested deeper than `max_depth` (64 levels by default) is not parsed at all, and a number
    /// beyond the largest double (`1e999`) is out of range.
    ///
    /// A file that is not JSON at all (CSV, a log, notes) and that no other reader takes gets
    /// one finding for the whole file, saying what it looks like, never one per line. A YAML
    /// report that does not parse is reported at the line and column where reading stopped;
    /// one whose aliases would expand past the bound (4 million nodes or 256 MiB of text, the
    /// "billion laughs" attack) or that nests deeper than `max_depth` is refused, in time and
    /// memory bounded by the limit, not by the expansion.
    ///
    /// ## Why is this bad?
    /// A truncated result is usually a run that was killed while writing; its figures cannot
    /// be trusted or checked.
    ///
    /// ## Example
    /// ```json
    /// {"schema": "benchlint/result/v1", "id": "gb10-x8-r1", "levels": [
    /// ```
    ///
    /// ## What to do instead
    /// Re-export the result from the harness, or remove the file and record the run as
    /// `"outcome": "aborted"`.
    pub static RULE = {
        code: "E002",
        name: "invalid-json",
        severity: Error,
        scope: Input,
        source: "DESIGN.md (input errors)",
        summary: "document is not valid JSON",
    }
}
