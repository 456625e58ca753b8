//! `high-variation` (S005): a level whose throughput varies by more than 10% across runs.

use super::r012_non_monotonic_ladder::streams;
use super::{CorpusCtx, Emitter, declare_rule};
use crate::numbers;
use crate::numbers::plural;
use crate::replication::{locate, throughput_series};
use crate::stats::cv;

declare_rule! {
    /// ## What it checks
    /// For every configuration (results sharing a configuration fingerprint, successful runs
    /// only) and every concurrency measured by at least two runs: the coefficient of variation
    /// (sample standard deviation over mean) of the level's throughput across the runs must not
    /// exceed `max_cv` (10%). The throughput is the aggregate when any run records one at that
    /// level, else the decode throughput. One finding per level, placed on the first run in path
    /// order that measured it, naming the level, the values and the CV.
    ///
    /// Only identified configurations are judged: a result that does not record its model
    /// name, engine name, device model, precision or workload is never pooled with another
    /// (two unknowns may be two different things) and gets no finding here until a sidecar
    /// supplies them; its M findings say what is missing.
    ///
    /// ## Why is this bad?
    /// Seed 004: "Report median, minimum and maximum, the number of runs, and the coefficient of
    /// variation. Any level above 10 percent variation is investigated before it is quoted, not
    /// after." Its GB300 was measured twice on one afternoon: at 32 streams the runs agree to
    /// 0.03% (3,553.3 and 3,552.3), at 8 streams they differ by 31% (740.4 against 1,080.1, a
    /// CV of 26%), and the low run carries a 1.06 s median first-token latency against 0.18 s:
    /// a stall, not the hardware. 10% is also pyperf's threshold (research/stats.md §8.1).
    ///
    /// ## Example
    /// ```json
    /// { "levels": [ { "concurrency": 8, "throughput_tok_s": { "aggregate": 740.4 } } ] }
    /// { "levels": [ { "concurrency": 8, "throughput_tok_s": { "aggregate": 1080.1 } } ] }
    /// ```
    ///
    /// ## What to do instead
    /// Investigate the level before quoting it: look at its first-token latency for a stall,
    /// measure it in a steady-state window (R009), and re-run it. Never drop the outlying run;
    /// publish the spread (`benchlint summary` shows it).
    pub static RULE = {
        code: "S005",
        name: "high-variation",
        severity: Warning,
        scope: Group,
        source: "seeds/004 (GB300 at 8 streams: 740.4 against 1,080.1)",
        summary: "CV above 10% at a level",
    }
}

pub fn check(ctx: &CorpusCtx<'_>, out: &mut Emitter<'_>) {
    let max_cv = ctx.thresholds.max_cv;
    for config in ctx.identified_configurations() {
        for series in throughput_series(ctx.results, &config.members) {
            let values = series.values();
            let Some(c) = cv(&values) else {
                continue;
            };
            if c <= max_cv {
                continue;
            }
            let e = out.emit_on(
                series.points[0].result,
                series.pointer(0),
                format!(
                    "at {}, {} throughput varies across {} ({} tok/s): CV {}%, above {:.0}%",
                    streams(series.key),
                    series.figure_name(),
                    plural(values.len(), "run", "runs"),
                    numbers::list(&values, 8),
                    crate::numbers::bounded(c * 100.0, 1),
                    max_cv * 100.0,
                ),
            );
            e.label(format!(
                "CV {}% at {}",
                crate::numbers::bounded(c * 100.0, 1),
                streams(series.key)
            ));
            e.help(
                "investigate the level before quoting it (a stall shows in its first-token \
                 latency), re-run it in a steady-state window, and publish the spread; never \
                 drop the outlying run",
            );
            for (k, p) in series.points.iter().enumerate().skip(1) {
                e.related(locate(ctx.results, p.result, &series.pointer(k)));
            }
        }
    }
}
