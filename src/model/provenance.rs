//! Where each canonical value came from: the file itself, another file of the same run, a
//! sidecar, the engine's own log or launch command kept in the run folder, a derivation, or
//! nowhere.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::sync::Arc;

/// The origin of one canonical value.
#[derive(Debug, Clone, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Provenance {
    /// Written in the result file, at `pointer` inside its document.
    Recorded {
        /// JSON pointer inside the source document.
        pointer: String,
    },
    /// Supplied by a sidecar document.
    Sidecar {
        /// The sidecar file, as reached from the command line.
        path: String,
        /// JSON pointer inside the sidecar.
        pointer: String,
    },
    /// Recorded by the harness in another file of the same run (one level of a ladder the
    /// harness writes as one file per level, an experiment's metadata beside its results), at
    /// `pointer` inside that file's document.
    Beside {
        /// The file, as reached from the command line.
        path: String,
        /// JSON pointer inside its document.
        pointer: String,
    },
    /// Read from the engine's own log kept in the run folder (`server.log`): what the engine
    /// printed about itself as it started, verbatim.
    ServerLog {
        /// The log file, as reached from the command line.
        path: String,
        /// Byte offset of the line the value was read from.
        offset: usize,
    },
    /// Read from a file holding the serve command as it was launched (`vllm_command.txt`),
    /// verbatim.
    LaunchCommand {
        /// The command file, as reached from the command line.
        path: String,
    },
    /// Computed by benchlint from another recorded value (for example the serve command).
    Derived {
        /// What the value was derived from, in words.
        from: String,
        /// JSON pointer of the value it was derived from, inside the source document.
        pointer: String,
    },
}

/// Provenance of the canonical values of one result, keyed by canonical JSON pointer.
///
/// A pointer with no entry falls back to its nearest ancestor that has one; a canonical file
/// needs no entries at all because every value sits at its own pointer.
///
/// The entries are shared: every file a harness writes the same way maps the same pointers,
/// and a corpus of ten thousand such files keeps one map ([`ProvenanceMap::share_from`])
/// rather than ten thousand; a change to a shared map copies it first.
///
/// The rows of one document (an `InferenceX` aggregate, a `GuideLLM` report's benchmarks) map
/// the same pointers under a different source object each (`/0/...`, `/1/...`): once shared, a
/// map holds its pointers into the source document without the object's pointer, which it
/// keeps apart ([`ProvenanceMap::share_from`]), so that twenty thousand rows keep one map.
/// What it gives is always the whole pointer.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ProvenanceMap {
    entries: Arc<BTreeMap<String, Provenance>>,
    /// What every pointer into the source document the entries hold began with, taken out when
    /// the map was shared; `None` when nothing was. A thin pointer: every result keeps a map,
    /// and only the rows of a document have a pointer taken out.
    #[allow(
        clippy::box_collection,
        reason = "one word in every result kept, where a `Box<str>` takes two"
    )]
    base: Option<Box<String>>,
}

/// Distinct provenance maps kept so far, by content, for [`ProvenanceMap::share_from`].
pub type ProvenancePool =
    std::collections::HashSet<Arc<BTreeMap<String, Provenance>>, foldhash::fast::RandomState>;

impl ProvenanceMap {
    /// Records where the value at `canonical` came from.
    pub fn insert(&mut self, canonical: impl Into<String>, provenance: Provenance) {
        self.put_base_back();
        Arc::make_mut(&mut self.entries).insert(canonical.into(), provenance);
    }

    /// Takes the equal map `pool` already holds, or puts this one there for later results to
    /// share; first takes out the pointer of the object the result was read from, when every
    /// pointer into the source document begins with it.
    pub fn share_from(&mut self, pool: &mut ProvenancePool) {
        self.take_base_out();
        match pool.get(&self.entries) {
            Some(kept) => self.entries = Arc::clone(kept),
            None => {
                pool.insert(Arc::clone(&self.entries));
            }
        }
    }

