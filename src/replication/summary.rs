//! What `benchlint summary` reports of each configuration: its runs and launches, and per level
//! its throughput across runs (median, spread, CV, 95% interval) with the median per-user rate
//! and TTFT.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use super::{
    AGGREGATE, Configuration, DECODE, Figure, PER_USER, SpooledCorpus, TTFT_P50, configurations,
};
use crate::model::loaded::LoadedResult;
use crate::model::{LevelKey, RequestRate, ResultDoc};
use crate::stats::{Interval, IntervalBasis, describe, launch_interval, quantile_type7};

/// The 95% interval of a level, as `benchlint summary` reports it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Ci95 {
    /// Point estimate: the mean of the launch means (one launch: the mean of its runs).
    pub estimate: f64,
    /// Lower end.
    pub low: f64,
    /// Upper end.
    pub high: f64,
    /// Degrees of freedom of the t quantile.
    pub df: f64,
    /// "across 3 launches", or "single instance" (within one launch: excludes the
    /// launch-to-launch variance, so it cannot show a difference between configurations).
    pub basis: String,
}

impl Ci95 {
    /// The interval as the summary reports it, its basis in words.
    pub(super) fn of(iv: &Interval) -> Self {
        Ci95 {
            estimate: iv.estimate,
            low: iv.low,
            high: iv.high,
            df: iv.df,
            basis: match iv.basis {
                IntervalBasis::AcrossLaunches { launches } => format!("across {launches} launches"),
                IntervalBasis::SingleInstance { .. } => "single instance".to_string(),
            },
        }
    }
}

/// One level of one configuration: the descriptive statistics of `research/stats.md` §8.1.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LevelSummary {
    /// The level's load key, for ordering and labels.
    #[serde(skip)]
    pub key: LevelKey,
    /// Streams in flight (a closed-loop level).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub concurrency: Option<u64>,
    /// Requests per second (an open-loop level).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub request_rate: Option<RequestRate>,
    /// The throughput figure summarised: `aggregate`, else `decode`.
    pub figure: &'static str,
    /// Runs with a value at this level.
    pub n: usize,
    /// Launches among them (runs without a launch id count as one).
    pub launches: usize,
    /// Median (type 7), tok/s.
    pub median: f64,
    /// Smallest run value, tok/s.
    pub min: f64,
    /// Largest run value, tok/s.
    pub max: f64,
    /// Mean of the runs, tok/s.
    pub mean: f64,
    /// Coefficient of variation over the runs; `None` with fewer than two runs.
    pub cv: Option<f64>,
    /// Whether the CV is above the `max_cv` threshold (S005).
    pub high_cv: bool,
    /// 95% interval; `None` when not computable (one run).
    pub ci95: Option<Ci95>,
    /// Median over the runs of each run's median per-user rate, tok/s.
    pub per_user_median_tok_s: Option<f64>,
    /// Median over the runs of each run's TTFT p50, seconds.
    pub ttft_p50_s: Option<f64>,
}

/// One configuration with its levels.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ConfigSummary {
    /// Short fingerprint (12 hex digits).
    pub fingerprint: String,
    /// Label for people (made of the results' names and settings: text from inputs).
    pub label: crate::text::FileText,
    /// Runs (at the best-replicated level).
    pub runs: usize,
    /// Launches behind the runs.
    pub launches: usize,
    /// Runs that record no launch id (counted as one launch together).
    pub runs_without_launch_id: usize,
    /// What the configuration's single result does not record of the identifying fields; empty
    /// when identified. An unidentified result is pooled with no other: one run, no interval.
    pub unidentified: Vec<&'static str>,
    /// The levels, by load (streams, then request rates).
    pub levels: Vec<LevelSummary>,
}

/// Per configuration and level: median, min, max, n, launches, CV and the 95% interval at the
/// launch level, for throughput (with the per-user median and TTFT p50 beside it).
/// Configurations are sorted by label (then fingerprint), levels by concurrency. Each summary
/// is made when the iterator reaches it, so a writer that prints each as it comes never holds a
/// summary of every configuration (about two kilobytes each, with as many configurations as
/// results when none repeats).
pub fn summaries(results: &[LoadedResult], max_cv: f64) -> impl Iterator<Item = ConfigSummary> {
    let mut configs = configurations(results);
    configs.sort_by(|a, b| {
        (a.fingerprint.label(), &a.fingerprint).cmp(&(b.fingerprint.label(), &b.fingerprint))
    });
    configs
        .into_iter()
        .map(move |config| summary_of(results, &config, max_cv))
}

/// [`summaries`] of a corpus whose results were put away as they were read: the same
/// summaries in the same order, each configuration's runs read back one at a time and only
/// what the summary reads of them gathered ([`Gathered`]), so that a configuration of twenty
/// thousand runs is held as its figures. An error reading the results back ends the walk.
pub fn spooled_summaries(
    corpus: SpooledCorpus,
    max_cv: f64,
) -> impl Iterator<Item = Result<ConfigSummary, String>> {
    let mut walk = corpus.configurations();
    std::iter::from_fn(move || {
        let (fingerprint, numbers) = match walk.next()? {
            Ok(group) => group,
            Err(e) => return Some(Err(e)),
        };
        let mut gathered = Gathered::default();
        let mut unidentified_fields = Vec::new();
        for (k, &number) in numbers.iter().enumerate() {
            let run = match walk.read(number) {
                Ok(run) => run,
                Err(e) => return Some(Err(e)),
            };
            if k == 0 && !fingerprint.is_pooled() {
                unidentified_fields = crate::fingerprint::unidentified(&run.doc, true);
            }
            gathered.add(&run.doc);
        }
        let config = Configuration {
            fingerprint,
            members: Vec::new(),
            unidentified: unidentified_fields,
        };
        Some(Ok(gathered.summary(&config, max_cv)))
    })
}

