//! `retyped-serve-command` (M004): a serve command not read from the process or container.

use crate::model::ServeCommandSource;

use super::{Emitter, ResultCtx, declare_rule};

declare_rule! {
    /// ## What it checks
    /// A recorded serve command whose `engine.serve_command_source` is not `process` or
    /// `container-inspect`: typed by a person, copied from a launcher script, or of unknown
    /// origin.
    ///
    /// ## Why is this bad?
    /// Seed 004: "Read the serve arguments from the running process or the container, never
    /// retype them." A retyped command records what someone meant to run; the eager flag that
    /// cost the GB10 side most of its decode speed (an unrecorded `--enforce-eager`) is exactly
    /// the kind of detail that goes missing when typed from memory.
    ///
    /// ## Example
    /// ```json
    /// { "engine": { "serve_command": "vllm serve Qwen/Qwen3-8B", "serve_command_source": "typed" } }
    /// ```
    ///
    /// ## What to do instead
    /// Capture it: `benchlint capture --pid PID` (process) or `--container-inspect FILE`, and
    /// record `"serve_command_source": "process"`.
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
        code: "M004",
        name: "retyped-serve-command",
        severity: Warning,
        scope: Result,
        source: "seeds/004 (publication checklist)",
        summary: "serve command not read from the process or the container",
    }
}

pub fn check(ctx: &ResultCtx<'_>, out: &mut Emitter<'_>) {
    let Some(engine) = ctx.result.engine.as_ref() else {
        return;
    };
    if engine
        .serve_command
        .as_ref()
        .is_none_or(crate::model::ServeCommand::is_empty)
    {
        return;
    }
    match engine.serve_command_source {
        Some(s) if s.is_verbatim() => {}
        Some(s) => {
            out.emit(
                "/engine/serve_command_source",
                format!(
                    "the serve command was {} (`{}`), not read from the process or the container",
                    match s {
                        ServeCommandSource::LauncherScript => "copied from a launcher script",
                        _ => "typed",
                    },
                    s.as_str()
                ),
            )
            .label("not verbatim")
            .help("capture the argv with `benchlint capture --pid PID` or from `docker inspect`");
        }
        None => {
            out.missing(
                "/engine/serve_command_source",
                "where the serve command was read from",
                "add `engine.serve_command_source`: \"process\" or \"container-inspect\" when captured, otherwise \"launcher-script\" or \"typed\"",
            );
        }
    }
}
