//! `unknown-format` (E004): a JSON document that no adapter recognises.

use super::declare_rule;

declare_rule! {
    /// ## What it checks
    /// A JSON document that is neither a canonical result, a claims file, a sidecar, a file a
    /// harness writes beside its results, nor a result format an adapter reads (vLLM, SGLang,
    /// GuideLLM, genai-perf/AIPerf, llmperf). It is skipped and the run goes on.
    ///
    /// ## Why is this bad?
    /// A result benchlint cannot read is a result nobody checked. Often it is a newer version
    /// of a harness format, or a file that does not belong in the corpus.
    ///
    /// ## Example
    /// ```json
    /// { "tokens_per_second": 812 }
    /// ```
    ///
    /// ## What to do instead
    /// Convert the file with `benchlint import`, write it in the canonical format, or move it
    /// out of the corpus.
    pub static RULE = {
        code: "E004",
        name: "unknown-format",
        severity: Warning,
        scope: Input,
        source: "DESIGN.md (adapters)",
        summary: "no adapter recognises the document",
    }
}
