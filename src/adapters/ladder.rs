//! Ladders a harness writes as one file per level in one folder (inference-perf's
//! `stage_N_lifecycle_metrics.json`, genai-bench's `*_num_concurrency_N_time_Ts.json`), read
//! as one result with one level per file.
//!
//! The folder is one ladder, so it is one result: the ladder rules (R012, R013, R014) see
//! every level together, and the replication rules count one run, not one per level. Of the
//! level files of a folder that this run reads, the first in ladder order (the *anchor*)
//! produces the result and the others are companions; a level's values keep pointing into the
//! file they came from ([`crate::model::Provenance::Beside`]), so a finding about level 3 lands
//! in level 3's file. Only files that are themselves being read join the ladder: checking one
//! level file gives a one-level result, checking the folder gives the whole ladder, whatever
//! order the files are read in. A document read without its folder (a file holding several
//! documents, or a document given on its own) is a result of its own.
//!
//! The plan of a folder (its level files in order, each already mapped) is made once, by
//! the first document of the folder that asks; the anchor takes the mapped levels out of it,
//! so they are not kept after the ladder is built.

use std::sync::Mutex;

use serde_json::Value;

use super::map::{Builder, NONE_COMPLETED};
use super::{Mapped, Source};
use crate::io::beside::{Folder, Place};
use crate::model::Provenance;

/// One level file of a folder.
struct Member {
    name: String,
    level: Mapped,
}

/// The level files of one ladder of a folder that this run reads, in ladder order.
struct Ladder {
    names: Vec<String>,
    levels: Mutex<Option<Vec<Member>>>,
}

/// The ladders of one folder (a folder may hold several: one per scenario), by group.
pub(crate) struct Plan {
    ladders: Vec<(String, Ladder)>,
}

/// One level of an anchor's ladder.
pub(crate) struct Level {
    /// The level file's name.
    pub name: String,
    /// Its path as reached from the command line; `None` for the anchor itself.
    pub beside: Option<String>,
    /// The level file as a one-level result.
    pub mapped: Mapped,
}

/// What a document of a folder ladder is.
pub(crate) enum Role {
    /// The first level file of the folder: it produces the ladder, these levels in order.
    Anchor(Vec<Level>),
    /// Another level file of the folder: its level is part of the anchor's result.
    Member,
    /// Not part of a folder ladder: the document is a result of its own.
    Alone,
}

/// How a format's level files are told apart and mapped.
pub(crate) struct LadderFormat {
    /// The cache key of the format's plan.
    pub key: &'static str,
    /// The ladder a document that is one of the format's level files (named `name`) belongs
    /// to, and its position there; `None` when it is not one. Files of one folder with equal
    /// groups form one ladder; positions sort its levels, equal positions keep name order.
    pub position: fn(name: &str, doc: &Value) -> Option<(String, f64)>,
    /// The document as a one-level result.
    pub map: fn(doc: &Value, source: &Source<'_>) -> Mapped,
}

impl LadderFormat {
    /// The role of the document `doc` read from `source`.
    pub(crate) fn role(&self, doc: &Value, source: &Source<'_>) -> Role {
        let Some(folder) = source.folder else {
            return Role::Alone;
        };
        if source.doc_count != 1 {
            return Role::Alone;
        }
        let me = folder.own_name();
        let Some((group, _)) = (self.position)(me, doc) else {
            return Role::Alone;
        };
        let Some(plan) = folder.cached(Place::Here, self.key, |f| self.plan(f)) else {
            return Role::Alone;
        };
        let Some((_, ladder)) = plan.ladders.iter().find(|(g, _)| *g == group) else {
            return Role::Alone;
        };
        match ladder.names.iter().position(|n| n == me) {
            Some(0) => {
                let taken = ladder
                    .levels
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner)
                    .take();
                let Some(members) = taken else {
                    return Role::Alone;
                };
                Role::Anchor(
                    members
                        .into_iter()
                        .map(|m| Level {
                            beside: (m.name != me).then(|| folder.display(Place::Here, &m.name)),
                            name: m.name,
                            mapped: m.level,
                        })
                        .collect(),
                )
            }
            Some(_) => Role::Member,
            None => Role::Alone,
        }
    }

    /// Reads and maps every level file of the folder that this run reads.
    fn plan(&self, folder: &Folder<'_>) -> Plan {
        let mut members: Vec<(String, f64, Member)> = Vec::new();
        for name in folder.names(Place::Here).iter() {
            if !folder.in_corpus(Place::Here, name) {
                continue;
            }
            let Some(doc) = folder.read_json(Place::Here, name) else {
                continue;
            };
            let Some((group, position)) = (self.position)(name, &doc) else {
                continue;
            };
            let display = folder.display(Place::Here, name);
            let source = Source {
                path: &display,
                file_name: name,
                doc_index: 0,
                doc_count: 1,
                folder: None,
                alone: false,
            };
            let level = (self.map)(&doc, &source);
            members.push((
                group,
                position,
                Member {
                    name: name.clone(),
                    level,
                },
            ));
        }
        // Names are already sorted; a stable sort keeps name order among equal positions.
        members.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.total_cmp(&b.1)));
        let mut ladders: Vec<(String, Vec<Member>)> = Vec::new();
        for (group, _, member) in members {
            match ladders.last_mut() {
                Some((g, list)) if *g == group => list.push(member),
                _ => ladders.push((group, vec![member])),
            }
        }
        Plan {
            ladders: ladders
                .into_iter()
                .map(|(group, list)| {
                    let names = list.iter().map(|m| m.name.clone()).collect();
                    (
                        group,
                        Ladder {
                            names,
                            levels: Mutex::new(Some(list)),
                        },
                    )
                })
                .collect(),
        }
    }
}

/// The result of an anchor: `doc` mapped on its own for what the whole run shares, with the
/// ladder's `levels` in place of its one level. The run is `failed` only when no level
/// completed a request and some failed (an outcome derived from the counts, as map.rs says):
/// losing levels do not make a ladder a losing run.
pub(crate) fn assemble(
    doc: &Value,
    source: &Source<'_>,
    levels: &[Level],
    map: fn(&Value, &Source<'_>) -> Mapped,
) -> Mapped {
    let mut b = Builder::new(doc, source, "");
    for (i, level) in levels.iter().enumerate() {
        b.adopt_level(i, &level.mapped, level.beside.as_deref());
    }
    let ladder = b.finish();
    let mut own = map(doc, source);
    own.value["levels"] = ladder.value["levels"].clone();
    let mut provenance = ladder.provenance;
    for (k, p) in own.provenance.iter() {
        if !(k == "/levels" || k.starts_with("/levels/")) {
            provenance.insert(k.clone(), p.into_owned());
        }
    }
    own.provenance = provenance;
    let outcome = outcome_of(&own.value);
    own.value["outcome"] = outcome.into();
    own.provenance.insert(
        "/outcome",
        if outcome == "failed" {
            Provenance::Derived {
                from: NONE_COMPLETED.to_string(),
                pointer: "/levels".to_string(),
            }
        } else {
            Provenance::Recorded {
                pointer: String::new(),
            }
        },
    );
    own
}

/// `failed` when no level completed a request and some failed, else `ok`.
fn outcome_of(result: &Value) -> &'static str {
    let levels = result["levels"].as_array().map_or(&[][..], Vec::as_slice);
    let count = |l: &Value, k: &str| l.get(k).and_then(Value::as_u64).unwrap_or(0);
    let served = levels.iter().any(|l| count(l, "requests") > 0);
    let failed = levels.iter().any(|l| count(l, "failed") > 0);
    if !served && failed { "failed" } else { "ok" }
}
