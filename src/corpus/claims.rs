//! The claims documents of a corpus as the loader checks them: a claims file that passes the
//! schema but whose claims cannot be read as claims is a finding, never a silent "unresolved".
//!
//! A claims document whose `claims` the parser left apart ([`Document::apart`]) is read a claim
//! at a time: each claim is checked against the schema, read into the typed model and let go
//! before the next is parsed, and what is found is what reading the document whole finds.

use serde_json::Value;

use super::result::whole_numbers_as_integers;
use super::{LoadedClaims, finding_at};
use crate::diagnostic::{Finding, Location};
use crate::json::{Document, read_apart};
use crate::model::CLAIMS_SCHEMA;
use crate::model::loaded::ClaimItem;
use crate::model::translate::Origin;
use crate::rules;
use crate::schema::{self, SchemaError};

/// What a claims document read as: its claims (none kept when they are dropped) with an E003
/// for each that cannot be read as a claim; the schema's errors; or, for a document read apart,
/// a text that is not the one it was parsed from (a bug).
pub(super) enum ClaimsRead {
    Read(LoadedClaims, Vec<Finding>),
    Invalid(Vec<SchemaError>),
    Internal(String),
}

/// Reads the claims document `doc` of the file `path`, whose text (the one `doc.start` is an
/// offset in) is `text`: whole, or a claim at a time when its claims were left apart.
pub(super) fn read(
    path: &str,
    doc: &mut Document,
    text: &str,
    origin: Origin,
    drop_claims: bool,
) -> ClaimsRead {
    if doc.apart.is_some() {
        return read_claim_by_claim(path, doc, text, origin, drop_claims);
    }
    let errors = schema::validate(schema::Kind::Claims, &doc.value);
    if !errors.is_empty() {
        return ClaimsRead::Invalid(errors);
    }
    let mut value = std::mem::take(&mut doc.value);
    // JSON Schema counts `15.0` as an integer; the typed claim wants `15`.
    whole_numbers_as_integers(&mut value);
    // Read into the typed model now, on the worker, once, and the JSON let go.
    let mut loaded = LoadedClaims::read(origin, &value);
    drop(value);
    let found = unreadable(path, doc.start, &loaded);
    if drop_claims {
        loaded.claims = Vec::new();
    }
    ClaimsRead::Read(loaded, found)
}

/// [`read`] for a document whose claims were left apart: the document's own errors (its
/// `claims` empty), then each claim's as it is parsed, the claims read only while none is found.
fn read_claim_by_claim(
    path: &str,
    doc: &Document,
    text: &str,
    origin: Origin,
    drop_claims: bool,
) -> ClaimsRead {
    let mut errors = schema::validate(schema::Kind::Claims, &doc.value);
    let mut claims = Vec::new();
    let mut found = Vec::new();
    let mut index = 0;
    let read = read_apart(text, doc, |mut item: Value| {
        let i = index;
        index += 1;
        errors.extend(schema::claim_errors(&item, i));
        if !errors.is_empty() {
            return;
        }
        whole_numbers_as_integers(&mut item);
        let claim = ClaimItem::read(&item);
        found.extend(unreadable_at(path, doc.start, i, &claim));
        if !drop_claims {
            claims.push(claim);
        }
    });
    if let Err(e) = read {
        return ClaimsRead::Internal(e);
    }
    if !errors.is_empty() {
        schema::sort_errors(&mut errors);
        return ClaimsRead::Invalid(errors);
    }
    ClaimsRead::Read(LoadedClaims { origin, claims }, found)
}

/// E003 for each claim of a schema-valid claims document (read as `claims`) that still cannot be
/// read as a claim (a count too large for an integer): a claims file that cannot be used is
/// always a finding, never a silent "unresolved".
fn unreadable(path: &str, doc_start: usize, claims: &LoadedClaims) -> Vec<Finding> {
    claims
        .claims
        .iter()
        .enumerate()
        .filter_map(|(i, item)| unreadable_at(path, doc_start, i, item))
        .collect()
}

/// [`unreadable`] for the claim `item`, the `i`th of its document.
fn unreadable_at(path: &str, doc_start: usize, i: usize, item: &ClaimItem) -> Option<Finding> {
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
}

#[cfg(test)]
thread_switch!(
    /// Every claims document read whole on this thread, for a test to compare with reading
    /// their claims apart.
    WHOLE,
    read_whole,
    reads_whole
);

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
