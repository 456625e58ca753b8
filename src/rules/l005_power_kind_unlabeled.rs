//! `power-kind-unlabeled` (L005): a power trace or a level's power that does not say wall or
//! device.

use super::served::{completed_nothing, served_nothing};
use super::support::at_streams;
use super::{Emitter, ResultCtx, declare_rule};

declare_rule! {
    /// ## What it checks
    /// A result with a power trace (`artifacts.power_trace`, with or without a `path`) whose
    /// `kind` is not recorded: the trace does not say whether it is wall power (at the outlet)
    /// or device power (the accelerator's own rail). A result without a power trace is M014's
    /// business, not this rule's. Likewise every level whose mean power (`power_w.mean`) is
    /// recorded without its `power_w.kind`: one finding per level, at `power_w`. Such a level
    /// gives no tokens per watt to a claim (`tok_s_per_w`), which the audit leaves unresolved.
    ///
    /// A run that completed no request has no figure to divide by its power and is skipped, and
    /// so is a level that completed none: R006 and R007 report them.
    ///
    /// ## Why is this bad?
    /// The two differ by an order of magnitude on some hardware. Seed 004: "Our GB10 units draw
    /// about 46 watts at the wall with no engine loaded while the accelerator rail reports under
    /// 5 watts, so a device-power efficiency figure for these boxes would be wrong by an order of
    /// magnitude." "A wall number and a device number must never appear in the same
    /// comparison", and an unlabelled trace cannot be kept out of one (C006).
    ///
    /// ## Example
    /// ```json
    /// { "artifacts": { "power_trace": { "path": "power/gb10-pair-r1.csv" } } }
    /// ```
    ///
    /// or, on a level, `"power_w": { "mean": 412.0 }`.
    ///
    /// ## What to do instead
    /// ```json
    /// { "artifacts": { "power_trace": { "path": "power/gb10-pair-r1.csv", "kind": "wall" } } }
    /// ```
    /// and `"power_w": { "mean": 412.0, "kind": "wall" }` on the level.
    pub static RULE = {
        code: "L005",
        name: "power-kind-unlabeled",
        severity: Error,
        scope: Result,
        source: "seeds/004 (about 46 W at the wall against under 5 W on the accelerator rail)",
        summary: "power without wall or device",
    }
}

pub fn check(ctx: &ResultCtx<'_>, out: &mut Emitter<'_>) {
    if served_nothing(ctx.result) {
        return;
    }
    levels(ctx, out);
    let Some(trace) = ctx
        .result
        .artifacts
        .as_ref()
        .and_then(|a| a.power_trace.as_ref())
    else {
        return;
    };
    if trace.kind.is_some() {
        return;
    }
    let what = trace
        .path
        .as_deref()
        .filter(|p| !p.trim().is_empty())
        .map_or_else(
            || "the power trace".to_string(),
            |p| format!("power trace `{p}`"),
        );
    out.emit(
        "/artifacts/power_trace/kind",
        format!("{what} does not say whether it is wall or device power (`kind` is not recorded)"),
    )
    .label("no `kind` here")
    .help("record `kind: \"wall\"` (at the outlet) or `kind: \"device\"` (the accelerator rail); the two differ tenfold on some hardware");
}

/// Each level whose mean power is recorded without its kind.
fn levels(ctx: &ResultCtx<'_>, out: &mut Emitter<'_>) {
    for (i, level) in ctx.result.levels.as_slice().iter().enumerate() {
        let Some(power) = level.power_w.as_ref() else {
            continue;
        };
        if power.kind.is_some() || power.mean.is_none() || completed_nothing(level) {
            continue;
        }
        out.emit(
            format!("/levels/{i}/power_w"),
            format!(
                "{}: the level's mean power of {} W does not say whether it is wall or device power (`kind` is not \
                 recorded)",
                at_streams(level.key()),
                crate::numbers::num(power.mean.unwrap_or_default()),
            ),
        )
        .label("no `kind` here")
        .help(
            "record `kind: \"wall\"` (at the outlet) or `kind: \"device\"` (the accelerator rail); the two differ \
             tenfold on some hardware",
        );
    }
}
