//! The claims documents of a corpus as the loader checks them: a claims file that passes the
//! schema but whose claims cannot be read as claims is a finding, never a silent "unresolved".

use serde::Deserialize as _;
use serde_json::Value;

use super::finding_at;
use crate::diagnostic::{Finding, Location};
use crate::model::CLAIMS_SCHEMA;
use crate::rules;

/// E003 for each claim of a schema-valid claims document that still cannot be read as a claim
/// (a count too large for an integer): a claims file that cannot be used is always a finding,
/// never a silent "unresolved".
pub(super) fn unreadable(path: &str, doc_start: usize, value: &Value) -> Vec<Finding> {
    let Some(claims) = value.get("claims").and_then(Value::as_array) else {
        return Vec::new();
    };
    claims
        .iter()
        .enumerate()
        .filter_map(|(i, raw)| {
            let e = crate::claims::Claim::deserialize(raw).err()?;
            let mut f = finding_at(
                &rules::e003_schema_violation::RULE,
                Location {
                    path: path.into(),
                    doc_start,
                    pointer: format!("/claims/{i}").into(),
                    offset: None,
                },
                format!(
                    "claim {} could not be read as `{CLAIMS_SCHEMA}`: {e}",
                    i + 1
                ),
                Some("see `benchlint schema claims` for each field's type".into()),
            );
            f.label = Some("not a readable claim".into());
            Some(f)
        })
        .collect()
}
