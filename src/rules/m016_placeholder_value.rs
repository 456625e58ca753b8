//! `placeholder-value` (M016): "N/A", "unknown", "TBD" or "" where a value belongs.

use serde_json::Value;

use crate::json::{Step, Visit, walk};

use super::support::is_placeholder;
use super::{Emitter, ResultCtx, declare_rule};

declare_rule! {
    /// ## What it checks
    /// Any string value of the canonical result that is a placeholder rather than a value:
    /// `""`, `"N/A"`, `"NA"`, `"unknown"`, `"TBD"`, `"TODO"`, `"?"`, `"-"`, `"null"`,
    /// `"undefined"` (any case). `notes` (free text, which may be `"TODO"` itself) and `labels`
    /// (the harness user's own words, which no checklist item requires) are not checked.
    ///
    /// ## Why is this bad?
    /// A placeholder satisfies a naive "is the field present" check while recording nothing.
    /// Seed 004: "If a setting that would change the number is missing from a file, that is a
    /// defect in the file." A placeholder is a missing value that hides.
    ///
    /// ## Example
    /// ```json
    /// { "engine": { "kv_cache_dtype": "unknown" } }
    /// ```
    ///
    /// ## What to do instead
    /// Record the real value, or leave the field out so the checklist rule names what is owed.
    pub static RULE = {
        code: "M016",
        name: "placeholder-value",
        severity: Error,
        scope: Result,
        source: "seeds/004 (publication checklist)",
        summary: "placeholder string where a value is required",
    }
}

pub fn check(ctx: &ResultCtx<'_>, out: &mut Emitter<'_>) {
    walk(
        ctx.value,
        &mut |path, value| match (path.depth(), path.last(), value) {
            // Free text may say "TBD" or be "TODO" itself, and labels are the harness user's own
            // words, required by nothing; per-request samples are numbers (the schema says so), and
            // skipping them keeps the walk cheap. Checked before the value, which may be a string.
            (1, Some(Step::Key("notes" | "labels")), _) | (_, Some(Step::Key("samples")), _) => {
                Visit::Skip
            }
            (_, _, Value::String(s)) if is_placeholder(s) => {
                let pointer = path.pointer();
                out.emit(
                &pointer,
                format!(
                    "`{pointer}` holds the placeholder \"{}\" instead of a value",
                    s.trim()
                ),
            )
            .label("placeholder")
            .help(
                "record the real value, or leave the field out so the checklist names what is owed",
            );
                Visit::Skip
            }
            _ => Visit::Descend,
        },
    );
}
