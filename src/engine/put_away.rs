//! The corpus-wide rules of a run that puts each result away on disk as it is read (`check`):
//! memory holds a few dozen bytes a result, not the results. Each rule is called on the part
//! of the corpus it reads ([`Reach`]), read back as a corpus of its own: each configuration's
//! runs, each speculative setup's runs, each set of copies, the results sharing an id (E006),
//! or none but the corpus's counts. A corpus with claims is read back whole for the C rules,
//! which compare any configuration with any other.
//!
//! The findings are those of the same rules called on every result held at once
//! ([`super::corpus_rules::run_on_all`]): a part holds every result a rule's finding on it can
//! depend on, in path order, and the held findings are sorted before they are written.
//! `put_away_tests.rs` holds the two to each other.

use std::sync::Arc;

use super::corpus_rules::{Runner, duplicate_ids, reaching, run_on_all};

use crate::corpus::SharedParts;
use crate::fingerprint::{Fingerprint, LastParts, fnv1a, unidentified};
use crate::model::loaded::{LoadedClaims, LoadedResult};
use crate::model::{Outcome, ProvenanceMap, ResultDoc};
use crate::replication::{Configuration, Order, SpooledCorpus};
use crate::rules::{CorpusCtx, CorpusTally, Reach, Rule};

/// The results of a run, put away as they come.
pub(super) struct PutAway {
    corpus: SpooledCorpus,
    /// Each result's provenance, by its number: shared maps (every file a harness writes the
    /// same way) are held once, however many results hold them.
    provenance: Vec<ProvenanceMap>,
    /// Each result's hashes of what groups it with others, by its number.
    keys: Vec<Keys>,
    tally: CorpusTally,
    /// The speculative setup of the last result's parts (replicates share theirs).
    last_setup: LastParts<Option<u64>>,
    /// The loader's pool of parts: let go of what no result in flight holds, now and then.
    shared: SharedParts,
    /// Results kept until the pool is looked over again: as many as it held last time, so
    /// that looking it over costs a constant a result.
    next_look: usize,
}

/// Results kept before the loader's pool of parts is first looked over.
const FIRST_LOOK: usize = 4_096;

/// What a result is grouped by outside its configuration, hashed: the results of a part are
/// those of equal hashes, and the rule called on them tells equal values from colliding ones.
struct Keys {
    /// Its id (E006).
    id: u64,
    /// Its speculative setup ([`Fingerprint::setup_of`]), for a successful, identified result
    /// with speculation on (S007).
    setup: Option<u64>,
}

impl PutAway {
    /// Nothing put away yet; the corpus's counts made against `options`' thresholds.
    pub(super) fn new(options: &crate::corpus::Options) -> Self {
        PutAway {
            corpus: SpooledCorpus::new(Order::LabelFingerprint),
            provenance: Vec::new(),
            keys: Vec::new(),
            tally: CorpusTally::new(&options.thresholds),
            last_setup: LastParts::default(),
            shared: options.shared.clone(),
            next_look: FIRST_LOOK,
        }
    }

    /// Results kept so far, put away or not.
    pub(super) fn len(&self) -> usize {
        self.tally.results
    }

    /// Puts `result` away. One that cannot be is counted, and the run fails when the rules
    /// would read it ([`PutAway::run`]).
    pub(super) fn keep(&mut self, result: LoadedResult) {
        self.tally.add(&result.doc);
        self.next_look -= 1;
        if self.next_look == 0 {
            // The result is put away below: only results in flight hold parts of the pool.
            self.next_look = self.shared.let_go_unheld().max(FIRST_LOOK);
        }
        let before = self.corpus.len();
        self.corpus.keep(&result);
        if self.corpus.len() == before {
            return;
        }
        let doc = &result.doc;
        let setup = if doc.outcome == Outcome::Ok {
            self.last_setup.get_or(doc, |doc| {
                (doc.speculation_on() == Some(true) && unidentified(doc, false).is_empty())
                    .then(|| Fingerprint::setup_of(doc).hash64())
            })
        } else {
            None
        };
        self.keys.push(Keys {
            id: fnv1a(doc.id.as_bytes()),
            setup,
        });
        self.provenance.push(result.provenance);
    }

