//! `ttft-without-prompt-length` (L002): first-token latency reported without the prompt
//! length.

use super::r012_non_monotonic_ladder::streams;
use super::served::served_nothing;
use super::{Emitter, ResultCtx, declare_rule};
use crate::numbers::num;

declare_rule! {
    /// ## What it checks
    /// A result with a first-token latency on some level (`ttft_s` p50, p95 or p99, or
    /// `samples.ttft_s`) whose `workload.prompt_tokens` records no length (absent, or none of
    /// `min`, `max` and `mean`). One finding per result, at the first TTFT figure, naming how
    /// many levels report one: the prompt length is one workload setting, so one fix clears
    /// them all.
    ///
    /// A run that completed no request has no TTFT to label and is skipped: R006 and R007
    /// report it.
    ///
    /// ## Why is this bad?
    /// TTFT carries the prefill cost, which grows with the prompt. Seed 004 withdrew a staged
    /// comparison of "a first-token latency of 0.223 seconds on one platform against 1.506
    /// seconds on another at 32 streams. Those figures are real, they are measured, and they
    /// are valid only for a 41-token prompt." "Every first-token figure now carries its prompt
    /// length in the same sentence."
    ///
    /// ## Example
    /// ```json
    /// { "workload": { "name": "prose-decode" },
    ///   "levels": [ { "concurrency": 32, "ttft_s": { "p50": 0.223 } } ] }
    /// ```
    ///
    /// ## What to do instead
    /// ```json
    /// { "workload": { "name": "prose-decode", "prompt_tokens": { "min": 41, "max": 41, "mean": 41 } },
    ///   "levels": [ { "concurrency": 32, "ttft_s": { "p50": 0.223 } } ] }
    /// ```
    pub static RULE = {
        code: "L002",
        name: "ttft-without-prompt-length",
        severity: Error,
        scope: Result,
        source: "seeds/004 (0.223 s against 1.506 s, valid only for a 41-token prompt)",
        summary: "TTFT reported without the prompt length",
    }
}

pub fn check(ctx: &ResultCtx<'_>, out: &mut Emitter<'_>) {
    if served_nothing(ctx.result) {
        return;
    }
    let prompt_length = ctx.result.typical_prompt_tokens();
    if prompt_length.is_some() {
        return;
    }
    // (level index, pointer of its first TTFT figure, a value to quote)
    let with_ttft: Vec<(usize, String, Option<f64>)> = ctx
        .result
        .levels
        .as_slice()
        .iter()
        .enumerate()
        .filter_map(|(i, l)| {
            if let Some((stat, v)) = l.ttft_s.as_ref().and_then(|t| {
                [("p50", t.p50), ("p95", t.p95), ("p99", t.p99)]
                    .into_iter()
                    .find_map(|(s, v)| Some((s, v?)))
            }) {
                return Some((i, format!("/levels/{i}/ttft_s/{stat}"), Some(v)));
            }
            let samples = l.samples.as_ref()?.ttft_s.as_ref()?;
            (!samples.is_empty()).then(|| (i, format!("/levels/{i}/samples/ttft_s"), None))
        })
        .collect();
    let Some((first, pointer, value)) = with_ttft.first() else {
        return;
    };
    let at = streams(ctx.result.levels.as_slice()[*first].key());
    let quoted = value.map_or_else(
        || format!("per-request TTFT samples at {at} are"),
        |v| format!("TTFT {} s at {at} is", num(v)),
    );
    let (n, total) = (with_ttft.len(), ctx.result.levels.len());
    out.emit(
        pointer.clone(),
        format!(
            "{quoted} reported without the prompt length: `workload.prompt_tokens` is not recorded \
             ({n} of {total} levels report TTFT)"
        ),
    )
    .label("a first-token latency for a prompt of unknown length")
    .help("record `workload.prompt_tokens` (min, max, mean): a TTFT is valid only for the prompt length it was measured at");
}
