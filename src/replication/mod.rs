//! The runs of each configuration, as the replication rules (S) and `benchlint summary` see
//! them: which results replicate which (by [`Fingerprint`]), how many runs and engine launches
//! a configuration has, and the per-level series of a figure across its runs.
//!
//! Definitions (DESIGN.md "Concepts" and conventions, `research/stats.md` §8.0):
//!
//! * A **run** is one successful result (one ladder) of a configuration. Runs are counted at the
//!   configuration's best-replicated level: the largest number of runs that measured any one
//!   concurrency. For canonical files, where each result is a ladder, that is the number of
//!   results; for formats that write one level per document (vLLM `bench serve`), the levels of
//!   one sweep are not counted as runs of each other.
//! * A **launch** is one engine start, identified by `launch.id`. Every run that records no
//!   launch id is counted in one launch together (the unknown launch), and messages say so: two
//!   runs that cannot be shown to come from different launches are not counted as two.
//! * A level's **throughput** is its aggregate when any run of the configuration records one at
//!   that concurrency, else its decode throughput; the two are never mixed in one series.

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use crate::diagnostic::Location;
use crate::fingerprint::{Fingerprint, groups};
use crate::model::loaded::LoadedResult;
use crate::model::translate::translate;
use crate::model::{Level, LevelKey};
use crate::numbers::plural;

pub use crate::fingerprint::path_order;
pub use spooled::{Configurations, Order, SpooledCorpus};
pub use summary::{Ci95, ConfigSummary, LevelSummary, spooled_summaries, summaries};

mod spooled;
#[cfg(test)]
pub(crate) mod spooled_tests;
mod summary;

/// One configuration and its runs.
#[derive(Debug, Clone)]
pub struct Configuration {
    /// What defines it.
    pub fingerprint: Fingerprint,
    /// Indices of its runs in the corpus results, in path order.
    pub members: Vec<usize>,
    /// What its single run does not record of the identifying fields
    /// ([`crate::fingerprint::IDENTIFYING_FIELDS`]); empty for an identified configuration. An
    /// unidentified result is a configuration of its own, which the replication rules do not
    /// judge and `summary` gives no pooled interval.
    pub unidentified: Vec<&'static str>,
}

impl Configuration {
    /// Whether the configuration is identified, so that its runs are replicates of each other
    /// and the replication rules judge them.
    pub fn is_identified(&self) -> bool {
        self.unidentified.is_empty()
    }
}

/// Every configuration of the corpus with at least one successful run, in fingerprint order.
pub fn configurations(results: &[LoadedResult]) -> Vec<Configuration> {
    configurations_in(results, &path_order(results))
}

/// [`configurations`], with `order` the [`path_order`] of `results` already computed.
pub fn configurations_in(results: &[LoadedResult], order: &[usize]) -> Vec<Configuration> {
    groups(results, order)
        .into_iter()
        .map(|(fingerprint, members)| {
            let unidentified = if fingerprint.is_pooled() {
                Vec::new()
            } else {
                crate::fingerprint::unidentified(&results[members[0]].doc, true)
            };
            Configuration {
                fingerprint,
                members,
                unidentified,
            }
        })
        .collect()
}

/// The engine launches behind a set of runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Launches {
    /// Distinct launches, the unknown launch (runs without a launch id) counting as one.
    pub count: usize,
    /// The recorded launch ids, sorted.
    pub ids: Vec<String>,
    /// Runs that record no launch id.
    pub unrecorded: usize,
}

impl Launches {
    /// "3 launches", "1 launch".
    pub fn phrase(&self) -> String {
        plural(self.count, "launch", "launches")
    }

    /// A clause for messages when some runs record no launch id, else empty: " (no run records
    /// a launch id, so they count as one)", or "; 2 runs record no launch id and are counted as
    /// one launch" beside recorded ones.
    pub fn unrecorded_note(&self) -> String {
        match (self.ids.is_empty(), self.unrecorded) {
            (_, 0) => String::new(),
            (true, 1) => " (no launch id recorded)".to_string(),
            (true, _) => " (no run records a launch id, so they count as one)".to_string(),
            (false, 1) => {
                "; 1 run records no launch id and is counted as a launch of its own".to_string()
            }
            (false, n) => format!("; {n} runs record no launch id and are counted as one launch"),
        }
    }
}

