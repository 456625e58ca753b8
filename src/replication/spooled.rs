//! The configurations of a corpus whose results were put away as they were read
//! ([`ResultSpool`]), walked one at a time in the order `summary` lists them (by label, then
//! fingerprint) or the one `capacity` does (by label, then short fingerprint), each with its
//! runs read back: the same configurations, with the same runs in the same order, as
//! [`super::configurations`] makes of the results held in memory.
//!
//! What is held meanwhile is a few dozen bytes a result (where it was read, and the key of what
//! its copies share) and a budget of sort keys; the rest is on disk. With every result a
//! configuration of its own, the fingerprints alone outweighed the results' summaries.
//!
//! How the walk matches the grouping in memory:
//! - each successful result's fingerprint ([`crate::fingerprint::of_result`]) is made as it is
//!   put away and written into a sort key with the result's place: label, (short form,)
//!   fingerprint, then path, position and number, each part written so that the keys' bytes
//!   order as the parts do ([`push_part`]); sorted ([`SortedRecords`]), equal fingerprints come
//!   together in the list's order, their runs in path order;
//! - copies of a run ([`crate::copies`]) are found first, from each result's copy key, sorted
//!   with its place in path order, and confirmed by reading the results of an equal key back;
//!   they are left out of every configuration, as in memory.

use crate::copies;
use crate::fingerprint::{Fingerprint, LastParts, of_result, unidentified};
use crate::io::{Sorted, SortedRecords};
use crate::model::Outcome;
use crate::model::loaded::LoadedResult;
use crate::model::loaded::spool::ResultSpool;
use crate::text::PathText;

/// Bytes of sort keys held before a run of them is put away.
const KEYS_BUDGET: usize = 1 << 20;

/// A corpus's results put away as they come ([`SpooledCorpus::keep`]).
#[derive(Debug)]
pub struct SpooledCorpus {
    spool: ResultSpool,
    places: Vec<Place>,
    keys: SortedRecords,
    order: Order,
    /// The copies of a run, once found ([`SpooledCorpus::copy_classes`]).
    classes: Option<Vec<Vec<usize>>>,
    /// The fingerprint of the last result's parts, if it is identified.
    last: LastParts<Option<Fingerprint>>,
    /// The first result that could not be put away: the walk reports it, never leaves it out.
    error: Option<String>,
}

/// The order configurations are walked in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Order {
    /// By label, then fingerprint (`summary`).
    LabelFingerprint,
    /// By label, then the short form of the fingerprint (`capacity`, the audit's sections).
    LabelShort,
    /// No configuration walked, only the results in path order
    /// ([`SpooledCorpus::in_path_order`], `cards`): no fingerprint is made.
    ResultsOnly,
}

/// What is held of each result: where it was read, and the key its copies share.
#[derive(Debug)]
struct Place {
    path: PathText,
    doc_start: usize,
    copy: Option<u64>,
}

impl SpooledCorpus {
    /// Results put away in the system's temporary folder, their configurations to be walked
    /// in `order`.
    pub fn new(order: Order) -> Self {
        SpooledCorpus::with_budget(ResultSpool::default(), KEYS_BUDGET, order)
    }

    /// Results put away in `spool`, `budget` bytes of sort keys held at a time.
    pub fn with_budget(spool: ResultSpool, budget: usize, order: Order) -> Self {
        SpooledCorpus {
            spool,
            places: Vec::new(),
            keys: SortedRecords::new(budget),
            order,
            classes: None,
            last: LastParts::default(),
            error: None,
        }
    }

    /// How many results were kept.
    pub fn len(&self) -> usize {
        self.places.len()
    }

    /// Whether none was.
    pub fn is_empty(&self) -> bool {
        self.places.is_empty()
    }

    /// Puts `result` away: a successful one joins its configuration's runs.
    pub fn keep(&mut self, result: &LoadedResult) {
        let number = match self.spool.put(result) {
            Ok(number) => number,
            Err(e) => {
                self.error.get_or_insert(e);
                return;
            }
        };
        if result.doc.outcome == Outcome::Ok && self.order != Order::ResultsOnly {
            // Replicates read one after another share their parts: fingerprinted once.
            let pooled = self.last.get_or(&result.doc, |doc| {
                unidentified(doc, true)
                    .is_empty()
                    .then(|| Fingerprint::of(doc))
            });
            let print = pooled.unwrap_or_else(|| of_result(result));
            let mut key = Vec::with_capacity(print.identity_bytes().len() + 160);
            push_part(&mut key, print.label().as_bytes());
            if self.order == Order::LabelShort {
                key.extend_from_slice(print.short().as_bytes());
            }
            push_part(&mut key, print.identity_bytes());
            key.push(u8::from(print.is_pooled()));
            push_part(&mut key, result.origin.path.raw().as_bytes());
            key.extend_from_slice(&(result.origin.doc_start as u64).to_be_bytes());
            key.extend_from_slice(&(number as u64).to_be_bytes());
            self.keys.push(key.into());
        }
        // Copies matter only to a walk of configurations: a key of every figure is not
        // hashed for results read back in path order alone.
        let copy = if self.order == Order::ResultsOnly {
            None
        } else {
            copies::copy_key(&result.doc)
        };
        self.places.push(Place {
            path: result.origin.path.clone(),
            doc_start: result.origin.doc_start,
            copy,
        });
    }

