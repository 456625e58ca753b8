//! `ttft-without-streaming` (R028): a time to first token from a run whose responses were not
//! streamed, so no first token was ever timed.

use super::r020_output_shortfall::mean_output;
use super::support::at_streams;
use super::{Emitter, ResultCtx, declare_rule};
use crate::model::Level;
use crate::numbers::num;

declare_rule! {
    /// ## What it checks
    /// Per level that reports a time to first token (`ttft_s` p50, p95 or p99, or
    /// `samples.ttft_s`), the first of these that holds:
    ///
    /// 1. **Not streamed.** `workload.streaming` is `false`: the harness asked for whole
    ///    responses, so the client saw the first token when it saw the last.
    /// 2. **TTFT equals the end-to-end latency.** The TTFT p50 is at least 98% of the e2e p50
    ///    (`e2e_s.p50`) although the requests returned more than one token: the first token
    ///    arrived with the whole response. A level whose outputs are one token long (a mean of
    ///    at most 1.5 per request, or `max_output_tokens` 1: a prefill test) has a TTFT equal to
    ///    its e2e latency by definition and is not reported.
    /// 3. **TTFT near zero with long outputs.** The TTFT p50 is under `ttft_near_zero_s` (1 ms)
    ///    while the requests were long: at least 16 output tokens per request on average, or,
    ///    when the file does not count them, an e2e p50 of at least 0.1 s. No server receives,
    ///    tokenizes and prefills a request in under a millisecond: the client stamped the
    ///    first token when it sent the request or when the response headers arrived.
    ///
    /// The mean output per request is the file's `samples.output_tokens` when they cover every
    /// request, else `output_tokens / requests`. One finding per level, at its TTFT p50 (else
    /// its `ttft_s`).
    ///
    /// ## Why is this bad?
    /// Time to first token is the prefill cost plus queueing (seed 002: "Carries the prefill
    /// cost, so it grows with prompt length and with queueing"), and seed 000 reports prefill
    /// and decode separately because they differ by orders of magnitude (about 1,520 tok/s of
    /// prompt processing against about 27 tok/s of generation on one deployment). A TTFT taken
    /// from a non-streaming run is the whole request: it folds every decode step into what is
    /// read as prefill, and a comparison of TTFTs then compares output lengths.
    /// research/formats2.md: genai-bench files of non-streaming runs still report a TTFT.
    ///
    /// ## Example
    /// ```json
    /// { "workload": { "streaming": false },
    ///   "levels": [ { "concurrency": 8, "ttft_s": { "p50": 4.91 }, "e2e_s": { "p50": 4.91 } } ] }
    /// ```
    ///
    /// ## What to do instead
    /// Measure TTFT with streaming on (`--streaming`, `stream: true`), or drop the TTFT from
    /// a non-streaming run and publish its end-to-end latency as what it is.
    pub static RULE = {
        code: "R028",
        name: "ttft-without-streaming",
        severity: Error,
        scope: Result,
        source: "seeds/000 (prefill about 1,520 tok/s against decode about 27: report them apart); seeds/002 (TTFT carries the prefill cost)",
        summary: "a time to first token from a run that did not stream",
    }
}

/// TTFT p50 at or above this share of the e2e p50 is the e2e latency.
const EQUALS_E2E: f64 = 0.98;

/// Output tokens per request from which a request is long (a near-zero TTFT is then no prefill).
const LONG_OUTPUT_TOKENS: f64 = 16.0;

/// E2E p50, seconds, from which requests took time (when output counts are not recorded).
const LONG_E2E_S: f64 = 0.1;

/// Whether the level reports a TTFT at all.
fn reports_ttft(level: &Level) -> bool {
    level
        .ttft_s
        .as_ref()
        .is_some_and(|t| t.p50.is_some() || t.p95.is_some() || t.p99.is_some())
        || level
            .samples
            .as_ref()
            .and_then(|s| s.ttft_s.as_ref())
            .is_some_and(|v| !v.is_empty())
}

pub fn check(ctx: &ResultCtx<'_>, out: &mut Emitter<'_>) {
    let workload = ctx.result.workload.as_ref();
    let streaming = workload.and_then(|w| w.streaming);
    let cap = workload.and_then(|w| w.max_output_tokens);
    for (i, level) in ctx.result.levels.as_slice().iter().enumerate() {
        if !reports_ttft(level) {
            continue;
        }
        let at = at_streams(level.key());
        let ttft = level
            .ttft_s
            .as_ref()
            .and_then(|t| t.p50)
            .filter(|t| t.is_finite());
        let e2e = level
            .e2e_s
            .as_ref()
            .and_then(|e| e.p50)
            .filter(|e| e.is_finite() && *e > 0.0);
        let per_request = mean_output(level).map(|(m, _)| m);
        let message = if streaming == Some(false) {
            format!(
                "{at}: the level reports a time to first token, but the run did not stream (`workload.streaming` \
                 false): the client saw the first token with the last, so this is the whole request"
            )
        } else if let (Some(t), Some(e)) = (ttft, e2e)
            && t >= EQUALS_E2E * e
            && per_request.is_none_or(|m| m > 1.5)
            && cap.is_none_or(|c| c > 1)
        {
            let outputs = per_request.map_or_else(String::new, |m| {
                format!(" with {} output tokens per request", num(m))
            });
            let why = if streaming == Some(true) {
                "although the run is recorded as streamed, no first token was timed"
            } else {
                "so the run did not stream and no first token was timed"
            };
            format!(
                "{at}: the TTFT p50 of {} s is the end-to-end p50 of {} s{outputs}: the first token arrived with \
                 the whole response, {why}",
                num(t),
                num(e),
            )
        } else if let Some(t) = ttft.filter(|t| *t >= 0.0 && *t < ctx.thresholds.ttft_near_zero_s)
            && (per_request.is_some_and(|m| m >= LONG_OUTPUT_TOKENS)
                || (per_request.is_none() && e2e.is_some_and(|e| e >= LONG_E2E_S)))
        {
            let long = per_request.map_or_else(
                || format!("an end-to-end p50 of {} s", num(e2e.unwrap_or_default())),
                |m| format!("{} output tokens per request", num(m)),
            );
            format!(
                "{at}: the TTFT p50 of {} ms is near zero beside {long}: no server prefills a request in under \
                 {} ms, so the client did not time a first token",
                num(t * 1e3),
                num(ctx.thresholds.ttft_near_zero_s * 1e3),
            )
        } else {
            continue;
        };
        // At the median when the level records one (where the file writes it), else the TTFTs.
        let at = if ttft.is_some() {
            format!("/levels/{i}/ttft_s/p50")
        } else {
            format!("/levels/{i}/ttft_s")
        };
        out.emit(at, message)
            .label("not a time to first token")
            .help(
                "measure TTFT with streaming on, or drop it from a non-streaming run and publish the \
                 end-to-end latency as what it is",
            );
    }
}
