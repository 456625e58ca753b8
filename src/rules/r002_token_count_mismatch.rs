//! `token-count-mismatch` (R002): the client's output token count and the server's own
//! counter disagree. Also holds the small helpers the per-level R rules share.

use std::fmt::Write as _;

use crate::numbers::{count, num};

use super::support::{at_streams, count_f64};
use super::{Emitter, ResultCtx, declare_rule};
use crate::text::Text;

declare_rule! {
    /// ## What it checks
    /// For every level that records both `output_tokens` (the harness's count, made as
    /// `workload.token_count_source` says) and `server_output_tokens` (the server's own
    /// counter over the same window), that the two differ by at most `token_count_tolerance`
    /// (2%) of the server's count. The server counter is the reference: it is what the engine
    /// generated, whatever the client saw.
    ///
    /// A server counter of 0 beside a non-zero client count is reported as a data problem
    /// (the counter was not read). Two zeros are left to R007 (all-zero level). A level that
    /// records only one of the two counts is not checked: there is nothing to cross-check.
    ///
    /// The client counts the tokens of the requests it completed; the server counts every
    /// token it generated in the window, also for requests that never completed there: the
    /// failed ones, and those still in flight when a window that ends on time closes (an
    /// agentic or duration-bounded run stops with its streams mid-answer). So a server count
    /// *above* the client's by no more than those requests could have generated is not a
    /// miscount: at most `failed` plus the level's streams (`concurrency`, or the
    /// `max_concurrency` cap of an open-loop level) requests, each at most the longest answer
    /// the level records (`workload.max_output_tokens`, else the longest answer among the
    /// samples, else the mean answer, `output_tokens / requests`). Where the client counted
    /// stream chunks (`token_count_source: stream-chunks`) a lower client count is the known
    /// miscount (with speculation a chunk is a step of several tokens), and no such allowance
    /// is made. A client count above the server's is never explained this way.
    ///
    /// ## Why is this bad?
    /// Seed 000: "We cross-check the client count against the server's own counters. The
    /// 40.7-vs-27.8 note is why." A client that counted 40.7 tok/s where the server delivered
    /// 27.8 overstates the throughput by 46%, and nothing else in the file shows it: every
    /// figure built on the count (aggregate, per-user rate, cost per token) inherits the error.
    ///
    /// ## Example
    /// ```json
    /// { "concurrency": 1, "duration_s": 120.0,
    ///   "output_tokens": 4884, "server_output_tokens": 3336 }
    /// ```
    ///
    /// ## What to do instead
    /// Count the usage the server reports for each request and keep the cross-check; when the
    /// two disagree, find out why (stream chunks counted as tokens, a client tokenizer that is
    /// not the model's, requests that timed out client-side) before publishing.
    /// ```json
    /// { "concurrency": 1, "output_tokens": 3336, "server_output_tokens": 3336 }
    /// ```
    pub static RULE = {
        code: "R002",
        name: "token-count-mismatch",
        severity: Error,
        scope: Result,
        source: "seeds/000 (the 40.7-vs-27.8 note: client count cross-checked against the server)",
        summary: "client token count and server counter differ by more than 2%",
    }
}

pub fn check(ctx: &ResultCtx<'_>, out: &mut Emitter<'_>) {
    let tolerance = ctx.thresholds.token_count_tolerance;
    for (i, level) in ctx.result.levels.as_slice().iter().enumerate() {
        let (Some(client), Some(server)) = (level.output_tokens, level.server_output_tokens) else {
            continue;
        };
        let at = at_streams(level.key());
        if server == 0 {
            // Dividing by the server count is impossible; a zero beside a real count means the
            // counter was not read, which is a cross-check that did not happen.
            if client > 0 {
                out.emit(
                    format!("/levels/{i}/server_output_tokens"),
                    Text::own(format!("{at}: the server's counter reads 0 while the client counted {} output tokens", count(client))),
                )
                .label("counter not read?")
                .help("read the server's generation-token counter before and after the level and record the difference");
            }
            continue;
        }
        let (c, s) = (count_f64(client), count_f64(server));
        let diff = (c - s) / s;
        if diff.abs() <= tolerance {
            continue;
        }
        let allowance = unfinished_allowance(ctx, level);
        if server > client && server - client <= allowance {
            continue;
        }
        let direction = if diff > 0.0 { "more" } else { "fewer" };
        let mut message = format!(
            "{at}: the client counted {} output tokens, the server's counter {}: \
             {}% {direction} than the server (tolerance {:.0}%)",
            count(client),
            count(server),
            crate::numbers::bounded(diff.abs() * 100.0, 1),
            tolerance * 100.0
        );
        // The seed states the mismatch as rates; give them when the window is known.
        if let Some(d) = level.duration_s.filter(|d| d.is_finite() && *d > 0.0) {
            let _ = write!(
                message,
                "; over the {} s window that is {} vs {} tok/s",
                num(d),
                num(c / d),
                num(s / d)
            );
        }
        // Say what was allowed for, so the reader sees why the gap is not the requests left
        // unfinished when the window closed.
        if server > client && allowance > 0 {
            let _ = write!(
                message,
                "; the requests left unfinished (the level's streams and failures) could hold at \
                 most {} of the {}-token gap",
                count(allowance),
                count(server - client)
            );
        }
        out.emit(format!("/levels/{i}/output_tokens"), Text::own(message))
            .label(Text::own(format!("the server counted {}", count(server))))
            .help(
                "count the usage the server reports for each request; every figure built on this \
                 count (aggregate, per-user rate, cost) carries the same error",
            );
    }
}

/// What the requests of `level` that the client never completed could have generated: the
/// failed ones and those in flight when the window closed (the level's streams), each at
/// most the longest answer the level records. None where the client counted stream chunks,
/// whose undercount is the miscount itself.
fn unfinished_allowance(ctx: &ResultCtx<'_>, level: &crate::model::Level) -> u64 {
    let workload = ctx.result.workload.as_deref();
    if workload.and_then(|w| w.token_count_source)
        == Some(crate::model::TokenCountSource::StreamChunks)
    {
        return 0;
    }
    let streams = level.concurrency.or(level.max_concurrency).unwrap_or(0);
    let unfinished = streams.saturating_add(level.failed.unwrap_or(0));
    let longest_sample = level
        .samples
        .as_ref()
        .and_then(|s| s.output_tokens.as_ref())
        .and_then(|v| {
            v.iter()
                .copied()
                .filter(|x| x.is_finite() && *x >= 0.0)
                .reduce(f64::max)
        });
    let mean = match (level.output_tokens, level.requests) {
        (Some(tokens), Some(n)) if n > 0 => Some(tokens.div_ceil(n)),
        _ => None,
    };
    #[expect(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        reason = "a finite, non-negative token count"
    )]
    let per_request = workload
        .and_then(|w| w.max_output_tokens)
        .or_else(|| longest_sample.map(|x| x.ceil().min(9.0e15) as u64))
        .or(mean)
        .unwrap_or(0);
    unfinished.saturating_mul(per_request)
}
