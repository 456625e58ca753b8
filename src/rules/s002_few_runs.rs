//! `few-runs` (S002): a configuration with fewer than 5 runs.

use super::{CorpusCtx, Emitter, declare_rule};
use crate::numbers::plural;
use crate::replication::{launches, locate, runs};

declare_rule! {
    /// ## What it checks
    /// Every configuration (results sharing a configuration fingerprint, successful runs only)
    /// must have at least `min_runs` (5) runs. A run is one result (one ladder), counted at the
    /// configuration's best-replicated level, so that the one-level documents of a single
    /// `vllm bench serve` sweep are not counted as runs of each other. A copy of a run already
    /// counted (the same start time and figures, S010) is not a run.
    ///
    /// Configurations with speculative decoding on are left to S001, which asks for 15: one
    /// shortfall is reported once. A configuration whose speculation setting is not recorded is
    /// checked here (M005 reports the missing setting).
    ///
    /// Only identified configurations are judged: a result that does not record its model
    /// name, engine name, device model, precision or workload is never pooled with another
    /// (two unknowns may be two different things) and gets no finding here until a sidecar
    /// supplies them; its M findings say what is missing.
    ///
    /// ## Why is this bad?
    /// Seed 000: "Without speculation the spread was 1–3%, and n=5 is enough." At a CV of 2%,
    /// five runs give a 95% interval of about ±3%; two runs give an interval twelve times the
    /// standard deviation wide (t = 12.7, research/stats.md §7.1). Seed 004's GLM-5.3-Flash pair
    /// of runs, 257.8 and 316.7 tok/s a day apart, is what a single run hides.
    ///
    /// ## Example
    /// One result of a configuration, and no other with the same fingerprint.
    ///
    /// ## What to do instead
    /// Run the configuration at least five times, over more than one engine launch (S003), and
    /// report median, minimum, maximum, n and the 95% interval (`benchlint summary`).
    pub static RULE = {
        code: "S002",
        name: "few-runs",
        severity: Error,
        scope: Group,
        source: "seeds/000 (n=5 is enough without speculation)",
        summary: "fewer than 5 runs",
    }
}

pub fn check(ctx: &CorpusCtx<'_>, out: &mut Emitter<'_>) {
    let need = ctx.thresholds.min_runs;
    for config in ctx.identified_configurations() {
        let members = &config.members;
        let first = members[0];
        if ctx.results[first].doc.speculation_on() == Some(true) {
            continue;
        }
        let n = runs(ctx.results, members);
        if n >= need {
            continue;
        }
        let l = launches(ctx.results, members);
        let e = out.emit_on(
            first,
            "/id",
            format!(
                "this configuration has {} over {}{}: at least {need} are needed",
                plural(n, "run", "runs"),
                l.phrase(),
                l.unrecorded_note(),
            ),
        );
        e.label(format!("{n} of {need} runs"));
        e.help(format!(
            "run it at least {need} times, over more than one engine launch, and report the \
             median, minimum, maximum, n and the 95% interval (`benchlint summary`)"
        ));
        for &i in &members[1..] {
            e.related(locate(ctx.results, i, "/id"));
        }
    }
}
