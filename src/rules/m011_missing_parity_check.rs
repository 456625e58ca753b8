//! `missing-parity-check` (M011): a multi-node run without a timestamped parity check.

use super::{Emitter, ResultCtx, declare_rule};

declare_rule! {
    /// ## What it checks
    /// For a run on more than one node, that `platform.parity_check.at` records when a pre-run
    /// parity check ran, and that it did not fail (`passed: false`).
    ///
    /// ## Why is this bad?
    /// Seed 000: one node whose GPU sat at 494 MHz instead of about 2,400 MHz cut the whole
    /// 8-node cluster's single-stream speed to about 13 tok/s where about 31 was expected.
    /// Seed 004's checklist asks for "A pre-run parity check with a timestamp, for any fleet
    /// where nodes can drift out of alignment."
    ///
    /// ## Example
    /// ```json
    /// { "platform": { "nodes": 8 } }
    /// ```
    ///
    /// ## What to do instead
    /// ```json
    /// { "platform": { "nodes": 8, "parity_check": { "at": "2026-09-23T08:14:00Z", "passed": true } } }
    /// ```
    ///
    /// A file a harness wrote (vLLM `bench serve`, SGLang, GuideLLM, AIPerf, ...) stays as the
    /// harness wrote it: put these keys in its sidecar instead, `run.meta.json` beside
    /// `run.json` (or `run.json.meta.json`). `benchlint sidecar run.json` writes one listing
    /// exactly the keys the file lacks, each `null` to replace, with what benchlint can work
    /// out already filled in; `check` then reads the values from it.
    pub static RULE = {
        code: "M011",
        name: "missing-parity-check",
        severity: Warning,
        scope: Result,
        source: "seeds/004 (publication checklist)",
        summary: "multi-node run without a timestamped pre-run parity check",
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
    let check = platform.parity_check.as_ref();
    if check.and_then(|c| c.at.as_ref()).is_none() {
        out.missing(
            "/platform/parity_check/at",
            &format!("a timestamped parity check of this {nodes}-node run"),
            "run a parity check across the nodes before the ladder and record `platform.parity_check.at` and `passed`",
        );
    }
    if check.and_then(|c| c.passed) == Some(false) {
        out.emit(
            "/platform/parity_check/passed",
            format!("the pre-run parity check of this {nodes}-node run failed, and the run went ahead"),
        )
        .label("failed")
        .help("fix the drifting node and measure again; a run after a failed parity check measures the slowest node");
    }
}
