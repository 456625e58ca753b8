//! The replication status of each configuration in the corpus report: its runs, launches and
//! full ladders, and what is missing before a figure from it could be published, in the terms
//! of the replication rules (seed 000: "n ≥ 5 runs, more than one restart per arm"; seed 004:
//! "at least three full ladders per configuration, and five for anything on a page").
//!
//! The counts follow the rules exactly ([`crate::replication::runs`], [`launches`]); the needs
//! are computed from the thresholds in force:
//!
//! - runs: `min_runs` (S002), or `min_runs_speculative` per workload with speculation on (S001,
//!   a pre-rule label for a configuration measured before its adoption);
//! - launches: at least two (S003); runs that record no launch id count as one launch, so more
//!   of them cannot help and the status says to record `launch.id`;
//! - full ladders: `min_ladders_published` for a published figure (S004 warns below
//!   `min_ladders`);
//! - levels whose throughput varies above `max_cv` (S005) and pairs of runs that disagree beyond
//!   noise (S006, "not yet resolved"), as those rules report them.
//!
//! An unidentified configuration (a result that does not record its model, engine, device,
//! precision or workload) is judged by none of these: its status says what is not recorded.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use crate::model::LevelKey;
use crate::model::loaded::LoadedResult;
use crate::numbers::plural;
use crate::replication::{Configuration, latest_measured, launches, runs};
use crate::rules::{Check, CorpusCtx, Emitter, find_rule};
use crate::text::Text;
use crate::thresholds::Thresholds;

/// Where a configuration stands, worst first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Standing {
    /// Identifying fields are not recorded: no replication judged.
    NotIdentified,
    /// Two runs disagree beyond noise (S006).
    Unresolved,
    /// More runs, launches or ladders are needed, or a level varies too much.
    NeedsMore,
    /// Short only of a rule adopted after the runs were measured: labelled, not failed.
    PreRule,
    /// Replicated as the rules ask.
    Replicated,
}

impl Standing {
    /// The kebab-case word used in every output.
    pub fn as_str(self) -> &'static str {
        match self {
            Standing::NotIdentified => "not-identified",
            Standing::Unresolved => "unresolved",
            Standing::NeedsMore => "needs-more",
            Standing::PreRule => "pre-rule",
            Standing::Replicated => "replicated",
        }
    }

    /// Words for people.
    pub fn words(self) -> &'static str {
        match self {
            Standing::NotIdentified => "not identified",
            Standing::Unresolved => "not yet resolved",
            Standing::NeedsMore => "needs more",
            Standing::PreRule => "pre-rule",
            Standing::Replicated => "replicated",
        }
    }
}

/// One thing missing before a figure could be published.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Need {
    /// The rules that ask for it.
    pub codes: Vec<&'static str>,
    /// What is needed, as a phrase after "needs" (benchlint's words, `launch.id` in backticks).
    pub what: Text,
    /// Asked by a rule adopted after the runs were measured (labelled, not failed).
    pub pre_rule: bool,
}

/// The replication status of one configuration.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Replication {
    /// Where it stands.
    pub standing: Standing,
    /// The identifying fields its result does not record (empty when identified).
    pub not_recorded: Vec<&'static str>,
    /// Runs, as the replication rules count them.
    pub runs: usize,
    /// Engine launches (runs without a launch id count as one).
    pub launches: usize,
    /// Runs that record no launch id.
    pub runs_without_launch_id: usize,
    /// Runs that measured a full ladder (at least `min_ladder_levels` levels).
    pub full_ladders: usize,
    /// What is missing before a figure could be published, in order.
    pub needs: Vec<Need>,
    /// The status in one sentence (benchlint's words, fields in backticks).
    pub summary: Text,
}

/// The replication status of each of `configs` is made by [`Statuses::of`], one at a time: the
/// levels S005 and S006 report are found once for all of them here.
pub struct Statuses<'a> {
    results: &'a [LoadedResult],
    thresholds: Thresholds,
    noisy: LevelFindings,
}

impl<'a> Statuses<'a> {
    /// What the statuses of `configs` (of `results`) are made from.
    pub fn new(
        results: &'a [LoadedResult],
        configs: &[Configuration],
        thresholds: &Thresholds,
    ) -> Self {
        Statuses {
            results,
            thresholds: thresholds.clone(),
            noisy: level_findings(results, configs, thresholds),
        }
    }

