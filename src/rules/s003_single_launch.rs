//! `single-launch` (S003): every run of a configuration comes from one engine launch.

use super::{CorpusCtx, Emitter, declare_rule};
use crate::numbers::plural;
use crate::replication::{launches, locate};

declare_rule! {
    /// ## What it checks
    /// Every configuration (results sharing a configuration fingerprint, successful runs only)
    /// must have runs from at least two engine launches, told apart by `launch.id`. A
    /// configuration with a single run fails too: its one launch is all there is.
    ///
    /// Runs that record no launch id cannot be shown to come from different launches, so they
    /// are counted as one launch together, and the message says so.
    ///
    /// Only identified configurations are judged: a result that does not record its model
    /// name, engine name, device model, precision or workload is never pooled with another
    /// (two unknowns may be two different things) and gets no finding here until a sidecar
    /// supplies them; its M findings say what is missing.
    ///
    /// ## Why is this bad?
    /// The launch is the unit of replication. Seed 000: "Two server instances of an identical
    /// config produced non-overlapping n=15 confidence intervals." Seed 004: "At least one
    /// repeat must follow a full engine restart, because the largest swing we have seen sits
    /// between launches, not within a session." Runs inside one launch share its effect: with
    /// the three launches of research/stats.md §7.3 the honest interval is five times wider than
    /// the one pooled over their fifteen runs.
    ///
    /// ## Example
    /// ```json
    /// { "id": "r1", "launch": { "id": "gb10-pair-2026-09-23T13:58Z" }, "repeat": 1 }
    /// { "id": "r2", "launch": { "id": "gb10-pair-2026-09-23T13:58Z" }, "repeat": 2 }
    /// ```
    ///
    /// ## What to do instead
    /// Restart the engine and run the configuration again; record each start's `launch.id`
    /// (and `started_at`) in every result it produced.
    pub static RULE = {
        code: "S003",
        name: "single-launch",
        severity: Error,
        scope: Group,
        source: "seeds/000, seeds/004 (the restart is the unit of replication)",
        summary: "all runs of a configuration from one launch",
    }
}

pub fn check(ctx: &CorpusCtx<'_>, out: &mut Emitter<'_>) {
    for config in ctx.identified_configurations() {
        let members = &config.members;
        let l = launches(ctx.results, members);
        if l.count >= 2 {
            continue;
        }
        let n = members.len();
        let message = match (l.ids.first(), n) {
            (Some(id), 1) => format!(
                "the only run of this configuration comes from one engine launch (`{id}`); \
                 the launch is the unit of replication"
            ),
            (Some(id), _) => format!(
                "all {n} runs of this configuration come from one engine launch (`{id}`); \
                 the launch is the unit of replication"
            ),
            (None, 1) => "the only run of this configuration records no launch id, so it \
                          counts as one engine launch; the launch is the unit of replication"
                .to_string(),
            (None, _) => format!(
                "no run of this configuration records a launch id, so its {} are counted as one \
                 engine launch; the launch is the unit of replication",
                plural(n, "run", "runs")
            ),
        };
        let pointer = if l.ids.is_empty() {
            "/launch"
        } else {
            "/launch/id"
        };
        let e = out.emit_on(members[0], pointer, message);
        e.label(if l.ids.is_empty() {
            "no launch id"
        } else {
            "the only launch"
        });
        e.help(
            "restart the engine and run the configuration again, and record each start's \
             `launch.id` in every result it produced",
        );
        for &i in &members[1..] {
            e.related(locate(ctx.results, i, pointer));
        }
    }
}
