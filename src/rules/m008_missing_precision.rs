//! `missing-precision` (M008): precision, checkpoint revision and the kernel selected.

use super::{Emitter, ResultCtx, declare_rule};

declare_rule! {
    /// ## What it checks
    /// That the result records the weight precision (`model.precision`), the exact checkpoint
    /// revision (`model.revision`) and the kernel the engine reported selecting
    /// (`model.kernel`).
    ///
    /// ## Why is this bad?
    /// Seed 004: "a quantisation label on a chart is not a specification. It is a description
    /// of which kernel the engine happened to pick." NVFP4 mixture-of-experts layers routed
    /// through Marlin on sm_121 never ran a native four-bit operation; a W4A16 kernel choice
    /// cost 31% of prefill throughput (2,986 → 2,041 tok/s); plain FP8 beat Marlin-routed
    /// NVFP4 by 32% (53.8 vs 40.8 tok/s).
    ///
    /// ## Example
    /// ```json
    /// { "model": { "name": "Qwen/Qwen3-30B-A3B", "precision": "nvfp4" } }
    /// ```
    ///
    /// ## What to do instead
    /// ```json
    /// { "model": { "name": "Qwen/Qwen3-30B-A3B", "precision": "nvfp4",
    ///   "revision": "9a1f2c0", "kernel": "marlin" } }
    /// ```
    ///
    /// A file a harness wrote (vLLM `bench serve`, SGLang, GuideLLM, AIPerf, ...) stays as the
    /// harness wrote it: put these keys in its sidecar instead, `run.meta.json` beside
    /// `run.json` (or `run.json.meta.json`). `benchlint sidecar run.json` writes one listing
    /// exactly the keys the file lacks, each `null` to replace, with what benchlint can work
    /// out already filled in; `check` then reads the values from it.
    pub static RULE = {
        code: "M008",
        name: "missing-precision",
        severity: Error,
        scope: Result,
        source: "seeds/004 (publication checklist)",
        summary: "precision, checkpoint revision or selected kernel not recorded",
    }
}

const ITEMS: [(&str, &str, &str); 3] = [
    (
        "/model/precision",
        "the weight precision",
        "add `model.precision` (bf16, fp8, nvfp4, ...)",
    ),
    (
        "/model/revision",
        "the checkpoint revision",
        "add `model.revision`, the exact commit of the checkpoint",
    ),
    (
        "/model/kernel",
        "the kernel the engine selected",
        "add `model.kernel` as the engine's log reports it (marlin, cutlass, ...)",
    ),
];

pub fn check(ctx: &ResultCtx<'_>, out: &mut Emitter<'_>) {
    for (pointer, what, help) in ITEMS {
        if !ctx.has(pointer) {
            out.missing(pointer, what, help);
        }
    }
}
