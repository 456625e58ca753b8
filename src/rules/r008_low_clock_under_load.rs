//! `low-clock-under-load` (R008): a device clock under load below 80% of nominal, or clocks
//! that were not checked.

use super::served::served_nothing;
use super::{Emitter, ResultCtx, declare_rule};
use crate::numbers::num;

declare_rule! {
    /// ## What it checks
    /// `platform.clocks_under_load_mhz` (one clock per device, measured while the benchmark
    /// ran) against `platform.nominal_clock_mhz`. It reports:
    ///
    /// - each device whose clock under load is below `min_clock_fraction` (80%) of nominal,
    ///   at that device's entry, with both clocks and the floor;
    /// - clocks not checked: no `clocks_under_load_mhz` (or an empty one), at that field;
    /// - clocks for fewer devices than took part (`nodes × devices_per_node`): the others
    ///   were not checked;
    /// - clocks without a usable nominal clock (absent, zero, negative or not finite): there
    ///   is nothing to judge them against;
    /// - a clock that is not a finite number.
    ///
    /// A run that completed no request (no level, as for a model that did not load, or none
    /// with a completed request) measured nothing and is skipped: R006 and R007 report it.
    ///
    /// ## Why is this bad?
    /// Seed 000: "One node whose GPU sat at 494 MHz instead of about 2,400 MHz cut the whole
    /// 8-node cluster's single-stream speed to about 13 tok/s, with no throttle reason
    /// reported; we had expected about 31, and fixing the clock brought it to 24–26. We check
    /// every node's clock under load before trusting a number." In a tensor-parallel group
    /// every step waits for the slowest device, so one stuck clock sets the speed of all of
    /// them, and nothing in the throughput figures says why.
    ///
    /// ## Example
    /// ```json
    /// { "platform": { "nodes": 8, "devices_per_node": 1, "nominal_clock_mhz": 2400,
    ///   "clocks_under_load_mhz": [2405, 2398, 2410, 494, 2401, 2399, 2403, 2396] } }
    /// ```
    ///
    /// ## What to do instead
    /// Sample every device's clock while the level runs (`nvidia-smi --query-gpu=clocks.sm`),
    /// fix any device that is stuck in a low-power state, re-run, and record the clocks:
    /// ```json
    /// { "platform": { "nodes": 8, "devices_per_node": 1, "nominal_clock_mhz": 2400,
    ///   "clocks_under_load_mhz": [2405, 2398, 2410, 2392, 2401, 2399, 2403, 2396] } }
    /// ```
    pub static RULE = {
        code: "R008",
        name: "low-clock-under-load",
        severity: Error,
        scope: Result,
        source: "seeds/000 (one GPU at 494 MHz instead of about 2,400 cut an 8-node cluster to 13 tok/s)",
        summary: "a device clock under load below 80% of nominal, or clocks not checked",
    }
}

const CHECK_HELP: &str = "sample every device's clock while the level runs (nvidia-smi \
     --query-gpu=clocks.sm) and record them in `platform.clocks_under_load_mhz`";

pub fn check(ctx: &ResultCtx<'_>, out: &mut Emitter<'_>) {
    if served_nothing(ctx.result) {
        return;
    }
    let platform = ctx.result.platform.as_deref();
    let clocks = platform
        .and_then(|p| p.clocks_under_load_mhz.as_deref())
        .unwrap_or_default();
    if clocks.is_empty() {
        out.emit(
            "/platform/clocks_under_load_mhz",
            "clocks not checked: no device clock under load is recorded, so nothing shows every \
             device ran at its nominal clock",
        )
        .label("`platform.clocks_under_load_mhz` belongs here")
        .help(CHECK_HELP);
        return;
    }

    // Every device that took part needs its clock: one stuck device slows the whole group.
    if let Some(total) = platform.and_then(crate::model::Platform::total_devices)
        && u64::try_from(clocks.len()).is_ok_and(|n| n < total)
    {
        out.emit(
            "/platform/clocks_under_load_mhz",
            format!(
                "clocks under load recorded for {} of {total} devices: the others were not checked",
                clocks.len()
            ),
        )
        .label("one clock per device")
        .help(CHECK_HELP);
    }

    for (i, &mhz) in clocks.iter().enumerate() {
        if !mhz.is_finite() {
            out.emit(
                format!("/platform/clocks_under_load_mhz/{i}"),
                format!("the clock of the device at index {i} is not a finite number"),
            )
            .label("not a clock")
            .help(CHECK_HELP);
        }
    }

    let nominal = platform.and_then(|p| p.nominal_clock_mhz);
    let Some(nominal) = nominal.filter(|n| n.is_finite() && *n > 0.0) else {
        let finite: Vec<f64> = clocks.iter().copied().filter(|c| c.is_finite()).collect();
        let range = match (
            finite.iter().copied().reduce(f64::min),
            finite.iter().copied().reduce(f64::max),
        ) {
            (Some(lo), Some(hi)) if lo < hi => format!(" ({} to {} MHz)", num(lo), num(hi)),
            (Some(lo), _) => format!(" ({} MHz)", num(lo)),
            _ => String::new(),
        };
        let what = match nominal {
            None => "no nominal clock is recorded".to_string(),
            Some(n) if n.is_finite() => {
                format!("the nominal clock {} MHz is not a positive number", num(n))
            }
            Some(_) => "the nominal clock is not a finite number".to_string(),
        };
        out.emit(
            "/platform/nominal_clock_mhz",
            format!("clocks under load are recorded{range} but {what}: there is nothing to judge them against"),
        )
        .label("the nominal clock belongs here")
        .help("record the device's nominal (boost) clock in `platform.nominal_clock_mhz`");
        return;
    };

    let fraction = ctx.thresholds.min_clock_fraction;
    let floor = nominal * fraction;
    for (i, &mhz) in clocks.iter().enumerate() {
        if !mhz.is_finite() || mhz >= floor {
            continue;
        }
        out.emit(
            format!("/platform/clocks_under_load_mhz/{i}"),
            format!(
                "the device at index {i} ran at {} MHz under load, {}% of its nominal {} MHz \
                 (floor {:.0}%, {} MHz)",
                num(mhz),
                crate::numbers::bounded(mhz / nominal * 100.0, 1),
                num(nominal),
                fraction * 100.0,
                num(floor.round())
            ),
        )
        .label(format!("below {} MHz", num(floor.round())))
        .help(
            "one slow device sets the speed of the whole group: fix its clock (a stuck low-power \
             state reports no throttle reason) and re-run before trusting any figure",
        );
    }
}
