//! `unknown-format` (E004): a JSON document that no adapter recognises.

use super::declare_rule;

declare_rule! {
    /// ## What it checks
    /// A document that is neither a canonical result, a claims file, a sidecar, a file a
    /// harness writes beside its results, nor a result format an adapter reads (vLLM, SGLang,
    /// GuideLLM in JSON or YAML, genai-perf/AIPerf, llmperf, MLPerf loadgen logs). It is
    /// skipped and the run goes on.
    ///
    /// A file gets one finding, however many of its documents no adapter reads (a JSON Lines
    /// file, a YAML stream), saying what they look like: a known format that is not a serving
    /// benchmark by its name ("llama-bench JSON: a microbenchmark of prompt processing and
    /// generation speed on one model, not a serving benchmark"), anything else by its shape
    /// and first keys. A YAML file found by walking a folder that no adapter reads is skipped
    /// silently, like any other file of the folder that is not a result (a harness's
    /// `config.yaml`); named on the command line, it is reported.
    ///
    /// When a folder was walked and not one result could be read from any file of the run,
    /// this finding is an error instead of a warning: the run checked nothing, and must not
    /// pass.
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