/// The launch id of a run; `None` when not recorded (or blank).
pub fn launch_id(result: &LoadedResult) -> Option<&str> {
    launch_id_of(&result.doc)
}

/// [`launch_id`] of a result's document.
pub fn launch_id_of(doc: &crate::model::ResultDoc) -> Option<&str> {
    doc.launch
        .as_ref()
        .and_then(|l| l.id.as_deref())
        .filter(|id| !id.trim().is_empty())
}

/// The launches behind `members`.
pub fn launches(results: &[LoadedResult], members: &[usize]) -> Launches {
    let mut ids = BTreeSet::new();
    let mut unrecorded = 0;
    for &i in members {
        match launch_id(&results[i]) {
            Some(id) => {
                ids.insert(id.to_string());
            }
            None => unrecorded += 1,
        }
    }
    Launches {
        count: ids.len() + usize::from(unrecorded > 0),
        ids: ids.into_iter().collect(),
        unrecorded,
    }
}

/// The number of runs of a configuration: the most runs that measured any one concurrency, or
/// the number of results when none records a level.
pub fn runs(results: &[LoadedResult], members: &[usize]) -> usize {
    let mut per_level: BTreeMap<LevelKey, usize> = BTreeMap::new();
    for &i in members {
        let distinct: BTreeSet<LevelKey> = results[i].doc.levels.keys().collect();
        for c in distinct {
            *per_level.entry(c).or_default() += 1;
        }
    }
    per_level.values().copied().max().unwrap_or(members.len())
}

/// One run's value of a figure at one level.
#[derive(Debug, Clone, PartialEq)]
pub struct Point {
    /// Index of the run in the corpus results.
    pub result: usize,
    /// Index of the level in that run's `levels`.
    pub level: usize,
    /// The run's launch, shared with the run (`None`: no launch id recorded): a series holds a
    /// point per run and level, and a copy of each id would be most of it.
    pub launch: Option<Arc<crate::model::Launch>>,
    /// The value (finite).
    pub value: f64,
}

/// A figure at one level (streams or request rate) across the runs of a configuration.
#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    /// The level's load: streams in flight, or requests per second.
    pub key: LevelKey,
    /// The figure's key under the level (`throughput_tok_s/aggregate`).
    pub figure: &'static str,
    /// One point per run that measured it, in path order.
    pub points: Vec<Point>,
}

impl Series {
    /// The values, in path order.
    pub fn values(&self) -> Vec<f64> {
        self.points.iter().map(|p| p.value).collect()
    }

    /// The values grouped by launch (for [`crate::stats::launch_interval`]): recorded launches
    /// in id order, then the runs without a launch id as one launch.
    pub fn by_launch(&self) -> Vec<Vec<f64>> {
        let mut groups: BTreeMap<(bool, &str), Vec<f64>> = BTreeMap::new();
        for p in &self.points {
            let key = match p.launch.as_ref().and_then(|l| l.id.as_deref()) {
                Some(id) => (false, id),
                None => (true, ""),
            };
            groups.entry(key).or_default().push(p.value);
        }
        groups.into_values().collect()
    }

    /// The canonical pointer of point `k`'s value.
    pub fn pointer(&self, k: usize) -> String {
        format!("/levels/{}/{}", self.points[k].level, self.figure)
    }

    /// The short name of the figure: `aggregate`, `decode`.
    pub fn figure_name(&self) -> &'static str {
        self.figure.rsplit('/').next().unwrap_or(self.figure)
    }
}

