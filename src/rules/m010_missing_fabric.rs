//! `missing-fabric` (M010): a multi-node run without fabric and collective settings.

use super::{Emitter, ResultCtx, declare_rule};

declare_rule! {
    /// ## What it checks
    /// For a run on more than one node (`platform.nodes > 1`), that
    /// `platform.fabric.interconnect` and the tuned collective-library settings
    /// (`platform.fabric.collectives`, for example `NCCL_IB_HCA`) are recorded.
    ///
    /// ## Why is this bad?
    /// Seed 004's checklist: "Fabric details for multi-node runs, including the collective
    /// library settings that were tuned." Its eight GB10 units ran over a 200 gigabit RoCE
    /// fabric, and independent write-ups documented dual-rail collective settings that change
    /// the result.
    ///
    /// ## Example
    /// ```json
    /// { "platform": { "nodes": 8, "devices_per_node": 1 } }
    /// ```
    ///
    /// ## What to do instead
    /// ```json
    /// { "platform": { "nodes": 8, "fabric": { "interconnect": "200G RoCE",
    ///   "collectives": { "NCCL_IB_HCA": "mlx5_0,mlx5_1" } } } }
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
        code: "M010",
        name: "missing-fabric",
        severity: Error,
        scope: Result,
        source: "seeds/004 (publication checklist)",
        summary: "multi-node run without fabric and collective settings",
    }
}

pub fn check(ctx: &ResultCtx<'_>, out: &mut Emitter<'_>) {
    let Some(platform) = ctx.result.platform.as_ref() else {
        return;
    };
    let nodes = platform.nodes.unwrap_or(1);
    if nodes <= 1 {
        return;
    }
    let fabric = platform.fabric.as_ref();
    if fabric.and_then(|f| f.interconnect.as_ref()).is_none() {
        out.missing(
            "/platform/fabric/interconnect",
            &format!("the interconnect of this {nodes}-node run"),
            "add `platform.fabric.interconnect`, for example \"200G RoCE\"",
        );
    }
    if fabric
        .and_then(|f| f.collectives.as_ref())
        .is_none_or(crate::model::SmallMap::is_empty)
    {
        out.missing(
            "/platform/fabric/collectives",
            &format!("the collective-library settings of this {nodes}-node run"),
            "add `platform.fabric.collectives` with the NCCL_* (or equivalent) settings in force",
        );
    }
}
