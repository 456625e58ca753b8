//! The replication findings (S001, S002, S003, S005, S006) on the configurations a claim rests
//! on, at the levels it is taken at.

use std::collections::{BTreeMap, BTreeSet};

use crate::claims::analysis::ClaimAnalysis;
use crate::claims::compare::Runs;
use crate::rules::{Check, CorpusCtx, Emit, Emitter, find_rule};
use crate::thresholds::Thresholds;

/// Group rules whose findings on a claim's configurations matter to it.
const GROUP_CODES: [&str; 5] = ["S001", "S002", "S003", "S005", "S006"];

/// A replication finding on a configuration.
#[derive(Debug, Clone, PartialEq)]
pub struct GroupFinding {
    /// S001, S002, S003, S005 or S006.
    pub code: &'static str,
    /// Index of the configuration in [`Runs::configs`].
    pub config: usize,
    /// The level it is about, when it is about one.
    pub concurrency: Option<u64>,
    /// Its message.
    pub message: crate::text::Text,
    /// Measured before the rule was adopted.
    pub pre_rule: bool,
    /// The id of the result the finding is placed on.
    pub result: String,
}

/// The group findings of a corpus, with the findings of each configuration indexed: a claim
/// looks up those of its own configurations rather than walking every finding of the corpus.
pub struct GroupFindings {
    /// Every finding, in rule order then as each rule reports them.
    pub all: Vec<GroupFinding>,
    /// Indices into `all` of the findings on each configuration, in order.
    by_config: BTreeMap<usize, Vec<usize>>,
}

/// The findings of the replication rules that matter to claims, by configuration.
pub fn group_findings(runs: &Runs<'_>, thresholds: &Thresholds) -> GroupFindings {
    let order = crate::fingerprint::path_order(runs.results);
    // The configurations `runs` holds: grouped once (grouping finds the copies of the corpus).
    let ctx = CorpusCtx {
        results: runs.results,
        order: &order,
        claims: &[],
        thresholds,
        // The rules called here read configurations, never the corpus's counts.
        tally: &crate::rules::CorpusTally::new(thresholds),
        configurations: &runs.configs,
        claims_analysis: std::sync::OnceLock::new(),
        rule_runs: &|_| true,
    };
    let mut out = Vec::new();
    for code in GROUP_CODES {
        let Some(rule) = find_rule(code) else {
            continue;
        };
        let Check::Corpus(_, check) = rule.check else {
            continue;
        };
        // Each finding kept as it is made, its message held compactly: one per configuration
        // of a corpus of thousands, the rule's list of them never whole.
        let mut keep = |e: Emit| {
            let subject = e.subject.filter(|&i| i < runs.results.len())?;
            let config = runs.config_of[subject]?;
            let doc = &runs.results[subject].doc;
            let concurrency = e
                .pointer
                .strip_prefix("/levels/")
                .and_then(|rest| rest.split('/').next())
                .and_then(|i| i.parse::<usize>().ok())
                .and_then(|i| doc.levels.get(i))
                .and_then(|l| l.concurrency);
            let pre_rule = matches!((rule.meta.since, doc.measured_date()), (Some(since), Some(d)) if d < since);
            let mut message = e.message;
            message.compact();
            Some(GroupFinding {
                code: rule.meta.code,
                config,
                concurrency,
                message,
                pre_rule,
                result: doc.id.clone(),
            })
        };
        let mut emits = Vec::new();
        let mut drain = |emits: &mut Vec<Emit>| out.extend(emits.drain(..).filter_map(&mut keep));
        check(
            &ctx,
            &mut Emitter::draining(rule.meta, &mut emits, &mut drain),
        );
        out.extend(emits.into_iter().filter_map(&mut keep));
    }
    let mut by_config: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for (i, g) in out.iter().enumerate() {
        by_config.entry(g.config).or_default().push(i);
    }
    GroupFindings {
        all: out,
        by_config,
    }
}

/// The group findings on the configurations `a`'s sides rest on, at the levels they are taken at.
pub(super) fn relevant<'g>(
    runs: &Runs<'_>,
    a: &ClaimAnalysis,
    group: &'g GroupFindings,
) -> Vec<&'g GroupFinding> {
    let mut configs = BTreeSet::new();
    let mut levels = BTreeSet::new();
    let sides = [a.subject.as_ref(), a.baseline.as_ref()];
    let matched = a
        .restatement
        .as_ref()
        .map_or([None, None], |r| [r.subject.as_ref(), r.baseline.as_ref()]);
    for side in sides.into_iter().chain(matched).flatten() {
        for &i in &side.results {
            if let Some(c) = runs.config_of[i] {
                configs.insert(c);
                if let Some(l) = side.concurrency() {
                    levels.insert((c, l));
                }
            }
        }
    }
    // In the order of `group.all`, as a walk of every finding would give them.
    let mut at: Vec<usize> = configs
        .iter()
        .filter_map(|c| group.by_config.get(c))
        .flatten()
        .copied()
        .collect();
    at.sort_unstable();
    at.into_iter()
        .map(|i| &group.all[i])
        .filter(|g| {
            g.concurrency
                .is_none_or(|l| levels.contains(&(g.config, l)))
        })
        .collect()
}
