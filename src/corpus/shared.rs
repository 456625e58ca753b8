//! One copy of each configuration part the results of a corpus share: the harness, platform,
//! engine, model, workload, labels and launch of a kept result, and the basis of its cost, are
//! looked up by their canonical JSON and replaced by the copy already kept, when one is equal
//! byte for byte.
//!
//! Replicates share their configuration by definition, and a corpus is mostly replicates and
//! ladders of a few configurations, so these parts (about half of a kept result, most of its
//! strings) are held once per distinct value instead of once per result. Equality is on the
//! serialised form, not on `PartialEq`: `0.0` and `-0.0` compare equal as numbers but are
//! written differently, and a shared part must print exactly as the result's own would.

use foldhash::{HashMap, HashMapExt, HashSet};
use std::collections::hash_map::Entry;
use std::fmt;
use std::hash::BuildHasher;
use std::sync::{Arc, Mutex, PoisonError};

use serde::Serialize;

use crate::model::{
    Engine, Harness, Launch, Model, Platform, ProvenanceMap, ProvenancePool, ResultDoc, Workload,
};

/// The parts kept so far, shared by every worker of a load (cloning shares the pools).
#[derive(Clone, Default)]
pub struct SharedParts(Arc<Mutex<Pools>>);

#[derive(Default)]
struct Pools {
    harness: Pool<Harness>,
    platform: Pool<Platform>,
    engine: Pool<Engine>,
    model: Pool<Model>,
    workload: Pool<Workload>,
    labels: Pool<crate::model::SmallMap<String>>,
    launch: Pool<Launch>,
    /// Keyed by the text itself: a basis often quotes the result's own peak, so most are
    /// distinct, and a key apart from the text would hold each of those twice.
    cost_basis: HashSet<Arc<str>>,
    /// Where each value came from: the same map for every file a harness writes alike.
    provenance: ProvenancePool,
}

/// Distinct values of one part, keyed by their JSON.
/// The kept copies of one kind of part, found by a 64-bit hash of their serialised form: with
/// every result its own configuration, keeping each part's serialised form as its key held half
/// a kilobyte a result. A part whose hash is already taken is checked against the kept one by
/// writing that one out again; the rare different part with an equal hash is kept by its whole
/// form, so a collision never shares two parts that differ.
struct Pool<T> {
    by_hash: HashMap<u64, Arc<T>>,
    collided: HashMap<Box<[u8]>, Arc<T>>,
    /// Seeded per process, as the maps' own hashes are: file contents cannot choose collisions.
    state: foldhash::quality::RandomState,
    hash: fn(&foldhash::quality::RandomState, &[u8]) -> u64,
}

impl<T> Default for Pool<T> {
    fn default() -> Self {
        Pool {
            by_hash: HashMap::new(),
            collided: HashMap::new(),
            state: foldhash::quality::RandomState::default(),
            hash: |state, bytes| state.hash_one(bytes),
        }
    }
}

impl<T> Pool<T> {
    fn len(&self) -> usize {
        self.by_hash.len() + self.collided.len()
    }
}

impl fmt::Debug for SharedParts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let pools = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        f.debug_struct("SharedParts")
            .field("harness", &pools.harness.len())
            .field("platform", &pools.platform.len())
            .field("engine", &pools.engine.len())
            .field("model", &pools.model.len())
            .field("workload", &pools.workload.len())
            .field("labels", &pools.labels.len())
            .field("launch", &pools.launch.len())
            .field("cost_basis", &pools.cost_basis.len())
            .field("provenance", &pools.provenance.len())
            .finish()
    }
}

impl SharedParts {
    /// Replaces each configuration part of `doc` by the equal copy already kept, or keeps it as
    /// the copy later results will share.
    pub fn share(&self, doc: &mut ResultDoc) {
        self.share_result(doc, &mut ProvenanceMap::default());
    }

