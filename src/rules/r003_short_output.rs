//! `short-output` (R003): an output cap so short that per-request fixed overhead dominates.

use super::served::served_nothing;
use super::{Emitter, ResultCtx, declare_rule};

declare_rule! {
    /// ## What it checks
    /// That `workload.max_output_tokens` is at least `min_output_tokens` (128): a cap under
    /// 128 tokens is reported as a warning at the cap. A cap from 128 up to
    /// `note_output_tokens` (256) gets a note (info severity): it does not fail a build, but
    /// says that a single-stream difference may only show at 256. A result that does not
    /// record its cap is not this rule's
    /// finding, and neither is a run that completed no request (no level, or none with a
    /// completed request: nothing was measured; R006 and R007 report it).
    ///
    /// ## Why is this bad?
    /// Seed 002: "Below about 128, per-request fixed overhead dominates and a real difference
    /// can vanish into it. Measured on one deployment, a 43% single-stream gain was invisible
    /// at 128 tokens and obvious at 256." Prefill, scheduling and the first-token path are
    /// paid once per request; with few output tokens they are most of the request, and the
    /// decode rate the benchmark claims to compare is a small part of what it timed.
    ///
    /// ## Example
    /// ```json
    /// { "workload": { "name": "chat-short", "max_output_tokens": 64 } }
    /// ```
    ///
    /// ## What to do instead
    /// Use seed 002's default of 256 output tokens (or more), and keep short caps for a
    /// separately labelled latency test:
    /// ```json
    /// { "workload": { "name": "chat-short", "max_output_tokens": 256 } }
    /// ```
    pub static RULE = {
        code: "R003",
        name: "short-output",
        severity: Warning,
        scope: Result,
        source: "seeds/002 (a 43% single-stream gain invisible at 128 tokens, obvious at 256)",
        summary: "output cap under 128 tokens",
    }
}

pub fn check(ctx: &ResultCtx<'_>, out: &mut Emitter<'_>) {
    if served_nothing(ctx.result) {
        return;
    }
    let Some(cap) = ctx
        .result
        .workload
        .as_ref()
        .and_then(|w| w.max_output_tokens)
    else {
        return;
    };
    let min = ctx.thresholds.min_output_tokens;
    let note = ctx.thresholds.note_output_tokens;
    if cap >= note {
        return;
    }
    if cap >= min {
        // Seed 002: 256 is the default, and a lower value "is recorded as a warning on the run
        // rather than silently accepted"; between 128 and 256 the gain may still show, so a note.
        out.emit(
            "/workload/max_output_tokens",
            format!("output cap {cap} tokens is under {note}: a real single-stream difference may only show at {note}"),
        )
        .label(format!("under {note} tokens"))
        .help(format!("measure with `max_output_tokens` of {note} (seed 002's default) before comparing single-stream rates"))
        .severity(crate::diagnostic::Severity::Info);
        return;
    }
    out.emit(
        "/workload/max_output_tokens",
        format!(
            "output cap {cap} tokens is under {min}: per-request fixed overhead dominates and a real \
             difference between configurations can vanish into it"
        ),
    )
    .label(format!("under {min} tokens"))
    .help(format!(
        "raise `max_output_tokens` to {} (seed 002's default) or more; a 43% single-stream gain \
         was invisible at 128 tokens and obvious at 256",
        ctx.thresholds.note_output_tokens
    ));
}
