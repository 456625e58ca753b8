//! `missing-artifact-file` (M017): a referenced artifact that does not exist.

use super::{ArtifactState, Emitter, ResultCtx, declare_rule};

declare_rule! {
    /// ## What it checks
    /// That every artifact a result names (`artifacts.power_trace.path`,
    /// `artifacts.quality_gate.path`) exists, resolved relative to the folder of the result
    /// file. A path that leaves the corpus root (`..` past the root, or absolute) is itself a
    /// finding and is never followed.
    ///
    /// ## Why is this bad?
    /// Seed 004 asks for the "Filenames of the paired power trace and quality-gate result": a
    /// name that points nowhere pairs the figure with nothing, and a reader cannot check it.
    ///
    /// ## Example
    /// ```json
    /// { "artifacts": { "quality_gate": { "path": "gate/run1.json", "passed": true } } }
    /// ```
    /// with no `gate/run1.json` beside the result.
    ///
    /// ## What to do instead
    /// Commit the artifact beside the result, or fix the path.
    pub static RULE = {
        code: "M017",
        name: "missing-artifact-file",
        severity: Warning,
        scope: Result,
        source: "seeds/004 (publication checklist)",
        summary: "a referenced artifact does not exist",
    }
}

pub fn check(ctx: &ResultCtx<'_>, out: &mut Emitter<'_>) {
    for (pointer, state) in ctx.artifacts {
        let path = ctx
            .get(pointer)
            .and_then(|v| v.as_str())
            .unwrap_or_default();
        match state {
            ArtifactState::Present => {}
            ArtifactState::Missing => {
                out.emit(
                    pointer.as_str(),
                    format!("artifact `{path}` does not exist (resolved from the result's folder)"),
                )
                .label("no such file")
                .help("commit the artifact beside the result, or fix the path");
            }
            ArtifactState::OutsideCorpus => {
                out.emit(
                    pointer.as_str(),
                    format!("artifact path `{path}` leaves the corpus root and was not followed"),
                )
                .label("outside the corpus")
                .help("keep artifacts inside the corpus and name them relative to the result file");
            }
        }
    }
}
