//! One side of a claim or a comparison, resolved against the corpus: which results it rests on,
//! the level it is taken at, the metric there (replicas multiplying the engine throughputs) and
//! its launch means.

use std::collections::{BTreeMap, BTreeSet};

use super::Metric;
pub use super::words::{num, pct, pct_abs, quoted_list, streams};
use crate::cards;
use crate::model::loaded::LoadedResult;
use crate::model::{LevelKey, Outcome, ResultDoc};
use crate::replication::launch_id;
use crate::stats::{Interval, launch_interval, mean};

/// One run's value on a side.
#[derive(Debug, Clone, PartialEq)]
pub struct SidePoint {
    /// Index of the run in the corpus results.
    pub result: usize,
    /// Index of the level in that run's `levels`.
    pub level: usize,
    /// The run's launch id (`None`: not recorded).
    pub launch: Option<String>,
    /// The metric at the level, multiplied by the replicas when the metric adds up over them.
    pub value: f64,
    /// The per-user rate at the level (never multiplied), when recorded.
    pub per_user: Option<f64>,
}

/// A side resolved against the corpus.
#[derive(Debug, Clone, PartialEq)]
pub struct ResolvedSide {
    /// The result ids as given.
    pub ids: Vec<String>,
    /// Indices of the results found whose outcome is `ok`, in the order of `ids`.
    pub results: Vec<usize>,
    /// Ids that are not in the corpus.
    pub missing: Vec<String>,
    /// Indices of results found that did not produce figures (failed, aborted, does-not-fit).
    pub losing: Vec<usize>,
    /// Independent replicas the side adds up (1 when not given).
    pub replicas: u64,
    /// The level the claim or the command names, if any.
    pub requested: Option<LevelKey>,
    /// The level the side is taken at (the named one, else the peak): streams, or a request
    /// rate for an open-loop ladder.
    pub level: Option<LevelKey>,
    /// Whether that level is the side's peak (highest mean aggregate), or no level was named.
    pub at_peak: bool,
    /// One point per run, in the order of `results`.
    pub points: Vec<SidePoint>,
    /// Why the side gives no value, in words ("result `x` has no level at 32 streams").
    pub problem: Option<String>,
}

impl ResolvedSide {
    /// The runs' values grouped by launch: recorded launches in id order, then the runs without
    /// a launch id as one launch.
    pub fn by_launch(&self) -> Vec<Vec<f64>> {
        group_by_launch(self.points.iter().map(|p| (p.launch.as_deref(), p.value)))
    }

    /// The mean of each launch (the unit of replication).
    pub fn launch_means(&self) -> Vec<f64> {
        self.by_launch()
            .iter()
            .filter_map(|runs| mean(runs))
            .collect()
    }

    /// The side's value: the mean of its launch means (`None` when it has no point).
    pub fn value(&self) -> Option<f64> {
        if self.problem.is_some() {
            return None;
        }
        mean(&self.launch_means())
    }

    /// Launches behind the side's points.
    pub fn launches(&self) -> usize {
        self.by_launch().len()
    }

    /// The 95% interval of the side's value at the launch level (`None` for a single run).
    pub fn interval(&self) -> Option<Interval> {
        launch_interval(&self.by_launch())
    }

    /// The per-user rate at the side's level: the mean of its launch means.
    pub fn per_user(&self) -> Option<f64> {
        let groups = group_by_launch(
            self.points
                .iter()
                .filter_map(|p| Some((p.launch.as_deref(), p.per_user?))),
        );
        let means: Vec<f64> = groups.iter().filter_map(|g| mean(g)).collect();
        mean(&means)
    }

    /// The streams of the side's level, when it is a closed-loop level.
    pub fn concurrency(&self) -> Option<u64> {
        self.level?.streams()
    }

    /// Total streams in flight on the side: the level times the replicas.
    pub fn total_streams(&self) -> Option<u64> {
        self.concurrency()?.checked_mul(self.replicas)
    }

    /// Devices the side uses: the first run's device count times the replicas.
    pub fn devices(&self, results: &[LoadedResult]) -> Option<u64> {
        let doc = self.doc(results)?;
        doc.platform
            .as_ref()?
            .total_devices()?
            .checked_mul(self.replicas)
    }

