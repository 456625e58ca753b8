//! `missing-load-snapshot` (M012): a shared host without a load snapshot.

use super::{Emitter, ResultCtx, declare_rule};

declare_rule! {
    /// ## What it checks
    /// For a host that also serves other traffic (`platform.shared_host: true`), that
    /// `platform.load_snapshot` holds samples `before`, `during` and `after` the run.
    ///
    /// ## Why is this bad?
    /// Seed 004: "One production host with six H200 NVL cards, which is shared with live
    /// customer traffic"; its checklist asks for "A concurrent-load snapshot for any shared or
    /// production host, sampled before, during and after the run." Without it, another
    /// tenant's load reads as the engine's speed.
    ///
    /// ## Example
    /// ```json
    /// { "platform": { "shared_host": true } }
    /// ```
    ///
    /// ## What to do instead
    /// ```json
    /// { "platform": { "shared_host": true, "load_snapshot": {
    ///   "before": { "gpu_util": 0.12 }, "during": { "gpu_util": 0.97 }, "after": { "gpu_util": 0.10 } } } }
    /// ```
    ///
    /// A file a harness wrote (vLLM `bench serve`, SGLang, GuideLLM, AIPerf, ...) stays as the
    /// harness wrote it: put these keys in its sidecar instead, `run.meta.json` beside
    /// `run.json` (or `run.json.meta.json`). `benchlint sidecar run.json` writes one listing
    /// exactly the keys the file lacks, each `null` to replace, with what benchlint can work
    /// out already filled in; `check` then reads the values from it.
    pub static RULE = {
        code: "M012",
        name: "missing-load-snapshot",
        severity: Error,
        scope: Result,
        source: "seeds/004 (publication checklist)",
        summary: "shared host without a load snapshot before, during and after",
    }
}

pub fn check(ctx: &ResultCtx<'_>, out: &mut Emitter<'_>) {
    let Some(platform) = ctx.result.platform.as_ref() else {
        return;
    };
    if platform.shared_host != Some(true) {
        return;
    }
    for phase in ["before", "during", "after"] {
        let pointer = format!("/platform/load_snapshot/{phase}");
        if !ctx.has(&pointer) {
            out.missing(
                &pointer,
                &format!("the shared host's load {phase} the run"),
                format!("sample the host's other load {phase} the run into `platform.load_snapshot.{phase}`"),
            );
        }
    }
}
