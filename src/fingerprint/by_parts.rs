//! Fingerprints computed once per distinct configuration rather than once per result.
//!
//! A fingerprint, its label and whether the result is identified read only the parts of a
//! result that describe its configuration: harness, platform, engine, model, workload and
//! labels. `check` keeps one copy of each distinct part ([`crate::corpus::SharedParts`]), so
//! results whose parts are the same copies (replicates, the levels of one ladder) share them by
//! address, and whatever is computed from those parts is computed once for all of them. Parts
//! that are equal but not shared (a load that does not share them) are merely computed again:
//! the address is a shortcut, never a reason to treat two configurations as one.

use foldhash::{HashMap, HashMapExt};
use std::sync::Arc;

use rayon::prelude::*;

use crate::model::ResultDoc;
use crate::model::loaded::LoadedResult;

/// The parts of a result a fingerprint reads, by address (0 for an absent part).
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
struct PartsKey([usize; 6]);

fn parts_key(doc: &ResultDoc) -> PartsKey {
    fn at<T: ?Sized>(part: Option<&Arc<T>>) -> usize {
        part.map_or(0, |p| Arc::as_ptr(p).cast::<()>().addr())
    }
    PartsKey([
        at(doc.harness.as_ref()),
        at(doc.platform.as_ref()),
        at(doc.engine.as_ref()),
        at(doc.model.as_ref()),
        at(doc.workload.as_ref()),
        at(doc.labels.as_ref()),
    ])
}

/// `compute` applied to the configuration parts of each of `indices` (into `results`), once
/// per distinct set of shared parts, in parallel. Returns the values, one per distinct set,
/// and for each of `indices` (in its order) the position of its value.
pub fn per_parts<T: Send>(
    results: &[LoadedResult],
    indices: &[usize],
    compute: impl Fn(&ResultDoc) -> T + Sync,
) -> (Vec<T>, Vec<usize>) {
    let mut first: HashMap<PartsKey, usize> = HashMap::new();
    let mut representatives: Vec<usize> = Vec::new();
    let slot_of: Vec<usize> = indices
        .iter()
        .map(|&i| {
            *first.entry(parts_key(&results[i].doc)).or_insert_with(|| {
                representatives.push(i);
                representatives.len() - 1
            })
        })
        .collect();
    let values = representatives
        .par_iter()
        .map(|&i| compute(&results[i].doc))
        .collect();
    (values, slot_of)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::{Origin, SharedParts};

    fn result(id: &str, model: &str) -> LoadedResult {
        let value = serde_json::json!({
            "schema": "benchlint/result/v1",
            "id": id,
            "measured_at": "2026-01-01T00:00:00Z",
            "outcome": "ok",
            "model": {"name": model},
        });
        LoadedResult {
            origin: Origin {
                path: format!("{id}.json").into(),
                doc_start: 0,
                format: "canonical",
            },
            doc: serde_json::from_value(value).unwrap(),
            value: serde_json::Value::Null,
            provenance: crate::model::ProvenanceMap::default(),
            checklist: None,
        }
    }

    fn model_names(results: &[LoadedResult]) -> (Vec<String>, Vec<usize>) {
        let all: Vec<usize> = (0..results.len()).collect();
        per_parts(results, &all, |d| {
            d.model.as_ref().and_then(|m| m.name.clone()).unwrap()
        })
    }

    #[test]
    fn shared_parts_are_computed_once_and_each_result_finds_its_value() {
        let shared = SharedParts::default();
        let mut results = vec![result("a", "m"), result("b", "n"), result("c", "m")];
        for r in &mut results {
            shared.share(&mut r.doc);
        }
        let (values, slot_of) = model_names(&results);
        assert_eq!(values, ["m", "n"]);
        assert_eq!(slot_of, [0, 1, 0]);
    }

    #[test]
    fn results_whose_parts_differ_only_outside_the_fingerprint_are_one_configuration() {
        const COMPLETE: &str = include_str!("../../testdata/clean/replicated-corpus/complete.json");
        // Read as c, a, b; one host differs, which is run identity, not configuration.
        let shared = SharedParts::default();
        let mut results: Vec<LoadedResult> = [("c", "h1"), ("a", "h1"), ("b", "h2")]
            .into_iter()
            .enumerate()
            .map(|(n, (name, host))| {
                let mut value: serde_json::Value = serde_json::from_str(COMPLETE).unwrap();
                value["platform"]["host"] = host.into();
                value["measured_at"] = format!("2026-01-0{}T00:00:00Z", n + 1).into();
                let mut r = result(name, "m");
                r.doc = serde_json::from_value(value).unwrap();
                r
            })
            .collect();
        for r in &mut results {
            shared.share(&mut r.doc);
        }
        let order = crate::fingerprint::path_order(&results);
        assert_eq!(order, [1, 2, 0]);
        let groups = crate::fingerprint::groups(&results, &order);
        assert_eq!(groups.values().collect::<Vec<_>>(), [&vec![1, 2, 0]]);
    }

    #[test]
    fn equal_parts_that_are_not_shared_are_computed_for_each_result() {
        let results = vec![result("a", "m"), result("b", "m")];
        let (values, slot_of) = model_names(&results);
        assert_eq!(values, ["m", "m"]);
        assert_eq!(slot_of, [0, 1]);
    }
}