    /// The first run's document (the side's settings, for the matched-basis checks).
    pub fn doc<'r>(&self, results: &'r [LoadedResult]) -> Option<&'r ResultDoc> {
        self.results.first().map(|&i| &results[i].doc)
    }

    /// The first point (for related locations).
    pub fn first_point(&self) -> Option<&SidePoint> {
        self.points.first()
    }

    /// "at 32 streams", "at 8 streams × 4 replicas", "at its peak" (no level resolved).
    pub fn where_phrase(&self) -> String {
        match (self.level, self.replicas) {
            (Some(c), 1) => format!("at {c}"),
            (Some(c), r) => format!("at {c} × {r} replicas"),
            (None, 1) => "at its peak".to_string(),
            (None, r) => format!("at its peak × {r} replicas"),
        }
    }
}

/// Values grouped by launch id (sorted), the runs without one as one launch at the end.
pub fn group_by_launch<'a>(values: impl Iterator<Item = (Option<&'a str>, f64)>) -> Vec<Vec<f64>> {
    let mut groups: BTreeMap<(bool, &str), Vec<f64>> = BTreeMap::new();
    for (launch, value) in values {
        let key = launch.map_or((true, ""), |id| (false, id));
        groups.entry(key).or_default().push(value);
    }
    groups.into_values().collect()
}

/// The index of the first result (in path order, `order`) with each id.
pub fn id_index<'a>(results: &'a [LoadedResult], order: &[usize]) -> BTreeMap<&'a str, usize> {
    let mut index = BTreeMap::new();
    for &i in order {
        index.entry(results[i].doc.id.as_str()).or_insert(i);
    }
    index
}

/// Resolves a side: the results `ids` name (through `index`), at `concurrency` (else their
/// peak), the metric there multiplied by `replicas` when it adds up over replicas.
///
/// Never panics and never makes a value up: whatever stops the side from giving a value
/// (an id not in the corpus, a losing run, a missing level, failed requests at the level, the
/// metric not recorded, a zero throughput) is written into `problem`.
pub fn resolve_side(
    results: &[LoadedResult],
    index: &BTreeMap<&str, usize>,
    ids: &[String],
    level: Option<LevelKey>,
    replicas: u64,
    metric: Metric,
) -> ResolvedSide {
    let mut side = ResolvedSide {
        ids: ids.to_vec(),
        results: Vec::new(),
        missing: Vec::new(),
        losing: Vec::new(),
        replicas: replicas.max(1),
        requested: level,
        level: None,
        at_peak: false,
        points: Vec::new(),
        problem: None,
    };
    let mut seen = BTreeSet::new();
    for id in ids {
        match index.get(id.as_str()) {
            Some(&i) if !seen.insert(i) => {}
            Some(&i) if results[i].doc.outcome == Outcome::Ok => side.results.push(i),
            Some(&i) => side.losing.push(i),
            None => side.missing.push(id.clone()),
        }
    }
    if !side.missing.is_empty() {
        side.problem = Some(format!(
            "{} not in the corpus",
            quoted_list(&side.missing, "result", "results")
        ));
        return side;
    }
    if let Some(&i) = side.losing.first() {
        let doc = &results[i].doc;
        side.problem = Some(format!(
            "result `{}` did not produce figures (outcome {})",
            doc.id,
            doc.outcome.as_str()
        ));
        return side;
    }
    if side.results.is_empty() {
        side.problem = Some("the side names no result".to_string());
        return side;
    }
    let peak = peak_level(results, &side.results, metric);
    let requested = level;
    let Some(level) = requested.or(peak) else {
        side.problem = Some(format!(
            "the results {} share no level with a figure",
            quoted_list(&ids_of(results, &side.results), "", "")
        ));
        return side;
    };
    side.level = Some(level);
    side.at_peak = requested.is_none() || peak == Some(level);
    fill_points(results, &mut side, level, metric);
    side
}

/// The same results as `side`, taken at `level` instead (the matched basis).
pub fn resolve_at(
    results: &[LoadedResult],
    side: &ResolvedSide,
    level: LevelKey,
    metric: Metric,
) -> ResolvedSide {
    let mut at = ResolvedSide {
        requested: Some(level),
        level: Some(level),
        at_peak: peak_level(results, &side.results, metric) == Some(level),
        points: Vec::new(),
        problem: None,
        ..side.clone()
    };
    fill_points(results, &mut at, level, metric);
    at
}

