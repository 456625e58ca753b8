//! The retractions report (`benchlint audit`): a verdict for every published claim, every
//! configuration's ladder with its intervals and its capacity at the per-user floor, and the
//! losing runs.
//!
//! # Verdict logic
//!
//! Each claim is analysed once ([`super::analyse`]; the C rules of `benchlint check` report the
//! same findings), then the first of these that applies decides:
//!
//! 1. **Not decidable → unresolved.** The claim cannot be read, names an unknown metric, is a
//!    ratio without a baseline, points at ids the corpus does not hold (C015), rests on a run
//!    that did not produce figures (failed, aborted, does-not-fit), names a level a run did not
//!    measure, a level with failed requests (R006) or zero throughput (R007), a metric the runs
//!    do not record (tokens per watt of a level whose power does not say wall or device, L005),
//!    or a ratio whose baseline is 0. The reason starts "not decidable: ..." and no value is
//!    made up.
//! 2. **Retracted: no matched basis.** The sides differ in what no re-cut of these runs can
//!    remove: precision or kernel (C001), speculation (C002), graph mode (C003), request shape
//!    (C007), or the power basis of a cost or tokens-per-watt claim (C006: a wall number against
//!    a device number), including a setting recorded on one side only (the ratio is
//!    unknowable). Also when the sides differ only in what a matched service
//!    level resolves (C004, C005, C012) but no restatement can be computed (a side has no level
//!    clearing the floor, or no per-user rate).
//! 3. **Unresolved: the runs disagree.** A configuration the claim rests on has two runs at the
//!    claim's level that disagree beyond noise (S006: "two runs, 258 and 317, not yet
//!    resolved").
//! 4. **Retracted: not reproducible.** The published value, interval or run count does not
//!    follow from the runs it names (C013): the value beyond the tolerance (2%, or the rounding
//!    of the published digits), an interval narrower than the launch-level interval, more runs
//!    than named.
//! 5. **Restated.** The published basis mixes peaks across sequence caps (C004), the same total
//!    streams over different device counts (C005) or different per-user rates (C012), and a
//!    matched basis exists: each side at its highest concurrency whose per-user rate clears the
//!    floor at every level up to it, replicas multiplying the engine throughputs. When that gives
//!    another value, the claim is restated to it, with basis "matched per-user floor of 20 tok/s
//!    (deployment)"; the A/B verdict of the restated comparison is part of the reasons (seed
//!    004's four pairs against the cluster: 2.2 restated to 1.05, "a tie inside the run-to-run
//!    variance").
//! 6. **The A/B verdict** of the comparison the claim rests on (as published, or matched when
//!    the restatement gave the published value), for a ratio that claims a difference (further
//!    from 1 than the static noise floor): a tie within the noise (C009, C011) → retracted, the
//!    claimed win is not there; a single launch on a side (C010) or an underpowered comparison
//!    (C011) → unresolved ("a single-instance A/B is only trusted when it finds no difference",
//!    seed 000).
//! 7. **Figures: too few or too noisy runs → unresolved.** A configuration the figure rests on
//!    has too few runs (S001 with speculation, S002), a single launch (S003) or a level above
//!    10% variation (S005). A ratio's replication is judged by its A/B verdict instead (rule 6);
//!    these codes are still listed.
//! 8. **Pre-rule.** The only findings behind the claim are pre-rule labels (S001 on runs measured
//!    before its adoption on 26 July 2026).
//! 9. **Upheld** otherwise.
//!
//! C008 (engine settings differ) and C014 (no quality gate) are warnings: listed in the codes
//! and the reasons, never the verdict.
//!
//! A claim's `codes` are its C findings (on the claim as published and on the matched basis)
//! and the S findings that matter to it on the configurations its runs belong to: S001, S002,
//! S003 for any level, S005 and S006 at the levels the claim is taken at.

mod decide;
mod groups;
mod outcome;

use std::sync::Arc;

use super::analysis::{claim_count, each_analysis};
use super::capacity::{capacity, ladder};
use super::compare::Runs;
use crate::audit::replication::Statuses;
use crate::audit::{AuditReport, ConfigLadder, Ladders, LosingRun};
use crate::model::Outcome;
use crate::model::loaded::Corpus;
use crate::model::loaded::LoadedResult;
use crate::replication::Configuration;
use crate::text::FileText;
use crate::thresholds::Thresholds;
use outcome::outcome;

