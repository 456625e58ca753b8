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
use std::collections::BTreeMap;
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

/// What was computed from the last result's configuration parts, kept with those parts: a run
/// of results sharing them (replicates read one after another, the levels of one ladder) has
/// it computed once. The parts are held, so no other part can take their address while it is
/// compared; parts equal but not shared are merely computed again.
pub struct LastParts<T> {
    last: Option<(HeldParts, T)>,
}

/// The configuration parts of a result, held ([`parts_key`]'s parts).
struct HeldParts {
    harness: Option<Arc<crate::model::Harness>>,
    platform: Option<Arc<crate::model::Platform>>,
    engine: Option<Arc<crate::model::Engine>>,
    model: Option<Arc<crate::model::Model>>,
    workload: Option<Arc<crate::model::Workload>>,
    labels: Option<Arc<crate::model::SmallMap<String>>>,
}

impl HeldParts {
    fn of(doc: &ResultDoc) -> Self {
        HeldParts {
            harness: doc.harness.clone(),
            platform: doc.platform.clone(),
            engine: doc.engine.clone(),
            model: doc.model.clone(),
            workload: doc.workload.clone(),
            labels: doc.labels.clone(),
        }
    }

    /// Whether `doc` holds these very parts (not copies).
    fn held_by(&self, doc: &ResultDoc) -> bool {
        fn same<T: ?Sized>(a: Option<&Arc<T>>, b: Option<&Arc<T>>) -> bool {
            match (a, b) {
                (None, None) => true,
                (Some(a), Some(b)) => Arc::ptr_eq(a, b),
                _ => false,
            }
        }
        same(self.harness.as_ref(), doc.harness.as_ref())
            && same(self.platform.as_ref(), doc.platform.as_ref())
            && same(self.engine.as_ref(), doc.engine.as_ref())
            && same(self.model.as_ref(), doc.model.as_ref())
            && same(self.workload.as_ref(), doc.workload.as_ref())
            && same(self.labels.as_ref(), doc.labels.as_ref())
    }
}

impl<T> std::fmt::Debug for LastParts<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LastParts")
            .field("held", &self.last.is_some())
            .finish()
    }
}

impl<T> Default for LastParts<T> {
    fn default() -> Self {
        LastParts { last: None }
    }
}

