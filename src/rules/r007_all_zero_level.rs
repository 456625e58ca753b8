//! `all-zero-level` (R007): a level of a successful run that served nothing.

use super::support::at_streams;
use super::{Emitter, ResultCtx, declare_rule};
use crate::model::{Level, Outcome};

declare_rule! {
    /// ## What it checks
    /// For a result whose `outcome` is `ok`, every level: it is reported when
    ///
    /// - it records throughput figures and every one of them is 0 (at `throughput_tok_s`);
    /// - or, failing that, it delivered 0 output tokens (at `output_tokens`);
    /// - or, failing that, it completed 0 requests (at `requests`).
    ///
    /// One finding per level, the first of these that holds. A run the file records as
    /// `failed`, `aborted` or `does-not-fit` is already labelled as a losing run and is not
    /// reported: that is the honest way to publish a level that served nothing. An outcome
    /// benchlint derived (provenance "derived": an adapter saw that every request of a harness
    /// file errored, as in a GuideLLM or vLLM report against a stopped server) is not such a
    /// label: the file itself still presents the level as a measurement, so it is reported.
    ///
    /// ## Why is this bad?
    /// Seed 002: "A benchmark against a stopped server is refused rather than run. A sweep
    /// with nothing serving reports zeros, and zeros read as bad hardware rather than as a
    /// stopped server." A zero in a ladder also drags every mean, ratio and capacity figure
    /// computed over the file, and the file gives no hint that the cause was the server, not
    /// the platform.
    ///
    /// ## Example
    /// ```json
    /// { "outcome": "ok", "levels": [ { "concurrency": 16, "requests": 0, "output_tokens": 0,
    ///   "throughput_tok_s": { "decode": 0.0, "aggregate": 0.0 } } ] }
    /// ```
    ///
    /// ## What to do instead
    /// Check that the server is up and answering before each level (the harness should refuse
    /// to run otherwise). If a level really served nothing, record the run as lost and leave
    /// the zeros out:
    /// ```json
    /// { "outcome": "aborted", "notes": "server stopped during the 16-stream level" }
    /// ```
    pub static RULE = {
        code: "R007",
        name: "all-zero-level",
        severity: Error,
        scope: Result,
        source: "seeds/002 (zeros read as bad hardware rather than as a stopped server)",
        summary: "a level with zero throughput",
    }
}

/// Why the level counts as having served nothing: the pointer suffix and the evidence.
fn zero_evidence(level: &Level) -> Option<(&'static str, String)> {
    if let Some(t) = &level.throughput_tok_s {
        let figures: Vec<(&str, f64)> = [
            ("decode", t.decode),
            ("prefill", t.prefill),
            ("aggregate", t.aggregate),
        ]
        .into_iter()
        .filter_map(|(name, v)| Some((name, v?)))
        .collect();
        // Every recorded figure exactly 0 (a non-finite one is not a zero: it is unreadable).
        if !figures.is_empty() && figures.iter().all(|(_, v)| *v == 0.0) {
            let names: Vec<String> = figures.iter().map(|(n, _)| format!("{n} 0")).collect();
            return Some((
                "throughput_tok_s",
                format!("every throughput figure is 0 ({})", names.join(", ")),
            ));
        }
    }
    if level.output_tokens == Some(0) {
        return Some((
            "output_tokens",
            "the level delivered 0 output tokens".to_string(),
        ));
    }
    if level.requests == Some(0) {
        return Some(("requests", "the level completed 0 requests".to_string()));
    }
    None
}

pub fn check(ctx: &ResultCtx<'_>, out: &mut Emitter<'_>) {
    // A losing outcome the author gave excuses the zeros; one benchlint concluded does not.
    let derived = ctx.provenance.is_derived("/outcome");
    if ctx.result.outcome != Outcome::Ok && !derived {
        return;
    }
    let context = if ctx.result.outcome == Outcome::Ok {
        "in a run recorded as ok".to_string()
    } else {
        format!(
            "in a file that does not record the run as lost (benchlint derived the outcome `{}` \
             from its counts)",
            ctx.result.outcome.as_str()
        )
    };
    for (i, level) in ctx.result.levels.as_slice().iter().enumerate() {
        let Some((field, evidence)) = zero_evidence(level) else {
            continue;
        };
        // The failed count is the usual tell of a stopped server: give it when recorded.
        let failed = match level.failed {
            Some(1) => ", 1 request failed,".to_string(),
            Some(f) if f > 0 => format!(", {} requests failed,", crate::numbers::count(f)),
            _ => String::new(),
        };
        out.emit(
            format!("/levels/{i}/{field}"),
            format!(
                "{}: {evidence}{failed} {context}: zeros read as bad hardware rather than as a stopped server",
                at_streams(level.key())
            ),
        )
        .label("nothing was served")
        .help(
            "check the server answers before each level and re-run; if the level really served \
             nothing, record the run's outcome as failed or aborted instead of publishing zeros",
        );
    }
}