pub use groups::{GroupFinding, GroupFindings, group_findings};

/// Configurations of at least this many runs have their ladder made once and held
/// ([`Ladders::made_keeping`]).
const KEEP_FROM_RUNS: usize = 64;

/// The audit of `corpus`: every claim's verdict, every configuration's ladder and capacity at
/// `floor_tok_s` tokens per second per user, and the losing runs. The ladders are made as the
/// report's writers ask for them ([`Ladders`]), from the configurations and the results.
pub fn audit<'a>(corpus: &'a Corpus, floor_tok_s: f64, thresholds: &Thresholds) -> AuditReport<'a> {
    let runs = Runs::new(&corpus.results);
    // The group rules' findings matter to claims only: an audit without claims (a finding a
    // configuration, thousands of them) does without. Each claim's analysis is dropped once
    // its outcome is made: held for every claim until the last, they were a few kilobytes a
    // claim beside the outcomes.
    let count = claim_count(&corpus.claims);
    let mut claims = Vec::with_capacity(count);
    if count > 0 {
        let group = group_findings(&runs, thresholds);
        each_analysis(&runs, &corpus.claims, thresholds, floor_tok_s, &mut |a| {
            claims.push(outcome(&runs, &a, &group, thresholds));
        });
    }
    let statuses = Statuses::new(&corpus.results, &runs.configs, thresholds);
    // Only the configurations are kept of the view: the rest (its id index, its controls) is
    // let go before the report is written.
    let configs = runs.configs.into_owned();
    // In report order, by label, then by short fingerprint: the index sorted, stably, so that
    // equal keys keep the order of the configurations.
    let shorts: Vec<String> = configs.iter().map(|c| c.fingerprint.short()).collect();
    let mut order: Vec<usize> = (0..configs.len()).collect();
    order.sort_by(|&a, &b| {
        let key = |i: usize| (configs[i].fingerprint.label(), &shorts[i]);
        key(a).cmp(&key(b))
    });
    // The short fingerprints are kept for the ladders: each is a hash of the whole
    // fingerprint, and a ladder is made each time a writer reaches it.
    let results = &corpus.results[..];
    // A ladder is made from every run of its configuration, and holds its levels: one of many
    // runs is made once and held, the others made each time a writer reaches them.
    let many_runs: Vec<bool> = order
        .iter()
        .map(|&ci| configs[ci].members.len() >= KEEP_FROM_RUNS)
        .collect();
    let len = order.len();
    let (configs, order) = (Arc::new(configs), Arc::new(order));
    let runs_of = {
        let (configs, order) = (Arc::clone(&configs), Arc::clone(&order));
        move |j: usize| run_ids(results, &configs[order[j]])
    };
    let ladders = Ladders::made_keeping(
        len,
        move |j| {
            let ci = order[j];
            let c = &configs[ci];
            let points = ladder(results, &c.members);
            let cap = capacity(&points, floor_tok_s, 1);
            ConfigLadder {
                label: c.fingerprint.label().into(),
                fingerprint: shorts[ci].clone(),
                results: run_ids(results, c),
                points,
                capacity: Some(cap),
                replication: Some(statuses.of(ci, c)),
            }
        },
        runs_of,
        |j| many_runs[j],
    );
    let losing_runs = crate::replication::path_order(&corpus.results)
        .into_iter()
        .map(|i| &corpus.results[i])
        .filter(|r| r.doc.outcome != Outcome::Ok)
        .map(|r| LosingRun {
            id: r.doc.id.clone().into(),
            outcome: r.doc.outcome.as_str().to_string(),
            path: r.origin.path.clone().into(),
            notes: r.doc.notes.clone().map(Into::into),
        })
        .collect();
    AuditReport {
        floor_tok_s,
        claims,
        ladders,
        losing_runs,
        corpus: None,
    }
}

/// The result ids of configuration `c`'s runs, in its order.
fn run_ids(results: &[LoadedResult], c: &Configuration) -> Vec<FileText> {
    c.members
        .iter()
        .map(|&i| results[i].doc.id.clone().into())
        .collect()
}
