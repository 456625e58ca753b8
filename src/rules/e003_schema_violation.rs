//! `schema-violation` (E003): a canonical document that breaks its schema.

use super::declare_rule;

declare_rule! {
    /// ## What it checks
    /// A `benchlint/result/v1` or `benchlint/claims/v1` document that breaks the bundled JSON
    /// Schema (`benchlint schema result`): a wrong type, a value out of range, a misspelt key,
    /// a missing required field, an unknown `schema` value. The finding points at the offending
    /// value. A file that breaks the schema is not checked further.
    ///
    /// A document that looks like a result and that no adapter reads is this error too, at
    /// the document: a `schema` key in another case (`Schema`, `Benchlint/result/v1`), a
    /// canonical result without `schema`, or a document with a harness's signature keys (a
    /// vLLM run with an odd value, a GuideLLM report with an unknown key, a run wrapped in an
    /// array). A result that cannot be read fails the run; it is never the warning of an
    /// unknown format (E004).
    ///
    /// ## Why is this bad?
    /// A schema error is a malformed file; a rule finding is an incomplete one. Rules can only
    /// reason about values whose meaning and unit are known.
    ///
    /// ## Example
    /// ```json
    /// { "levels": [ { "concurrency": "32" } ] }
    /// ```
    ///
    /// ## What to do instead
    /// Write the value with the type and unit the schema names (`"concurrency": 32`).
    pub static RULE = {
        code: "E003",
        name: "schema-violation",
        severity: Error,
        scope: Input,
        source: "DESIGN.md (canonical result format)",
        summary: "canonical document breaks its schema",
    }
}
