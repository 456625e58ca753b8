//! `burst-window` (R009): levels not measured in a steady-state window of at least 120 s
//! after a 20 s ramp.

use super::served::{completed_nothing, served_nothing};
use super::support::at_streams;
use super::{Emitter, ResultCtx, declare_rule};
use crate::model::WindowMode;
use crate::numbers::num;

declare_rule! {
    /// ## What it checks
    /// That each level was measured in a steady-state window of at least `min_window_s`
    /// (120 s) after a ramp of at least `min_ramp_s` (20 s), from `workload.window` and each
    /// level's `duration_s` (its measured window). It reports, at the offending field:
    ///
    /// - `window.mode: "burst"` (one finding; the levels' lengths add nothing to it);
    /// - a steady window whose `measure_s` is under 120 s, or, when `measure_s` is fine or
    ///   absent, each level whose `duration_s` is under 120 s;
    /// - a `ramp_s` under 20 s, or no `ramp_s` at all (a ramp that is not recorded cannot be
    ///   shown to have been dropped);
    /// - a window whose length is recorded neither in `measure_s` nor in any `duration_s`;
    /// - no `workload.window` at all: each level whose `duration_s` is under 120 s is
    ///   reported; if none is, one finding says the window is not recorded.
    ///
    /// Durations are compared with the thresholds as recorded, without rounding allowance.
    /// A run that completed no request (no level, or none with a completed request) measured
    /// nothing and is skipped (R006 and R007 report it), and so is each level of a run that
    /// completed no request.
    ///
    /// ## Why is this bad?
    /// Seed 004: the GLM levels "carry median first-token latencies of 6, 12 and 21 seconds,
    /// which land inside a level that only lasts 15 to 30 seconds in total", and with total
    /// tokens over first-start-to-last-finish wall time "one 12-second stall removes a large
    /// fraction of the level's apparent throughput". Its rule: "Keep N requests in flight for
    /// at least 120 seconds, count only tokens produced inside the window after a 20 second
    /// ramp, and keep the old burst number as a separate cold-start metric rather than the
    /// headline."
    ///
    /// ## Example
    /// ```json
    /// { "workload": { "window": { "mode": "burst" } },
    ///   "levels": [ { "concurrency": 16, "duration_s": 22.4 } ] }
    /// ```
    ///
    /// ## What to do instead
    /// ```json
    /// { "workload": { "window": { "mode": "steady", "ramp_s": 20, "measure_s": 120 } },
    ///   "levels": [ { "concurrency": 16, "duration_s": 120.0 } ] }
    /// ```
    pub static RULE = {
        code: "R009",
        name: "burst-window",
        severity: Warning,
        scope: Result,
        source: "seeds/004 (steady-state windows of at least 120 s after a 20 s ramp)",
        summary: "no steady-state window of at least 120 s after a 20 s ramp",
    }
}

/// What to do, with the thresholds in force.
fn help(min_window: f64, min_ramp: f64) -> String {
    format!(
        "keep the streams in flight for at least {min_window} s, count only tokens produced inside \
         the window after a {min_ramp} s ramp, and keep a burst number only as a separate cold-start metric"
    )
}

pub fn check(ctx: &ResultCtx<'_>, out: &mut Emitter<'_>) {
    let levels = ctx.result.levels.as_slice();
    if served_nothing(ctx.result) {
        return;
    }
    let min_window = ctx.thresholds.min_window_s;
    let min_ramp = ctx.thresholds.min_ramp_s;
    let window = ctx.result.workload.as_ref().and_then(|w| w.window.as_ref());

    // Each level whose own measured window is short; returns how many were reported.
    let short_levels = |out: &mut Emitter<'_>, context: &str| -> usize {
        let mut n = 0;
        for (i, level) in levels.iter().enumerate() {
            if completed_nothing(level) {
                continue;
            }
            let Some(d) = level
                .duration_s
                .filter(|d| d.is_finite() && *d < min_window)
            else {
                continue;
            };
            n += 1;
            out.emit(
                format!("/levels/{i}/duration_s"),
                format!(
                    "{}: the measured window lasted {} s, under {min_window} s{context}",
                    at_streams(level.key()),
                    num(d)
                ),
            )
            .label(format!("under {min_window} s"))
            .help(help(min_window, min_ramp));
        }
        n
    };

    let Some(window) = window else {
        if short_levels(out, ", and no steady-state window is recorded") == 0 {
            out.emit(
                "/workload/window",
                format!(
                    "no measurement window is recorded: nothing shows a steady-state window of at least \
                     {min_window} s after a {min_ramp} s ramp"
                ),
            )
            .label("`workload.window` belongs here")
            .help(help(min_window, min_ramp));
        }
        return;
    };

    if window.mode == Some(WindowMode::Burst) {
        out.emit(
            "/workload/window/mode",
            format!(
                "levels were measured as a burst (first request started to last finished), not in a \
                 steady-state window of at least {min_window} s after a {min_ramp} s ramp"
            ),
        )
        .label("a burst, not a steady state")
        .help(help(min_window, min_ramp));
        return;
    }

    match window.measure_s.filter(|m| m.is_finite()) {
        Some(m) if m < min_window => {
            out.emit(
                "/workload/window/measure_s",
                format!(
                    "the steady-state window is {} s, under {min_window} s",
                    num(m)
                ),
            )
            .label(format!("under {min_window} s"))
            .help(help(min_window, min_ramp));
        }
        measure => {
            // The recorded window is long enough (or not recorded): the levels' own
            // durations are the evidence, and they may contradict it.
            short_levels(out, "");
            if measure.is_none()
                && levels
                    .iter()
                    .all(|l| l.duration_s.is_none_or(|d| !d.is_finite()))
            {
                out.emit(
                    "/workload/window/measure_s",
                    "the length of the measured window is recorded neither in the window nor in any level's `duration_s`",
                )
                .label("`workload.window.measure_s` belongs here")
                .help(help(min_window, min_ramp));
            }
        }
    }

    match window.ramp_s.filter(|r| r.is_finite()) {
        Some(r) if r < min_ramp => {
            out.emit(
                "/workload/window/ramp_s",
                format!(
                    "the ramp dropped before the window is {} s, under {min_ramp} s",
                    num(r)
                ),
            )
            .label(format!("under {min_ramp} s"))
            .help(help(min_window, min_ramp));
        }
        Some(_) => {}
        None => {
            out.emit(
                "/workload/window/ramp_s",
                format!("no ramp is recorded: nothing shows the first {min_ramp} s of each level were dropped"),
            )
            .label("`workload.window.ramp_s` belongs here")
            .help(help(min_window, min_ramp));
        }
    }
}
