//! `requested-not-measured` (R016): a level's output token total is the requested total.

use super::r012_non_monotonic_ladder::streams;
use super::served::served_nothing;
use super::{Emitter, ResultCtx, declare_rule};
use crate::model::PromptSource;
use crate::numbers::count;

declare_rule! {
    /// ## What it checks
    /// Per level: `output_tokens` equals `requests × workload.max_output_tokens` exactly (with at
    /// least two requests) while end-of-sequence was honoured, so the total is what was asked
    /// for rather than what came back. End-of-sequence counts as honoured when
    /// `workload.ignore_eos` is `false`, or when it is absent and the prompts are real text
    /// (`workload.prompts` is `fixed` or `dataset`), where natural ends stop some requests early.
    ///
    /// Decisions where the sources are silent:
    /// - with `ignore_eos: true` every request runs to the cap and equality is expected;
    /// - with `ignore_eos` absent and prompts `random-tokens` or not recorded, the rule stays
    ///   silent: harnesses ask for fixed lengths on synthetic prompts without recording it
    ///   (vLLM forces `ignore_eos` for its random datasets, research/formats.md §1.3, and
    ///   GuideLLM's synthetic data asks for its output length the same way);
    /// - when the level also records the server's own counter (`server_output_tokens`) and it
    ///   agrees, the server measured that every request ran to the cap: not reported;
    /// - only a fixed requested length can be recognised in one file. SGLang's fallback with a
    ///   random length range sums requested lengths that the canonical format does not keep;
    ///   that shows up as identical totals across files, or against the server counter (R002).
    ///
    /// A run that completed no request has no total to compare and is skipped: R006 and R007
    /// report it.
    ///
    /// ## Why is this bad?
    /// research/formats.md §2.3 and §10: SGLang's `bench_serving` falls back to "the requested
    /// `max_tokens`" when the server does not report usage, and in real H200 samples the 70B and
    /// 405B runs report identical `total_output_tokens` (160347 at rate 1): requested lengths,
    /// while the re-tokenized counts differ. Seed 000: "Only delivered tokens count." A
    /// throughput computed from requested tokens is a figure the server never produced.
    ///
    /// ## Example
    /// ```json
    /// { "workload": { "max_output_tokens": 1024, "ignore_eos": false },
    ///   "levels": [ { "concurrency": 64, "requests": 3000, "output_tokens": 3072000 } ] }
    /// ```
    ///
    /// ## What to do instead
    /// Count the usage the server returned for each request (`token_count_source:
    /// "server-usage"`), record `server_output_tokens` beside it, and record `ignore_eos: true`
    /// when fixed-length outputs were asked for.
    pub static RULE = {
        code: "R016",
        name: "requested-not-measured",
        severity: Error,
        scope: Result,
        source: "research/formats.md §0, §2.3, §10 (SGLang totals equal to the requested lengths)",
        summary: "output token totals equal the requested totals exactly",
    }
}

pub fn check(ctx: &ResultCtx<'_>, out: &mut Emitter<'_>) {
    if served_nothing(ctx.result) {
        return;
    }
    let Some(workload) = ctx.result.workload.as_ref() else {
        return;
    };
    let Some(cap) = workload.max_output_tokens.filter(|&c| c > 0) else {
        return;
    };
    let eos_honoured = match workload.ignore_eos {
        Some(ignore) => !ignore,
        None => matches!(
            workload.prompts,
            Some(PromptSource::Fixed | PromptSource::Dataset)
        ),
    };
    if !eos_honoured {
        return;
    }
    let eos_words = if workload.ignore_eos == Some(false) {
        "with ignore_eos false"
    } else {
        "with ignore_eos not recorded"
    };
    for (i, level) in ctx.result.levels.as_slice().iter().enumerate() {
        let (Some(requests), Some(total)) = (level.requests, level.output_tokens) else {
            continue;
        };
        // One request at the cap is common and proves nothing.
        if requests < 2 {
            continue;
        }
        let Some(requested) = requests.checked_mul(cap) else {
            continue;
        };
        if total != requested || level.server_output_tokens == Some(total) {
            continue;
        }
        out.emit(
            format!("/levels/{i}/output_tokens"),
            format!(
                "{} output tokens at {} is exactly {} requests × {} max_output_tokens {eos_words}: \
                 the requested total, not a delivered one",
                count(total),
                streams(level.key()),
                count(requests),
                count(cap)
            ),
        )
        .label("equals the requested total")
        .help(
            "count the usage the server returned for each request and record server_output_tokens beside it; \
             record ignore_eos: true if fixed-length outputs were asked for",
        );
    }
}