/// A figure of a level, with its key under the level.
pub type Figure = (&'static str, fn(&Level) -> Option<f64>);

/// Aggregate throughput.
pub const AGGREGATE: Figure = ("throughput_tok_s/aggregate", |l| {
    l.throughput_tok_s.as_ref()?.aggregate
});
/// Decode throughput.
pub const DECODE: Figure = ("throughput_tok_s/decode", |l| {
    l.throughput_tok_s.as_ref()?.decode
});
/// Median per-user rate (else the mean, as [`crate::model::PerUser::central`]).
pub const PER_USER: Figure = ("per_user_tok_s/median", |l| {
    l.per_user_tok_s.as_ref()?.central()
});
/// Median time to first token.
pub const TTFT_P50: Figure = ("ttft_s/p50", |l| l.ttft_s.as_ref()?.p50);

/// The series of `figure` at every concurrency the runs measured, by concurrency. A run with
/// two levels at one concurrency contributes its first.
pub fn series(results: &[LoadedResult], members: &[usize], figure: Figure) -> Vec<Series> {
    series_by(results, members, |_| Some(figure))
}

/// Throughput at every level: the aggregate where any run records one, else decode.
pub fn throughput_series(results: &[LoadedResult], members: &[usize]) -> Vec<Series> {
    let with_aggregate: BTreeSet<LevelKey> = first_levels(results, members)
        .filter(|(_, _, level)| (AGGREGATE.1)(level).is_some_and(f64::is_finite))
        .map(|(_, _, level)| level.key())
        .collect();
    series_by(results, members, |key| {
        Some(if with_aggregate.contains(&key) {
            AGGREGATE
        } else {
            DECODE
        })
    })
}

/// Each member's levels, the first at each load key only: `(member, level index, level)`.
fn first_levels<'r>(
    results: &'r [LoadedResult],
    members: &'r [usize],
) -> impl Iterator<Item = (usize, usize, Cow<'r, Level>)> + 'r {
    members.iter().flat_map(move |&i| {
        let mut seen = BTreeSet::new();
        results[i]
            .doc
            .levels
            .iter()
            .enumerate()
            .filter(move |(_, level)| seen.insert(level.key()))
            .map(move |(li, level)| (i, li, level))
    })
}

/// The series at every load key, of the figure `figure_at` picks for that key. The points are
/// counted before they are gathered, so each series is allocated once at its size: with one
/// configuration over the whole corpus a series holds a point per run, and growing it by
/// doubling would hold up to twice that.
fn series_by(
    results: &[LoadedResult],
    members: &[usize],
    figure_at: impl Fn(LevelKey) -> Option<Figure>,
) -> Vec<Series> {
    let value_of = |level: &Level| {
        let (_, read) = figure_at(level.key())?;
        read(level).filter(|v| v.is_finite())
    };
    let mut counts: BTreeMap<LevelKey, usize> = BTreeMap::new();
    for (_, _, level) in first_levels(results, members) {
        if value_of(&level).is_some() {
            *counts.entry(level.key()).or_default() += 1;
        }
    }
    let mut by_level: BTreeMap<LevelKey, Vec<Point>> = counts
        .into_iter()
        .map(|(key, n)| (key, Vec::with_capacity(n)))
        .collect();
    for (i, li, level) in first_levels(results, members) {
        let Some(value) = value_of(&level) else {
            continue;
        };
        if let Some(points) = by_level.get_mut(&level.key()) {
            points.push(Point {
                result: i,
                level: li,
                launch: launch_id(&results[i])
                    .and(results[i].doc.launch.as_ref())
                    .map(Arc::clone),
                value,
            });
        }
    }
    by_level
        .into_iter()
        .filter_map(|(key, points)| {
            let (figure, _) = figure_at(key)?;
            Some(Series {
                key,
                figure,
                points,
            })
        })
        .collect()
}

/// The file location of canonical `pointer` of result `index`.
pub fn locate(results: &[LoadedResult], index: usize, pointer: &str) -> Location {
    let r = &results[index];
    translate(&r.origin, &r.provenance, pointer)
}

/// The run measured last (by the date of `measured_at`; the first in path order among equals).
/// A finding with an adoption date is placed on it, so that a configuration counts as measured
/// before a rule only when every one of its runs was.
pub fn latest_measured(results: &[LoadedResult], members: &[usize]) -> usize {
    let mut best = members[0];
    for &i in &members[1..] {
        if results[i].doc.measured_date() > results[best].doc.measured_date() {
            best = i;
        }
    }
    best
}
