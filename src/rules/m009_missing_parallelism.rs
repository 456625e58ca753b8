//! `missing-parallelism` (M009): tensor, expert, pipeline parallel sizes and node count.

use super::{Emitter, ResultCtx, declare_rule};

declare_rule! {
    /// ## What it checks
    /// That `engine.tensor_parallel_size`, `engine.expert_parallel_size`,
    /// `engine.pipeline_parallel_size` and `platform.nodes` are recorded.
    ///
    /// ## Why is this bad?
    /// Seed 004 compared a pair, a four-way group and an eight-way tensor-parallel group of
    /// GB10 units, and noted "We have only tested tensor parallelism, while published results
    /// show pipeline parallelism winning by a wide margin at large batch sizes." Without the
    /// layout in the file the comparison cannot be read at all.
    ///
    /// ## Example
    /// ```json
    /// { "engine": { "tensor_parallel_size": 8 } }
    /// ```
    ///
    /// ## What to do instead
    /// ```json
    /// { "engine": { "tensor_parallel_size": 8, "expert_parallel_size": 1, "pipeline_parallel_size": 1 },
    ///   "platform": { "nodes": 8 } }
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
        code: "M009",
        name: "missing-parallelism",
        severity: Error,
        scope: Result,
        source: "seeds/004 (publication checklist)",
        summary: "parallel sizes or node count not recorded",
    }
}

const ITEMS: [(&str, &str); 4] = [
    ("/engine/tensor_parallel_size", "the tensor parallel size"),
    ("/engine/expert_parallel_size", "the expert parallel size"),
    (
        "/engine/pipeline_parallel_size",
        "the pipeline parallel size",
    ),
    ("/platform/nodes", "the node count"),
];

pub fn check(ctx: &ResultCtx<'_>, out: &mut Emitter<'_>) {
    for (pointer, what) in ITEMS {
        if !ctx.has(pointer) {
            let field = pointer[1..].replace('/', ".");
            out.missing(pointer, what, format!("add `{field}` (1 when not used)"));
        }
    }
}