    /// The status of `c`, the `ci`-th of the configurations [`Statuses::new`] was given.
    pub fn of(&self, ci: usize, c: &Configuration) -> Replication {
        status(self.results, c, &self.thresholds, self.noisy.get(&ci))
    }
}

/// Levels reported by S005 (too variable) and S006 (unresolved), by configuration index.
type LevelFindings = BTreeMap<usize, BTreeMap<&'static str, BTreeSet<LevelKey>>>;

/// Runs S005 and S006 as `check` does and keeps, per configuration, the levels they report.
fn level_findings(
    results: &[LoadedResult],
    configs: &[Configuration],
    thresholds: &Thresholds,
) -> LevelFindings {
    let mut config_of = vec![None; results.len()];
    for (ci, c) in configs.iter().enumerate() {
        for &m in &c.members {
            config_of[m] = Some(ci);
        }
    }
    let order = crate::fingerprint::path_order(results);
    let ctx = CorpusCtx {
        results,
        order: &order,
        claims: &[],
        thresholds,
        // The rules called here read configurations, never the corpus's counts.
        tally: &crate::rules::CorpusTally::new(thresholds),
        configurations: configs,
        claims_analysis: std::sync::OnceLock::new(),
        rule_runs: &|_| true,
    };
    let mut out = LevelFindings::new();
    for code in ["S005", "S006"] {
        let Some(rule) = find_rule(code) else {
            continue;
        };
        let Check::Corpus(_, check) = rule.check else {
            continue;
        };
        // A rule that panics was reported by `check` as an internal error; its levels are not
        // shown here.
        let emits = crate::guard::catch_panic(|| {
            let mut emits = Vec::new();
            check(&ctx, &mut Emitter::new(rule.meta, &mut emits));
            emits
        })
        .unwrap_or_default();
        for e in emits {
            let Some(subject) = e.subject.filter(|&i| i < results.len()) else {
                continue;
            };
            let Some(ci) = config_of[subject] else {
                continue;
            };
            let level = e
                .pointer
                .strip_prefix("/levels/")
                .and_then(|rest| rest.split('/').next())
                .and_then(|i| i.parse::<usize>().ok())
                .and_then(|i| results[subject].doc.levels.get(i))
                .map(|l| l.key());
            if let Some(key) = level {
                out.entry(ci)
                    .or_default()
                    .entry(rule.meta.code)
                    .or_default()
                    .insert(key);
            }
        }
    }
    out
}

fn status(
    results: &[LoadedResult],
    c: &Configuration,
    t: &Thresholds,
    levels: Option<&BTreeMap<&'static str, BTreeSet<LevelKey>>>,
) -> Replication {
    let members = &c.members;
    let n = runs(results, members);
    let l = launches(results, members);
    let full_ladders = members
        .iter()
        .filter(|&&i| {
            let keys: BTreeSet<LevelKey> = results[i].doc.levels.keys().collect();
            keys.len() >= t.min_ladder_levels
        })
        .count();
    let mut out = Replication {
        standing: Standing::Replicated,
        not_recorded: c.unidentified.clone(),
        runs: n,
        launches: l.count,
        runs_without_launch_id: l.unrecorded,
        full_ladders,
        needs: Vec::new(),
        summary: Text::default(),
    };
    if !c.is_identified() {
        out.standing = Standing::NotIdentified;
        out.summary = Text::own(format!(
            "not identified: {} not recorded, so no replication judged (a sidecar can supply {})",
            c.unidentified.join(", "),
            if c.unidentified.len() == 1 {
                "it"
            } else {
                "them"
            }
        ));
        return out;
    }
    out.needs = needs(results, members, t, (n, &l, full_ladders), levels);
    out.standing = if out.needs.iter().any(|need| need.codes.contains(&"S006")) {
        Standing::Unresolved
    } else if out.needs.iter().any(|need| !need.pre_rule) {
        Standing::NeedsMore
    } else if out.needs.is_empty() {
        Standing::Replicated
    } else {
        Standing::PreRule
    };
    let counts = format!(
        "{} over {}, {}",
        plural(n, "run", "runs"),
        l.phrase(),
        plural(full_ladders, "full ladder", "full ladders")
    );
    out.summary = Text::own(if out.needs.is_empty() {
        format!("replicated: {counts}")
    } else {
        let needs: Vec<String> = out
            .needs
            .iter()
            .map(|need| {
                let label = if need.pre_rule { ", pre-rule" } else { "" };
                format!("{} ({}{label})", need.what.raw(), need.codes.join(", "))
            })
            .collect();
        format!("{counts}; needs {}", needs.join("; "))
    });
    out
}

