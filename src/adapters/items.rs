//! Documents that are arrays (a sweep's aggregate of a row per run, a list of runs, a list of
//! per-request records), recognised from their items seen one at a time. An adapter that reads
//! such documents says what it makes of one through a [`Tally`] of its items; its own
//! [`Adapter::read`] of the array is that tally over the items, and a reader that never holds
//! the items as one tree (`corpus::items`) asks every adapter's tally, item by item, and gets
//! what reading the array whole gives.
//!
//! The adapters without a tally never read a document that is an array (a test holds them to
//! it): for an array, the first adapter whose tally recognises it is the one [`super::read`]
//! finds.

use serde_json::{Map, Value};

#[cfg(doc)]
use super::Adapter;
use super::{ADAPTERS, Mapped, Mapping, Reading, Source};

/// How an adapter reads one item of an array as a result: the item at the pointer `base` of
/// `doc` (`/3` for the fourth), read under its base as a result of the whole document is.
pub type MapItem = fn(&Value, &Source<'_>, &str) -> Mapped;

/// What an adapter makes of a document that is an array.
pub enum ItemsVerdict {
    /// Not this adapter's format.
    NotMine,
    /// A companion of the results beside it ([`Reading::Companion`]).
    Companion,
    /// A result from each of `items` (indices into the array, ascending), each read by `map`.
    Results {
        /// The items read as results.
        items: Vec<usize>,
        /// How each is read.
        map: MapItem,
    },
}

/// An adapter's tally of the items of a document that is an array, seen in order.
pub trait Tally {
    /// Takes the next item into account.
    fn see(&mut self, item: &Value);
    /// What the adapter makes of the array of the items seen, read from `source`.
    fn verdict(&self, source: &Source<'_>) -> ItemsVerdict;
}

/// What `tally` makes of `items`, seen in order.
fn verdict_over(mut tally: Box<dyn Tally>, items: &[Value], source: &Source<'_>) -> ItemsVerdict {
    for item in items {
        tally.see(item);
    }
    tally.verdict(source)
}

/// [`Adapter::read`] of the array `doc` by the adapter whose tally is `tally`.
pub(super) fn read_array<'d, 's: 'd>(
    tally: Box<dyn Tally>,
    doc: &'d Value,
    source: &Source<'s>,
) -> Reading<'d> {
    let Some(items) = doc.as_array() else {
        return Reading::NotMine;
    };
    match verdict_over(tally, items, source) {
        ItemsVerdict::NotMine => Reading::NotMine,
        ItemsVerdict::Companion => Reading::Companion,
        ItemsVerdict::Results { items, map } => {
            let source = *source;
            Reading::Results(Mapping::each(items.len(), move |k| {
                map(doc, &source, &format!("/{}", items[k]))
            }))
        }
    }
}

/// Whether the adapter whose tally is `tally` reads the array `doc` as results, each from one
/// item alone ([`Adapter::lets_go`]).
pub(super) fn reads_results(tally: Box<dyn Tally>, doc: &Value, source: &Source<'_>) -> bool {
    doc.as_array().is_some_and(|items| {
        matches!(
            verdict_over(tally, items, source),
            ItemsVerdict::Results { .. }
        )
    })
}

/// [`Adapter::read_letting_go`] of the array `doc`: [`read_array`], each item a result was read
/// from left `null` once the result is made (an item's result reads nothing but the item).
pub(super) fn read_array_letting_go<'d, 's: 'd>(
    tally: Box<dyn Tally>,
    doc: &'d mut Value,
    source: &Source<'s>,
) -> Reading<'d> {
    let verdict = match doc.as_array() {
        Some(items) => verdict_over(tally, items, source),
        None => ItemsVerdict::NotMine,
    };
    match verdict {
        ItemsVerdict::NotMine => Reading::NotMine,
        ItemsVerdict::Companion => Reading::Companion,
        ItemsVerdict::Results { items, map } => {
            let source = *source;
            Reading::Results(Mapping::each(items.len(), move |k| {
                let mapped = map(doc, &source, &format!("/{}", items[k]));
                if let Some(item) = doc.get_mut(items[k]) {
                    *item = Value::Null;
                }
                mapped
            }))
        }
    }
}

/// Every adapter's tally of one document that is an array, in the adapters' order: what
/// [`super::read`] makes of the array, told from its items seen one at a time.
pub struct Census {
    tallies: Vec<(&'static str, Box<dyn Tally>)>,
}

impl Default for Census {
    fn default() -> Self {
        Census::new()
    }
}

impl Census {
    /// No item seen yet.
    pub fn new() -> Self {
        Census {
            tallies: ADAPTERS
                .iter()
                .filter_map(|a| a.items_tally().map(|t| (a.name(), t)))
                .collect(),
        }
    }

    /// Takes the next item into account.
    pub fn see(&mut self, item: &Value) {
        for (_, tally) in &mut self.tallies {
            tally.see(item);
        }
    }

    /// The adapter that reads the array of the items seen, and what it makes of it; `None`
    /// when no adapter reads it.
    pub fn verdict(&self, source: &Source<'_>) -> Option<(&'static str, ItemsVerdict)> {
        self.tallies
            .iter()
            .map(|(name, tally)| (*name, tally.verdict(source)))
            .find(|(_, v)| !matches!(v, ItemsVerdict::NotMine))
    }
}

/// The document an item read alone stands in: an object whose one key is the item's index,
/// so that the item's pointers (`/3/conc`) find it where they find it in the whole array, and
/// its result is read, and its places named, as reading the array whole reads and names them.
pub fn stand_in(index: usize, item: Value) -> Value {
    let mut one = Map::new();
    one.insert(index.to_string(), item);
    Value::Object(one)
}

#[cfg(test)]
#[path = "items_tests.rs"]
mod tests;
