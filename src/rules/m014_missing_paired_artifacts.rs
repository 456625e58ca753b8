//! `missing-paired-artifacts` (M014): power trace and quality-gate file names.

use super::{Emitter, ResultCtx, declare_rule};

declare_rule! {
    /// ## What it checks
    /// That the result names its paired power trace (`artifacts.power_trace.path`) and
    /// quality-gate result (`artifacts.quality_gate.path`). Losing runs (`outcome` other than
    /// `ok`) report no figure and are not asked.
    ///
    /// ## Why is this bad?
    /// Seed 004: "If a speed number cannot be published without a paired accuracy number from
    /// the same endpoint, then no configuration can win by being quietly broken." And power:
    /// GB10 units draw about 46 W at the wall with no engine loaded while the accelerator rail
    /// reports under 5 W.
    ///
    /// ## Example
    /// ```json
    /// { "artifacts": {} }
    /// ```
    ///
    /// ## What to do instead
    /// ```json
    /// { "artifacts": { "power_trace": { "path": "power/run1.csv", "kind": "wall" },
    ///   "quality_gate": { "path": "gate/run1.json", "passed": true, "score": 0.98 } } }
    /// ```
    ///
    /// A file a harness wrote (vLLM `bench serve`, SGLang, GuideLLM, AIPerf, ...) stays as the
    /// harness wrote it: put these keys in its sidecar instead, `run.meta.json` beside
    /// `run.json` (or `run.json.meta.json`). `benchlint sidecar run.json` writes one listing
    /// exactly the keys the file lacks, each `null` to replace, with what benchlint can work
    /// out already filled in; `check` then reads the values from it.
    pub static RULE = {
        code: "M014",
        name: "missing-paired-artifacts",
        severity: Warning,
        scope: Result,
        source: "seeds/004 (publication checklist)",
        summary: "power trace or quality-gate file not named",
    }
}

pub fn check(ctx: &ResultCtx<'_>, out: &mut Emitter<'_>) {
    // Nothing was measured on a losing run: there is no figure to pair.
    if ctx.result.outcome != crate::model::Outcome::Ok {
        return;
    }
    if !ctx.has("/artifacts/power_trace/path") {
        out.missing(
            "/artifacts/power_trace/path",
            "the paired power trace",
            "name the power trace file in `artifacts.power_trace.path` with its `kind` (wall or device)",
        );
    }
    if !ctx.has("/artifacts/quality_gate/path") {
        out.missing(
            "/artifacts/quality_gate/path",
            "the paired quality-gate result",
            "name the quality-gate result in `artifacts.quality_gate.path` with `passed`",
        );
    }
}