    /// [`SharedParts::share`] of `doc`, and of `provenance` (where each of its values came
    /// from), under one taking of the lock.
    pub fn share_result(&self, doc: &mut ResultDoc, provenance: &mut ProvenanceMap) {
        // Serialised outside the lock: the lock is held for the lookups only.
        let harness = key(doc.harness.as_deref());
        let platform = key(doc.platform.as_deref());
        let engine = key(doc.engine.as_deref());
        let model = key(doc.model.as_deref());
        let workload = key(doc.workload.as_deref());
        let labels = key(doc.labels.as_deref());
        let launch = key(doc.launch.as_deref());
        let basis = doc.cost.as_mut().and_then(|c| c.basis.as_mut());
        let mut pools = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        pools.harness.share(&mut doc.harness, harness);
        pools.platform.share(&mut doc.platform, platform);
        pools.engine.share(&mut doc.engine, engine);
        pools.model.share(&mut doc.model, model);
        pools.workload.share(&mut doc.workload, workload);
        pools.labels.share(&mut doc.labels, labels);
        pools.launch.share(&mut doc.launch, launch);
        if let Some(basis) = basis {
            match pools.cost_basis.get(&**basis) {
                Some(kept) => *basis = Arc::clone(kept),
                None => {
                    pools.cost_basis.insert(Arc::clone(basis));
                }
            }
        }
        provenance.share_from(&mut pools.provenance);
    }
}

impl SharedParts {
    /// Lets go of every kept part no result holds any longer, and returns how many are left:
    /// for a run that puts each result away once it is read (`check`), whose pool would
    /// otherwise hold every distinct part of the corpus (with every result its own
    /// configuration, a part or two of each) to the end of the run. A part still held by a
    /// result in flight stays, and the next result equal to it shares it.
    pub fn let_go_unheld(&self) -> usize {
        let mut pools = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        let p = &mut *pools;
        p.cost_basis.retain(|b| Arc::strong_count(b) > 1);
        p.provenance.retain(|m| Arc::strong_count(m) > 1);
        p.harness.let_go_unheld()
            + p.platform.let_go_unheld()
            + p.engine.let_go_unheld()
            + p.model.let_go_unheld()
            + p.workload.let_go_unheld()
            + p.labels.let_go_unheld()
            + p.launch.let_go_unheld()
            + p.cost_basis.len()
            + p.provenance.len()
    }
}

impl<T> Pool<T> {
    /// [`SharedParts::let_go_unheld`] of this kind of part: how many are left.
    fn let_go_unheld(&mut self) -> usize {
        self.by_hash.retain(|_, kept| Arc::strong_count(kept) > 1);
        self.collided.retain(|_, kept| Arc::strong_count(kept) > 1);
        self.len()
    }
}

fn key<T: Serialize>(part: Option<&T>) -> Option<Vec<u8>> {
    serde_json::to_vec(part?).ok()
}

impl<T: Serialize> Pool<T> {
    fn share(&mut self, part: &mut Option<Arc<T>>, key: Option<Vec<u8>>) {
        let (Some(mine), Some(key)) = (part.as_mut(), key) else {
            return;
        };
        match self.by_hash.entry((self.hash)(&self.state, &key)) {
            Entry::Vacant(slot) => {
                slot.insert(Arc::clone(mine));
            }
            Entry::Occupied(kept) if writes_as(&**kept.get(), &key) => {
                *mine = Arc::clone(kept.get());
            }
            Entry::Occupied(_) => match self.collided.get(key.as_slice()) {
                Some(kept) => *mine = Arc::clone(kept),
                None => {
                    self.collided
                        .insert(key.into_boxed_slice(), Arc::clone(mine));
                }
            },
        }
    }
}

