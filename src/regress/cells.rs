//! The cells of a regression run: per configuration, each level (streams with streams, req/s
//! with req/s, matched exactly) and each metric both sides record there. Each side's runs at
//! the level are grouped by launch and each launch is summarised by the median of its runs
//! (the launch is the unit of replication; runs without a launch id are one launch, as
//! `benchlint summary` counts them). A run whose level its own rules reject does not enter:
//! failed requests (R006), an open-loop rate under the achieved floor (R027), a level that
//! served nothing (R007), and every level of a run its harness judged invalid (MLPerf's
//! `Result is : INVALID`).

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use super::matching::Matched;
use super::{Cell, Config, Options, RegressMetric, RunValue, Runs, Side, SideCell, Verdict};
use crate::model::{Level, LevelKey, RequestRate};
use crate::replication::launch_id;
use crate::text::FileText;
use crate::thresholds::Thresholds;

/// Why a run's level is left out of a cell, if it is.
fn rejected(level: &Level, t: &Thresholds) -> Option<&'static str> {
    if level.failed.unwrap_or(0) > 0 {
        return Some("failed requests (R006)");
    }
    if let (Some(RequestRate::PerSecond(asked)), Some(achieved)) =
        (level.request_rate, level.achieved_request_rate)
        && asked.is_finite()
        && asked > 0.0
        && achieved.is_finite()
        && achieved < t.min_achieved_rate_fraction * asked
    {
        return Some("rate not achieved (R027)");
    }
    let zero_tp = level.throughput_tok_s.as_ref().is_some_and(|tp| {
        let v: Vec<f64> = [tp.decode, tp.prefill, tp.aggregate]
            .into_iter()
            .flatten()
            .collect();
        !v.is_empty() && v.iter().all(|x| *x == 0.0)
    });
    if zero_tp || level.output_tokens == Some(0) || level.requests == Some(0) {
        return Some("a zero level (R007)");
    }
    None
}

/// Each level key a side's members measure, with the levels at it: `(result, level)` indices,
/// the members in their order and each member's levels in theirs. Made once per configuration,
/// so that a cell reads only the runs that measured its level: asking every member for every
/// level grew with the levels times the runs, and a configuration whose runs each measured
/// levels of their own (a sweep's rates) has as many levels as runs.
fn by_level(m: &Matched, members: &[usize]) -> BTreeMap<LevelKey, Vec<(usize, usize)>> {
    let mut out: BTreeMap<LevelKey, Vec<(usize, usize)>> = BTreeMap::new();
    for &i in members {
        for (l, key) in m.results[i].doc.levels.keys().enumerate() {
            out.entry(key).or_default().push((i, l));
        }
    }
    out
}

/// One side of one cell from the levels its members measured at its level (`at`, from
/// [`by_level`]).
fn side_cell(
    m: &Matched,
    at: Option<&Vec<(usize, usize)>>,
    metric: RegressMetric,
    t: &Thresholds,
) -> Option<Box<SideCell>> {
    let mut by_launch: BTreeMap<Option<&str>, Vec<RunValue>> = BTreeMap::new();
    let mut rejected_runs = Vec::new();
    let mut present = false;
    for &(i, l) in at.map_or(&[][..], Vec::as_slice) {
        let r = &m.results[i];
        let invalid = r
            .doc
            .harness
            .as_ref()
            .and_then(|h| h.validity.as_ref())
            .and_then(|v| v.verdict)
            == Some(crate::model::Verdict::Invalid);
        if let Some(level) = r.doc.levels.get(l) {
            let level = &*level;
            let Some(v) = metric.read(level) else {
                // A rejected zero level reads no positive value: still say why it is out.
                if let Some(why) = rejected(level, t) {
                    present = true;
                    rejected_runs.push((i, why));
                }
                continue;
            };
            present = true;
            if invalid {
                rejected_runs.push((i, "the harness judged the run invalid"));
                continue;
            }
            if let Some(why) = rejected(level, t) {
                rejected_runs.push((i, why));
                continue;
            }
            by_launch
                .entry(launch_id(r))
                .or_default()
                .push(RunValue { run: i, value: v });
        }
    }
    if !present {
        return None;
    }
    // Recorded launches in id order, then the unrecorded one (BTreeMap puts None first).
    // Sized exactly: a configuration of thousands of launches has a side like this in every
    // cell, and a list grown by doubling holds up to twice what it needs.
    let mut side = SideCell {
        launches: Vec::with_capacity(by_launch.len()),
        runs: Vec::with_capacity(by_launch.values().map(Vec::len).sum()),
        rejected: rejected_runs,
    };
    let mut unrecorded = None;
    for (id, runs) in by_launch {
        let values: Vec<f64> = runs.iter().map(|r| r.value).collect();
        let Some(value) = crate::stats::quantile_type7(&values, 0.5) else {
            continue;
        };
        if id.is_none() {
            unrecorded = Some((value, runs));
        } else {
            side.push_launch(value, runs);
        }
    }
    if let Some((value, runs)) = unrecorded {
        side.push_launch(value, runs);
    }
    Some(Box::new(side))
}

