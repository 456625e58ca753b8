//! `few-ladders` (S004): fewer than 3 full ladders of a configuration.

use super::{CorpusCtx, Emitter, declare_rule};
use crate::model::LevelKey;
use crate::numbers::plural;
use crate::replication::locate;

declare_rule! {
    /// ## What it checks
    /// Every configuration (results sharing a configuration fingerprint, successful runs only)
    /// must have at least `min_ladders` (3) full ladders. A full ladder is a run that measured
    /// at least `min_ladder_levels` (2) distinct concurrency levels; a run that re-measures one
    /// level, or a harness document holding one level, is a spot check, not a ladder.
    ///
    /// Seed 004 asks for five ladders behind anything published (`min_ladders_published`); a
    /// result file does not say whether it was published, so this rule applies the general
    /// minimum and names the published one in its help.
    ///
    /// Only identified configurations are judged: a result that does not record its model
    /// name, engine name, device model, precision or workload is never pooled with another
    /// (two unknowns may be two different things) and gets no finding here until a sidecar
    /// supplies them; its M findings say what is missing.
    ///
    /// ## Why is this bad?
    /// Seed 004: "At least three full ladders per configuration, and five for anything on a
    /// page." A single ladder hides outlier levels: the GB300 measured twice on one afternoon
    /// agreed to 0.03% at 32 streams (3,553.3 and 3,552.3) and differed by 31% at 8 streams
    /// (740.4 against 1,080.1), "one outlier level per ladder, on the most stable platform we
    /// own".
    ///
    /// ## Example
    /// Two results of one configuration, each a ladder of 1 to 32 streams.
    ///
    /// ## What to do instead
    /// Run the whole ladder at least three times (five for a published figure), randomising the
    /// level order inside each repeat, with at least one repeat after an engine restart.
    pub static RULE = {
        code: "S004",
        name: "few-ladders",
        severity: Warning,
        scope: Group,
        source: "seeds/004 (three full ladders, five for anything on a page)",
        summary: "fewer than 3 full ladders (5 for anything published)",
    }
}

pub fn check(ctx: &CorpusCtx<'_>, out: &mut Emitter<'_>) {
    let need = ctx.thresholds.min_ladders;
    let published = ctx.thresholds.min_ladders_published;
    let min_levels = ctx.thresholds.min_ladder_levels;
    for config in ctx.identified_configurations() {
        let members = &config.members;
        let is_ladder = |i: &usize| {
            let mut c: Vec<LevelKey> = ctx.results[*i].doc.levels.keys().collect();
            c.sort_unstable();
            c.dedup();
            c.len() >= min_levels
        };
        let ladders = members.iter().filter(|i| is_ladder(i)).count();
        if ladders >= need {
            continue;
        }
        let partial = members.len() - ladders;
        let partial_note = match partial {
            0 => String::new(),
            1 => format!("; 1 more run measures fewer than {min_levels} levels"),
            p => format!("; {p} more runs measure fewer than {min_levels} levels each"),
        };
        let e = out.emit_on(
            members[0],
            "/levels",
            format!(
                "this configuration has {} (runs of at least {min_levels} levels){partial_note}: \
                 at least {need} are needed, {published} for a published figure",
                plural(ladders, "full ladder", "full ladders"),
            ),
        );
        e.label(format!("{ladders} of {need} ladders"));
        e.help(format!(
            "run the whole ladder at least {need} times ({published} for anything published), \
             in random level order, with a repeat after an engine restart"
        ));
        for &i in &members[1..] {
            e.related(locate(ctx.results, i, "/levels"));
        }
    }
}
