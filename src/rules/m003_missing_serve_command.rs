//! `missing-serve-command` (M003): the complete serve command line.

use super::{Emitter, ResultCtx, declare_rule};

declare_rule! {
    /// ## What it checks
    /// That the result records the complete command that started the engine
    /// (`engine.serve_command`, an argv array or one line). An empty command counts as absent.
    ///
    /// ## Why is this bad?
    /// Seed 004: "A run whose configuration lives in somebody's shell history cannot be
    /// defended at all, and three of our four retractions were only checkable because a second
    /// document happened to preserve the missing detail." The GB10 and GB300 speculative and
    /// eager settings were never recorded, so the cross-platform ratio could not be known.
    ///
    /// ## Example
    /// ```json
    /// { "engine": { "name": "vllm", "version": "0.11.0" } }
    /// ```
    ///
    /// A harness's record of its own command line is not the serve command: genai-bench's
    /// `cmd`, AIPerf's `cli_command` and a kept `benchmark_command.txt` started the client,
    /// not the engine, and none of them says how the engine was launched.
    ///
    /// ## What to do instead
    /// Record the argv read from the process (`benchlint capture --pid PID`) or the container,
    /// or keep the command the launcher ran beside the results (`vllm_command.txt`, any
    /// `*_command.txt` holding a serve command), which benchlint reads as a verbatim launch
    /// command:
    /// ```json
    /// { "engine": { "serve_command": ["vllm", "serve", "Qwen/Qwen3-8B", "--max-num-seqs", "32"],
    ///   "serve_command_source": "process" } }
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
        code: "M003",
        name: "missing-serve-command",
        severity: Error,
        scope: Result,
        source: "seeds/004 (publication checklist)",
        summary: "serve command not recorded",
    }
}

pub fn check(ctx: &ResultCtx<'_>, out: &mut Emitter<'_>) {
    let command = ctx
        .result
        .engine
        .as_ref()
        .and_then(|e| e.serve_command.as_ref());
    match command {
        None => {
            out.missing(
                "/engine/serve_command",
                "the serve command",
                "add `engine.serve_command` as read from the running process (`benchlint capture --pid PID`), or keep the launch command beside the results as `vllm_command.txt` (a harness's own command line, such as genai-bench's `cmd`, started the client, not the engine)",
            );
        }
        Some(c) if c.is_empty() => {
            out.emit("/engine/serve_command", "the serve command is empty")
                .label("empty")
                .help("record the complete argv that started the engine");
        }
        Some(_) => {}
    }
}