/// What the cells print of each result of [`Matched::results`], made once for every cell the
/// result is in: a run's index there is its index in `m.results`.
pub fn runs_of(m: &Matched) -> Runs {
    let mut runs = Runs::default();
    for r in &m.results {
        runs.push(
            FileText::new(unprefixed(&r.doc.id)),
            r.origin.path.clone(),
            launch_id(r).map(FileText::new),
        );
    }
    runs
}

/// The id as the file records it (without the side prefix the matching added).
fn unprefixed(id: &str) -> &str {
    id.split_once(':').map_or(id, |(_, rest)| rest)
}

/// The configuration of group `ci` of `m`, its notes left to the walk of its cells
/// ([`ConfigCells::notes`]).
pub fn config_of(m: &Matched, ci: usize) -> Config {
    let g = &m.groups[ci];
    let first = g
        .base
        .first()
        .or(g.head.first())
        .map(|&i| &m.results[i].doc);
    let speculative = first
        .and_then(|d| d.engine.as_ref())
        .and_then(|e| e.speculative.as_ref())
        .and_then(|s| s.enabled)
        .unwrap_or(false);
    let versions = |members: &[usize]| -> Vec<FileText> {
        let set: BTreeSet<String> = members
            .iter()
            .map(|&i| {
                m.versions[i]
                    .clone()
                    .unwrap_or_else(|| "version not recorded".into())
            })
            .collect();
        set.into_iter().map(FileText::new).collect()
    };
    Config {
        // The label is built from the neutralised fingerprint: the stand-in of a varied field
        // says nothing to a reader, and the versions are shown beside it.
        label: FileText::new(g.fingerprint.label().replace(" (compared)", "")),
        fingerprint: g.fingerprint.short(),
        versions: (versions(&g.base), versions(&g.head)),
        speculative,
        mismatches: g
            .mismatches
            .iter()
            .map(|(c, s)| (*c, FileText::new(s.as_str())))
            .collect(),
        notes: Vec::new(),
    }
}

pub(crate) fn blank_cell(
    config: usize,
    level: LevelKey,
    metric: RegressMetric,
    verdict: Verdict,
) -> Cell {
    Cell {
        config,
        level,
        metric,
        base: None,
        head: None,
        control: None,
        stats: None,
        q_worse: None,
        q_better: None,
        noise_floor: (metric.static_floor(), "static"),
        verdict,
        confirmed: false,
        codes: Vec::new(),
        reasons: Vec::new(),
        launches_needed: None,
    }
}

/// What every configuration's cells are made with: the metrics compared and the runs a
/// GuideLLM sweep chose the rate of, found once for the whole run.
pub struct Plan {
    metrics: Vec<RegressMetric>,
    adaptive: BTreeSet<usize>,
}

impl Plan {
    /// The plan of a run over `m` with `options`.
    pub fn new(m: &Matched, options: &Options) -> Self {
        Plan {
            metrics: if options.metrics.is_empty() {
                RegressMetric::ALL.to_vec()
            } else {
                options.metrics.clone()
            },
            adaptive: super::sweep::adaptive(&m.results),
        }
    }
}

/// The configuration of group `ci` of `m` and its cells, all at once (see [`cells_of`]): the
/// reference the walks of a report are tested against.
#[cfg(test)]
pub fn of_config(m: &Matched, plan: &Plan, ci: usize, options: &Options) -> (Config, Vec<Cell>) {
    let mut made = cells_of(m, plan, ci, options);
    let cells: Vec<Cell> = made.by_ref().collect();
    let mut config = config_of(m, ci);
    config.notes = made.notes();
    (config, cells)
}

/// The cells of group `ci` of `m`, made one at a time as they are asked for; verdicts are set
/// for the structural cases (NOT COMPARABLE, MISSING) and left `Inconclusive` for
/// [`super::decide`] to settle. The same group gives the same cells each time: a report makes
/// them again whenever it is walked rather than holding every cell of the run, and one cell
/// at a time, since a configuration of thousands of runs has thousands of runs in each cell.
pub fn cells_of<'m>(
    m: &'m Matched,
    plan: &'m Plan,
    ci: usize,
    options: &'m Options,
) -> ConfigCells<'m> {
    let g = &m.groups[ci];
    let (at_base, at_head) = (by_level(m, &g.base), by_level(m, &g.head));
    let at_control = by_level(m, &g.control);
    let levels: BTreeSet<LevelKey> = at_base.keys().chain(at_head.keys()).copied().collect();
    // What the configuration says in every cell of it, made once.
    let mismatches: Vec<Arc<FileText>> = g
        .mismatches
        .iter()
        .map(|(code, m)| {
            Arc::new(FileText::new(
                code.map_or_else(|| m.clone(), |c| format!("{c}: {m}")),
            ))
        })
        .collect();
    let mut codes: Vec<&'static str> = g.mismatches.iter().filter_map(|(c, _)| *c).collect();
    codes.sort_unstable();
    codes.dedup();
    // A configuration on one side only says so in every cell of it (its levels are that
    // side's).
    let one_side = match (g.base.is_empty(), g.head.is_empty()) {
        (false, true) => Some(("BASE", "HEAD")),
        (true, false) => Some(("HEAD", "BASE")),
        _ => None,
    }
    .map(|(here, there)| {
        Arc::new(FileText::new(format!(
            "the configuration is on {here} only: {there} has no result of it"
        )))
    });
    ConfigCells {
        m,
        plan,
        thresholds: &options.thresholds,
        ci,
        at: [at_base, at_head, at_control],
        levels: levels.into_iter().collect(),
        mismatches,
        codes,
        one_side,
        next: (0, 0),
        one_sided: BTreeMap::new(),
    }
}

