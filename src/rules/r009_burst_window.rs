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
    /// level's `duration_s` (its recorded window). It reports, at the offending field:
    ///
    /// - `window.mode: "burst"` (one finding; the levels' lengths add nothing to it);
    /// - a recorded `ramp_s` under 20 s;
    /// - a steady window whose `measure_s` is under 120 s; when `measure_s` is long enough,
    ///   each level whose `duration_s` is under 120 s, and, when no ramp is recorded, a
    ///   `measure_s` under 140 s (no room to drop a 20 s ramp inside it);
    /// - no `measure_s`: each level's `duration_s` is the recorded window and must hold the
    ///   ramp too: at least the recorded ramp + 120 s, or 140 s when no ramp is recorded. A
    ///   level at or above that is long enough (its first 20 s can be dropped inside it);
    /// - a window recorded nowhere (no `measure_s`, no level with a `duration_s`): one
    ///   finding says no measurement window is recorded. A recorded duration is never "no
    ///   window".
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

    // Each level whose own recorded window is under `need` s; returns how many were reported.
    let short_levels = |out: &mut Emitter<'_>, need: f64, context: &str| -> usize {
        let mut n = 0;
        for (i, level) in levels.iter().enumerate() {
            if completed_nothing(level) {
                continue;
            }
            let Some(d) = level.duration_s.filter(|d| d.is_finite() && *d < need) else {
                continue;
            };
            n += 1;
            out.emit(
                format!("/levels/{i}/duration_s"),
                format!(
                    "{}: the measured window lasted {} s, under {} s{context}",
                    at_streams(level.key()),
                    num(d),
                    num(need)
                ),
            )
            .label(format!("under {} s", num(need)))
            .help(help(min_window, min_ramp));
        }
        n
    };
    let any_duration = levels
        .iter()
        .any(|l| l.duration_s.is_some_and(f64::is_finite));

    if window.is_some_and(|w| w.mode == Some(WindowMode::Burst)) {
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
    let ramp = window.and_then(|w| w.ramp_s).filter(|r| r.is_finite());
    let measure = window.and_then(|w| w.measure_s).filter(|m| m.is_finite());

    if let Some(r) = ramp
        && r < min_ramp
    {
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

    match measure {
        // The steady window itself (ramp excluded) is recorded.
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
        Some(m) => {
            // Long enough; the levels' own durations are evidence too and may contradict it.
            short_levels(out, min_window, "");
            // A window that holds a ramp's worth more than the minimum is enough even when
            // the ramp is not recorded: the first `min_ramp` s can be dropped inside it.
            if ramp.is_none() && m < min_window + min_ramp {
                out.emit(
                    "/workload/window/ramp_s",
                    format!(
                        "no ramp is recorded and the {} s window leaves no room for one: nothing shows \
                         the first {min_ramp} s of each level were dropped",
                        num(m)
                    ),
                )
                .label("`workload.window.ramp_s` belongs here")
                .help(help(min_window, min_ramp));
            }
        }
        // No steady window is recorded: each level's duration is the recorded window, and it
        // has to hold the ramp as well (the ramp recorded, else `min_ramp`).
        None if any_duration => {
            let need = min_window + ramp.map_or(min_ramp, |r| r.max(0.0));
            let context = if ramp.is_some() {
                format!(" ({min_window} s after the recorded ramp)")
            } else {
                format!(
                    " ({min_window} s after a {min_ramp} s ramp; no ramp or steady window is recorded)"
                )
            };
            short_levels(out, need, &context);
        }
        None => {
            let pointer = if window.is_some() {
                "/workload/window/measure_s"
            } else {
                "/workload/window"
            };
            out.emit(
                pointer,
                format!(
                    "no measurement window is recorded, neither a steady-state window nor any level's \
                     `duration_s`: nothing shows a window of at least {min_window} s after a {min_ramp} s ramp"
                ),
            )
            .label("`workload.window` belongs here")
            .help(help(min_window, min_ramp));
        }
    }
}
