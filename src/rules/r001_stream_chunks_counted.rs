//! `stream-chunks-counted` (R001): output tokens counted from streamed chunks instead of the
//! usage the server reported for each request.

use super::served::served_nothing;
use super::{Emitter, ResultCtx, declare_rule};
use crate::model::TokenCountSource;

declare_rule! {
    /// ## What it checks
    /// That `workload.token_count_source` is not `stream-chunks`. The rule fires on any result
    /// that measured at least one level and says its output tokens were counted by counting
    /// the chunks of the response stream; the message says whether speculative decoding was on,
    /// because that is when the count is furthest off.
    ///
    /// A result that does not record `token_count_source` at all is not this rule's finding:
    /// it is reported by the cross-check (R002) when the server counter disagrees, and by the
    /// checklist for the missing label. `client-tokenizer` is not flagged here either: it
    /// counts tokens, not steps, and R002 compares it with the server.
    ///
    /// A run that completed no request (no level, or none with a completed request) reports no
    /// token figure and is skipped: R006 and R007 report it.
    ///
    /// ## Why is this bad?
    /// Seed 000: "We count the tokens each request actually returned (the usage the server
    /// reports for that request), not streamed chunks (with speculative decoding those are
    /// steps, not tokens)". A chunk is whatever the engine flushed in one step: with
    /// speculation a step can carry several accepted tokens, and engines coalesce tokens into
    /// one chunk under load, so a chunk count is not a token count and throughput built on it
    /// is off by the acceptance rate. The seed names its "40.7-vs-27.8 note" as the reason it
    /// counts delivered tokens and cross-checks them against the server.
    ///
    /// ## Example
    /// ```json
    /// { "workload": { "token_count_source": "stream-chunks" },
    ///   "engine": { "speculative": { "enabled": true, "num_speculative_tokens": 4 } } }
    /// ```
    ///
    /// ## What to do instead
    /// Ask the server for per-request usage (`stream_options: {"include_usage": true}` on the
    /// OpenAI-compatible API), count from it, and record it:
    /// ```json
    /// { "workload": { "token_count_source": "server-usage" } }
    /// ```
    pub static RULE = {
        code: "R001",
        name: "stream-chunks-counted",
        severity: Error,
        scope: Result,
        source: "seeds/000 (only delivered tokens count; chunks are steps, not tokens)",
        summary: "output tokens counted from stream chunks",
    }
}

pub fn check(ctx: &ResultCtx<'_>, out: &mut Emitter<'_>) {
    // A run that served nothing (no level, or none completed a request) has no token figure
    // to distrust.
    if served_nothing(ctx.result) {
        return;
    }
    let Some(workload) = ctx.result.workload.as_ref() else {
        return;
    };
    if workload.token_count_source != Some(TokenCountSource::StreamChunks) {
        return;
    }
    let speculative = ctx
        .result
        .engine
        .as_ref()
        .and_then(|e| e.speculative.as_ref());
    // Say how wrong the count can be: with speculation on, one chunk can carry up to
    // 1 + num_speculative_tokens tokens.
    let why = match speculative {
        Some(s) if s.enabled == Some(true) => match s.num_speculative_tokens {
            Some(k) => format!(
                "with speculative decoding on ({k} draft tokens) one chunk can carry up to {} tokens",
                k.saturating_add(1)
            ),
            None => "with speculative decoding on one chunk can carry several tokens".to_string(),
        },
        Some(s) if s.enabled == Some(false) => {
            "even without speculation engines coalesce several tokens into one chunk under load"
                .to_string()
        }
        _ => "a chunk is an engine step, which can carry several tokens".to_string(),
    };
    out.emit(
        "/workload/token_count_source",
        format!(
            "output tokens were counted from stream chunks, not from the server's usage: {why}"
        ),
    )
    .label("chunks are steps, not tokens")
    .help(
        "count the usage the server reports for each request (`token_count_source: \
         \"server-usage\"`) and cross-check it against the server's own counter",
    );
}
