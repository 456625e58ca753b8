//! `unresolved-runs` (S006): two runs that disagree beyond noise, and no more.

use super::r012_non_monotonic_ladder::streams;
use super::{CorpusCtx, Emitter, declare_rule};
use crate::numbers::num;
use crate::replication::{locate, throughput_series};

declare_rule! {
    /// ## What it checks
    /// For every configuration (results sharing a configuration fingerprint, successful runs
    /// only) and every concurrency measured by exactly two runs: whether the two throughput
    /// figures (the aggregate when either records one, else decode) disagree by more than
    /// `unresolved_noise_floor`, the static throughput noise floor of DESIGN.md "Statistics"
    /// (2%). The difference is the larger over the smaller, minus one. One finding per level,
    /// placed on the first run in path order, saying "not yet resolved" with both values.
    ///
    /// A level with three or more runs is left to S005 (its CV), and a level with two runs that
    /// agree within the floor is not reported. S002 and S005 may report the same runs: this rule
    /// adds what may be said about them, which is nothing yet.
    ///
    /// Only identified configurations are judged: a result that does not record its model
    /// name, engine name, device model, precision or workload is never pooled with another
    /// (two unknowns may be two different things) and gets no finding here until a sidecar
    /// supplies them; its M findings say what is missing.
    ///
    /// ## Why is this bad?
    /// Seed 004: "With two runs there is no interval worth quoting. The honest statement for
    /// GLM-5.3-Flash at 32 streams on eight units is 'two runs, 258 and 317, not yet resolved',
    /// and that is what we publish." Its two runs a day apart read 257.8 and 316.7 tok/s at 32
    /// streams (23%) and 247.4 and 148.8 at 16 (66%), the direction flipping between levels.
    /// With two runs the 95% interval is 12.7 standard deviations wide (df = 1); neither value,
    /// nor their mean, is a measurement yet.
    ///
    /// ## Example
    /// ```json
    /// { "levels": [ { "concurrency": 32, "throughput_tok_s": { "aggregate": 257.8 } } ] }
    /// { "levels": [ { "concurrency": 32, "throughput_tok_s": { "aggregate": 316.7 } } ] }
    /// ```
    ///
    /// ## What to do instead
    /// Publish both values and say "not yet resolved", as seed 004 does, and run the
    /// configuration again (at least five runs over more than one launch, S002 and S003).
    pub static RULE = {
        code: "S006",
        name: "unresolved-runs",
        severity: Warning,
        scope: Group,
        source: "seeds/004 (\"two runs, 258 and 317, not yet resolved\")",
        summary: "two runs that disagree beyond noise and no more: \"not yet resolved\"",
    }
}

pub fn check(ctx: &CorpusCtx<'_>, out: &mut Emitter<'_>) {
    let floor = ctx.thresholds.unresolved_noise_floor;
    for config in ctx.identified_configurations() {
        for series in throughput_series(ctx.results, &config.members) {
            let [a, b] = series.points.as_slice() else {
                continue;
            };
            let (lo, hi) = if a.value <= b.value {
                (a.value, b.value)
            } else {
                (b.value, a.value)
            };
            // A zero level is R007's finding; no ratio can be taken from it.
            if lo <= 0.0 {
                continue;
            }
            let diff = hi / lo - 1.0;
            if diff <= floor {
                continue;
            }
            let e = out.emit_on(
                a.result,
                series.pointer(0),
                format!(
                    "at {}, two runs, {} and {} tok/s ({}), disagree by {}%: not yet resolved",
                    streams(series.key),
                    num(a.value),
                    num(b.value),
                    series.figure_name(),
                    crate::numbers::bounded(diff * 100.0, 0),
                ),
            );
            e.label(format!(
                "{} here, {} in the other run",
                num(a.value),
                num(b.value)
            ));
            e.help(format!(
                "publish both values as \"not yet resolved\" and run the configuration again: the \
                 runs differ by more than the {:.0}% noise floor, and two runs give no interval",
                floor * 100.0
            ));
            e.related(locate(ctx.results, b.result, &series.pointer(1)));
        }
    }
}
