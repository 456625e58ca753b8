//! The claims documents of a corpus as the loader checks them: a claims file that passes the
//! schema but whose claims cannot be read as claims is a finding, never a silent "unresolved".

use super::{LoadedClaims, finding_at};
use crate::diagnostic::{Finding, Location};
use crate::model::CLAIMS_SCHEMA;
use crate::rules;

/// E003 for each claim of a schema-valid claims document (read as `claims`) that still cannot be
/// read as a claim (a count too large for an integer): a claims file that cannot be used is
/// always a finding, never a silent "unresolved".
pub(super) fn unreadable(path: &str, doc_start: usize, claims: &LoadedClaims) -> Vec<Finding> {
    claims
        .claims
        .iter()
        .enumerate()
        .filter_map(|(i, item)| {
            let e = item.read.as_ref().err()?;
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

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::*;
    use crate::model::claim::Claim;

    /// Claims that cannot be read each get an E003 at their place, in the words of the reader
    /// of the claim as a value of its own (how they were read before a claims document was read
    /// into the typed model once, as it is loaded).
    #[test]
    fn each_unreadable_claim_is_said_in_the_readers_words() {
        let doc = json!({
            "schema": CLAIMS_SCHEMA,
            "claims": [
                "not a claim",
                {"id": "c2", "kind": 12},
                {"id": "c3", "concurrency": 99_999_999_999_999_999_999.0},
                [],
            ],
        });
        let origin = crate::model::translate::Origin {
            path: "claims.jsonl".into(),
            doc_start: 40,
            format: "claims",
        };
        let loaded = LoadedClaims::read(origin, &doc);
        let found = unreadable("claims.jsonl", 40, &loaded);
        let raw = doc["claims"].as_array().unwrap();
        assert_eq!(found.len(), raw.len());
        for (i, (f, claim)) in found.iter().zip(raw).enumerate() {
            let words = serde_json::from_value::<Claim>(claim.clone())
                .err()
                .unwrap()
                .to_string();
            assert_eq!(f.primary.pointer.raw(), format!("/claims/{i}"));
            assert_eq!(f.primary.doc_start, 40);
            assert!(f.message.raw().ends_with(&words), "{}", f.message.raw());
        }
        assert!(
            unreadable(
                "c.json",
                0,
                &LoadedClaims::read(loaded.origin, &Value::Null)
            )
            .is_empty()
        );
    }
}
