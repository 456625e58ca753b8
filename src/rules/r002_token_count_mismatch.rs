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
        out.emit(format!("/levels/{i}/output_tokens"), Text::own(message))
            .label(Text::own(format!("the server counted {}", count(server))))
            .help(
                "count the usage the server reports for each request; every figure built on this \
                 count (aggregate, per-user rate, cost) carries the same error",
            );
    }
}
