//! The bundled JSON Schemas and their validators, built once per process, never fetched.

use std::sync::LazyLock;

use serde_json::Value;

/// `schemas/result.schema.json`.
pub const RESULT: &str = include_str!("../schemas/result.schema.json");
/// `schemas/claims.schema.json`.
pub const CLAIMS: &str = include_str!("../schemas/claims.schema.json");
/// `schemas/report.schema.json` (`check --format json`).
pub const REPORT: &str = include_str!("../schemas/report.schema.json");
/// `schemas/audit.schema.json` (`audit --format json`).
pub const AUDIT: &str = include_str!("../schemas/audit.schema.json");

/// `schemas/regress.schema.json` (`regress --format json`).
pub const REGRESS: &str = include_str!("../schemas/regress.schema.json");

/// The bundled schemas by the name `benchlint schema NAME` takes.
pub const NAMES: [(&str, &str); 5] = [
    ("result", RESULT),
    ("claims", CLAIMS),
    ("report", REPORT),
    ("audit", AUDIT),
    ("regress", REGRESS),
];

/// The schema text for `name`.
pub fn by_name(name: &str) -> Option<&'static str> {
    NAMES.iter().find(|(n, _)| *n == name).map(|(_, s)| *s)
}

fn build(text: &str) -> jsonschema::Validator {
    let schema: Value = serde_json::from_str(text).expect("bundled schema is JSON");
    jsonschema::draft202012::options()
        .should_validate_formats(true)
        .build(&schema)
        .expect("bundled schema compiles")
}

/// A sidecar is a partial result: the result schema without its required fields.
fn build_partial(text: &str) -> jsonschema::Validator {
    let mut schema: Value = serde_json::from_str(text).expect("bundled schema is JSON");
    if let Some(obj) = schema.as_object_mut() {
        obj.remove("required");
        obj.remove("allOf");
        obj.remove("if");
        obj.remove("then");
    }
    jsonschema::draft202012::options()
        .should_validate_formats(true)
        .build(&schema)
        .expect("bundled schema compiles")
}

/// The result schema with any item accepted in `levels`, for documents whose levels were
/// checked on their typed form ([`crate::json::TypedLevels`]); what it says of the array
/// itself (`minItems` when the outcome is `ok`) still holds.
fn build_outside_levels(text: &str) -> jsonschema::Validator {
    let mut schema: Value = serde_json::from_str(text).expect("bundled schema is JSON");
    if let Some(levels) = schema
        .pointer_mut("/properties/levels")
        .and_then(Value::as_object_mut)
    {
        levels.insert("items".into(), Value::Bool(true));
    }
    jsonschema::draft202012::options()
        .should_validate_formats(true)
        .build(&schema)
        .expect("bundled schema compiles")
}

/// The claims schema's `#/$defs/claim` alone: one claim of a claims document, checked as the
/// document's claims are read one at a time.
fn build_claim(text: &str) -> jsonschema::Validator {
    let whole: Value = serde_json::from_str(text).expect("bundled schema is JSON");
    let mut one = serde_json::Map::new();
    for key in ["$schema", "$id", "$defs"] {
        if let Some(v) = whole.get(key) {
            one.insert(key.into(), v.clone());
        }
    }
    one.insert("$ref".into(), Value::from("#/$defs/claim"));
    jsonschema::draft202012::options()
        .should_validate_formats(true)
        .build(&Value::Object(one))
        .expect("bundled schema compiles")
}

static RESULT_VALIDATOR: LazyLock<jsonschema::Validator> = LazyLock::new(|| build(RESULT));
static SIDECAR_VALIDATOR: LazyLock<jsonschema::Validator> = LazyLock::new(|| build_partial(RESULT));
static RESULT_OUTSIDE_LEVELS_VALIDATOR: LazyLock<jsonschema::Validator> =
    LazyLock::new(|| build_outside_levels(RESULT));
