//! The part of a corpus a comparison reads, gathered from results put away as they were read
//! ([`SpooledCorpus`]): `compare` holds this part, not the corpus.
//!
//! A comparison reads the two sides' configurations, the first result of each id their runs
//! carry (a side is resolved through its runs' ids), the runs copies are told from (S010: a
//! copy is left out of its configuration) and the same-vs-same controls on either side's
//! platform and model. The part taken is closed under three relations, so that every
//! configuration, id lookup, copy decision and control the comparison makes of it is the one
//! it would make of the whole corpus:
//! - a run taken brings its whole configuration (a configuration's order, members and
//!   launches are its own);
//! - a result taken brings every result of its copy key (whether it is a copy, and of what, is
//!   decided among them alone);
//! - a result of a side, or named on the command line, brings every result of its id (the
//!   first in path order is the one an id stands for, whatever its outcome).
//!
//! Controls are taken once the sides are known: every configuration whose first run is on a
//! side's platform and model and whose runs carry two or more launches (one launch, or none
//! recorded, can show no launch-to-launch spread). Taking more than needed changes nothing:
//! configurations keep their order among themselves, and a configuration that is no control
//! is never read as one. Ids, platforms and copy keys are matched by hash here and exactly by
//! the comparison.

use std::hash::{Hash, Hasher};

use crate::claims::{PlatformModel, platform_model};
use crate::corpus::SharedParts;
use crate::model::loaded::LoadedResult;
use crate::replication::{Configurations, SpooledCorpus, launch_id};

/// No configuration: a losing run, or a copy.
const NONE: u32 = u32::MAX;

/// The corpus being read: each result put away, with the hashes its part is found by.
#[derive(Debug)]
pub(super) struct Gathering {
    spooled: SpooledCorpus,
    facts: Vec<Facts>,
}

/// What is held of each result to find its part.
#[derive(Debug, Clone, Copy)]
struct Facts {
    id: u64,
    platform: Option<u64>,
    launch: u64,
}

impl Gathering {
    pub(super) fn new(spooled: SpooledCorpus) -> Self {
        Gathering {
            spooled,
            facts: Vec::new(),
        }
    }

    /// Puts `result` away.
    pub(super) fn keep(&mut self, result: &LoadedResult) {
        let before = self.spooled.len();
        self.spooled.keep(result);
        // A result that could not be put away has no number: the walk reports it.
        if self.spooled.len() > before {
            self.facts.push(Facts {
                id: hash_of(result.doc.id.as_str()),
                platform: platform_model(&result.doc).map(|k| platform_hash(&k)),
                launch: hash_of(launch_id(result)),
            });
        }
    }
}

/// A 64-bit hash, stable within the run.
fn hash_of(value: impl Hash) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    value.hash(&mut h);
    h.finish()
}

/// The hash a platform and model is matched by.
pub(super) fn platform_hash(k: &PlatformModel) -> u64 {
    hash_of(k)
}

/// Results by a hash of something they share, sorted: those of one hash are a run of entries.
#[derive(Debug, Default)]
struct ByHash {
    entries: Vec<(u64, u32)>,
    /// Whether the results of the run starting at each entry were taken.
    done: Vec<bool>,
}

impl ByHash {
    fn new(mut entries: Vec<(u64, u32)>) -> Self {
        entries.sort_unstable();
        let done = vec![false; entries.len()];
        ByHash { entries, done }
    }

    /// The results of `hash`, the first time it is asked for; none after.
    fn take(&mut self, hash: u64) -> &[(u64, u32)] {
        let start = self.entries.partition_point(|&(h, _)| h < hash);
        if self.entries.get(start).is_none_or(|&(h, _)| h != hash) || self.done[start] {
            return &[];
        }
        self.done[start] = true;
        let len = self.entries[start..].partition_point(|&(h, _)| h == hash);
        &self.entries[start..start + len]
    }
}

/// The corpus walked once: every configuration's runs, and what finds each result's part.
pub(super) struct Neighbourhood {
    walk: Configurations,
    facts: Vec<Facts>,
    copy: Vec<Option<u64>>,
    /// The configuration of each result (`NONE` for none).
    config_of: Vec<u32>,
    /// Each configuration's runs, in path order: `members[starts[c]..starts[c + 1]]`.
    members: Vec<u32>,
    starts: Vec<usize>,
    /// Each configuration's [`crate::fingerprint::Fingerprint::hash64`].
    prints: Vec<u64>,
    config_done: Vec<bool>,
    by_id: ByHash,
    by_copy: ByHash,
    taken: Vec<bool>,
    /// The numbers of the results of the part last given out, in its order.
    given: Vec<usize>,
    /// One copy of each configuration part of the results read back, as the load keeps them:
    /// the runs of one configuration share theirs.
    parts: SharedParts,
}