    /// Calls every selected corpus-wide rule (and E006) on the parts it reads.
    pub(super) fn run(mut self, claims: &[LoadedClaims], runner: &mut Runner<'_, '_>) {
        if let Some(failure) = self.corpus.failure() {
            runner.fail(failure_of(failure));
            return;
        }
        let options = runner.options();
        let selection = &options.selection;
        let claim_rules = reaching(Reach::Claims);
        if !claims.is_empty() && claim_rules.iter().any(|r| selection.runs(r.meta.code)) {
            // A claim may name any result and compare any configuration with any other.
            match self.read_all() {
                Ok(results) => run_on_all(&results, claims, runner),
                Err(e) => runner.fail(failure_of(&e)),
            }
            return;
        }
        let order = self.corpus.path_order();
        if selection.runs(crate::rules::e006_duplicate_result_id::RULE.code) {
            for part in parts_by(&order, 2, |k| Some(self.keys[k].id)) {
                match self.read_setups(&part) {
                    Ok(results) => duplicate_ids(&results, runner),
                    Err(e) => return runner.fail(failure_of(&e)),
                }
            }
        }
        let copies = reaching(Reach::Copies);
        if any_runs(&copies, runner) {
            for part in self.corpus.copy_classes() {
                let results = self.read(&part);
                if let Err(e) = results.map(|r| call_on(&copies, &r, &[], &self.tally, runner)) {
                    return runner.fail(failure_of(&e));
                }
            }
            if let Some(failure) = self.corpus.failure() {
                return runner.fail(failure_of(failure));
            }
        }
        let setups = reaching(Reach::Setup);
        if any_runs(&setups, runner) {
            for part in parts_by(&order, 1, |k| self.keys[k].setup) {
                let results = self.read_setups(&part);
                if let Err(e) = results.map(|r| call_on(&setups, &r, &[], &self.tally, runner)) {
                    return runner.fail(failure_of(&e));
                }
            }
        }
        drop(order);
        let tallied = reaching(Reach::Tally);
        call_on(&tallied, &[], &[], &self.tally, runner);
        let per_configuration = reaching(Reach::Configuration);
        if any_runs(&per_configuration, runner) {
            self.by_configuration(&per_configuration, runner);
        }
    }

