//! `thinking-enabled` (R015): the model reasoned before answering.

use super::served::served_nothing;
use super::{Emitter, ResultCtx, declare_rule};
use crate::model::TokenCountSource;

declare_rule! {
    /// ## What it checks
    /// A result whose `model.thinking` is `true`: the model ran with thinking (reasoning) on.
    ///
    /// The canonical format has no field that says whether reasoning tokens were counted, so the
    /// rule cannot check that half of seed 002's rule directly. It does the next best thing:
    /// when thinking is on and the output tokens were counted by a client tokenizer
    /// (`workload.token_count_source` is `client-tokenizer`), the message says so, because a
    /// client re-tokenizes the text it was given, and OpenAI-compatible servers return the
    /// reasoning in a separate field (`reasoning_content`) that such harnesses often drop.
    /// Server usage counts (`server-usage`) include reasoning tokens. An absent or `false`
    /// `thinking` is not reported.
    ///
    /// A run that completed no request has no figure to mix reasoning into and is skipped: R006
    /// and R007 report it.
    ///
    /// ## Why is this bad?
    /// Seed 002 runs "with thinking off by default, so two models are comparable and a short run
    /// is not spent reasoning without reaching an answer". With thinking on, two models spend
    /// different shares of their output on reasoning, and a capped run can end before any answer
    /// appears. And "reasoning tokens are counted as tokens either way — a harness that counted
    /// only answer tokens would score a perfectly good run as zero".
    ///
    /// ## Example
    /// ```json
    /// { "model": { "name": "Qwen/Qwen3.6-35B-A3B", "thinking": true },
    ///   "workload": { "token_count_source": "client-tokenizer" } }
    /// ```
    ///
    /// ## What to do instead
    /// ```json
    /// { "model": { "name": "Qwen/Qwen3.6-35B-A3B", "thinking": false },
    ///   "workload": { "token_count_source": "server-usage" } }
    /// ```
    /// Measure with thinking off; when thinking is the point of the run, count reasoning tokens
    /// from the server's usage and compare it only with other thinking runs.
    pub static RULE = {
        code: "R015",
        name: "thinking-enabled",
        severity: Warning,
        scope: Result,
        source: "seeds/002 (thinking off by default; reasoning tokens counted either way)",
        summary: "thinking on, or reasoning tokens possibly not counted",
    }
}

pub fn check(ctx: &ResultCtx<'_>, out: &mut Emitter<'_>) {
    if served_nothing(ctx.result) {
        return;
    }
    if ctx.result.model.as_ref().and_then(|m| m.thinking) != Some(true) {
        return;
    }
    let source = ctx
        .result
        .workload
        .as_ref()
        .and_then(|w| w.token_count_source);
    let e = if source == Some(TokenCountSource::ClientTokenizer) {
        out.emit(
            "/model/thinking",
            "thinking was on and output tokens were counted by a client tokenizer, which may see only the answer text: \
             reasoning tokens may be missing from every throughput figure",
        )
    } else {
        out.emit(
            "/model/thinking",
            "thinking was on: the figures mix reasoning and answer tokens and are comparable only with other thinking runs",
        )
    };
    e.label("thinking on").help(
        "measure with thinking off (seed 002's default); if thinking is the point, count reasoning tokens from the \
         server's usage and compare only with other thinking runs",
    );
}
