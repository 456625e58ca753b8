//! Comparing two sides: every way they fail to be a matched basis (C001–C008, C012), the noise
//! floor they are judged against (static, or what same-vs-same controls show), and the A/B
//! verdict at the launch level (C009–C011). Shared by the claims rules, `benchlint audit` and
//! `benchlint compare`.
//!
//! # Settings that are not recorded
//!
//! "Silence is not an answer" (DESIGN.md): a setting recorded on one side and not on the other
//! makes the comparison unknowable, and is reported under the same code with its own message
//! ("... and not recorded on the baseline"). A setting recorded on neither side is reported the
//! same way, except when both sides ran the same engine image (and, for precision and kernel,
//! the same checkpoint on the same device model): the same image applies the same default, so
//! the unknown setting is the same unknown on both sides and cancels (seed 004's pair against
//! eight-way series: "the same container image, the same NVFP4 checkpoint, the same engine
//! arguments"). The GB10 against GB300 comparison of seed 004 is the case this catches: "the
//! two unrecorded settings push in opposite directions ... We do not know the net, which means
//! we do not know the ratio."
//!
//! # Basis
//!
//! A comparison on the `deployment` basis (best against best) may differ in precision and in
//! speculation when both sides record them: that is what it compares (seed 004: "Publish the
//! off-against-off ratio as the hardware comparison and the best-against-best ratio as the
//! deployment comparison"). Any other basis, or none, is read as a hardware comparison, which
//! needs them matched. Graph mode, sequence caps and everything else must match on either basis.

mod noise;
mod pair;
mod settings;
mod verdict;

use std::borrow::Cow;
use std::collections::BTreeMap;

use super::side::ResolvedSide;
use super::{Basis, Metric};
use crate::model::ResultDoc;
use crate::model::loaded::LoadedResult;
use crate::replication::{Configuration, configurations_in};
use crate::rules::RuleMeta;
use crate::stats::ab_verdict;
use crate::thresholds::Thresholds;
use pair::Pair;

pub use noise::{Control, NoiseFloor, PlatformModel, noise_floor, platform_model};
pub use verdict::{Comparison, StatFinding};

/// The corpus as comparisons see it: the results, their configurations, and an id index.
pub struct Runs<'a> {
    /// Every canonical result, in path order.
    pub results: &'a [LoadedResult],
    /// Every configuration with a successful run: the corpus rules' own, borrowed (a copy would
    /// hold every configuration's fingerprint twice), or computed for this view.
    pub configs: Cow<'a, [Configuration]>,
    /// The first result (in path order) with each id.
    pub index: BTreeMap<&'a str, usize>,
    /// For each result, the configuration it belongs to (losing runs: none).
    pub config_of: Vec<Option<usize>>,
    /// The same-vs-same controls of the corpus, found once per platform, model, level and
    /// metric ([`noise_floor`]).
    controls: noise::ControlIndex,
}

impl<'a> Runs<'a> {
    /// The view of `results`.
    pub fn new(results: &'a [LoadedResult]) -> Self {
        let order = crate::fingerprint::path_order(results);
        Self::grouped(
            results,
            &order,
            Cow::Owned(configurations_in(results, &order)),
        )
    }

    /// The view of the corpus a corpus rule sees: its configurations and path order are
    /// already computed, once for every rule.
    pub fn of_corpus(ctx: &crate::rules::CorpusCtx<'a>) -> Self {
        Self::grouped(ctx.results, ctx.order, Cow::Borrowed(ctx.configurations))
    }

    fn grouped(
        results: &'a [LoadedResult],
        order: &[usize],
        configs: Cow<'a, [Configuration]>,
    ) -> Self {
        let mut config_of = vec![None; results.len()];
        for (ci, c) in configs.iter().enumerate() {
            for &m in &c.members {
                config_of[m] = Some(ci);
            }
        }
        Runs {
            results,
            controls: noise::ControlIndex::new(results, &configs),
            configs,
            index: super::side::id_index(results, order),
            config_of,
        }
    }
}

/// How two sides are compared.
#[derive(Debug, Clone)]
pub struct CompareOptions {
    /// The metric compared.
    pub metric: Metric,
    /// The basis the comparison states (`None`: read as hardware).
    pub basis: Option<Basis>,
    /// The sides were each taken at their capacity at a per-user floor: the service level is
    /// the basis, so C004, C005 and C012 (what that basis resolves) are not checked.
    pub service_level_matched: bool,
    /// What messages call side A (the baseline, the denominator).
    pub name_a: String,
    /// What messages call side B (the subject, the numerator).
    pub name_b: String,
}

/// One way the sides are not a matched basis.
#[derive(Debug, Clone)]
pub struct Mismatch {
    /// The rule (C001–C008, C012).
    pub rule: &'static RuleMeta,
    /// What differs, with both values.
    pub message: String,
    /// Whether the finding is that a setting is not recorded (the comparison is unknowable)
    /// rather than that it differs.
    pub unknown: bool,
    /// Places in the result files: (result index, canonical pointer), side A first.
    pub related: Vec<(usize, String)>,
}

/// Compares side A (`a`, the baseline) with side B (`b`, the subject).
pub fn compare_sides(
    runs: &Runs<'_>,
    a: &ResolvedSide,
    b: &ResolvedSide,
    options: &CompareOptions,
    thresholds: &Thresholds,
) -> Comparison {
    let results = runs.results;
    let mut mismatches = Vec::new();
    if let (Some(da), Some(db)) = (a.doc(results), b.doc(results)) {
        let ctx = Pair {
            runs,
            a,
            b,
            da,
            db,
            options,
            thresholds,
        };
        ctx.settings(&mut mismatches);
        ctx.levels(&mut mismatches);
    }
    let metric = options.metric;
    let noise = noise_floor(runs, a, b, metric);
    let (la, lb) = (a.launch_means(), b.launch_means());
    let ab = if a.problem.is_none() && b.problem.is_none() {
        ab_verdict(&la, &lb, noise.value)
    } else {
        None
    };
    let (a_value, b_value) = (a.value(), b.value());
    let ratio = match (a_value, b_value) {
        (Some(x), Some(y)) if x != 0.0 => Some(y / x).filter(|r| r.is_finite()),
        _ => None,
    };
    Comparison {
        metric,
        mismatches,
        noise,
        ab,
        a_value,
        b_value,
        ratio,
        launches: (a.launches(), b.launches()),
        names: (options.name_a.clone(), options.name_b.clone()),
    }
}

/// The device model a side ran on, which both the settings and the controls are matched by.
fn device_model(d: &ResultDoc) -> Option<&str> {
    d.platform.as_ref()?.device.as_ref()?.model.as_deref()
}
