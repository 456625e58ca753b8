//! `ascending-level-order` (R014): the levels of a ladder were measured in a fixed order.

use super::served::served_nothing;
use super::{Emitter, ResultCtx, declare_rule};
use crate::model::LevelOrder;

declare_rule! {
    /// ## What it checks
    /// A ladder of two or more levels whose `workload.level_order` is `ascending` or
    /// `descending`: the levels were measured in concurrency order instead of a shuffled one.
    ///
    /// An absent `level_order` is not reported. Whether the order was randomised is not an item
    /// of seed 004's publication checklist, so there is no checklist rule to report its absence,
    /// and guessing an order for the file would make this rule fire on every file that merely
    /// does not say (most real harness formats never record it). A single-level run has no
    /// order and is not reported either.
    ///
    /// A run that completed no request measured no level in any order and is skipped: R006 and
    /// R007 report it.
    ///
    /// ## Why is this bad?
    /// In a fixed order, thermal state, clock drift and a slowly filling cache line up with
    /// concurrency, and their effect reads as the scaling curve. Seed 004 adopted "Randomise
    /// level order inside each repeat, so thermal state and drift do not line up with
    /// concurrency." (Seed 002 measures in ascending order by design; that is one level at a
    /// time, which is right, in a fixed order, which this rule notes.)
    ///
    /// ## Example
    /// ```json
    /// { "workload": { "level_order": "ascending" } }
    /// ```
    ///
    /// ## What to do instead
    /// ```json
    /// { "workload": { "level_order": "random" } }
    /// ```
    /// Shuffle the levels inside each repeat (a new shuffle per repeat) and record it.
    pub static RULE = {
        code: "R014",
        name: "ascending-level-order",
        severity: Info,
        scope: Result,
        source: "seeds/004 (randomise level order inside each repeat)",
        summary: "level order not randomised",
    }
}

pub fn check(ctx: &ResultCtx<'_>, out: &mut Emitter<'_>) {
    if served_nothing(ctx.result) {
        return;
    }
    let Some(order) = ctx.result.workload.as_ref().and_then(|w| w.level_order) else {
        return;
    };
    let word = match order {
        LevelOrder::Random => return,
        LevelOrder::Ascending => "ascending",
        LevelOrder::Descending => "descending",
    };
    let n = ctx.result.levels.len();
    if n < 2 {
        return;
    }
    out.emit(
        "/workload/level_order",
        format!("the {n} levels were measured in {word} concurrency order, not a randomised one"),
    )
    .label("a fixed order")
    .help(
        "shuffle the level order inside each repeat so that thermal state and drift do not line up with concurrency",
    );
}