    /// Every configuration with at least one successful run, in the corpus's [`Order`]: its
    /// fingerprint and its runs' numbers in path order, each run read back when asked for
    /// ([`Configurations::read`]), so that a caller holds what it gathers of the runs, not the
    /// runs.
    pub fn configurations(mut self) -> Configurations {
        let copy = self.copies();
        Configurations {
            spool: self.spool,
            copy,
            sorted: self.keys.sorted(),
            short: self.order == Order::LabelShort,
            next: None,
            error: self.error,
            done: false,
        }
    }

    /// Each result's copy key ([`copies::copy_key`]) by its number: results of equal keys are
    /// the only ones that can be copies of each other (none for [`Order::ResultsOnly`]).
    pub fn copy_keys(&self) -> Vec<Option<u64>> {
        self.places.iter().map(|p| p.copy).collect()
    }

    /// The paths results were read from, each once, sorted.
    pub fn paths(&self) -> std::collections::BTreeSet<&str> {
        self.places.iter().map(|p| p.path.raw()).collect()
    }

    /// Every result (of any outcome) read back one at a time, in path order: by file, then
    /// position in the file, then the order they were read in. An error reading one back ends
    /// them.
    pub fn in_path_order(self) -> impl Iterator<Item = Result<LoadedResult, String>> {
        let order = self.path_order();
        let spool = self.spool;
        let mut error = self.error;
        let mut numbers = order.into_iter();
        let mut done = false;
        std::iter::from_fn(move || {
            if done {
                return None;
            }
            let item = match error.take() {
                Some(e) => Err(e),
                None => spool.get(numbers.next()?),
            };
            done = item.is_err();
            Some(item)
        })
    }

    /// Result `number` read back: its origin and document.
    pub fn read(&self, number: usize) -> Result<LoadedResult, String> {
        self.spool.get(number)
    }

    /// Result `number` read back without what it measured ([`ResultSpool::get_setup`]).
    pub fn read_setup(&self, number: usize) -> Result<LoadedResult, String> {
        self.spool.get_setup(number)
    }

    /// The first result that could not be put away, if one could not: what is walked then
    /// lacks it.
    pub fn failure(&self) -> Option<&str> {
        self.error.as_deref()
    }

    /// The results' numbers in path order: by file, then position in the file, then the order
    /// they were read in.
    pub fn path_order(&self) -> Vec<usize> {
        let places = &self.places;
        let mut order: Vec<usize> = (0..places.len()).collect();
        order.sort_by(|&a, &b| {
            (&places[a].path, places[a].doc_start, a).cmp(&(
                &places[b].path,
                places[b].doc_start,
                b,
            ))
        });
        order
    }

    /// Whether each result is a copy of a run counted before it in path order.
    fn copies(&mut self) -> Vec<bool> {
        let mut copy = vec![false; self.places.len()];
        for class in self.copy_classes() {
            for &i in &class[1..] {
                copy[i] = true;
            }
        }
        copy
    }

    /// Every run held more than once ([`copies::classes`]): the numbers of its results in
    /// path order, the first counted and the rest its copies; in path order of the first. A
    /// result that cannot be read back is left out, and the walk reports it. Found once, by
    /// reading back the results whose copy keys are equal, and kept for the walk.
    pub fn copy_classes(&mut self) -> Vec<Vec<usize>> {
        if let Some(classes) = &self.classes {
            return classes.clone();
        }
        let classes = self.find_copy_classes();
        self.classes = Some(classes.clone());
        classes
    }

    /// [`SpooledCorpus::copy_classes`], found.
    fn find_copy_classes(&mut self) -> Vec<Vec<usize>> {
        let n = self.places.len();
        let order = self.path_order();
        let places = &self.places;
        let mut rank = vec![0; n];
        for (r, &i) in order.iter().enumerate() {
            rank[i] = r;
        }
        let mut candidates: Vec<(u64, usize)> = places
            .iter()
            .zip(&rank)
            .filter_map(|(p, &r)| p.copy.map(|key| (key, r)))
            .collect();
        candidates.sort_unstable();
        let mut sets = Vec::new();
        let spool = &self.spool;
        let error = &mut self.error;
        for bucket in candidates.chunk_by(|a, b| a.0 == b.0) {
            if bucket.len() < 2 {
                continue;
            }
            let docs = bucket.iter().filter_map(|&(_, r)| {
                let i = order[r];
                match spool.get(i) {
                    Ok(result) => Some((i, Box::new(result.doc))),
                    Err(e) => {
                        error.get_or_insert(e);
                        None
                    }
                }
            });
            sets.extend(
                copies::classes(docs)
                    .into_iter()
                    .filter(|class| class.len() > 1),
            );
        }
        // In path order of the result counted, as the sets of results held are.
        sets.sort_by_key(|class| rank[class[0]]);
        sets
    }
}

