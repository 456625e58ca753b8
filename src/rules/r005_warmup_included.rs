//! `warmup-included` (R005): warm-up requests were not shown to be excluded from the figures.

use super::served::served_nothing;
use super::{Emitter, ResultCtx, declare_rule};

declare_rule! {
    /// ## What it checks
    /// That the result shows its warm-up was excluded from every reported figure. It fires:
    ///
    /// - at `workload.warmup_excluded` when it is `false`;
    /// - at `workload.warmup_excluded` when it is not recorded: silence is not an answer, and
    ///   a warm-up that is not shown excluded cannot be assumed excluded;
    /// - at `workload.warmup_requests` when the file says warm-up was excluded but sent no
    ///   warm-up request (`warmup_requests: 0`) and excluded no ramp either (no
    ///   `workload.window.ramp_s` above 0): there was nothing to exclude, so the cold-start
    ///   costs sit in the first measured requests.
    ///
    /// A run that completed no request (no level, or none with a completed request) measured
    /// nothing and is skipped: R006 and R007 report it.
    ///
    /// ## Why is this bad?
    /// Seed 002: "Each level is preceded by a warm-up request that is excluded from every
    /// reported number. The first request into a cold slot set pays costs no steady-state user
    /// sees." Seed 000 lists "warm-up excluded" with temperature 0 and checked clocks among
    /// the rules adopted after a wrong answer. Graph capture, allocator growth and cold caches
    /// land in the first requests; averaged in, they make the low-concurrency levels (where a
    /// level has the fewest requests) look slowest.
    ///
    /// ## Example
    /// ```json
    /// { "workload": { "warmup_requests": 8, "warmup_excluded": false } }
    /// ```
    ///
    /// ## What to do instead
    /// ```json
    /// { "workload": { "warmup_requests": 8, "warmup_excluded": true } }
    /// ```
    pub static RULE = {
        code: "R005",
        name: "warmup-included",
        severity: Error,
        scope: Result,
        source: "seeds/000, seeds/002 (warm-up excluded from every reported number)",
        summary: "warm-up not excluded",
    }
}

pub fn check(ctx: &ResultCtx<'_>, out: &mut Emitter<'_>) {
    if served_nothing(ctx.result) {
        return;
    }
    let workload = ctx.result.workload.as_ref();
    let requests = workload.and_then(|w| w.warmup_requests);
    match workload.and_then(|w| w.warmup_excluded) {
        Some(false) => {
            let what = match requests {
                Some(0) => "warm-up is recorded as not excluded".to_string(),
                Some(n) => format!(
                    "the {n} warm-up request{} are counted",
                    if n == 1 { "" } else { "s" }
                ),
                None => "warm-up requests are counted".to_string(),
            };
            out.emit(
                "/workload/warmup_excluded",
                format!("{what} in the reported figures: the first requests into a cold server pay costs no steady-state user sees"),
            )
            .label("warm-up included")
            .help("send warm-up requests before each level and exclude them from every reported number");
        }
        None => {
            let sent = match requests {
                Some(n) => format!(
                    "{n} warm-up request{} sent",
                    if n == 1 { " was" } else { "s were" }
                ),
                None => "warm-up requests are not recorded either".to_string(),
            };
            out.emit(
                "/workload/warmup_excluded",
                format!("not recorded whether warm-up was excluded from the figures ({sent})"),
            )
            .label("`workload.warmup_excluded` belongs here")
            .help("record `workload.warmup_excluded: true` once the harness excludes its warm-up requests");
        }
        Some(true) => {
            // Excluding nothing is not excluding a warm-up, unless a steady-state ramp was
            // dropped before the window (that ramp is the warm-up).
            let ramp = workload
                .and_then(|w| w.window.as_ref())
                .and_then(|w| w.ramp_s)
                .filter(|r| r.is_finite() && *r > 0.0);
            if requests == Some(0) && ramp.is_none() {
                out.emit(
                    "/workload/warmup_requests",
                    "warm-up is recorded as excluded, but no warm-up request was sent and no ramp was \
                     dropped: the cold-start costs sit in the first measured requests",
                )
                .label("nothing was excluded")
                .help("send at least one warm-up request per level (or drop a ramp before the window)");
            }
        }
    }
}
