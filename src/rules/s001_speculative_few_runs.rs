//! `speculative-few-runs` (S001): speculation on and fewer than 15 runs per workload.

use super::{CorpusCtx, Emitter, declare_rule};
use crate::numbers::plural;
use crate::replication::{latest_measured, launches, locate, runs};

declare_rule! {
    /// ## What it checks
    /// Every configuration (results sharing a configuration fingerprint, successful runs only)
    /// with speculative decoding on (`engine.speculative.enabled: true`) must have at least
    /// `min_runs_speculative` (15) runs. The workload is part of the fingerprint, so the count
    /// is per workload: 15 runs on code and 15 on prose. A run is one result (one ladder),
    /// counted at the configuration's best-replicated level.
    ///
    /// The finding is placed on the configuration's most recently measured run and lists the
    /// others as related. The rule was adopted on 26 July 2026: a configuration whose runs were
    /// all measured before that gets a pre-rule label (info), not an error.
    ///
    /// Only identified configurations are judged: a result that does not record its model
    /// name, engine name, device model, precision or workload is never pooled with another
    /// (two unknowns may be two different things) and gets no finding here until a sidecar
    /// supplies them; its M findings say what is missing.
    ///
    /// ## Why is this bad?
    /// Seed 000: "With speculation on, run-to-run spread on this hardware was 12–19% (standard
    /// deviation). The same config read 30.2 on one median-of-3 and 22.2 on another the same
    /// night; at n=15 it was 25.4 ± 1.9." Acceptance depends on the text, so speculative
    /// figures move far more than plain decode; at CV 5%, 15 runs are what a ±3% interval
    /// needs (research/stats.md §7.1).
    ///
    /// ## Example
    /// Three results of one speculative configuration on one workload:
    /// ```json
    /// { "engine": { "speculative": { "enabled": true, "method": "eagle3",
    ///   "num_speculative_tokens": 4 } }, "workload": { "name": "prose-decode-41" } }
    /// ```
    ///
    /// ## What to do instead
    /// Run the configuration at least 15 times per workload, over more than one engine launch
    /// (S003), and publish the mean with its 95% interval (`benchlint summary`). Until then, label
    /// the figure indicative, as seed 000 does for its Qwen3.6 entry.
    pub static RULE = {
        code: "S001",
        name: "speculative-few-runs",
        severity: Error,
        scope: Group,
        since: "2026-07-26",
        source: "seeds/000 (n ≥ 15 for speculative decoding; adopted 26 July 2026)",
        summary: "speculation on and fewer than 15 runs per workload",
    }
}

pub fn check(ctx: &CorpusCtx<'_>, out: &mut Emitter<'_>) {
    let need = ctx.thresholds.min_runs_speculative;
    for config in ctx.identified_configurations() {
        let members = &config.members;
        let first = &ctx.results[members[0]].doc;
        if first.speculation_on() != Some(true) {
            continue;
        }
        let n = runs(ctx.results, members);
        if n >= need {
            continue;
        }
        let workload = first
            .workload
            .as_ref()
            .and_then(|w| w.name.as_deref())
            .map_or_else(|| "its workload".to_string(), |w| format!("workload `{w}`"));
        let l = launches(ctx.results, members);
        let subject = latest_measured(ctx.results, members);
        let e = out.emit_on(
            subject,
            "/engine/speculative/enabled",
            format!(
                "speculative decoding is on and this configuration has {} on {workload} over {}{}: \
                 at least {need} are needed per workload",
                plural(n, "run", "runs"),
                l.phrase(),
                l.unrecorded_note(),
            ),
        );
        e.label(format!("{n} of {need} runs"));
        e.help(format!(
            "run it at least {need} times per workload, over more than one engine launch, and \
             publish the mean with its 95% interval (`benchlint summary`)"
        ));
        for &i in members.iter().filter(|&&i| i != subject) {
            e.related(locate(ctx.results, i, "/engine/speculative/enabled"));
        }
    }
}