static CLAIMS_VALIDATOR: LazyLock<jsonschema::Validator> = LazyLock::new(|| build(CLAIMS));
static CLAIM_VALIDATOR: LazyLock<jsonschema::Validator> = LazyLock::new(|| build_claim(CLAIMS));
static REPORT_VALIDATOR: LazyLock<jsonschema::Validator> = LazyLock::new(|| build(REPORT));
static AUDIT_VALIDATOR: LazyLock<jsonschema::Validator> = LazyLock::new(|| build(AUDIT));

/// Which bundled schema to validate against.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A canonical result.
    Result,
    /// A sidecar (partial result).
    Sidecar,
    /// A claims file.
    Claims,
    /// `check --format json` output.
    Report,
    /// `audit --format json` output.
    Audit,
}

/// One schema error: where, and what.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SchemaError {
    /// JSON pointer of the offending value (for a missing field: the object that lacks it).
    pub pointer: String,
    /// What is wrong, in the validator's words (values masked when long).
    pub message: String,
}

static RESULT_SCHEMA_VALUE: LazyLock<Value> =
    LazyLock::new(|| serde_json::from_str(RESULT).expect("bundled schema is JSON"));

/// The kind of value the result schema expects at canonical `pointer`, in words: `integer`,
/// `string`, `true or false`, `one of "process", "typed"`, `object`; `None` for a pointer the
/// schema does not describe (inside a free-form object).
pub fn result_field_kind(pointer: &str) -> Option<String> {
    let mut at: &Value = &RESULT_SCHEMA_VALUE;
    for token in pointer.trim_start_matches('/').split('/') {
        at = at.get("properties")?.get(token)?;
    }
    if let Some(options) = at.get("enum").and_then(Value::as_array) {
        let words: Vec<String> = options.iter().map(Value::to_string).collect();
        return Some(format!("one of {}", words.join(", ")));
    }
    let kinds: Vec<&str> = match at.get("type")? {
        Value::String(t) => vec![t.as_str()],
        Value::Array(ts) => ts.iter().filter_map(Value::as_str).collect(),
        _ => return None,
    };
    let words: Vec<&str> = kinds
        .into_iter()
        .map(|t| match t {
            "boolean" => "true or false",
            "array" => "a list",
            other => other,
        })
        .collect();
    Some(words.join(" or "))
}

/// Validates `instance`; returns every error, sorted by pointer.
pub fn validate(kind: Kind, instance: &Value) -> Vec<SchemaError> {
    let v: &jsonschema::Validator = match kind {
        Kind::Result => &RESULT_VALIDATOR,
        Kind::Sidecar => &SIDECAR_VALIDATOR,
        Kind::Claims => &CLAIMS_VALIDATOR,
        Kind::Report => &REPORT_VALIDATOR,
        Kind::Audit => &AUDIT_VALIDATOR,
    };
    if v.is_valid(instance) {
        return Vec::new();
    }
    let mut errors: Vec<SchemaError> = v
        .iter_errors(instance)
        .map(|e| SchemaError {
            pointer: e.instance_path().as_str().to_string(),
            message: short(&e.masked().to_string()),
        })
        .collect();
    sort_errors(&mut errors);
    errors
}

/// What [`validate`] says under `/claims/{index}` of a claims document whose claim `index` is
/// `item`: the claims schema's errors for that claim alone, at the pointers and in the words the
/// whole document's check gives them, unsorted ([`sort_errors`]).
pub fn claim_errors(item: &Value, index: usize) -> Vec<SchemaError> {
    if CLAIM_VALIDATOR.is_valid(item) {
        return Vec::new();
    }
    CLAIM_VALIDATOR
        .iter_errors(item)
        .map(|e| SchemaError {
            pointer: format!("/claims/{index}{}", e.instance_path().as_str()),
            message: short(&e.masked().to_string()),
        })
        .collect()
}

/// Whether the canonical result `instance` is valid against the result schema outside its
/// levels (each item of `levels` is accepted, the array's own constraints are checked): for a
/// document whose levels were checked on their typed form.
pub fn result_valid_outside_levels(instance: &Value) -> bool {
    RESULT_OUTSIDE_LEVELS_VALIDATOR.is_valid(instance)
}