/// Writes `bytes` so that the keys' bytes order as the parts do, part by part: each zero byte
/// as zero and 255, the end as two zeros. A part that ends first is then less than one that
/// goes on, whatever follows either, as a string that is a prefix of another is less.
fn push_part(key: &mut Vec<u8>, bytes: &[u8]) {
    for &b in bytes {
        key.push(b);
        if b == 0 {
            key.push(0xff);
        }
    }
    key.extend_from_slice(&[0, 0]);
}

/// Reads back a part written by [`push_part`] at the start of `key`: the part and what follows.
fn read_part(key: &[u8]) -> Option<(Vec<u8>, &[u8])> {
    let mut part = Vec::new();
    let mut at = 0;
    loop {
        match *key.get(at)? {
            0 => match *key.get(at + 1)? {
                0 => return Some((part, &key[at + 2..])),
                0xff => {
                    part.push(0);
                    at += 2;
                }
                _ => return None,
            },
            b => {
                part.push(b);
                at += 1;
            }
        }
    }
}

/// The short form's length in a key of [`Order::LabelShort`].
const SHORT: usize = 12;

/// A sort key read back: the configuration part (label, short form if `short`, fingerprint,
/// pooled) as written, and the result's number.
fn split_key(key: &[u8], short: bool) -> Option<(&[u8], usize)> {
    let (_, rest) = read_part(key)?;
    let rest = if short { rest.get(SHORT..)? } else { rest };
    let (_, rest) = read_part(rest)?;
    let config_len = key.len() - rest.len() + 1;
    let number = key.get(key.len().checked_sub(8)?..)?;
    let number = u64::from_be_bytes(number.try_into().ok()?);
    Some((key.get(..config_len)?, usize::try_from(number).ok()?))
}

/// The configuration part of a key made into its fingerprint.
fn fingerprint_of(config: &[u8], short: bool) -> Option<Fingerprint> {
    let (label, rest) = read_part(config)?;
    let rest = if short { rest.get(SHORT..)? } else { rest };
    let (identity, rest) = read_part(rest)?;
    let label = String::from_utf8(label).ok()?;
    Some(Fingerprint::from_parts(&identity, &label, rest == [1]))
}

/// A sort key read back: its configuration part and the run's number.
type KeyRead = (Box<[u8]>, usize);

/// The walk of [`SpooledCorpus::configurations`].
pub struct Configurations {
    spool: ResultSpool,
    copy: Vec<bool>,
    sorted: Sorted,
    /// Whether the keys hold the short form after the label ([`Order::LabelShort`]).
    short: bool,
    /// The first key of the next configuration, read past the end of the one before.
    next: Option<(Box<[u8]>, usize)>,
    error: Option<String>,
    done: bool,
}

impl Configurations {
    /// Run `number` of the corpus, read back: its origin and document.
    pub fn read(&self, number: usize) -> Result<LoadedResult, String> {
        self.spool.get(number)
    }

    /// Run `number` of the corpus, read back without its artifacts, cost and notes
    /// ([`ResultSpool::get_run`]).
    pub fn read_run(&self, number: usize) -> Result<LoadedResult, String> {
        self.spool.get_run(number)
    }

    /// The next key of a counted run (not a copy): its configuration part and number.
    fn next_key(&mut self) -> Option<Result<KeyRead, String>> {
        if let Some(next) = self.next.take() {
            return Some(Ok(next));
        }
        loop {
            let key = match self.sorted.next()? {
                Ok(key) => key,
                Err(e) => return Some(Err(format!("the runs' order could not be read back: {e}"))),
            };
            let Some((config, number)) = split_key(&key, self.short) else {
                return Some(Err("a run's sort key was read back changed".to_string()));
            };
            if !self.copy.get(number).copied().unwrap_or(false) {
                return Some(Ok((config.into(), number)));
            }
        }
    }

    /// The next configuration, or the error that ends the walk.
    fn walk_one(&mut self) -> Option<Result<(Fingerprint, Vec<usize>), String>> {
        if let Some(e) = self.error.take() {
            return Some(Err(e));
        }
        let (config, first) = match self.next_key()? {
            Ok(k) => k,
            Err(e) => return Some(Err(e)),
        };
        let mut numbers = vec![first];
        loop {
            match self.next_key() {
                None => break,
                Some(Err(e)) => return Some(Err(e)),
                Some(Ok((c, number))) if c == config => numbers.push(number),
                Some(Ok(other)) => {
                    self.next = Some(other);
                    break;
                }
            }
        }
        let Some(fingerprint) = fingerprint_of(&config, self.short) else {
            return Some(Err(
                "a configuration's sort key was read back changed".to_string()
            ));
        };
        Some(Ok((fingerprint, numbers)))
    }
}

impl Iterator for Configurations {
    /// A configuration's fingerprint and its runs' numbers, in path order.
    type Item = Result<(Fingerprint, Vec<usize>), String>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        let item = self.walk_one();
        // Nothing more is walked after an error: what follows a missing result would pass for
        // the whole corpus.
        self.done = matches!(item, None | Some(Err(_)));
        item
    }
}