impl Neighbourhood {
    /// Walks the configurations of the results `gathering` put away.
    pub(super) fn walk(gathering: Gathering) -> Result<Self, String> {
        let Gathering { spooled, facts } = gathering;
        let copy = spooled.copy_keys();
        let n = facts.len();
        let mut walk = spooled.configurations();
        let mut config_of = vec![NONE; n];
        let (mut members, mut starts, mut prints) = (Vec::new(), vec![0], Vec::new());
        for group in walk.by_ref() {
            let (fingerprint, numbers) = group?;
            let c = u32::try_from(prints.len()).map_err(|_| "too many configurations")?;
            for number in numbers {
                let r = u32::try_from(number).map_err(|_| "too many results")?;
                if let Some(slot) = config_of.get_mut(number) {
                    *slot = c;
                }
                members.push(r);
            }
            starts.push(members.len());
            prints.push(fingerprint.hash64());
        }
        let numbered = |key: &dyn Fn(usize) -> Option<u64>| -> Vec<(u64, u32)> {
            (0..n)
                .filter_map(|i| Some((key(i)?, u32::try_from(i).ok()?)))
                .collect()
        };
        let by_id = ByHash::new(numbered(&|i| Some(facts[i].id)));
        let by_copy = ByHash::new(numbered(&|i| copy.get(i).copied().flatten()));
        Ok(Neighbourhood {
            walk,
            config_done: vec![false; prints.len()],
            facts,
            copy,
            config_of,
            members,
            starts,
            prints,
            by_id,
            by_copy,
            taken: vec![false; n],
            given: Vec::new(),
            parts: SharedParts::default(),
        })
    }

    /// The part the sides named `args` are found in: every result of either id and every
    /// configuration whose fingerprint could be meant (a prefix of at least 4 hex digits), and
    /// with them every result of the ids their runs carry.
    pub(super) fn sides(&mut self, args: [&str; 2]) -> Result<Vec<LoadedResult>, String> {
        let mut queue = Vec::new();
        for arg in args {
            for &(_, r) in self.by_id.take(hash_of(arg)) {
                mark(&mut self.taken, &mut queue, r);
            }
            if let Some(prefix) = super::FingerprintPrefix::of(arg) {
                for (c, &print) in self.prints.iter().enumerate() {
                    if prefix.names(print) {
                        for &r in &self.members[self.starts[c]..self.starts[c + 1]] {
                            mark(&mut self.taken, &mut queue, r);
                        }
                    }
                }
            }
        }
        self.close(queue, true);
        self.read_taken(Vec::new())
    }

    /// `part` (what [`Neighbourhood::sides`] gave) with every configuration that could be a
    /// control on the platforms and models `platforms` (by [`platform_hash`]); `part` itself
    /// when there is none.
    pub(super) fn with_controls(
        &mut self,
        part: Vec<LoadedResult>,
        platforms: &[u64],
    ) -> Result<Vec<LoadedResult>, String> {
        let mut queue = Vec::new();
        for c in 0..self.prints.len() {
            let runs = &self.members[self.starts[c]..self.starts[c + 1]];
            let on = self.facts[runs[0] as usize]
                .platform
                .is_some_and(|p| platforms.contains(&p));
            let launches = runs
                .iter()
                .any(|&r| self.facts[r as usize].launch != self.facts[runs[0] as usize].launch);
            if on && launches && !self.config_done[c] {
                for &r in runs {
                    mark(&mut self.taken, &mut queue, r);
                }
            }
        }
        if queue.is_empty() {
            return Ok(part);
        }
        self.close(queue, false);
        self.read_taken(part)
    }

    /// Takes what the results in `queue` bring: their configurations, the results of their
    /// copy keys and, with `ids`, of their ids.
    fn close(&mut self, mut queue: Vec<u32>, ids: bool) {
        while let Some(r) = queue.pop() {
            let i = r as usize;
            if let Some(key) = self.copy[i] {
                for &(_, x) in self.by_copy.take(key) {
                    mark(&mut self.taken, &mut queue, x);
                }
            }
            if ids {
                for &(_, x) in self.by_id.take(self.facts[i].id) {
                    mark(&mut self.taken, &mut queue, x);
                }
            }
            let c = self.config_of[i];
            if c != NONE && !self.config_done[c as usize] {
                let c = c as usize;
                self.config_done[c] = true;
                for &x in &self.members[self.starts[c]..self.starts[c + 1]] {
                    mark(&mut self.taken, &mut queue, x);
                }
            }
        }
    }

    /// Every result taken, in the order they were read (their numbers): those of `part` (the
    /// part given out last) as they are, the rest read back.
    fn read_taken(&mut self, part: Vec<LoadedResult>) -> Result<Vec<LoadedResult>, String> {
        let mut held = std::mem::take(&mut self.given)
            .into_iter()
            .zip(part)
            .peekable();
        let mut given = Vec::new();
        let mut out = Vec::new();
        for number in (0..self.taken.len()).filter(|&i| self.taken[i]) {
            let result = if let Some((_, result)) = held.next_if(|(n, _)| *n == number) {
                result
            } else {
                let mut result = self.walk.read(number)?;
                self.parts
                    .share_result(&mut result.doc, &mut result.provenance);
                result
            };
            given.push(number);
            out.push(result);
        }
        self.given = given;
        Ok(out)
    }
}

/// Takes result `r`, to be closed over, unless it was taken.
fn mark(taken: &mut [bool], queue: &mut Vec<u32>, r: u32) {
    if let Some(t) = taken.get_mut(r as usize)
        && !*t
    {
        *t = true;
        queue.push(r);
    }
}
