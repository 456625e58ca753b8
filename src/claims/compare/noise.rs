//! The noise floor a comparison is judged against: the static floor of the metric, raised to
//! what same-vs-same controls on the platform and model of either side show.

use std::collections::BTreeSet;

use super::{Runs, device_model};
use crate::claims::Metric;
use crate::claims::side::{ResolvedSide, group_by_launch, num, pct_abs, streams};
use crate::fingerprint::Fingerprint;
use crate::model::ResultDoc;
use crate::model::loaded::LoadedResult;
use crate::replication::{Configuration, launch_id};
use crate::stats::{effective_noise_floor, mean, noise_floor_from_controls};

/// A same-vs-same control: a configuration measured on two or more launches on the platform
/// and model of a side, at the level that side is taken at.
#[derive(Debug, Clone, PartialEq)]
pub struct Control {
    /// The configuration's label.
    pub label: String,
    /// Its short fingerprint.
    pub fingerprint: String,
    /// The level the spread was taken at.
    pub concurrency: u64,
    /// Its launch means there, in launch order.
    pub launch_means: Vec<f64>,
    /// Relative differences of consecutive launch means (`later / earlier − 1`).
    pub rel_diffs: Vec<f64>,
    /// A run of the control and its level index (for related locations).
    pub at: (usize, usize),
}

/// The noise floor a comparison is judged against.
#[derive(Debug, Clone, PartialEq)]
pub struct NoiseFloor {
    /// δ = max(static, controls), relative.
    pub value: f64,
    /// The static floor of the metric (2% throughput, 5% tail latency).
    pub static_floor: f64,
    /// What the controls show (`noise_floor_from_controls` over their pairs), if any exist.
    pub from_controls: Option<f64>,
    /// The controls used.
    pub controls: Vec<Control>,
}

impl NoiseFloor {
    /// Whether the controls set the floor (they show more than the static floor).
    pub fn from_control(&self) -> bool {
        self.from_controls.is_some_and(|c| c > self.static_floor)
    }

    /// Where the floor comes from, in words: "the static 2% floor", or "the same-vs-same
    /// control vllm 0.11.2 | ... (2228f73646aa), launch means 224 and 216.6 at 8 streams".
    pub fn source(&self) -> String {
        if !self.from_control() {
            let also = match self.controls.len() {
                0 => String::new(),
                1 => "; the same-vs-same control shows no more".to_string(),
                n => format!("; the {n} same-vs-same controls show no more"),
            };
            return format!("the static {} floor{also}", pct_abs(self.static_floor));
        }
        let mut groups: Vec<(&str, &str, Vec<String>)> = Vec::new();
        for c in &self.controls {
            let means: Vec<String> = c.launch_means.iter().map(|m| num(*m)).collect();
            let at = format!("{} at {}", means.join(" and "), streams(c.concurrency));
            match groups.iter_mut().find(|g| g.1 == c.fingerprint) {
                Some(g) => g.2.push(at),
                None => groups.push((&c.label, &c.fingerprint, vec![at])),
            }
        }
        let shown: Vec<String> = groups
            .iter()
            .map(|(label, fp, at)| format!("`{label}` ({fp}), launch means {}", at.join(", ")))
            .collect();
        format!(
            "the same-vs-same {} {}",
            if groups.len() == 1 {
                "control"
            } else {
                "controls"
            },
            shown.join("; ")
        )
    }
}

/// The noise floor for comparing `a` and `b` on `metric`: the static floor, raised to what
/// same-vs-same controls show.
///
/// A control is any configuration measured on two or more launches on the platform (device
/// model) and model (name) of either side, other than the configurations the sides rest on
/// (their own launch-to-launch spread is already in the interval of the effect, and counting
/// it twice would make "difference" unreachable: `research/stats.md` §8.2 step 1). Its spread
/// is taken at the level each matching side is taken at, when the control measured it on two
/// or more launches: the relative differences of consecutive launch means (by launch id) are
/// pooled over every control and given to [`noise_floor_from_controls`].
pub fn noise_floor(
    runs: &Runs<'_>,
    a: &ResolvedSide,
    b: &ResolvedSide,
    metric: Metric,
) -> NoiseFloor {
    let results = runs.results;
    let own: BTreeSet<usize> = a
        .results
        .iter()
        .chain(&b.results)
        .filter_map(|&i| runs.config_of[i])
        .collect();
    let key = |d: &ResultDoc| {
        Some((
            device_model(d)?.to_string(),
            d.model.as_ref()?.name.clone()?,
        ))
    };
    let mut wanted: Vec<((String, String), u64)> = Vec::new();
    for side in [a, b] {
        if let (Some(doc), Some(c)) = (side.doc(results), side.concurrency())
            && let Some(k) = key(doc)
            && !wanted.contains(&(k.clone(), c))
        {
            wanted.push((k, c));
        }
    }
    let mut controls = Vec::new();
    for (ci, config) in runs.configs.iter().enumerate() {
        if own.contains(&ci) {
            continue;
        }
        let Some(k) = key(&results[config.members[0]].doc) else {
            continue;
        };
        for (wk, c) in &wanted {
            if *wk != k {
                continue;
            }
            if let Some(control) = control_at(results, config, *c, metric) {
                controls.push(control);
            }
        }
    }
    let diffs: Vec<f64> = controls
        .iter()
        .flat_map(|c| c.rel_diffs.iter().copied())
        .collect();
    let from_controls = noise_floor_from_controls(&diffs);
    let static_floor = metric.static_noise_floor();
    NoiseFloor {
        value: effective_noise_floor(static_floor, from_controls),
        static_floor,
        from_controls,
        controls,
    }
}

fn control_at(
    results: &[LoadedResult],
    config: &Configuration,
    c: u64,
    metric: Metric,
) -> Option<Control> {
    let mut values = Vec::new();
    let mut at = None;
    for &i in &config.members {
        let doc = &results[i].doc;
        let Some((li, level)) = doc
            .levels
            .iter()
            .enumerate()
            .find(|(_, l)| l.concurrency == Some(c))
        else {
            continue;
        };
        let Some(v) = metric.read(doc, &level) else {
            continue;
        };
        at.get_or_insert((i, li));
        values.push((launch_id(&results[i]), v));
    }
    let groups = group_by_launch(values.into_iter());
    if groups.len() < 2 {
        return None;
    }
    let launch_means: Vec<f64> = groups.iter().filter_map(|g| mean(g)).collect();
    let rel_diffs: Vec<f64> = launch_means
        .windows(2)
        .filter(|w| w[0] > 0.0)
        .map(|w| w[1] / w[0] - 1.0)
        .collect();
    let fingerprint: &Fingerprint = &config.fingerprint;
    Some(Control {
        label: fingerprint.label().to_string(),
        fingerprint: fingerprint.short(),
        concurrency: c,
        launch_means,
        rel_diffs,
        at: at?,
    })
}