impl<T: Clone> LastParts<T> {
    /// `compute` of `doc`'s configuration parts: what it gave the last result if `doc` holds
    /// the same parts, else computed now and kept.
    pub fn get_or(&mut self, doc: &ResultDoc, compute: impl FnOnce(&ResultDoc) -> T) -> T {
        if let Some((parts, value)) = &self.last
            && parts.held_by(doc)
        {
            return value.clone();
        }
        let value = compute(doc);
        self.last = Some((HeldParts::of(doc), value.clone()));
        value
    }
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

/// The results of `indices` (into `results`, in path order) grouped by equal fingerprint, as
/// `print` computes it (`None`: the result joins no group); each group keeps the order of
/// `indices`, and the groups come in the order of their first member. Only a 64-bit hash of each
/// fingerprint is held while grouping, not its text (a kilobyte or so, for every distinct set of
/// parts); results whose hashes are equal are told apart by their text, built again for them
/// alone, so two configurations are never merged by a collision.
pub fn group_equal(
    results: &[LoadedResult],
    indices: &[usize],
    print: impl Fn(&ResultDoc) -> Option<super::Fingerprint> + Sync,
) -> Vec<Vec<usize>> {
    group_equal_by(results, indices, print, super::Fingerprint::hash64)
}

/// [`group_equal`] with the hash as a parameter, so that a test can make every hash collide.
fn group_equal_by(
    results: &[LoadedResult],
    indices: &[usize],
    print: impl Fn(&ResultDoc) -> Option<super::Fingerprint> + Sync,
    hash: fn(&super::Fingerprint) -> u64,
) -> Vec<Vec<usize>> {
    let (digests, slot_of) = per_parts(results, indices, |doc| print(doc).map(|f| hash(&f)));
    // The first result of each slot stands for it.
    let mut first = vec![usize::MAX; digests.len()];
    for (&i, &slot) in indices.iter().zip(&slot_of) {
        if first[slot] == usize::MAX {
            first[slot] = i;
        }
    }
    let mut by_digest: HashMap<u64, Vec<usize>> = HashMap::new();
    for (slot, digest) in digests.iter().enumerate() {
        if let Some(d) = digest {
            by_digest.entry(*d).or_default().push(slot);
        }
    }
    // The slots of one fingerprint share a leader, the first of them. Slots with equal hashes
    // are usually one setup whose parts differ elsewhere (its workloads); their texts are
    // built one at a time and only the distinct ones kept.
    let mut leader_of: Vec<Option<usize>> = vec![None; digests.len()];
    for slots in by_digest.into_values() {
        if let [slot] = slots[..] {
            leader_of[slot] = Some(slot);
            continue;
        }
        let mut leaders: BTreeMap<Box<[u8]>, usize> = BTreeMap::new();
        for slot in slots {
            let text = print(&results[first[slot]].doc)
                .map(|f| f.identity_bytes().into())
                .unwrap_or_default();
            leader_of[slot] = Some(*leaders.entry(text).or_insert(slot));
        }
    }
    // Groups numbered as their first member comes, so no map's order shows.
    let mut number = vec![usize::MAX; digests.len()];
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for (&i, &slot) in indices.iter().zip(&slot_of) {
        let Some(leader) = leader_of[slot] else {
            continue;
        };
        if number[leader] == usize::MAX {
            number[leader] = groups.len();
            groups.push(Vec::new());
        }
        groups[number[leader]].push(i);
    }
    groups
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
            value: serde_json::Value::Null.into(),
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

    /// Groups by the whole fingerprint, text held: what [`group_equal`] must agree with.
    fn grouped_by_text(results: &[LoadedResult], indices: &[usize]) -> Vec<Vec<usize>> {
        let mut groups: Vec<(String, Vec<usize>)> = Vec::new();
        for &i in indices {
            let Some(text) = print_of(&results[i].doc).map(|f| f.canonical()) else {
                continue;
            };
            match groups.iter_mut().find(|(t, _)| *t == text) {
                Some((_, members)) => members.push(i),
                None => groups.push((text, vec![i])),
            }
        }
        groups.into_iter().map(|(_, members)| members).collect()
    }

    fn print_of(doc: &ResultDoc) -> Option<crate::fingerprint::Fingerprint> {
        // Results of model "skip" join no group, as S007 leaves speculation off.
        (doc.model.as_ref()?.name.as_deref() != Some("skip"))
            .then(|| crate::fingerprint::Fingerprint::of(doc))
    }

    #[test]
    fn grouping_by_hash_agrees_with_grouping_by_text_even_when_every_hash_collides() {
        let models = ["m", "n", "skip", "o"];
        let mut seed: u64 = 0x5eed_0007;
        for round in 0..60 {
            let shared = SharedParts::default();
            let n = 1 + round % 17;
            let mut results: Vec<LoadedResult> = (0..n)
                .map(|k| {
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    let model = models[usize::try_from(seed % 4).unwrap()];
                    result(&format!("r{k}"), model)
                })
                .collect();
            // Some rounds share equal parts by address, some leave every result its own.
            if round % 2 == 0 {
                for r in &mut results {
                    shared.share(&mut r.doc);
                }
            }
            let indices: Vec<usize> = (0..n).rev().collect();
            let expected = grouped_by_text(&results, &indices);
            assert_eq!(
                group_equal(&results, &indices, print_of),
                expected,
                "round {round}"
            );
            assert_eq!(
                group_equal_by(&results, &indices, print_of, |_| 7),
                expected,
                "round {round}, every hash equal"
            );
        }
    }
}
