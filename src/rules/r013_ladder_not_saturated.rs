//! `ladder-not-saturated` (R013): the ladder stops before its plateau, or at the engine's
//! sequence cap.

use super::r012_non_monotonic_ladder::{common_figure, streams};
use super::{Emitter, ResultCtx, declare_rule};
use crate::diagnostic::Location;
use crate::model::Outcome;
use crate::numbers::num;

declare_rule! {
    /// ## What it checks
    /// Two ways a ladder can stop short of saturation, each its own finding:
    ///
    /// - the top level (highest concurrency) still gains `saturation_gain` (5%) or more over the
    ///   level below it. The figure is the aggregate when both levels record one, else decode;
    /// - the top level's concurrency reaches the engine's sequence cap: `engine.max_num_seqs`
    ///   times `engine.data_parallel_size` (each data-parallel replica schedules its own
    ///   sequences). A level above the cap is queued inside the engine, so it counts as
    ///   reaching it.
    ///
    /// Both need a ladder: two or more levels on the same load axis. A single-level result is
    /// not a ladder (an InferenceX sweep runs each concurrency on its own server, often with
    /// `max_num_seqs` set to that concurrency): one level at the cap says nothing about where
    /// the platform saturates, so it is not reported.
    ///
    /// A plateau (a top-level gain under 5%, or a small fall) below the cap is what a saturated
    /// ladder looks like and is not reported. Runs whose `outcome` is not `ok` are skipped: an
    /// aborted ladder is short for a reason the outcome already records. A zero level below the
    /// top is R007's finding, not a gain.
    ///
    /// ## Why is this bad?
    /// A peak taken from an unsaturated ladder is a lower bound, not a peak. Seed 004: "The GB300
    /// gained 30 percent going from 32 to 48 streams on Qwen3.8-Flash-Next, and 55 percent going
    /// from 32 to 64 streams on Qwen3.8-27B in NVFP4. Any peak we had quoted at 32 was an
    /// understatement of that platform". And a ladder stopped by the engine's cap (GB10 at 32,
    /// GB300 at 64, H200 at 96 or more) measures the engine configuration, not the hardware.
    ///
    /// ## Example
    /// ```json
    /// { "engine": { "max_num_seqs": 64 },
    ///   "levels": [ { "concurrency": 32, "throughput_tok_s": { "aggregate": 2733.3 } },
    ///               { "concurrency": 48, "throughput_tok_s": { "aggregate": 3553.3 } } ] }
    /// ```
    ///
    /// ## What to do instead
    /// Extend the ladder until the last step gains less than 5%, raising `--max-num-seqs` if the
    /// cap is what stopped it, and quote the peak from the plateau.
    pub static RULE = {
        code: "R013",
        name: "ladder-not-saturated",
        severity: Warning,
        scope: Result,
        source: "seeds/004 (GB300 +30% from 32 to 48 streams, +55% from 32 to 64)",
        summary: "the ladder stops before its plateau or at the engine sequence cap",
    }
}

pub fn check(ctx: &ResultCtx<'_>, out: &mut Emitter<'_>) {
    if ctx.result.outcome != Outcome::Ok {
        return;
    }
    let levels = ctx.result.levels.as_slice();
    // The top level: the highest load (streams, else request rate), the last of them in file
    // order. The level just below: the highest load under the top's, on the same axis.
    let Some(top) = (0..levels.len()).max_by_key(|&i| (levels[i].key(), i)) else {
        return;
    };
    let top_key = levels[top].key();
    let below = (0..levels.len())
        .filter(|&i| levels[i].key() < top_key && levels[i].key().axis() == top_key.axis())
        .max_by_key(|&i| (levels[i].key(), i));
    // One level (or several at one load) is not a ladder: nothing shows where it stops.
    let Some(below) = below else {
        return;
    };

    if let Some((figure, from, to)) = common_figure(&levels[below], &levels[top])
        && from.is_finite()
        && to.is_finite()
        && from > 0.0
    {
        let gain = (to - from) / from;
        if gain >= ctx.thresholds.saturation_gain {
            out.emit(
                format!("/levels/{top}/throughput_tok_s/{figure}"),
                format!(
                    "{figure} throughput still rose {}% from {} to {} ({} to {} tok/s): the ladder stopped before its plateau",
                    crate::numbers::bounded(gain * 100.0, 1),
                    levels[below].key().value_text(),
                    top_key,
                    num(from),
                    num(to),
                ),
            )
            .label(format!("{}% above the level below", crate::numbers::bounded(gain * 100.0, 1)))
            .help(format!(
                "extend the ladder until the last step gains less than {:.0}%; a peak quoted here understates the platform",
                ctx.thresholds.saturation_gain * 100.0
            ));
        }
    }

    let Some(engine) = ctx.result.engine.as_ref() else {
        return;
    };
    let Some(seqs) = engine.max_num_seqs.filter(|&s| s > 0) else {
        return;
    };
    let dp = engine.data_parallel_size.unwrap_or(1).max(1);
    let cap = seqs.saturating_mul(dp);
    let Some(top_c) = top_key.streams() else {
        return;
    };
    if top_c >= cap {
        let cap_text = if dp > 1 {
            format!(
                "the engine sequence cap ({seqs} max_num_seqs × {dp} data-parallel replicas = {cap})"
            )
        } else {
            format!("the engine sequence cap (max_num_seqs {seqs})")
        };
        out.emit(
            format!("/levels/{top}/concurrency"),
            format!("the ladder stops at {}, which reaches {cap_text}", streams(top_key)),
        )
        .label("the top level is at the cap")
        .help(
            "the cap, not the hardware, bounded this peak: raise --max-num-seqs and extend the ladder, \
             or say that the peak is for this cap",
        )
        .related(Location::new(String::new(), "/engine/max_num_seqs"));
    }
}