/// The summary of one configuration.
fn summary_of(results: &[LoadedResult], config: &Configuration, max_cv: f64) -> ConfigSummary {
    let mut gathered = Gathered::default();
    for &i in &config.members {
        gathered.add(&results[i].doc);
    }
    gathered.summary(config, max_cv)
}

/// What a summary reads of a configuration's runs, gathered a run at a time in path order:
/// the launches, the levels each run measured, and at each level (a run's first at each load,
/// as [`super::series`] takes it) the finite values of the four figures summarised, each
/// throughput value with its run's launch. What comes out is what the series of
/// [`super::throughput_series`], [`PER_USER`] and [`TTFT_P50`] give, with [`super::runs`] and
/// [`super::launches`], without holding the runs.
#[derive(Debug, Default)]
struct Gathered {
    /// Recorded launch ids, each numbered once: a point names its launch by that number.
    launch_ids: BTreeMap<String, usize>,
    /// Runs that record no launch id.
    unrecorded: usize,
    runs: usize,
    /// At each load, the runs that measured it.
    runs_at: BTreeMap<LevelKey, usize>,
    at: BTreeMap<LevelKey, AtLevel>,
}

/// The values gathered at one load, in path order.
#[derive(Debug, Default)]
struct AtLevel {
    aggregate: Vec<(f64, Option<usize>)>,
    decode: Vec<(f64, Option<usize>)>,
    per_user: Vec<f64>,
    ttft: Vec<f64>,
}

impl Gathered {
    /// Gathers one run of the configuration (the next in path order).
    fn add(&mut self, doc: &ResultDoc) {
        self.runs += 1;
        let launch = super::launch_id_of(doc).map(|id| {
            let next = self.launch_ids.len();
            *self.launch_ids.entry(id.to_string()).or_insert(next)
        });
        if launch.is_none() {
            self.unrecorded += 1;
        }
        let mut seen = BTreeSet::new();
        for level in &doc.levels {
            let key = level.key();
            if !seen.insert(key) {
                continue;
            }
            *self.runs_at.entry(key).or_default() += 1;
            let at = self.at.entry(key).or_default();
            let finite = |figure: Figure| (figure.1)(&level).filter(|v| v.is_finite());
            if let Some(v) = finite(AGGREGATE) {
                at.aggregate.push((v, launch));
            }
            if let Some(v) = finite(DECODE) {
                at.decode.push((v, launch));
            }
            if let Some(v) = finite(PER_USER) {
                at.per_user.push(v);
            }
            if let Some(v) = finite(TTFT_P50) {
                at.ttft.push(v);
            }
        }
    }

    /// The summary of `config`, whose runs were gathered.
    fn summary(self, config: &Configuration, max_cv: f64) -> ConfigSummary {
        let ids: BTreeMap<usize, &str> = self
            .launch_ids
            .iter()
            .map(|(id, &k)| (k, id.as_str()))
            .collect();
        // An unidentified result is one run of its own: no interval to quote.
        let pooled = config.is_identified();
        let levels = self
            .at
            .iter()
            .filter_map(|(&key, at)| {
                // The aggregate where any run records one at this load, else decode.
                let (figure, points) = if at.aggregate.is_empty() {
                    (DECODE, &at.decode)
                } else {
                    (AGGREGATE, &at.aggregate)
                };
                let values: Vec<f64> = points.iter().map(|p| p.0).collect();
                let d = describe(&values)?;
                // Recorded launches in id order, then the runs without one as one launch.
                let mut by_launch: BTreeMap<(bool, &str), Vec<f64>> = BTreeMap::new();
                for &(value, launch) in points {
                    let id = launch.and_then(|k| ids.get(&k).copied());
                    by_launch
                        .entry(id.map_or((true, ""), |id| (false, id)))
                        .or_default()
                        .push(value);
                }
                let by_launch: Vec<Vec<f64>> = by_launch.into_values().collect();
                let ci95 = launch_interval(&by_launch)
                    .filter(|_| pooled)
                    .map(|iv| Ci95::of(&iv));
                let median_of = |v: &[f64]| {
                    if v.is_empty() {
                        None
                    } else {
                        quantile_type7(v, 0.5)
                    }
                };
                Some(LevelSummary {
                    key,
                    concurrency: key.streams(),
                    request_rate: match key {
                        LevelKey::Rate(r) => Some(r),
                        _ => None,
                    },
                    figure: figure.0.rsplit('/').next().unwrap_or(figure.0),
                    n: d.n,
                    launches: by_launch.len(),
                    median: d.median,
                    min: d.min,
                    max: d.max,
                    mean: d.mean,
                    cv: d.cv,
                    high_cv: d.cv.is_some_and(|c| c > max_cv),
                    ci95,
                    per_user_median_tok_s: median_of(&at.per_user),
                    ttft_p50_s: median_of(&at.ttft),
                })
            })
            .collect();
        ConfigSummary {
            fingerprint: config.fingerprint.short(),
            label: config.fingerprint.label().into(),
            runs: self.runs_at.values().copied().max().unwrap_or(self.runs),
            launches: self.launch_ids.len() + usize::from(self.unrecorded > 0),
            runs_without_launch_id: self.unrecorded,
            unidentified: config.unidentified.clone(),
            levels,
        }
    }
}