/// Whether `part` serialises to exactly `bytes`, compared as it is written, never held.
fn writes_as<T: Serialize>(part: &T, bytes: &[u8]) -> bool {
    struct Against<'a> {
        rest: &'a [u8],
        same: bool,
    }
    impl std::io::Write for Against<'_> {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            match self.rest.strip_prefix(buf) {
                Some(rest) if self.same => self.rest = rest,
                _ => self.same = false,
            }
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut against = Against {
        rest: bytes,
        same: true,
    };
    serde_json::to_writer(&mut against, part).is_ok() && against.same && against.rest.is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(model: &str, temperature: f64) -> ResultDoc {
        let value = serde_json::json!({
            "schema": "benchlint/result/v1",
            "id": "r",
            "measured_at": "2026-01-01T00:00:00Z",
            "outcome": "ok",
            "model": {"name": model},
            "workload": {"temperature": temperature},
            "labels": {"deployment": "pool-1"},
            "launch": {"id": "pool-1-launch-1", "started_at": "2026-01-01T00:00:00Z"},
            "cost": {"hourly_usd": 1.5, "basis": "list price over 36 months"},
        });
        serde_json::from_value(value).unwrap()
    }

    #[test]
    fn equal_parts_are_kept_once_and_different_ones_apart() {
        let shared = SharedParts::default();
        let (mut a, mut b, mut c) = (doc("m", 0.0), doc("m", 0.0), doc("n", 0.0));
        for d in [&mut a, &mut b, &mut c] {
            shared.share(d);
        }
        let (ma, mb, mc) = (
            a.model.as_ref().unwrap(),
            b.model.as_ref().unwrap(),
            c.model.as_ref().unwrap(),
        );
        assert!(Arc::ptr_eq(ma, mb));
        assert!(!Arc::ptr_eq(ma, mc));
        assert_eq!(mc.name.as_deref(), Some("n"));
        assert!(Arc::ptr_eq(
            a.workload.as_ref().unwrap(),
            c.workload.as_ref().unwrap()
        ));
        assert!(Arc::ptr_eq(
            a.labels.as_ref().unwrap(),
            c.labels.as_ref().unwrap()
        ));
        assert!(Arc::ptr_eq(
            a.launch.as_ref().unwrap(),
            c.launch.as_ref().unwrap()
        ));
        assert_eq!(
            c.launch.as_ref().unwrap().id.as_deref(),
            Some("pool-1-launch-1")
        );
        let basis = |d: &ResultDoc| d.cost.as_ref().unwrap().basis.clone().unwrap();
        assert!(Arc::ptr_eq(&basis(&a), &basis(&c)));
        assert_eq!(&*basis(&c), "list price over 36 months");
    }

    #[test]
    fn values_equal_as_numbers_but_written_differently_are_not_shared() {
        let shared = SharedParts::default();
        let (mut a, mut b) = (doc("m", 0.0), doc("m", -0.0));
        shared.share(&mut a);
        shared.share(&mut b);
        let (wa, wb) = (a.workload.as_ref().unwrap(), b.workload.as_ref().unwrap());
        assert!(!Arc::ptr_eq(wa, wb));
        assert_eq!(
            serde_json::to_string(&**wb).unwrap(),
            r#"{"temperature":-0.0}"#
        );
    }

    #[test]
    fn parts_whose_hashes_collide_are_shared_only_when_they_write_alike() {
        // Every part hashes alike: each is told apart from the kept ones by what it writes.
        let mut pool: Pool<crate::model::Model> = Pool {
            hash: |_, _| 7,
            ..Pool::default()
        };
        // xorshift over a few names, so that equal parts come back in any order.
        let mut state = 0x9e37_79b9_7f4a_7c15_u64;
        let mut kept: Vec<Arc<crate::model::Model>> = Vec::new();
        for _ in 0..200 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let name = format!("model-{}", state % 5);
            let mut part = Some(Arc::new(crate::model::Model {
                name: Some(name.clone()),
                ..Default::default()
            }));
            let written = key(part.as_deref());
            pool.share(&mut part, written);
            let part = part.unwrap();
            assert_eq!(part.name.as_deref(), Some(name.as_str()));
            match kept.iter().find(|k| k.name == part.name) {
                Some(first) => assert!(Arc::ptr_eq(first, &part), "{name} kept twice"),
                None => kept.push(part),
            }
        }
        assert_eq!(kept.len(), 5);
        assert_eq!(pool.len(), 5);
    }
}