/// The cells of one configuration, made as they are asked for ([`cells_of`]).
pub struct ConfigCells<'m> {
    m: &'m Matched,
    plan: &'m Plan,
    thresholds: &'m Thresholds,
    ci: usize,
    /// BASE's, HEAD's and the control's runs by level ([`by_level`]).
    at: [BTreeMap<LevelKey, Vec<(usize, usize)>>; 3],
    levels: Vec<LevelKey>,
    mismatches: Vec<Arc<FileText>>,
    codes: Vec<&'static str>,
    one_side: Option<Arc<FileText>>,
    /// The level and the metric of the next cell.
    next: (usize, usize),
    /// Metrics recorded on one side only, by side: counted as the cells are made.
    one_sided: BTreeMap<(RegressMetric, Side), usize>,
}

impl ConfigCells<'_> {
    /// The notes of the configuration the walk found (a metric recorded on one side only):
    /// whole once every cell was made.
    pub fn notes(&self) -> Vec<FileText> {
        self.one_sided
            .iter()
            .map(|((metric, side), n)| {
                FileText::new(format!(
                    "{} is recorded on {} only (at {}), so it is not compared there",
                    metric.as_str(),
                    side.name(),
                    crate::numbers::plural(*n, "level", "levels")
                ))
            })
            .collect()
    }

    /// The cell of level `key` and `metric`, if there is one.
    fn cell(&mut self, key: LevelKey, metric: RegressMetric) -> Option<Cell> {
        let (m, t, g) = (self.m, self.thresholds, &self.m.groups[self.ci]);
        let (on_base, on_head) = (self.at[0].get(&key), self.at[1].get(&key));
        let base = side_cell(m, on_base, metric, t);
        let head = side_cell(m, on_head, metric, t);
        if base.is_none() && head.is_none() {
            return None;
        }
        let adaptive = &self.plan.adaptive;
        let sweep_at = |at: Option<&Vec<(usize, usize)>>| {
            at.is_some_and(|runs| runs.iter().any(|(i, _)| adaptive.contains(i)))
        };
        let mut cell = blank_cell(self.ci, key, metric, Verdict::Inconclusive);
        if !g.mismatches.is_empty() {
            cell.verdict = Verdict::NotComparable;
            cell.codes.clone_from(&self.codes);
            cell.reasons.clone_from(&self.mismatches);
        } else if sweep_at(on_base) || sweep_at(on_head) {
            cell.verdict = Verdict::NotComparable;
            cell.reasons.push(Arc::new(FileText::new(format!(
                "{key}: a GuideLLM sweep chose this rate from the rates it had just measured, so the other \
                 side ran other rates; compare fixed rates (a constant profile) level by level"
            ))));
        } else if g.base.is_empty() || g.head.is_empty() || on_base.is_none() || on_head.is_none() {
            let here = if on_base.is_some() { "BASE" } else { "HEAD" };
            cell.verdict = Verdict::Missing;
            cell.reasons.push(self.one_side.as_ref().map_or_else(
                || Arc::new(FileText::new(format!("{key} is measured on {here} only"))),
                Arc::clone,
            ));
        } else if base.is_none() || head.is_none() {
            // A metric recorded on one side only is not a cell.
            let side = if base.is_some() {
                Side::Base
            } else {
                Side::Head
            };
            *self.one_sided.entry((metric, side)).or_default() += 1;
            return None;
        }
        cell.base = base;
        cell.head = head;
        if cell.verdict == Verdict::Inconclusive {
            cell.control = side_cell(m, self.at[2].get(&key), metric, t);
        }
        Some(cell)
    }
}

impl Iterator for ConfigCells<'_> {
    type Item = Cell;

    fn next(&mut self) -> Option<Cell> {
        loop {
            let (l, k) = self.next;
            let key = *self.levels.get(l)?;
            let Some(&metric) = self.plan.metrics.get(k) else {
                self.next = (l + 1, 0);
                continue;
            };
            self.next = (l, k + 1);
            if let Some(cell) = self.cell(key, metric) {
                return Some(cell);
            }
        }
    }
}
