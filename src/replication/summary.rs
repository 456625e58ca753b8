//! What `benchlint summary` reports of each configuration: its runs and launches, and per level
//! its throughput across runs (median, spread, CV, 95% interval) with the median per-user rate
//! and TTFT.

use std::collections::BTreeMap;

use serde::Serialize;

use super::{
    Configuration, PER_USER, Series, TTFT_P50, configurations, launches, runs, series,
    throughput_series,
};
use crate::model::loaded::LoadedResult;
use crate::model::{LevelKey, RequestRate};
use crate::stats::{IntervalBasis, describe, launch_interval, quantile_type7};

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

/// The summary of one configuration.
fn summary_of(results: &[LoadedResult], config: &Configuration, max_cv: f64) -> ConfigSummary {
    let members = &config.members;
    let l = launches(results, members);
    let per_user = by_level(series(results, members, PER_USER));
    let ttft = by_level(series(results, members, TTFT_P50));
    let levels = throughput_series(results, members)
        .into_iter()
        .filter_map(|s| {
            let values = s.values();
            let d = describe(&values)?;
            // An unidentified result is one run of its own: no interval to quote.
            let pooled = config.is_identified();
            let ci95 = launch_interval(&s.by_launch())
                .filter(|_| pooled)
                .map(|iv| Ci95 {
                    estimate: iv.estimate,
                    low: iv.low,
                    high: iv.high,
                    df: iv.df,
                    basis: match iv.basis {
                        IntervalBasis::AcrossLaunches { launches } => {
                            format!("across {launches} launches")
                        }
                        IntervalBasis::SingleInstance { .. } => "single instance".to_string(),
                    },
                });
            let median_of = |m: &BTreeMap<LevelKey, Vec<f64>>| {
                m.get(&s.key).and_then(|v| quantile_type7(v, 0.5))
            };
            Some(LevelSummary {
                key: s.key,
                concurrency: s.key.streams(),
                request_rate: match s.key {
                    LevelKey::Rate(r) => Some(r),
                    _ => None,
                },
                figure: s.figure_name(),
                n: d.n,
                launches: s.by_launch().len(),
                median: d.median,
                min: d.min,
                max: d.max,
                mean: d.mean,
                cv: d.cv,
                high_cv: d.cv.is_some_and(|c| c > max_cv),
                ci95,
                per_user_median_tok_s: median_of(&per_user),
                ttft_p50_s: median_of(&ttft),
            })
        })
        .collect();
    ConfigSummary {
        fingerprint: config.fingerprint.short(),
        label: config.fingerprint.label().into(),
        runs: runs(results, members),
        launches: l.count,
        runs_without_launch_id: l.unrecorded,
        unidentified: config.unidentified.clone(),
        levels,
    }
}

fn by_level(series: Vec<Series>) -> BTreeMap<LevelKey, Vec<f64>> {
    series.into_iter().map(|s| (s.key, s.values())).collect()
}
