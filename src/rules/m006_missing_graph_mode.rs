//! `missing-graph-mode` (M006): whether eager execution was forced.

use super::{Emitter, ResultCtx, declare_rule};

declare_rule! {
    /// ## What it checks
    /// That `engine.enforce_eager` is recorded (`true` when graph capture was disabled, for
    /// example `--enforce-eager` or SGLang's `--disable-cuda-graph`; `false` otherwise), or
    /// derived from a verbatim serve command that names the flag.
    ///
    /// ## Why is this bad?
    /// Seed 004: a single unrecorded eager flag "can therefore dominate any cross-platform
    /// ratio and leave no trace in the result file". On the GB10 side, eager mode alone moved
    /// decode from well above to about 55 tokens per second.
    ///
    /// ## Example
    /// ```json
    /// { "engine": { "name": "vllm", "serve_command": ["vllm", "serve", "m"], "serve_command_source": "typed" } }
    /// ```
    ///
    /// ## What to do instead
    /// ```json
    /// { "engine": { "enforce_eager": false } }
    /// ```
    ///
    /// A file a harness wrote (vLLM `bench serve`, SGLang, GuideLLM, AIPerf, ...) stays as the
    /// harness wrote it: put these keys in its sidecar instead, `run.meta.json` beside
    /// `run.json` (or `run.json.meta.json`). `benchlint sidecar run.json` writes one listing
    /// exactly the keys the file lacks, each `null` to replace, with what benchlint can work
    /// out already filled in; `check` then reads the values from it.
    ///
    /// `benchlint capture --pid PID` (or `--container-inspect FILE`) writes a sidecar with the
    /// serve command and environment read from the running engine: the settings the command
    /// names then count as recorded.
    pub static RULE = {
        code: "M006",
        name: "missing-graph-mode",
        severity: Error,
        scope: Result,
        source: "seeds/004 (publication checklist)",
        summary: "graph mode (forced eager execution) not recorded",
    }
}

pub fn check(ctx: &ResultCtx<'_>, out: &mut Emitter<'_>) {
    if !ctx.has("/engine/enforce_eager") {
        out.missing(
            "/engine/enforce_eager",
            "whether eager execution was forced",
            "add `engine.enforce_eager`: true if graph capture was disabled, false otherwise",
        );
    }
}
