//! `quality-gate-failed` (R021): a result whose paired quality gate failed still reports
//! throughput.

use super::r012_non_monotonic_ladder::streams;
use super::{Emitter, ResultCtx, declare_rule};
use crate::model::LevelKey;
use crate::numbers::num;

declare_rule! {
    /// ## What it checks
    /// A result whose `artifacts.quality_gate.passed` is `false` and at least one of whose levels
    /// reports a throughput figure (`throughput_tok_s` decode, prefill or aggregate). A failed
    /// gate on a result without throughput (a run stopped by its gate, as seed 004's designed
    /// 50-prompt gate "blocks the throughput run on failure") is what should happen and is not
    /// reported. A gate whose `passed` is absent is not judged here (M014 asks for the gate).
    ///
    /// ## Why is this bad?
    /// Seed 004: "A configuration that is fast because it is lossy is not fast, it is broken."
    /// Its checklist pairs every speed number with an accuracy result from the same endpoint so
    /// that "no configuration can win by being quietly broken". A throughput figure next to a
    /// failed gate is the figure of a broken configuration.
    ///
    /// ## Example
    /// ```json
    /// { "artifacts": { "quality_gate": { "path": "quality/gate50.json", "passed": false,
    ///   "score": 0.42 } },
    ///   "levels": [ { "concurrency": 32, "throughput_tok_s": { "aggregate": 563.0 } } ] }
    /// ```
    ///
    /// ## What to do instead
    /// Fix the configuration (precision, kernel, speculative settings) until the gate passes,
    /// then measure; or record the run with `outcome: "failed"` and no throughput figures.
    pub static RULE = {
        code: "R021",
        name: "quality-gate-failed",
        severity: Error,
        scope: Result,
        source: "seeds/004 (a configuration that is fast because it is lossy is not fast, it is broken)",
        summary: "throughput reported beside a failed quality gate",
    }
}

pub fn check(ctx: &ResultCtx<'_>, out: &mut Emitter<'_>) {
    let Some(gate) = ctx
        .result
        .artifacts
        .as_ref()
        .and_then(|a| a.quality_gate.as_ref())
    else {
        return;
    };
    if gate.passed != Some(false) {
        return;
    }
    // Every labelled throughput figure the file reports, with the level's concurrency.
    let figures: Vec<(LevelKey, &str, f64)> = ctx
        .result
        .levels
        .as_slice()
        .iter()
        .filter_map(|l| Some((l.key(), l.throughput_tok_s.as_ref()?)))
        .flat_map(|(c, t)| {
            [
                ("aggregate", t.aggregate),
                ("decode", t.decode),
                ("prefill", t.prefill),
            ]
            .into_iter()
            .filter_map(move |(name, v)| Some((c, name, v?)))
        })
        .collect();
    let levels_with = ctx
        .result
        .levels
        .as_slice()
        .iter()
        .filter(|l| {
            l.throughput_tok_s
                .as_ref()
                .is_some_and(|t| t.aggregate.or(t.decode).or(t.prefill).is_some())
        })
        .count();
    // The headline a reader would quote: the highest aggregate, else the highest decode.
    let peak = ["aggregate", "decode", "prefill"]
        .into_iter()
        .find_map(|want| {
            figures
                .iter()
                .filter(|(_, name, v)| *name == want && v.is_finite())
                .max_by(|a, b| a.2.total_cmp(&b.2))
        });
    let Some(&(c, name, v)) = peak else {
        return;
    };
    let score = gate
        .score
        .filter(|s| s.is_finite())
        .map_or_else(String::new, |s| format!(" (score {})", num(s)));
    out.emit(
        "/artifacts/quality_gate/passed",
        format!(
            "the paired quality gate failed{score} but {levels_with} level(s) report throughput, up to {} tok/s {name} at {}",
            num(v),
            streams(c)
        ),
    )
    .label("the gate failed")
    .help("a configuration that is fast because it is lossy is broken: fix it until the gate passes, or publish the run as failed without throughput");
}
