//! Sidecar skeletons (`benchlint sidecar`): for a result file that misses checklist items
//! (M001–M014), the `.meta.json` a team completes so that `check` finds them. It is the `--fix`
//! of this linter: the file itself is never edited, the sidecar beside it supplies what the
//! file does not record (DESIGN.md "Concepts": every value keeps its provenance, "sidecar").
//!
//! # What a skeleton holds
//!
//! * Exactly the keys the checklist rules report absent on that file, at their canonical
//!   places, each `null` (a value not known yet), plus the keys that must go with one of them
//!   once it is filled (`engine.serve_command_source` with `engine.serve_command`, the `kind`
//!   of a power trace, whether a quality gate or a parity check `passed`), so that completing
//!   one item does not raise another. `engine.speculative` is `{"enabled": null}` and
//!   `workload.sampling` `{"top_p": null, "top_k": null}`: the shape the rule asks for.
//! * Values benchlint can work out already ([`derive`]), filled in.
//! * A note under the top-level key `"$benchlint"`: the file it was made for, how to complete
//!   it, each missing key with its rule, what it is and the kind of value the schema expects,
//!   and under `derived` each filled-in value with where it came from.
//! * No secret: a value copied from another result or quoted in the note is redacted as
//!   `benchlint import` redacts (`"<redacted>"`).
//!
//! # Why it stays a valid sidecar
//!
//! `check` reads a sidecar with its nulls and its note removed (`corpus::sidecar::prepare`):
//! a null is not merged (the item stays absent and its finding stays), the note is never
//! merged. So the skeleton as written, half completed, or completed and kept with its note, is
//! always a valid sidecar; replacing a null with a value is all completing takes.
//!
//! # Several results in one file
//!
//! A sidecar applies to every result of its file (a vLLM JSON Lines file of nine runs, an
//! SGLang file of mixed configurations). A key is in the skeleton when any result lacks it; when
//! the others record it and agree, their value is filled in (derived), since any other value
//! would contradict them (M019); when they disagree, the key stays null and the note says that
//! no one value fits every result.
//!
//! # Running it again
//!
//! Given a file whose sidecar exists, the skeleton starts from that sidecar as written (its
//! values, its nulls, the `derived` notes of values still there) and adds what is still
//! missing: a value filled in can bring new items into play (a node count above 1 asks for the
//! fabric and a parity check), and running `benchlint sidecar` again adds them.

pub mod derive;
#[cfg(test)]
mod derive_tests;
mod tally;

pub use tally::Tally;

use std::fmt::Write as _;

use serde_json::{Map, Value, json};

use crate::corpus::LoadedResult;
use crate::corpus::checklist::Gap;
use crate::corpus::sidecar::NOTE_KEY;

/// A skeleton and what is in it.
#[derive(Debug, Clone, PartialEq)]
pub struct Skeleton {
    /// The sidecar document.
    pub value: Value,
    /// Keys still to fill (nulls written for checklist items).
    pub missing: usize,
    /// Values filled in by benchlint.
    pub derived: usize,
}

/// How to complete a skeleton, as its note says.
pub const FILL_IN: &str = "Replace each null with the value in force when the run was measured, then run `benchlint check` again. A null is a value not known yet: it is not merged and its finding stays. Values listed under `derived` were filled in by benchlint from what the file records: check each. A value you add can bring new items into play (a node count above 1 asks for the fabric and a parity check): run `benchlint sidecar` again to add them. This object is never merged: keep it as a record or delete it.";

/// Keys that go with a checklist item once it is filled: the item's pointer, the companion's,
/// and why.
const COMPANIONS: [(&str, &str, &str); 4] = [
    (
        "/engine/serve_command",
        "/engine/serve_command_source",
        "where the serve command was read from, which M004 asks once the command is given",
    ),
    (
        "/artifacts/power_trace/path",
        "/artifacts/power_trace/kind",
        "what the power trace measured, wall or device (L005)",
    ),
    (
        "/artifacts/quality_gate/path",
        "/artifacts/quality_gate/passed",
        "whether the quality gate passed (R021)",
    ),
    (
        "/platform/parity_check/at",
        "/platform/parity_check/passed",
        "whether the parity check passed (M011)",
    ),
];

