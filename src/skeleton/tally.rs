//! What a skeleton is made from, tallied a result at a time: the checklist items any result
//! of the file lacks, in the rules' order, and for each what the results that record it record
//! and what those that lack it let benchlint work out. The results of a long file (a JSON
//! Lines file of many runs) are read back and dropped one by one; none is held for the
//! skeleton.

use serde_json::Value;

use super::derive::{Derivation, Recording};
use super::{COMPANIONS, has_value};
use crate::corpus::checklist::Gap;

/// The items the results of one file lack, and what the results added so far say of each.
#[derive(Debug)]
pub struct Tally {
    /// The items in the order the rules report them.
    pub(super) items: Vec<ItemTally>,
    /// Results added.
    pub(super) results: usize,
}

/// One checklist item absent from some results of the file.
#[derive(Debug)]
pub(super) struct ItemTally {
    pub(super) gap: Gap,
    /// What the results that record it record.
    pub(super) recorded: Recording,
    /// What the results that lack it let benchlint work out.
    pub(super) derived: Derivation,
    /// For each of [`COMPANIONS`] that goes with this item (`None` for the others): what the
    /// results that record the item record there, and whether every result lacking the item
    /// has it.
    pub(super) companions: Vec<Option<CompanionTally>>,
}

/// What the results say of a key that goes with an item.
#[derive(Debug)]
pub(super) struct CompanionTally {
    pub(super) recorded: Recording,
    pub(super) all_lacking_have_it: bool,
}

impl Tally {
    /// The items any of `gaps` (one list per result of the file, each in the order the rules
    /// report them) holds, each once, in that order: an item only some results lack goes
    /// right after the item its list puts before it.
    pub fn new<'a>(gaps: impl IntoIterator<Item = &'a [Gap]>) -> Self {
        let mut order: Vec<&'a Gap> = Vec::new();
        for list in gaps {
            let mut after: Option<usize> = None;
            for g in list {
                if let Some(at) = order.iter().position(|x| x.pointer == g.pointer) {
                    after = Some(at);
                } else {
                    let at = after.map_or(0, |p| p + 1);
                    order.insert(at, g);
                    after = Some(at);
                }
            }
        }
        let items = order
            .into_iter()
            .map(|g| ItemTally {
                gap: g.clone(),
                recorded: Recording::default(),
                derived: Derivation::default(),
                companions: COMPANIONS
                    .iter()
                    .map(|(of, _, _)| {
                        (*of == g.pointer).then(|| CompanionTally {
                            recorded: Recording::default(),
                            all_lacking_have_it: true,
                        })
                    })
                    .collect(),
            })
            .collect();
        Tally { items, results: 0 }
    }

    /// Adds one result of the file, in the file's order: its canonical JSON `value` and its
    /// gaps, one of the lists [`Tally::new`] was given.
    pub fn add(&mut self, value: &Value, gaps: &[Gap]) {
        self.results += 1;
        for item in &mut self.items {
            let pointer = item.gap.pointer.as_str();
            let lacking = gaps.iter().any(|g| g.pointer == pointer);
            if lacking {
                item.derived.add(value, pointer);
            } else {
                item.recorded.add(value.pointer(pointer));
            }
            for (k, with) in item.companions.iter_mut().enumerate() {
                let Some(with) = with else {
                    continue;
                };
                let companion = COMPANIONS[k].1;
                if lacking {
                    with.all_lacking_have_it &= has_value(value, companion);
                } else {
                    with.recorded.add(value.pointer(companion));
                }
            }
        }
    }
}
