//! Ladders with intervals and the service-level capacity of `research/stats.md` §8.3: the
//! highest concurrency whose per-user rate clears a floor at every level up to it (seed 004:
//! "define the service level first, then ask how much work each configuration does while
//! meeting it").
//!
//! A level **passes** when the lower end of its per-user interval is at or above the floor,
//! **fails** when the upper end is below it, and is **marginal** otherwise. The interval is
//! the launch-level 95% interval ([`crate::stats::launch_interval`]); a level measured once has
//! the value itself as both ends. A level without a per-user rate cannot be shown to pass and
//! ends the search.

use std::collections::BTreeMap;

use crate::audit::{Capacity, Estimate, LadderPoint};
use crate::cards;
use crate::model::loaded::LoadedResult;
use crate::model::{LevelKey, ResultDoc};
use crate::replication::launch_id_of;
use crate::stats::{launch_interval, mean};

/// How one level stands against the floor.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LevelClass {
    /// The whole interval is at or above the floor.
    Pass,
    /// The whole interval is below the floor.
    Fail,
    /// The interval straddles the floor.
    Marginal,
    /// No per-user rate recorded.
    Unknown,
}

/// The estimate of values grouped by launch: the launch-level interval, or the value itself
/// (equal bounds) when there is a single run. `None` when there is no value.
pub fn estimate(by_launch: &[Vec<f64>]) -> Option<Estimate> {
    if let Some(iv) = launch_interval(by_launch) {
        return Some(Estimate {
            value: iv.estimate,
            low: iv.low,
            high: iv.high,
        });
    }
    let all: Vec<f64> = by_launch.iter().flatten().copied().collect();
    let v = mean(&all)?;
    Some(Estimate {
        value: v,
        low: v,
        high: v,
    })
}

/// Classifies a per-user estimate against `floor`.
pub fn classify(per_user: Option<&Estimate>, floor: f64) -> LevelClass {
    match per_user {
        None => LevelClass::Unknown,
        Some(e) if e.low >= floor => LevelClass::Pass,
        Some(e) if e.high < floor => LevelClass::Fail,
        Some(_) => LevelClass::Marginal,
    }
}

/// The ladder of the runs `members`: per concurrency, the aggregate and per-user estimates, the
/// runs and the launches behind them. A run with two levels at one concurrency contributes its
/// first.
pub fn ladder(results: &[LoadedResult], members: &[usize]) -> Vec<LadderPoint> {
    let mut gathered = LadderGather::default();
    for &i in members {
        gathered.add(&results[i].doc);
    }
    gathered.ladder()
}

/// What a ladder reads of a configuration's runs, gathered a run at a time ([`ladder`]), so
/// that a caller reading the runs back one by one holds their figures, not the runs.
///
/// A run's launch is held as a number, four bytes beside each value rather than a borrowed id
/// (one configuration over twenty thousand launches held about six hundred bytes a run with
/// the id), numbered as the launches come; the ladder groups values by the launches' order as
/// [`super::side::group_by_launch`] gives them (recorded ids sorted, the unrecorded last).
#[derive(Debug, Default)]
pub struct LadderGather {
    /// Each launch once, with its number: `(unrecorded, id)`.
    launches: BTreeMap<(bool, String), u32>,
    /// Per level: the aggregates and per-user rates with their runs' launches, the runs, and
    /// the launches of the runs.
    by_level: BTreeMap<LevelKey, GatheredLevel>,
}

/// The values gathered at one level.
type GatheredLevel = (Vec<(u32, f64)>, Vec<(u32, f64)>, usize, Vec<u32>);

impl LadderGather {
    /// Gathers one run (the next in path order).
    pub fn add(&mut self, doc: &ResultDoc) {
        let key = launch_id_of(doc).map_or((true, String::new()), |id| (false, id.to_string()));
        let next = u32::try_from(self.launches.len()).unwrap_or(u32::MAX);
        let launch = *self.launches.entry(key).or_insert(next);
        let mut seen = std::collections::BTreeSet::new();
        for level in &doc.levels {
            let key = level.key();
            if !seen.insert(key) {
                continue;
            }
            let row = self.by_level.entry(key).or_default();
            row.2 += 1;
            row.3.push(launch);
            if let Some(a) = cards::aggregate(&level) {
                row.0.push((launch, a));
            }
            if let Some(u) = level
                .per_user_tok_s
                .as_ref()
                .and_then(crate::model::PerUser::central)
                .filter(|u| u.is_finite())
            {
                row.1.push((launch, u));
            }
        }
    }

