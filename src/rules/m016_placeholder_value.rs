//! `placeholder-value` (M016): "N/A", "unknown", "TBD" or "" where a value belongs.

use serde_json::Value;

use crate::json::escape_pointer_token;

use super::{Emitter, ResultCtx, declare_rule};

declare_rule! {
    /// ## What it checks
    /// Any string value of the canonical result (outside `notes`) that is a placeholder rather
    /// than a value: `""`, `"N/A"`, `"NA"`, `"unknown"`, `"TBD"`, `"TODO"`, `"?"`, `"-"`,
    /// `"null"`, `"undefined"` (any case).
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

const PLACEHOLDERS: [&str; 10] = [
    "",
    "n/a",
    "na",
    "unknown",
    "tbd",
    "todo",
    "?",
    "-",
    "null",
    "undefined",
];

/// Whether `s` is a placeholder rather than a value.
pub fn is_placeholder(s: &str) -> bool {
    let t = s.trim();
    PLACEHOLDERS.iter().any(|p| t.eq_ignore_ascii_case(p))
}

pub fn check(ctx: &ResultCtx<'_>, out: &mut Emitter<'_>) {
    let mut stack: Vec<(String, &Value)> = vec![(String::new(), ctx.value)];
    while let Some((pointer, value)) = stack.pop() {
        match value {
            Value::String(s) if is_placeholder(s) => {
                out.emit(&pointer, format!("`{pointer}` holds the placeholder \"{}\" instead of a value", s.trim()))
                    .label("placeholder")
                    .help("record the real value, or leave the field out so the checklist names what is owed");
            }
            Value::Object(map) => {
                for (k, v) in map {
                    if pointer.is_empty() && k == "notes" {
                        continue;
                    }
                    stack.push((format!("{pointer}/{}", escape_pointer_token(k)), v));
                }
            }
            Value::Array(items) => {
                // Per-request samples are numbers; skipping them keeps the walk cheap.
                if pointer.ends_with("/samples") {
                    continue;
                }
                for (i, v) in items.iter().enumerate() {
                    stack.push((format!("{pointer}/{i}"), v));
                }
            }
            _ => {}
        }
    }
}
