//! What must be known for results to be pooled at all (DESIGN.md conventions: "Unknown is
//! never equal to unknown"). Two files that both lack the model name may hold two models; two
//! that both lack the device may have run on different hardware. Equal fingerprints make
//! replicates only when every identifying field is known: a result that lacks any is a
//! configuration of its own ([`super::Fingerprint::unpooled`]), which the replication rules do
//! not judge until a sidecar supplies what is missing.

use crate::model::ResultDoc;

/// What must be known for a result to be a replicate of anything (DESIGN.md conventions: "every
/// identity field ... is known on both"), as the words messages use and the dotted paths behind
/// them. The workload counts as known when any of its three paths is (a workload name, a
/// `scenario` label, or a typical prompt length).
pub const IDENTIFYING_FIELDS: &[(&str, &[&str])] = &[
    ("model name", &["model.name"]),
    ("engine name", &["engine.name"]),
    ("device model", &["platform.device.model"]),
    ("precision", &["model.precision"]),
    (
        "workload (its name, scenario or prompt shape)",
        &["workload.name", "labels.scenario", "workload.prompt_tokens"],
    ),
];

/// The [`IDENTIFYING_FIELDS`] that `doc` does not record (absent, blank or a placeholder), by
/// their words; empty when the configuration is identified. With `with_workload` false, only the
/// setup's (model, engine, device, precision).
pub fn unidentified(doc: &ResultDoc, with_workload: bool) -> Vec<&'static str> {
    let known = |v: Option<&String>| v.is_some_and(|s| !crate::rules::support::is_placeholder(s));
    let workload = doc.workload.as_ref();
    let found = [
        known(doc.model.as_ref().and_then(|m| m.name.as_ref())),
        known(doc.engine.as_ref().and_then(|e| e.name.as_ref())),
        known(
            doc.platform
                .as_ref()
                .and_then(|p| p.device.as_ref())
                .and_then(|d| d.model.as_ref()),
        ),
        known(doc.model.as_ref().and_then(|m| m.precision.as_ref())),
        !with_workload
            || known(workload.and_then(|w| w.name.as_ref()))
            || known(doc.labels.as_ref().and_then(|l| l.get("scenario")))
            || workload
                .and_then(|w| w.prompt_tokens.as_ref())
                .and_then(crate::model::PromptTokens::typical)
                .is_some_and(f64::is_finite),
    ];
    IDENTIFYING_FIELDS
        .iter()
        .zip(found)
        .filter(|(_, ok)| !ok)
        .map(|((words, _), _)| *words)
        .collect()
}
