//! `duplicate-result-id` (E006): two results share an id.

use super::declare_rule;

declare_rule! {
    /// ## What it checks
    /// Two results in the corpus with the same `id`. The first (in path order) is the primary
    /// location; the others are listed as related.
    ///
    /// ## Why is this bad?
    /// Claims and retractions refer to results by id. With two results behind one id, a claim
    /// silently rests on whichever one a tool happens to read, and a replicate may be counted
    /// twice.
    ///
    /// ## Example
    /// ```text
    /// gb10/x8/run1.json   "id": "gb10-x8-c32"
    /// gb10/x8/run2.json   "id": "gb10-x8-c32"
    /// ```
    ///
    /// ## What to do instead
    /// Give every result a unique, stable id (for example host, configuration, launch and
    /// repeat), and never reuse one.
    pub static RULE = {
        code: "E006",
        name: "duplicate-result-id",
        severity: Error,
        scope: Input,
        source: "DESIGN.md (canonical result format)",
        summary: "two results share an id",
    }
}