/// Puts `errors` in the order [`validate`] returns them: by pointer, then message, without
/// repeats.
pub fn sort_errors(errors: &mut Vec<SchemaError>) {
    errors.sort_by(|a, b| a.pointer.cmp(&b.pointer).then(a.message.cmp(&b.message)));
    errors.dedup();
}

/// Per metric of `levels[].samples`: the result validator's message for a number below the
/// schema's minimum, asked of the validator once (masked, so it names no value), or `None`
/// when the schema lets the metric's samples be negative.
static SAMPLE_BELOW_MINIMUM: LazyLock<Vec<(&'static str, Option<String>)>> = LazyLock::new(|| {
    crate::json::SAMPLE_METRICS
        .iter()
        .map(|metric| {
            let probe = serde_json::json!({
                "schema": crate::model::RESULT_SCHEMA, "id": "probe",
                "measured_at": "2026-01-01T00:00:00Z", "outcome": "ok",
                "levels": [{ "concurrency": 1, "samples": { *metric: [-1] } }]
            });
            let at = format!("/levels/0/samples/{metric}/0");
            let message = validate(Kind::Result, &probe)
                .into_iter()
                .find(|e| e.pointer == at)
                .map(|e| e.message);
            (*metric, message)
        })
        .collect()
});

/// The error the result validator reports for the per-request sample `value` of `metric`
/// (one of [`crate::json::SAMPLE_METRICS`]) at `pointer`, for samples checked as numbers
/// rather than handed to the validator: the same pointer and message.
pub fn sample_error(
    metric: &str,
    pointer: impl FnOnce() -> String,
    value: f64,
) -> Option<SchemaError> {
    if value >= 0.0 {
        return None;
    }
    let (_, message) = SAMPLE_BELOW_MINIMUM.iter().find(|(m, _)| *m == metric)?;
    Some(SchemaError {
        pointer: pointer(),
        message: message.clone()?,
    })
}

fn short(s: &str) -> String {
    if s.chars().count() > 240 {
        format!("{}…", s.chars().take(240).collect::<String>())
    } else {
        s.to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_bundled_schema_compiles_and_is_a_valid_2020_12_schema() {
        for (name, text) in NAMES {
            let schema: Value = serde_json::from_str(text).unwrap();
            assert!(
                jsonschema::meta::is_valid(&schema),
                "{name} is not a valid schema"
            );
            let _ = build(text);
        }
    }

    #[test]
    fn field_kinds_in_words() {
        assert_eq!(
            result_field_kind("/engine/max_num_seqs").as_deref(),
            Some("integer")
        );
        assert_eq!(
            result_field_kind("/engine/enforce_eager").as_deref(),
            Some("true or false")
        );
        assert_eq!(
            result_field_kind("/artifacts/power_trace/kind").as_deref(),
            Some(r#"one of "wall", "device""#)
        );
        assert_eq!(result_field_kind("/workload/sampling/top_p"), None);
    }

    #[test]
    fn a_negative_sample_is_worded_as_the_validator_words_it() {
        for metric in crate::json::SAMPLE_METRICS {
            for value in [-1.0, -0.25, -1e300] {
                let doc = serde_json::json!({
                    "schema": "benchlint/result/v1", "id": "x",
                    "measured_at": "2026-01-01T00:00:00Z", "outcome": "ok",
                    "levels": [{ "concurrency": 1, "samples": { metric: [1, value, 0] } }]
                });
                let at = format!("/levels/0/samples/{metric}/1");
                let from_validator: Vec<SchemaError> = validate(Kind::Result, &doc);
                assert_eq!(
                    from_validator,
                    vec![sample_error(metric, || at.clone(), value).unwrap()]
                );
            }
            assert_eq!(sample_error(metric, String::new, 0.0), None);
            assert_eq!(sample_error(metric, String::new, -0.0), None);
        }
    }

    #[test]
    fn date_time_format_is_checked() {
        let doc = serde_json::json!({
            "schema": "benchlint/result/v1", "id": "x", "measured_at": "yesterday",
            "outcome": "ok", "levels": [{"concurrency": 1}]
        });
        let errors = validate(Kind::Result, &doc);
        assert!(
            errors.iter().any(|e| e.pointer == "/measured_at"),
            "{errors:?}"
        );
    }
}