/// The placeholder of an item: `null`, or the shape its rule asks for.
fn placeholder(pointer: &str) -> Value {
    match pointer {
        "/engine/speculative" => json!({ "enabled": null }),
        "/workload/sampling" => json!({ "top_p": null, "top_k": null }),
        _ => Value::Null,
    }
}

/// `/platform/device/model` as `platform.device.model`.
fn dotted(pointer: &str) -> String {
    pointer
        .trim_start_matches('/')
        .split('/')
        .map(crate::json::unescape_token)
        .collect::<Vec<_>>()
        .join(".")
}

/// The value at `pointer` of `doc`, if there is one and it is not null.
fn has_value(doc: &Value, pointer: &str) -> bool {
    doc.pointer(pointer).is_some_and(|v| !v.is_null())
}

/// Sets `value` at canonical `pointer` of `doc`, making the objects on the way; a non-object on
/// the way (a sidecar that holds something else there) leaves `doc` as it is.
fn set(doc: &mut Value, pointer: &str, value: Value) -> bool {
    let tokens: Vec<String> = pointer
        .trim_start_matches('/')
        .split('/')
        .map(crate::json::unescape_token)
        .collect();
    let Some((last, path)) = tokens.split_last() else {
        return false;
    };
    let mut at = doc;
    for t in path {
        let Some(map) = at.as_object_mut() else {
            return false;
        };
        let next = map.entry(t.clone()).or_insert_with(|| json!({}));
        if next.is_null() {
            *next = json!({});
        }
        at = next;
    }
    match at.as_object_mut() {
        Some(map) => {
            map.insert(last.clone(), value);
            true
        }
        None => false,
    }
}

/// What the note says of a missing key: its rule, what it is, the kind of value (for the
/// objects the skeleton shapes, what goes in them).
fn describe(code: &str, what: &str, pointer: &str) -> String {
    let kind = match pointer {
        "/engine/speculative" => Some(
            "`enabled`: true or false; when true, also `method` and `num_speculative_tokens`"
                .to_string(),
        ),
        "/workload/sampling" => Some(
            "each parameter sent with every request, by name: top_p, top_k, ...; remove those not sent"
                .to_string(),
        ),
        _ => crate::schema::result_field_kind(pointer),
    };
    match kind {
        Some(kind) => format!("{code}: {what} ({kind})"),
        None => format!("{code}: {what}"),
    }
}

/// The skeleton of the sidecar of `file`, whose results are `results` and whose checklist gaps
/// are `gaps` (one list per result, [`crate::corpus::checklist::gaps`]), starting from `base`
/// (the sidecar beside the file as written, if any). `None` when nothing is missing.
pub fn build(
    file: &str,
    results: &[&LoadedResult],
    gaps: &[Vec<Gap>],
    base: Option<&Value>,
) -> Option<Skeleton> {
    let mut tally = Tally::new(gaps.iter().map(Vec::as_slice));
    for (r, gaps) in results.iter().zip(gaps) {
        tally.add(&r.value, gaps);
    }
    tally.finish(file, base)
}

