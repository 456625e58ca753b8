//! The corpus-wide rules: called on a corpus of results (the whole corpus held in memory, or
//! one part of it read back, [`super::put_away`]), their findings placed in the files of those
//! results and held until every file is written.

use std::collections::BTreeMap;

use super::Held;
use crate::corpus::{self, Options, emit_to_finding, translate, translate_keyed};
use crate::diagnostic::{Finding, Location, RuleMeta};
use crate::model::loaded::{LoadedClaims, LoadedResult};
use crate::rules::{self, Check, CorpusCtx, CorpusTally, Emit, Emitter, Reach, Rule};

/// Calls corpus-wide rules on one corpus after another, holding their findings; a rule that
/// panics on one is an internal error, its findings dropped, and it is called on no other.
pub(super) struct Runner<'r, 'o> {
    options: &'r Options,
    /// Where a finding on the corpus as a whole is placed.
    root: &'r str,
    held: &'r mut Held<'o>,
    failed: Vec<&'static RuleMeta>,
    internal: Vec<String>,
}

impl<'r, 'o> Runner<'r, 'o> {
    pub(super) fn new(options: &'r Options, root: &'r str, held: &'r mut Held<'o>) -> Self {
        Runner {
            options,
            root,
            held,
            failed: Vec::new(),
            internal: Vec::new(),
        }
    }

    /// The run's options.
    pub(super) fn options(&self) -> &'r Options {
        self.options
    }

    /// Holds `finding` with the others.
    pub(super) fn hold(&mut self, finding: Finding) {
        self.held.push(finding);
    }

    /// A failure of the run's own (a result put away that could not be read back): an
    /// internal error, so that the run exits 2 rather than pass on what it did not judge.
    pub(super) fn fail(&mut self, message: String) {
        self.internal.push(message);
    }

    /// Calls each of `rules` that is selected and has not failed on `ctx`, in order, each
    /// finding placed among `ctx.results`.
    pub(super) fn run(&mut self, rules: &[&'static Rule], ctx: &CorpusCtx<'_>) {
        for rule in rules {
            let Check::Corpus(_, check) = rule.check else {
                continue;
            };
            if !self.options.selection.runs(rule.meta.code)
                || self.failed.iter().any(|r| std::ptr::eq(*r, rule.meta))
            {
                continue;
            }
            let (results, root) = (ctx.results, self.root);
            let held = &mut *self.held;
            // A rule's findings are held as it makes them, a thousand at a time; those of a
            // rule that panics are dropped with it.
            let mut emits = Vec::new();
            let outcome = corpus::catch_panic(|| {
                #[cfg(test)]
                for r in results {
                    corpus::guard_injected(r.origin.path.raw(), rule.meta.code);
                }
                let mut drain = |emits: &mut Vec<Emit>| {
                    for e in emits.drain(..) {
                        if let Some(f) = placed(e, results, root) {
                            held.push(f);
                        }
                    }
                };
                check(
                    ctx,
                    &mut Emitter::draining(rule.meta, &mut emits, &mut drain),
                );
            });
            if let Err(message) = outcome {
                self.internal.push(corpus::internal_error(
                    &format!("rule {} ({})", rule.meta.code, rule.meta.name),
                    "the corpus",
                    &message,
                ));
                self.held.drop_rule(rule.meta);
                self.failed.push(rule.meta);
                continue;
            }
            for e in emits {
                if let Some(f) = placed(e, results, root) {
                    self.held.push(f);
                }
            }
        }
    }

    /// The internal errors of the rules that panicked, and of the run.
    pub(super) fn finish(self) -> Vec<String> {
        self.internal
    }
}

/// The corpus-wide rules that read `reach` of the corpus, in code order.
pub(super) fn reaching(reach: Reach) -> Vec<&'static Rule> {
    rules::RULES
        .iter()
        .filter(|r| matches!(r.check, Check::Corpus(of, _) if of == reach))
        .collect()
}

/// Every corpus-wide rule (and E006) on `results`, held in memory: the whole corpus.
pub(super) fn run_on_all(
    results: &[LoadedResult],
    claims: &[LoadedClaims],
    runner: &mut Runner<'_, '_>,
) {
    duplicate_ids(results, runner);
    let thresholds = &runner.options.thresholds;
    let order = crate::fingerprint::path_order(results);
    let configurations = crate::replication::configurations_in(results, &order);
    let tally = CorpusTally::of(results.iter().map(|r| &r.doc), thresholds);
    let selection = &runner.options.selection;
    let ctx = CorpusCtx {
        results,
        order: &order,
        claims,
        thresholds,
        tally: &tally,
        configurations: &configurations,
        claims_analysis: std::sync::OnceLock::new(),
        rule_runs: &|code| selection.runs(code),
    };
    let all: Vec<&'static Rule> = rules::RULES.iter().collect();
    runner.run(&all, &ctx);
}

/// E006: results of `results` that share an id. The first in path order is primary.
pub(super) fn duplicate_ids(results: &[LoadedResult], runner: &mut Runner<'_, '_>) {
    let mut by_id: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    for (i, r) in results.iter().enumerate() {
        by_id.entry(r.doc.id.as_str()).or_default().push(i);
    }
    for (id, mut idx) in by_id {
        if idx.len() < 2 {
            continue;
        }
        idx.sort_by(|&a, &b| {
            let (ra, rb) = (&results[a].origin, &results[b].origin);
            (&ra.path, ra.doc_start).cmp(&(&rb.path, rb.doc_start))
        });
        let locate = |i: usize| {
            let r = &results[i];
            translate(&r.origin, &r.provenance, "/id")
        };
        let mut f = corpus::finding_at(
            &rules::e006_duplicate_result_id::RULE,
            locate(idx[0]),
            format!("result id \"{id}\" is used by {} results", idx.len()),
            Some("give every result a unique, stable id; claims refer to results by id".into()),
        );
        f.label = Some("used again elsewhere".into());
        f.related = idx[1..].iter().map(|&i| locate(i)).collect();
        runner.hold(f);
    }
}

/// A corpus-wide rule's finding placed in its file, or on the corpus, and kept small: it is
/// held until every file is written.
fn placed(mut e: Emit, results: &[LoadedResult], root: &str) -> Option<Finding> {
    let related = std::mem::take(&mut e.related);
    let finding = if e.corpus {
        // A verdict on the corpus as a whole is placed on the corpus, no file of it.
        emit_to_finding(e, Location::new(root, ""), related, None)
    } else if let Some(primary) = e.location.take() {
        // A finding on a claim is placed in the claims file, as the rule located it.
        emit_to_finding(e, primary, related, None)
    } else {
        let subject = results.get(e.subject?)?;
        let pointer = std::mem::take(&mut e.pointer);
        let (primary, key) = translate_keyed(&subject.origin, &subject.provenance, pointer);
        let measured = subject.doc.measured_date();
        let mut finding = emit_to_finding(e, primary, related, measured);
        finding.key = key;
        finding
    };
    Some(finding.compacted())
}
