//! `nonzero-temperature` (R004): requests were sampled at a temperature other than 0.

use super::served::served_nothing;
use super::{Emitter, ResultCtx, declare_rule};

declare_rule! {
    /// ## What it checks
    /// That `workload.temperature`, when recorded, is 0. Any other value is reported at the
    /// temperature. A value that is not a finite number (a `NaN` accepted in tolerant mode) is
    /// reported as unusable. An absent temperature is the checklist's finding (M013), not this
    /// one, and a run that completed no request (no level, or none with a completed request)
    /// measured nothing, so it is skipped: R006 and R007 report it.
    ///
    /// ## Why is this bad?
    /// Seed 000 lists "Temperature 0, fixed prompts, warm-up excluded, clocks checked under
    /// load" among the rules that exist "because we broke most of them once and got a wrong
    /// answer". With sampling on, every run draws different continuations: output lengths
    /// change (and with them the time each request holds a slot), and with speculative
    /// decoding the draft acceptance rate drops, so run-to-run spread grows and two
    /// configurations are no longer measured on the same text.
    ///
    /// ## Example
    /// ```json
    /// { "workload": { "temperature": 0.7, "seed": 1234 } }
    /// ```
    ///
    /// ## What to do instead
    /// ```json
    /// { "workload": { "temperature": 0.0, "seed": 1234 } }
    /// ```
    pub static RULE = {
        code: "R004",
        name: "nonzero-temperature",
        severity: Warning,
        scope: Result,
        source: "seeds/000 (temperature 0, fixed prompts)",
        summary: "temperature is not 0",
    }
}

pub fn check(ctx: &ResultCtx<'_>, out: &mut Emitter<'_>) {
    if served_nothing(ctx.result) {
        return;
    }
    let Some(t) = ctx.result.workload.as_ref().and_then(|w| w.temperature) else {
        return;
    };
    if !t.is_finite() {
        out.emit(
            "/workload/temperature",
            "temperature is not a finite number: the sampling the run used is unknown",
        )
        .label("not a number")
        .help("record the temperature the requests were sent with; benchmarks run at 0");
        return;
    }
    if t == 0.0 {
        return;
    }
    out.emit(
        "/workload/temperature",
        format!(
            "temperature {t}, not 0: sampled continuations change output lengths and speculative \
             acceptance from run to run"
        ),
    )
    .label("sampling on")
    .help("benchmark at temperature 0 with fixed prompts, so every configuration decodes the same text");
}