fn fill_points(results: &[LoadedResult], side: &mut ResolvedSide, level: LevelKey, metric: Metric) {
    // A point a result, kept with the claim's analysis to the end of the run: room for them
    // alone, not the four a growing list starts with.
    side.points.reserve_exact(side.results.len());
    for &i in &side.results {
        let doc = &results[i].doc;
        let Some((li, l)) = doc
            .levels
            .iter()
            .enumerate()
            .find(|(_, l)| l.key() == level)
        else {
            let measured: BTreeSet<LevelKey> = doc.levels.keys().collect();
            let list: Vec<String> = measured.iter().map(ToString::to_string).collect();
            side.problem = Some(format!(
                "result `{}` has no level at {level} (it measured {})",
                doc.id,
                if list.is_empty() {
                    "none".to_string()
                } else {
                    list.join(", ")
                }
            ));
            side.points.clear();
            return;
        };
        let l = &*l;
        if let Some(failed) = l.failed.filter(|&f| f > 0) {
            side.problem = Some(format!(
                "result `{}` had {failed} failed requests at {}: its averages are not measurements (R006)",
                doc.id, level
            ));
            side.points.clear();
            return;
        }
        if cards::aggregate(l) == Some(0.0) {
            side.problem = Some(format!(
                "result `{}` delivered 0 tok/s at {}: a stopped server, not a measurement (R007)",
                doc.id, level
            ));
            side.points.clear();
            return;
        }
        let Some(raw) = metric.read(doc, l) else {
            let unlabelled = metric.is_per_watt()
                && l.power_w
                    .as_ref()
                    .is_some_and(|p| p.mean.is_some() && p.kind.is_none());
            side.problem = Some(if unlabelled {
                format!(
                    "result `{}` records power at {} without saying wall or device (L005): a per-watt figure \
                     needs its basis",
                    doc.id, level
                )
            } else {
                format!("result `{}` records no {metric} at {}", doc.id, level)
            });
            side.points.clear();
            return;
        };
        #[expect(clippy::cast_precision_loss, reason = "replica counts are small")]
        let value = if metric.adds_over_replicas() {
            raw * side.replicas as f64
        } else {
            raw
        };
        side.points.push(SidePoint {
            result: i,
            level: li,
            launch: launch_id(&results[i]).map(str::to_string),
            value,
            per_user: Metric::PerUserTokS.read(doc, l),
        });
    }
}

/// The level (streams, or a request rate), among those every run measured, with the highest
/// mean aggregate (the best mean of `metric` when no aggregate is recorded); the lowest such
/// level on a tie.
pub fn peak_level(results: &[LoadedResult], members: &[usize], metric: Metric) -> Option<LevelKey> {
    let mut common: Option<BTreeSet<LevelKey>> = None;
    for &i in members {
        let set: BTreeSet<LevelKey> = results[i].doc.levels.keys().collect();
        common = Some(match common {
            None => set,
            Some(c) => c.intersection(&set).copied().collect(),
        });
    }
    let mut best: Option<(LevelKey, f64)> = None;
    let by = if members.iter().any(|&i| {
        results[i]
            .doc
            .levels
            .iter()
            .any(|l| cards::aggregate(&l).is_some())
    }) {
        Metric::AggregateTokS
    } else {
        metric
    };
    let sign = match by.direction() {
        crate::stats::Direction::HigherIsBetter => 1.0,
        crate::stats::Direction::LowerIsBetter => -1.0,
    };
    for c in common.unwrap_or_default() {
        let values: Vec<f64> = members
            .iter()
            .filter_map(|&i| {
                let doc = &results[i].doc;
                doc.levels
                    .iter()
                    .find(|l| l.key() == c)
                    .and_then(|l| by.read(doc, &l))
            })
            .collect();
        if values.len() != members.len() {
            continue;
        }
        let Some(m) = mean(&values) else { continue };
        if best.is_none_or(|(_, b)| sign * m > sign * b) {
            best = Some((c, m));
        }
    }
    best.map(|(c, _)| c)
}

/// The ids of `members`.
pub fn ids_of(results: &[LoadedResult], members: &[usize]) -> Vec<String> {
    members.iter().map(|&i| results[i].doc.id.clone()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn launches_are_grouped_with_the_unknown_launch_last() {
        let groups = group_by_launch(
            [
                (Some("b"), 2.0),
                (None, 9.0),
                (Some("a"), 1.0),
                (Some("b"), 4.0),
            ]
            .into_iter(),
        );
        assert_eq!(groups, vec![vec![1.0], vec![2.0, 4.0], vec![9.0]]);
    }
}
