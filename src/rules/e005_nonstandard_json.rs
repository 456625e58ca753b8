//! `nonstandard-json` (E005): bare `NaN` / `Infinity` accepted by the tolerant reader.

use super::declare_rule;

declare_rule! {
    /// ## What it checks
    /// Bare `NaN`, `Infinity` or `-Infinity` tokens (Python's `json.dumps` writes them by
    /// default; SGLang's `bench_serving` writes `"request_rate": Infinity`), or a UTF-8 byte
    /// order mark. They are not JSON; benchlint reads them as the strings `"NaN"`,
    /// `"Infinity"` and `"-Infinity"` and goes on. Also what JSON allows but parsers read
    /// differently: a key repeated in one object (benchlint reads the last value, some parsers
    /// the first) and an integer beyond 64 bits (read as the nearest double).
    ///
    /// ## Why is this bad?
    /// Strict parsers (`jq`, most JSON Schema validators, JavaScript's `JSON.parse`) reject the
    /// file, and a `NaN` where a figure should be is a figure that was never measured.
    ///
    /// ## Example
    /// ```text
    /// {"request_rate": Infinity, "mean_ttft_ms": NaN}
    /// ```
    ///
    /// ## What to do instead
    /// Write `null` (or leave the key out) for values that were not measured, and a string
    /// such as `"inf"` for an unbounded request rate.
    pub static RULE = {
        code: "E005",
        name: "nonstandard-json",
        severity: Warning,
        scope: Input,
        source: "research/formats.md (SGLang JSON Lines)",
        summary: "bare NaN or Infinity accepted",
    }
}