    /// The ladder of the runs gathered.
    pub fn ladder(self) -> Vec<LadderPoint> {
        // Each launch's number made its rank in launch order.
        let mut rank = vec![0; self.launches.len()];
        for (r, &number) in self.launches.values().enumerate() {
            rank[number as usize] = u32::try_from(r).unwrap_or(u32::MAX);
        }
        let ranked = |values: Vec<(u32, f64)>| -> Vec<(u32, f64)> {
            values
                .into_iter()
                .map(|(launch, v)| (rank[launch as usize], v))
                .collect()
        };
        self.by_level
            .into_iter()
            .map(|(key, (agg, user, runs, mut of_runs))| {
                of_runs.sort_unstable();
                of_runs.dedup();
                LadderPoint {
                    key,
                    concurrency: key.streams(),
                    request_rate: key.rate(),
                    aggregate_tok_s: estimate(&group_by_rank(ranked(agg))),
                    per_user_tok_s: estimate(&group_by_rank(ranked(user))),
                    runs,
                    launches: of_runs.len(),
                }
            })
            .collect()
    }
}

/// Values grouped by their launch's rank, in rank order, each group in the order given: what
/// [`super::side::group_by_launch`] gives for the launches the ranks stand for.
fn group_by_rank(mut values: Vec<(u32, f64)>) -> Vec<Vec<f64>> {
    // Stable: a launch's values keep their order.
    values.sort_by_key(|&(rank, _)| rank);
    values
        .chunk_by(|a, b| a.0 == b.0)
        .map(|group| group.iter().map(|&(_, v)| v).collect())
        .collect()
}

/// The capacity of a ladder at `floor` tokens per second per user, with the aggregate there
/// multiplied by `replicas` (independent copies behind a router).
pub fn capacity(points: &[LadderPoint], floor: f64, replicas: u64) -> Capacity {
    let mut last_pass: Option<&LadderPoint> = None;
    let mut marginal_interval = None;
    // "Every level up to it" runs along one axis: the ladder's first (streams before rates).
    let axis = points.first().map(|p| p.key.axis());
    let points: Vec<&LadderPoint> = points
        .iter()
        .filter(|p| Some(p.key.axis()) == axis)
        .collect();
    for &p in &points {
        match classify(p.per_user_tok_s.as_ref(), floor) {
            LevelClass::Pass => last_pass = Some(p),
            LevelClass::Marginal => {
                if let Some(lp) = last_pass {
                    marginal_interval = Some((lp.key, p.key));
                }
                break;
            }
            LevelClass::Fail | LevelClass::Unknown => break,
        }
    }
    #[expect(clippy::cast_precision_loss, reason = "replica counts are small")]
    let aggregate =
        last_pass.and_then(|p| p.aggregate_tok_s.map(|e| e.value * replicas.max(1) as f64));
    let level = last_pass.map(|p| p.key);
    let none_because = match (level, points.first()) {
        (Some(_), _) => None,
        (None, None) => Some("the configuration has no level"),
        (None, Some(first)) if first.per_user_tok_s.is_none() => {
            Some("no per-user rate is recorded or derivable at the first level")
        }
        (None, Some(_)) => Some("no level clears the floor"),
    };
    Capacity {
        floor_tok_s: floor,
        level,
        concurrency: level.and_then(LevelKey::streams),
        request_rate: level.and_then(LevelKey::rate),
        none_because,
        aggregate_tok_s: aggregate,
        marginal_interval,
        single_instance: points.iter().all(|p| p.launches <= 1),
    }
}

#[cfg(test)]
#[path = "capacity_tests.rs"]
mod tests;
