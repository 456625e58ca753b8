//! `missing-harness-provenance` (M013): harness revision, sampling, temperature and seed.

use super::{Emitter, ResultCtx, declare_rule};

declare_rule! {
    /// ## What it checks
    /// That the result records the harness git revision (`harness.revision`), the sampling
    /// parameters (`workload.sampling`), the temperature (`workload.temperature`) and the seed
    /// (`workload.seed`). A losing run (`outcome` other than `ok`) sent no requests, so only
    /// the harness revision is asked of it.
    ///
    /// ## Why is this bad?
    /// Seed 004's checklist: "Harness git revision, sampling parameters, temperature and
    /// seed." Seed 000: "When a test script silently ran both arms of an A/B with the same
    /// setting, the two arms still differed by about 19%": the harness itself is part of the
    /// measurement.
    ///
    /// ## Example
    /// ```json
    /// { "harness": { "name": "vllm-bench-serve" }, "workload": { "temperature": 0 } }
    /// ```
    ///
    /// ## What to do instead
    /// ```json
    /// { "harness": { "name": "vllm-bench-serve", "revision": "3f9e2a1", "dirty": false },
    ///   "workload": { "temperature": 0, "seed": 0, "sampling": { "top_p": 1.0 } } }
    /// ```
    ///
    /// A file a harness wrote (vLLM `bench serve`, SGLang, GuideLLM, AIPerf, ...) stays as the
    /// harness wrote it: put these keys in its sidecar instead, `run.meta.json` beside
    /// `run.json` (or `run.json.meta.json`). `benchlint sidecar run.json` writes one listing
    /// exactly the keys the file lacks, each `null` to replace, with what benchlint can work
    /// out already filled in; `check` then reads the values from it.
    pub static RULE = {
        code: "M013",
        name: "missing-harness-provenance",
        severity: Error,
        scope: Result,
        source: "seeds/004 (publication checklist)",
        summary: "harness revision, sampling parameters, temperature or seed not recorded",
    }
}

const ITEMS: [(&str, &str, &str); 4] = [
    (
        "/harness/revision",
        "the harness git revision",
        "add `harness.revision` (`git rev-parse HEAD` of the harness)",
    ),
    (
        "/workload/sampling",
        "the sampling parameters",
        "add `workload.sampling` (top_p, top_k, ... as sent)",
    ),
    (
        "/workload/temperature",
        "the temperature",
        "add `workload.temperature` (0 for benchmarks)",
    ),
    ("/workload/seed", "the seed", "add `workload.seed`"),
];

pub fn check(ctx: &ResultCtx<'_>, out: &mut Emitter<'_>) {
    // A run that never measured (does not fit, failed to start) sent no requests: only the
    // harness revision applies to it.
    let measured = ctx.result.outcome == crate::model::Outcome::Ok;
    for (pointer, what, help) in ITEMS {
        if !measured && pointer.starts_with("/workload") {
            continue;
        }
        if pointer == "/workload/sampling" && sampling_recorded(ctx) {
            continue;
        }
        if pointer == "/workload/sampling" || !ctx.has(pointer) {
            out.missing(pointer, what, help);
        }
    }
}

/// Whether `workload.sampling` holds a sampling parameter. The request rate and concurrency cap
/// that adapters keep there describe the load, and the shortest output length of a drawn range
/// (`output_tokens_min`) the workload's shape, not the sampling: they do not count.
fn sampling_recorded(ctx: &ResultCtx<'_>) -> bool {
    ctx.get("/workload/sampling")
        .and_then(serde_json::Value::as_object)
        .is_some_and(|m| {
            m.keys().any(|k| {
                !matches!(
                    k.as_str(),
                    "request_rate" | "max_concurrency" | "output_tokens_min"
                )
            })
        })
}