    /// Calls `rules` on each configuration's runs, read back without their artifacts, cost and
    /// notes ([`Reach::Configuration`]), as a corpus of one configuration.
    fn by_configuration(self, rules: &[&'static Rule], runner: &mut Runner<'_, '_>) {
        let tally = self.tally;
        let provenance = self.provenance;
        let mut walk = self.corpus.configurations();
        while let Some(next) = walk.next() {
            let outcome = next.and_then(|(fingerprint, numbers)| {
                let results = read_back(&numbers, |k| walk.read_run(k), &provenance)?;
                let unidentified = if fingerprint.is_pooled() {
                    Vec::new()
                } else {
                    unidentified(&results[0].doc, true)
                };
                let configuration = Configuration {
                    fingerprint,
                    members: (0..results.len()).collect(),
                    unidentified,
                };
                call_on(
                    rules,
                    &results,
                    std::slice::from_ref(&configuration),
                    &tally,
                    runner,
                );
                Ok(())
            });
            if let Err(e) = outcome {
                return runner.fail(failure_of(&e));
            }
        }
    }

    /// The results numbered `numbers`, read back in that order, their equal parts shared.
    fn read(&self, numbers: &[usize]) -> Result<Vec<LoadedResult>, String> {
        read_back(numbers, |k| self.corpus.read(k), &self.provenance)
    }

    /// The results numbered `numbers`, read back in that order without what they measured
    /// ([`SpooledCorpus::read_setup`]): what a result's id and its setup are read from.
    fn read_setups(&self, numbers: &[usize]) -> Result<Vec<LoadedResult>, String> {
        read_back(numbers, |k| self.corpus.read_setup(k), &self.provenance)
    }

    /// Every result, read back in path order.
    fn read_all(&self) -> Result<Vec<LoadedResult>, String> {
        self.read(&self.corpus.path_order())
    }
}

/// Calls `rules` on `results` (read back in path order) as a corpus of their own, whose
/// configurations are `configurations` (none for a rule that reads none), with the whole
/// corpus's counts.
fn call_on(
    rules: &[&'static Rule],
    results: &[LoadedResult],
    configurations: &[Configuration],
    tally: &CorpusTally,
    runner: &mut Runner<'_, '_>,
) {
    let options = runner.options();
    let order: Vec<usize> = (0..results.len()).collect();
    let ctx = CorpusCtx {
        results,
        order: &order,
        claims: &[],
        thresholds: &options.thresholds,
        tally,
        configurations,
        claims_analysis: std::sync::OnceLock::new(),
        rule_runs: &|code| options.selection.runs(code),
    };
    runner.run(rules, &ctx);
}

/// Result `k` read back, with its provenance, each configuration part that equals the one of
/// `before` (the result read back before it in the part) shared with it: a configuration's
/// runs repeat their parts, which each result read back holds a copy of. Parts are compared
/// as values, `0.0` and `-0.0` alike: the rules called on a part read of a configuration part
/// only what defines it (its fingerprint writes each number out, so runs of one configuration
/// hold the same), its strings, and the launch's id, never another number to print.
fn with_provenance(
    read: Result<LoadedResult, String>,
    provenance: &[ProvenanceMap],
    k: usize,
    before: Option<&LoadedResult>,
) -> Result<LoadedResult, String> {
    let mut result = read?;
    if let Some(before) = before {
        share_alike(&before.doc, &mut result.doc);
    }
    result.provenance = provenance
        .get(k)
        .cloned()
        .ok_or_else(|| format!("no provenance was kept for result {k}"))?;
    Ok(result)
}

/// Each configuration part of `doc` equal to `before`'s, replaced by `before`'s.
fn share_alike(before: &ResultDoc, doc: &mut ResultDoc) {
    fn alike<T: PartialEq + ?Sized>(before: Option<&Arc<T>>, mine: &mut Option<Arc<T>>) {
        if let (Some(b), Some(m)) = (before, mine.as_ref())
            && !Arc::ptr_eq(b, m)
            && **b == **m
        {
            *mine = Some(Arc::clone(b));
        }
    }
    alike(before.harness.as_ref(), &mut doc.harness);
    alike(before.platform.as_ref(), &mut doc.platform);
    alike(before.engine.as_ref(), &mut doc.engine);
    alike(before.model.as_ref(), &mut doc.model);
    alike(before.workload.as_ref(), &mut doc.workload);
    alike(before.labels.as_ref(), &mut doc.labels);
    alike(before.launch.as_ref(), &mut doc.launch);
}

/// Results `numbers` read back in that order by `read`, each with its provenance and the parts
/// it shares with the one before it.
fn read_back(
    numbers: &[usize],
    read: impl Fn(usize) -> Result<LoadedResult, String>,
    provenance: &[ProvenanceMap],
) -> Result<Vec<LoadedResult>, String> {
    let mut results: Vec<LoadedResult> = Vec::with_capacity(numbers.len());
    for &k in numbers {
        let result = with_provenance(read(k), provenance, k, results.last())?;
        results.push(result);
    }
    Ok(results)
}

/// Whether any of `rules` is selected.
fn any_runs(rules: &[&'static Rule], runner: &Runner<'_, '_>) -> bool {
    rules
        .iter()
        .any(|r| runner.options().selection.runs(r.meta.code))
}

/// The results of `order` (numbers in path order) that have a `key`, a part for each key held
/// by at least `least` of them, each part in path order; the parts in path order of their
/// first result.
fn parts_by(order: &[usize], least: usize, key: impl Fn(usize) -> Option<u64>) -> Vec<Vec<usize>> {
    let mut keyed: Vec<(u64, usize)> = order
        .iter()
        .enumerate()
        .filter_map(|(rank, &k)| key(k).map(|h| (h, rank)))
        .collect();
    keyed.sort_unstable();
    let mut parts: Vec<Vec<usize>> = keyed
        .chunk_by(|a, b| a.0 == b.0)
        .filter(|bucket| bucket.len() >= least)
        .map(|bucket| bucket.iter().map(|&(_, rank)| rank).collect())
        .collect();
    parts.sort_unstable_by_key(|part: &Vec<usize>| part[0]);
    parts
        .into_iter()
        .map(|part| part.into_iter().map(|rank| order[rank]).collect())
        .collect()
}

/// The internal error of a run whose results put away could not all be read back.
fn failure_of(message: &str) -> String {
    format!(
        "{message}; the corpus-wide rules (S, E006) did not judge the corpus (is the temporary folder full?)"
    )
}

#[cfg(test)]
#[path = "put_away_tests.rs"]
mod tests;