/// What is missing before a figure could be published.
fn needs(
    results: &[LoadedResult],
    members: &[usize],
    t: &Thresholds,
    (n, launched, full_ladders): (usize, &crate::replication::Launches, usize),
    levels: Option<&BTreeMap<&'static str, BTreeSet<LevelKey>>>,
) -> Vec<Need> {
    let mut out = Vec::new();
    let speculative = results[members[0]].doc.speculation_on() == Some(true);
    let (need_runs, runs_code) = if speculative {
        (t.min_runs_speculative, "S001")
    } else {
        (t.min_runs, "S002")
    };
    // S001 is labelled, not failed, on a configuration whose last run predates it.
    let pre_rule = speculative
        && find_rule("S001")
            .and_then(|r| r.meta.since)
            .is_some_and(|since| {
                results[latest_measured(results, members)]
                    .doc
                    .measured_date()
                    .is_some_and(|d| d < since)
            });
    let more_runs = need_runs.saturating_sub(n);
    let more_launches = 2usize.saturating_sub(launched.count);
    let per_workload = if speculative { " on this workload" } else { "" };
    match (more_runs, more_launches) {
        (0, 0) => {}
        (runs_short, 0) => out.push(Need {
            codes: vec![runs_code],
            what: Text::own(format!("{}{per_workload}", more(runs_short, "run", "runs"))),
            pre_rule,
        }),
        (0, launches_short) => out.push(Need {
            codes: vec!["S003"],
            what: Text::own(format!(
                "runs from {}",
                more(launches_short, "launch", "launches")
            )),
            pre_rule: false,
        }),
        (runs_short, launches_short) => {
            // A configuration short only of a pre-rule count still needs its second launch.
            if pre_rule {
                out.push(Need {
                    codes: vec![runs_code],
                    what: Text::own(format!("{}{per_workload}", more(runs_short, "run", "runs"))),
                    pre_rule: true,
                });
                out.push(Need {
                    codes: vec!["S003"],
                    what: Text::own(format!(
                        "runs from {}",
                        more(launches_short, "launch", "launches")
                    )),
                    pre_rule: false,
                });
            } else {
                out.push(Need {
                    codes: vec![runs_code, "S003"],
                    what: Text::own(format!(
                        "{} over {}{per_workload}",
                        more(runs_short, "run", "runs"),
                        more(launches_short, "launch", "launches")
                    )),
                    pre_rule: false,
                });
            }
        }
    }
    if launched.ids.is_empty() {
        out.push(Need {
            codes: vec!["S003"],
            what: Text::own(
                "a `launch.id` in each run (runs without one count as a single launch)",
            ),
            pre_rule: false,
        });
    }
    let more_ladders = t.min_ladders_published.saturating_sub(full_ladders);
    if more_ladders > 0 {
        out.push(Need {
            codes: vec!["S004"],
            what: Text::own(format!(
                "{} of {} or more levels, {} in all for a published figure",
                more(more_ladders, "full ladder", "full ladders"),
                t.min_ladder_levels,
                t.min_ladders_published
            )),
            pre_rule: false,
        });
    }
    if let Some(levels) = levels {
        if let Some(keys) = levels.get("S005") {
            out.push(Need {
                codes: vec!["S005"],
                what: Text::own(format!(
                    "a steadier level at {} (throughput varies above {:.0}%)",
                    level_list(keys),
                    t.max_cv * 100.0
                )),
                pre_rule: false,
            });
        }
        if let Some(keys) = levels.get("S006") {
            out.push(Need {
                codes: vec!["S006"],
                what: Text::own(format!(
                    "another run at {}, where two runs disagree beyond noise",
                    level_list(keys)
                )),
                pre_rule: false,
            });
        }
    }
    out
}

/// `3 more runs`, `1 more launch`.
fn more(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 more {one}")
    } else {
        format!("{n} more {many}")
    }
}

/// `8 and 16 streams`, `2.5 req/s`.
fn level_list(keys: &BTreeSet<LevelKey>) -> String {
    let shown: Vec<String> = keys.iter().map(ToString::to_string).collect();
    match shown.as_slice() {
        [one] => one.clone(),
        [a, b] => format!("{a} and {b}"),
        [init @ .., last] => format!("{}, and {last}", init.join(", ")),
        [] => String::new(),
    }
}
