//! The noise floor a comparison is judged against: the static floor of the metric, raised to
//! what same-vs-same controls on the platform and model of either side show.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Arc, Mutex, PoisonError};

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
    let mut wanted: Vec<(PlatformModel, u64)> = Vec::new();
    for side in [a, b] {
        if let (Some(doc), Some(c)) = (side.doc(results), side.concurrency())
            && let Some(k) = platform_model(doc)
            && !wanted.contains(&(k.clone(), c))
        {
            wanted.push((k, c));
        }
    }
    // In configuration order, and for one configuration in the order of `wanted`.
    let mut found: Vec<(usize, usize, Control)> = Vec::new();
    for (w, (k, c)) in wanted.iter().enumerate() {
        for (ci, control) in runs.controls.at(runs, k, *c, metric).iter() {
            if !own.contains(ci) {
                found.push((*ci, w, control.clone()));
            }
        }
    }
    found.sort_by_key(|&(ci, w, _)| (ci, w));
    let controls: Vec<Control> = found.into_iter().map(|(_, _, c)| c).collect();
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

/// The platform (device model) and model name of a run: the controls of a side share them.
pub type PlatformModel = (String, String);

/// The platform and model a run's controls are looked for on, when it records both: its
/// configuration's are those of its first run.
pub fn platform_model(d: &ResultDoc) -> Option<PlatformModel> {
    Some((
        device_model(d)?.to_string(),
        d.model.as_ref()?.name.clone()?,
    ))
}

/// The controls of each platform, model, level and metric, with the configuration each is
/// (in configuration order).
type ControlsAt = Arc<Vec<(usize, Control)>>;

/// The configurations of a corpus by platform and model, and the controls found among them,
/// each found once: a comparison looks its controls up instead of walking every configuration
/// of the corpus (which made the claims analysis grow with claims × configurations).
pub(super) struct ControlIndex {
    /// Configuration indices by the platform and model of their first run, in order.
    by_platform: BTreeMap<PlatformModel, Vec<usize>>,
    /// The controls found so far.
    found: Mutex<BTreeMap<(PlatformModel, u64, Metric), ControlsAt>>,
}

impl ControlIndex {
    pub(super) fn new(results: &[LoadedResult], configs: &[Configuration]) -> Self {
        let mut by_platform: BTreeMap<PlatformModel, Vec<usize>> = BTreeMap::new();
        for (ci, config) in configs.iter().enumerate() {
            if let Some(k) = platform_model(&results[config.members[0]].doc) {
                by_platform.entry(k).or_default().push(ci);
            }
        }
        ControlIndex {
            by_platform,
            found: Mutex::new(BTreeMap::new()),
        }
    }

    /// The controls on platform and model `k` at `c` streams for `metric`: every configuration
    /// there measured on two or more launches at that level.
    fn at(&self, runs: &Runs<'_>, k: &PlatformModel, c: u64, metric: Metric) -> ControlsAt {
        let key = (k.clone(), c, metric);
        // A poisoned lock only means a panic elsewhere while it was held; what it holds is
        // still whole (each entry is inserted complete).
        let mut found = self.found.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(hit) = found.get(&key) {
            return Arc::clone(hit);
        }
        let controls: Vec<(usize, Control)> = self
            .by_platform
            .get(k)
            .into_iter()
            .flatten()
            .filter_map(|&ci| {
                control_at(runs.results, &runs.configs[ci], c, metric).map(|control| (ci, control))
            })
            .collect();
        let controls = Arc::new(controls);
        found.insert(key, Arc::clone(&controls));
        controls
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
