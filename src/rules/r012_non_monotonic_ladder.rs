//! `non-monotonic-ladder` (R012): throughput falls as concurrency rises.

use crate::numbers::num;

use super::{Emitter, ResultCtx, declare_rule};
use crate::model::{Level, LevelKey};

declare_rule! {
    /// ## What it checks
    /// The levels of one ladder, taken in order of concurrency. A level whose throughput is
    /// lower than the level just below it (by more than `ladder_dip_tolerance`, 2%) is
    /// reported at that level, with both figures. The figure compared is the aggregate when both
    /// levels record one, else the decode throughput when both record that; two levels that
    /// share no labelled figure are not compared (a prefill figure is not compared either: it
    /// measures prompt processing, not the ladder's output). Levels at the same concurrency are
    /// not compared with each other.
    ///
    /// The rule fires whether or not `notes` mentions the dip: a note can explain a dip, but a
    /// linter cannot read one, so the finding stays and the help asks for an explanation or a
    /// re-measurement. A dip within 2% (the static throughput noise floor of DESIGN.md
    /// "Statistics") is a plateau, not a fall.
    ///
    /// ## Why is this bad?
    /// Batched inference delivers more aggregate throughput the more requests are in flight, up
    /// to the scheduler limit; it does not deliver less. Seed 004 traced its published dips, "such
    /// as 100.6 tokens per second at 4 streams sitting above 57.7 at 8 streams in the same
    /// ladder", to scheduler stalls inside levels that lasted 15 to 30 seconds: the lower figure
    /// measured a stall, not the hardware.
    ///
    /// ## Example
    /// ```json
    /// { "levels": [
    ///   { "concurrency": 4, "throughput_tok_s": { "aggregate": 100.6 } },
    ///   { "concurrency": 8, "throughput_tok_s": { "aggregate": 57.7 } } ] }
    /// ```
    ///
    /// ## What to do instead
    /// Re-measure the level in a steady-state window (R009) and look at its first-token latency
    /// for a stall. If the fall is real (the engine thrashes past its knee), publish it with the
    /// explanation beside it; seed 004 publishes "levels that came out worse than the level
    /// below them" rather than hiding them.
    pub static RULE = {
        code: "R012",
        name: "non-monotonic-ladder",
        severity: Warning,
        scope: Result,
        source: "seeds/004 (100.6 tok/s at 4 streams above 57.7 at 8)",
        summary: "throughput falls as concurrency rises",
    }
}

/// A level's load in words for messages: "1 stream", "8 streams", "10 req/s" (every level rule
/// uses it).
pub(crate) fn streams(key: LevelKey) -> String {
    key.to_string()
}

/// The figure two levels are compared on (R012, R013): the aggregate if both record it, else
/// decode; `None` when they share neither.
pub(crate) fn common_figure(a: &Level, b: &Level) -> Option<(&'static str, f64, f64)> {
    let (ta, tb) = (a.throughput_tok_s.as_ref()?, b.throughput_tok_s.as_ref()?);
    if let (Some(x), Some(y)) = (ta.aggregate, tb.aggregate) {
        return Some(("aggregate", x, y));
    }
    if let (Some(x), Some(y)) = (ta.decode, tb.decode) {
        return Some(("decode", x, y));
    }
    None
}

pub fn check(ctx: &ResultCtx<'_>, out: &mut Emitter<'_>) {
    let tolerance = ctx.thresholds.ladder_dip_tolerance;
    // Indices sorted by load (streams, or request rate); the sort is stable, so file order
    // breaks ties. Only neighbours on the same axis are compared.
    let levels = ctx.result.levels.as_slice();
    let mut order: Vec<usize> = (0..levels.len()).collect();
    order.sort_by_key(|&i| levels[i].key());
    for pair in order.windows(2) {
        let (lo, hi) = (&levels[pair[0]], &levels[pair[1]]);
        if hi.key() <= lo.key() || hi.key().axis() != lo.key().axis() {
            continue;
        }
        let Some((figure, below, here)) = common_figure(lo, hi) else {
            continue;
        };
        // A zero or non-finite level below is R007's finding; nothing can fall from it.
        if !(below.is_finite() && here.is_finite()) || below <= 0.0 {
            continue;
        }
        let fall = (below - here) / below;
        if fall <= tolerance {
            continue;
        }
        out.emit(
            format!("/levels/{}/throughput_tok_s/{figure}", pair[1]),
            format!(
                "{figure} throughput {} tok/s at {} is {}% below {} tok/s at {}",
                num(here),
                streams(hi.key()),
                crate::numbers::bounded(fall * 100.0, 1),
                num(below),
                streams(lo.key()),
            ),
        )
        .label(format!("below the {} at {}", num(below), streams(lo.key())))
        .help(
            "a ladder does not lose throughput as streams are added unless something stalled: \
             re-measure the level in a steady-state window, or publish the dip with its explanation",
        );
    }
}
