//! `single-workload-speculative` (S007): speculation measured on only one of code and prose.

use std::collections::BTreeSet;

use super::{CorpusCtx, Emitter, declare_rule};
use crate::fingerprint::{Fingerprint, group_equal, unidentified};
use crate::model::{Outcome, WorkloadKind};
use crate::numbers::plural;
use crate::replication::locate;

declare_rule! {
    /// ## What it checks
    /// Successful runs with speculative decoding on are grouped by their setup: the
    /// configuration fingerprint without the workload (platform, engine and its settings,
    /// model). Each setup must have been measured on a code workload and on a prose workload
    /// (`workload.kind`). A `mixed` or `other` workload counts as neither: a blend hides the
    /// difference this rule is about. One finding per setup, on its first run in path order.
    ///
    /// A setup that does not record its model name, engine name, device model or precision is
    /// not grouped with any other (two unknowns may be two different setups) and is not judged
    /// until a sidecar supplies them; its M findings say what is missing.
    ///
    /// ## Why is this bad?
    /// Seed 000: "Both code and prose workloads. Speculative decoding can win on one and lose on
    /// the other; a benchmark that ran only one workload has measured half the picture."
    /// Acceptance rates depend on how predictable the text is, and code is far more predictable
    /// than prose, so a speculative speedup measured on one says little about the other.
    ///
    /// ## Example
    /// ```json
    /// { "engine": { "speculative": { "enabled": true, "method": "eagle3" } },
    ///   "workload": { "name": "prose-decode-41", "kind": "prose" } }
    /// ```
    /// and no result of the same setup with `"kind": "code"`.
    ///
    /// ## What to do instead
    /// Measure the speculative configuration on both a code and a prose workload (15 runs each,
    /// S001) and publish both, the losing one included.
    pub static RULE = {
        code: "S007",
        name: "single-workload-speculative",
        severity: Error,
        scope: Group,
        source: "seeds/000 (both code and prose workloads)",
        summary: "speculation measured on only one of code and prose",
    }
}

pub fn check(ctx: &CorpusCtx<'_>, out: &mut Emitter<'_>) {
    let ok: Vec<usize> = ctx
        .order
        .iter()
        .copied()
        .filter(|&i| ctx.results[i].doc.outcome == Outcome::Ok)
        .collect();
    // Setups are grouped once per distinct set of shared parts, by fingerprint, in path order.
    // An unidentified setup is pooled with nothing (DESIGN.md conventions).
    let setups = group_equal(ctx.results, &ok, |doc| {
        (doc.speculation_on() == Some(true) && unidentified(doc, false).is_empty())
            .then(|| Fingerprint::setup_of(doc))
    });
    for members in &setups {
        let kinds: BTreeSet<WorkloadKind> = members
            .iter()
            .filter_map(|&i| ctx.results[i].doc.workload.as_ref()?.kind)
            .collect();
        let code = kinds.contains(&WorkloadKind::Code);
        let prose = kinds.contains(&WorkloadKind::Prose);
        if code && prose {
            continue;
        }
        let runs = plural(members.len(), "run", "runs");
        let message = match (code, prose) {
            (true, _) => format!(
                "this speculative configuration was measured only on code ({runs}); no prose workload"
            ),
            (_, true) => format!(
                "this speculative configuration was measured only on prose ({runs}); no code workload"
            ),
            _ if kinds.is_empty() => format!(
                "this speculative configuration's {runs} record no workload kind, so it is not \
                 known to have been measured on both code and prose"
            ),
            _ => {
                let named: Vec<&str> = kinds
                    .iter()
                    .map(|k| match k {
                        WorkloadKind::Mixed => "mixed",
                        _ => "other",
                    })
                    .collect();
                format!(
                    "this speculative configuration was measured on neither code nor prose alone \
                     (workload kind {}, {runs})",
                    named.join(" and ")
                )
            }
        };
        let e = out.emit_on(members[0], "/workload/kind", message);
        e.label(match (code, prose) {
            (true, _) => "code only",
            (_, true) => "prose only",
            _ => "neither code nor prose",
        });
        e.help(
            "measure the speculative configuration on both a code and a prose workload and \
             publish both, since speculation can win on one and lose on the other",
        );
        for &i in &members[1..] {
            e.related(locate(ctx.results, i, "/workload/kind"));
        }
    }
}
