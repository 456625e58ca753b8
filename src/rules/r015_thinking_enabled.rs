//! `thinking-enabled` (R015): the model reasoned before answering.

use super::served::served_nothing;
use super::support::{at_streams, count_f64};
use super::{Emitter, ResultCtx, declare_rule};
use crate::model::TokenCountSource;
use crate::numbers::{count, num};

declare_rule! {
    /// ## What it checks
    /// A result whose `model.thinking` is `true`: the model ran with thinking (reasoning) on.
    /// An absent or `false` `thinking` is not reported. What the message says about the
    /// reasoning tokens depends on what the file lets benchlint check:
    ///
    /// - **the arithmetic, when it can be done.** A level that records its reasoning tokens
    ///   apart (`reasoning_tokens`, part of `output_tokens`), its output tokens, its window
    ///   (`duration_s`) and its aggregate: `aggregate × duration_s` is the token count the
    ///   throughput divides. Within `token_count_tolerance` (2%) of `output_tokens`, the
    ///   reasoning tokens are counted, and the message says so with the numbers (AIPerf's
    ///   `total_osl` is answer plus reasoning: 54.56 tok/s × 519.6 s = 2,781 + 25,567 tokens);
    ///   within 2% of the answer tokens alone (`output_tokens − reasoning_tokens`), they are
    ///   missing from every throughput figure, and the finding says that at the aggregate.
    /// - **a caution, otherwise.** When the output tokens were counted by a client tokenizer
    ///   (`workload.token_count_source` is `client-tokenizer`) the message says reasoning
    ///   tokens may be missing: a client re-tokenizes the text it was given, and
    ///   OpenAI-compatible servers return the reasoning in a separate field
    ///   (`reasoning_content`) that such harnesses often drop. Server usage counts include them.
    ///
    /// A run that completed no request has no figure to mix reasoning into and is skipped:
    /// R006 and R007 report it.
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

/// What the throughput arithmetic shows about the reasoning tokens of one level.
enum Counted {
    /// `aggregate × duration` matches the output tokens, reasoning included.
    Included {
        level: usize,
        reasoning: u64,
        output: u64,
        aggregate: f64,
        duration: f64,
    },
    /// It matches the answer tokens alone.
    Missing {
        level: usize,
        reasoning: u64,
        answer: u64,
        aggregate: f64,
        duration: f64,
    },
}

/// The first level whose throughput arithmetic can be checked against its reasoning tokens.
fn counted(ctx: &ResultCtx<'_>) -> Option<Counted> {
    let tol = ctx.thresholds.token_count_tolerance;
    let near = |a: f64, b: f64| b > 0.0 && ((a - b) / b).abs() <= tol;
    ctx.result
        .levels
        .as_slice()
        .iter()
        .enumerate()
        .find_map(|(i, l)| {
            let reasoning = l.reasoning_tokens.filter(|r| *r > 0)?;
            let output = l.output_tokens.filter(|o| *o >= reasoning)?;
            let duration = l.duration_s.filter(|d| d.is_finite() && *d > 0.0)?;
            let aggregate = l
                .throughput_tok_s
                .as_ref()?
                .aggregate
                .filter(|a| a.is_finite() && *a > 0.0)?;
            let tokens = aggregate * duration;
            let answer = output - reasoning;
            if near(tokens, count_f64(output)) {
                Some(Counted::Included {
                    level: i,
                    reasoning,
                    output,
                    aggregate,
                    duration,
                })
            } else if near(tokens, count_f64(answer)) {
                Some(Counted::Missing {
                    level: i,
                    reasoning,
                    answer,
                    aggregate,
                    duration,
                })
            } else {
                None
            }
        })
}

/// A token count with thousands separated.
fn tokens(n: u64) -> String {
    count(n)
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
    let e = match counted(ctx) {
        Some(Counted::Included {
            level,
            reasoning,
            output,
            aggregate,
            duration,
        }) => out.emit(
            "/model/thinking",
            format!(
                "thinking was on: {} of the {} output tokens {} were reasoning, and the aggregate \
                 counts them ({} tok/s × {} s ≈ {} tokens): the figures mix reasoning and answer \
                 tokens and are comparable only with other thinking runs",
                tokens(reasoning),
                tokens(output),
                at_streams(ctx.result.levels.as_slice()[level].key()),
                num(aggregate),
                num(duration),
                num((aggregate * duration).round()),
            ),
        ),
        Some(Counted::Missing {
            level,
            reasoning,
            answer,
            aggregate,
            duration,
        }) => out
            .emit(
                format!("/levels/{level}/throughput_tok_s/aggregate"),
                format!(
                    "thinking was on and the aggregate counts only the answer tokens ({} tok/s × \
                     {} s ≈ {} tokens, the {} answer tokens): the {} reasoning tokens the model \
                     generated are missing from every throughput figure",
                    num(aggregate),
                    num(duration),
                    num((aggregate * duration).round()),
                    tokens(answer),
                    tokens(reasoning),
                ),
            )
            .label("answer tokens only"),
        None if source == Some(TokenCountSource::ClientTokenizer) => out.emit(
            "/model/thinking",
            "thinking was on and output tokens were counted by a client tokenizer, which may see only the answer text: \
             reasoning tokens may be missing from every throughput figure",
        ),
        None => out.emit(
            "/model/thinking",
            "thinking was on: the figures mix reasoning and answer tokens and are comparable only with other thinking runs",
        ),
    };
    if e.label.is_none() {
        e.label("thinking on");
    }
    e.help(
        "measure with thinking off (seed 002's default); if thinking is the point, count reasoning tokens from the \
         server's usage and compare only with other thinking runs",
    );
}