impl Tally {
    /// The skeleton of the sidecar of `file` from what the results added record, starting from
    /// `base` (the sidecar beside the file as written, if any). `None` when nothing is missing.
    pub fn finish(self, file: &str, base: Option<&Value>) -> Option<Skeleton> {
        let results = self.results;
        let items = self.items;
        if items.is_empty() {
            return None;
        }
        let mut doc = base
            .filter(|b| b.is_object())
            .cloned()
            .unwrap_or_else(|| json!({}));
        let old_note = doc
            .as_object_mut()
            .and_then(|m| m.remove(NOTE_KEY))
            .unwrap_or(Value::Null);
        let mut missing = Map::new();
        let mut derived = Map::new();
        // The `derived` notes of values still in the sidecar stay with them.
        if let Some(old) = old_note.get("derived").and_then(Value::as_object) {
            for (key, why) in old {
                let pointer = format!("/{}", key.replace('.', "/"));
                if has_value(&doc, &pointer) {
                    derived.insert(key.clone(), why.clone());
                }
            }
        }
        for item in items {
            let pointer = item.gap.pointer.as_str();
            let key = dotted(pointer);
            let mut about = describe(item.gap.code, &item.gap.what, pointer);
            let fill = match item.recorded.finish() {
                derive::Recorded::Agreed(value, n) => Some(derive::Derived {
                    value,
                    from: format!(
                        "recorded by {n} of the {results} results in this file, and a sidecar applies to all of them"
                    ),
                }),
                derive::Recorded::Disagree(values) => {
                    let _ = write!(
                        about,
                        "; the results of this file that record it disagree ({}), so no one value in a sidecar fits every result",
                        values.join(", ")
                    );
                    None
                }
                derive::Recorded::Nowhere => item.derived.finish(),
            };
            match fill {
                Some(d) if !has_value(&doc, pointer) => {
                    if set(&mut doc, pointer, d.value) {
                        derived.insert(key, Value::from(d.from));
                    }
                }
                Some(_) => {}
                None => {
                    if !has_value(&doc, pointer) && set(&mut doc, pointer, placeholder(pointer)) {
                        missing.insert(key, Value::from(about));
                    }
                }
            }
            // What goes with the item, for the results that lack the item and the companion too:
            // the others' value when they agree on it, else a null to fill.
            for (k, with) in item.companions.into_iter().enumerate() {
                let Some(with) = with else {
                    continue;
                };
                let (of, companion, why) = COMPANIONS[k];
                if has_value(&doc, companion) || with.all_lacking_have_it {
                    continue;
                }
                if let derive::Recorded::Agreed(value, n) = with.recorded.finish() {
                    if set(&mut doc, companion, value) {
                        derived.insert(
                            dotted(companion),
                            Value::from(format!(
                                "recorded by {n} of the {results} results in this file, with `{}`",
                                dotted(of)
                            )),
                        );
                    }
                } else if set(&mut doc, companion, Value::Null) {
                    let kind = crate::schema::result_field_kind(companion)
                        .map_or_else(String::new, |k| format!(" ({k})"));
                    missing.insert(
                        dotted(companion),
                        Value::from(format!("with `{}`{kind}: {why}", dotted(of))),
                    );
                }
            }
        }
        let counts = (missing.len(), derived.len());
        let mut note = Map::new();
        note.insert("skeleton_for".into(), Value::from(file));
        note.insert("fill_in".into(), Value::from(FILL_IN));
        note.insert("missing".into(), Value::Object(missing));
        if !derived.is_empty() {
            note.insert("derived".into(), Value::Object(derived));
        }
        let mut out = Map::new();
        out.insert(NOTE_KEY.into(), Value::Object(note));
        if let Value::Object(rest) = doc {
            out.extend(rest);
        }
        // A value copied from another result (a serve command with `--api-key`, say) or quoted in
        // a note carries no credential into the sidecar: secrets become "<redacted>".
        let mut value = Value::Object(out);
        crate::secrets::redact_value(&mut value);
        Some(Skeleton {
            value,
            missing: counts.0,
            derived: counts.1,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_makes_the_way_and_respects_what_is_there() {
        let mut doc = json!({"engine": {"name": "vllm"}, "model": "x"});
        assert!(set(&mut doc, "/engine/speculative/enabled", Value::Null));
        assert!(!set(&mut doc, "/model/precision", json!("fp8")));
        assert_eq!(
            doc,
            json!({"engine": {"name": "vllm", "speculative": {"enabled": null}}, "model": "x"})
        );
        assert_eq!(dotted("/a~1b/c"), "a/b.c");
    }
}