    /// Whether `self` and `other` hold the very same entries (not a copy).
    #[cfg(test)]
    pub fn shares_with(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.entries, &other.entries)
    }

    /// The pointer of the object the result was read from (the `""` entry's), taken out of
    /// every pointer into the source document when each lies under it (and none that a
    /// derivation names then reads as a canonical pointer of the map, which a derivation may
    /// name instead: those stay whole).
    fn take_base_out(&mut self) {
        if self.base.is_some() {
            return;
        }
        let Some(Provenance::Recorded { pointer: base }) = self.entries.get("") else {
            return;
        };
        if base.is_empty() {
            return;
        }
        let below = |p: &str| {
            p.strip_prefix(base.as_str())
                .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'))
        };
        let all_below = self.entries.values().all(|p| match p {
            Provenance::Recorded { pointer } => below(pointer),
            // A derivation names a canonical pointer of the map (kept whole) or a pointer
            // into the source document, which must not read as one once cut.
            Provenance::Derived { pointer, .. } => {
                self.entries.contains_key(pointer)
                    || (below(pointer) && !self.entries.contains_key(&pointer[base.len()..]))
            }
            _ => true,
        });
        if !all_below {
            return;
        }
        let base = base.clone();
        let cut = |pointer: &str| pointer[base.len()..].to_string();
        let entries = self
            .entries
            .iter()
            .map(|(k, p)| {
                let p = match p {
                    Provenance::Recorded { pointer } => Provenance::Recorded {
                        pointer: cut(pointer),
                    },
                    Provenance::Derived { from, pointer }
                        if !self.entries.contains_key(pointer) =>
                    {
                        Provenance::Derived {
                            from: from.clone(),
                            pointer: cut(pointer),
                        }
                    }
                    other => other.clone(),
                };
                (k.clone(), p)
            })
            .collect();
        self.entries = Arc::new(entries);
        self.base = Some(Box::new(base));
    }

    /// Puts the pointer taken out back into every pointer it was taken from, before a change.
    fn put_base_back(&mut self) {
        if self.base.is_none() {
            return;
        }
        let entries = self
            .entries
            .iter()
            .map(|(k, p)| (k.clone(), self.whole(p).into_owned()))
            .collect();
        self.entries = Arc::new(entries);
        self.base = None;
    }

    /// `p` as it reads with the pointer taken out put back.
    fn whole<'a>(&self, p: &'a Provenance) -> Cow<'a, Provenance> {
        let Some(base) = self.base.as_deref() else {
            return Cow::Borrowed(p);
        };
        match p {
            Provenance::Recorded { pointer } => Cow::Owned(Provenance::Recorded {
                pointer: format!("{base}{pointer}"),
            }),
            Provenance::Derived { from, pointer } if !self.entries.contains_key(pointer) => {
                Cow::Owned(Provenance::Derived {
                    from: from.clone(),
                    pointer: format!("{base}{pointer}"),
                })
            }
            other => Cow::Borrowed(other),
        }
    }

    /// The entry for `canonical` or its nearest ancestor, with the part of the pointer below it.
    pub fn lookup<'a>(&'a self, canonical: &'a str) -> Option<(Cow<'a, Provenance>, &'a str)> {
        let mut prefix = canonical;
        loop {
            if let Some(p) = self.entries.get(prefix) {
                return Some((self.whole(p), &canonical[prefix.len()..]));
            }
            if prefix.is_empty() {
                return None;
            }
            prefix = match prefix.rfind('/') {
                Some(i) => &prefix[..i],
                None => "",
            };
        }
    }

    /// The exact entry for `canonical`, without falling back to an ancestor.
    pub fn get(&self, canonical: &str) -> Option<Cow<'_, Provenance>> {
        self.entries.get(canonical).map(|p| self.whole(p))
    }

    /// All entries in pointer order.
    pub fn iter(&self) -> impl Iterator<Item = (&String, Cow<'_, Provenance>)> {
        self.entries.iter().map(|(k, p)| (k, self.whole(p)))
    }

    /// Whether the value at `canonical` (exactly) came from a sidecar.
    pub fn is_sidecar(&self, canonical: &str) -> bool {
        self.lookup(canonical)
            .is_some_and(|(p, _)| matches!(*p, Provenance::Sidecar { .. }))
    }

    /// Whether the value at `canonical` (exactly) was derived.
    pub fn is_derived(&self, canonical: &str) -> bool {
        self.get(canonical)
            .is_some_and(|p| matches!(*p, Provenance::Derived { .. }))
    }

    /// Forgets the levels whose `keep` is false and renumbers the rest, so that
    /// `/levels/{i}/...` names the `i`-th level kept (a level dropped from a result keeps no
    /// entry that a later finding could land on). Entries below `/levels/` that name no level
    /// index, and levels past `keep`, are kept as they are.
    pub fn retain_levels(&mut self, keep: &[bool]) {
        self.put_base_back();
        let mut new_index = Vec::with_capacity(keep.len());
        let mut next = 0usize;
        for k in keep {
            new_index.push(k.then_some(next));
            next += usize::from(*k);
        }
        let entries = std::mem::take(Arc::make_mut(&mut self.entries));
        let kept = Arc::make_mut(&mut self.entries);
        for (key, p) in entries {
            let Some(rest) = key.strip_prefix("/levels/") else {
                kept.insert(key, p);
                continue;
            };
            let (index, tail) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
            match index.parse::<usize>().ok().and_then(|i| new_index.get(i)) {
                Some(Some(j)) => {
                    kept.insert(format!("/levels/{j}{tail}"), p);
                }
                Some(None) => {}
                None => {
                    kept.insert(key, p);
                }
            }
        }
    }
}

#[cfg(test)]
#[path = "provenance_tests.rs"]
mod tests;
