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

use std::collections::{BTreeMap, BTreeSet};

use super::side::{ResolvedSide, group_by_launch, num, pct, pct_abs, streams};
use super::{Basis, Metric};
use crate::corpus::LoadedResult;
use crate::fingerprint::Fingerprint;
use crate::model::{PowerKind, ResultDoc};
use crate::replication::{Configuration, configurations, launch_id};
use crate::rules::{
    RuleMeta, c001_mixed_precision, c002_mixed_speculation, c003_mixed_graph_mode,
    c004_mixed_sequence_cap, c005_constant_total_concurrency, c006_mixed_power_basis,
    c007_mixed_prompt_shape, c008_mixed_engine_settings, c009_below_control_noise,
    c010_single_launch_difference, c011_tie_within_variance, c012_mismatched_service_level,
};
use crate::stats::{
    AbResult, Verdict, ab_verdict, effective_noise_floor, mean, noise_floor_from_controls,
};
use crate::thresholds::Thresholds;

/// The corpus as comparisons see it: the results, their configurations, and an id index.
pub struct Runs<'a> {
    /// Every canonical result, in path order.
    pub results: &'a [LoadedResult],
    /// Every configuration with a successful run.
    pub configs: Vec<Configuration>,
    /// The first result (in path order) with each id.
    pub index: BTreeMap<&'a str, usize>,
    /// For each result, the configuration it belongs to (losing runs: none).
    pub config_of: Vec<Option<usize>>,
}

impl<'a> Runs<'a> {
    /// The view of `results`.
    pub fn new(results: &'a [LoadedResult]) -> Self {
        let configs = configurations(results);
        let mut config_of = vec![None; results.len()];
        for (ci, c) in configs.iter().enumerate() {
            for &m in &c.members {
                config_of[m] = Some(ci);
            }
        }
        Runs {
            results,
            configs,
            index: super::side::id_index(results),
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

/// Everything known about comparing side A (baseline) with side B (subject).
#[derive(Debug, Clone)]
pub struct Comparison {
    /// The metric compared.
    pub metric: Metric,
    /// Every way the sides are not a matched basis.
    pub mismatches: Vec<Mismatch>,
    /// The floor the effect is judged against.
    pub noise: NoiseFloor,
    /// The A/B verdict over the launch means (`None`: a side has no value, or one is zero).
    pub ab: Option<AbResult>,
    /// Side A's value (mean of its launch means).
    pub a_value: Option<f64>,
    /// Side B's value.
    pub b_value: Option<f64>,
    /// `b_value / a_value` (`None` when either is missing or A is zero).
    pub ratio: Option<f64>,
    /// Launches on each side (A, B).
    pub launches: (usize, usize),
    /// The names the messages use (A, B).
    pub names: (String, String),
}

/// What the statistics say about a comparison, as one of C009–C011 (nothing for a difference).
#[derive(Debug, Clone)]
pub struct StatFinding {
    /// C009, C010 or C011.
    pub rule: &'static RuleMeta,
    /// The numbers.
    pub message: String,
    /// Short text under the value.
    pub label: String,
}

impl Comparison {
    /// The verdict in words: "difference", "tie within noise", "not decidable: single launch",
    /// "not decidable: underpowered (…)", or why no verdict exists.
    pub fn verdict_words(&self) -> String {
        match &self.ab {
            None => "not decidable: a side has no value".to_string(),
            Some(ab) => match ab.verdict {
                Verdict::Difference => "difference".into(),
                Verdict::TieWithinNoise if ab.equivalence_shown => {
                    "tie within noise (equivalence shown)".into()
                }
                Verdict::TieWithinNoise => "tie within noise".into(),
                Verdict::SingleLaunch => "not decidable: single launch".into(),
                Verdict::Underpowered {
                    launches_needed_per_side: Some(k),
                } => {
                    format!("not decidable: underpowered ({k} launches per side would settle it)")
                }
                Verdict::Underpowered {
                    launches_needed_per_side: None,
                } => {
                    "not decidable: underpowered (more than 100 launches per side would be needed)"
                        .into()
                }
            },
        }
    }

    /// Whether the verdict is a tie.
    pub fn is_tie(&self) -> bool {
        self.ab
            .as_ref()
            .is_some_and(|ab| ab.verdict == Verdict::TieWithinNoise)
    }

    /// The effect and its interval in words: "+4.8% (95% interval −3.1% to +12.9%)".
    pub fn effect_words(&self) -> String {
        let Some(ab) = &self.ab else {
            return "no effect".into();
        };
        match ab.ci_rel {
            Some((lo, hi)) if lo.is_finite() && hi.is_finite() => {
                format!(
                    "{} (95% interval {} to {})",
                    pct(ab.effect_rel),
                    pct(lo),
                    pct(hi)
                )
            }
            _ => pct(ab.effect_rel),
        }
    }

    /// C009, C010 or C011 for the verdict, or `None` for a difference (or no verdict).
    ///
    /// * tie, the effect within the static floor or the interval inside ±floor → C011;
    /// * tie only because a same-vs-same control shows more noise than the static floor → C009;
    /// * a side with one launch and an effect above the floor → C010;
    /// * underpowered (the interval reaches inside the floor) → C011.
    pub fn stat_finding(&self) -> Option<StatFinding> {
        let ab = self.ab.as_ref()?;
        let (a, b) = (&self.names.0, &self.names.1);
        let (ka, kb) = (ab.launches_a, ab.launches_b);
        let values = match (self.b_value, self.a_value) {
            (Some(bv), Some(av)) => format!("{} against {}", num(bv), num(av)),
            _ => String::new(),
        };
        let floor = pct_abs(self.noise.value);
        match ab.verdict {
            Verdict::Difference => None,
            Verdict::TieWithinNoise
                if self.noise.from_control() && ab.effect_rel.abs() > self.noise.static_floor =>
            {
                Some(StatFinding {
                    rule: &c009_below_control_noise::RULE,
                    message: format!(
                        "{b} against {a} is {values} {}, {}: inside the {floor} noise floor shown by {}: a \
                         configuration differs from itself by this much, so this is a tie, not a finding",
                        self.metric.unit(),
                        pct(ab.effect_rel),
                        self.noise.source(),
                    ),
                    label: format!("{} is inside the {floor} control noise", pct(ab.effect_rel)),
                })
            }
            Verdict::TieWithinNoise => Some(StatFinding {
                rule: &c011_tie_within_variance::RULE,
                message: format!(
                    "{b} against {a} is {values} {}, {}: inside the {floor} noise floor ({}), a tie \
                     within the run-to-run variance, never a win",
                    self.metric.unit(),
                    self.effect_words(),
                    self.noise.source(),
                ),
                label: format!("a tie: {} is inside ±{floor}", pct(ab.effect_rel)),
            }),
            Verdict::SingleLaunch => Some(StatFinding {
                rule: &c010_single_launch_difference::RULE,
                message: format!(
                    "{b} against {a} is {values} {}, {}, from {} on {b} and {} on {a}: two launches \
                     of one configuration can differ by this much, so the difference is not decidable",
                    self.metric.unit(),
                    pct(ab.effect_rel),
                    launches_phrase(kb),
                    launches_phrase(ka),
                ),
                label: format!("{} from a single launch", pct(ab.effect_rel)),
            }),
            Verdict::Underpowered {
                launches_needed_per_side,
            } => Some(StatFinding {
                rule: &c011_tie_within_variance::RULE,
                message: format!(
                    "{b} against {a} is {values} {}, {}, over {} and {}: the interval reaches inside \
                     the {floor} noise floor ({}), so the claimed difference is within the run-to-run \
                     variance; {}",
                    self.metric.unit(),
                    self.effect_words(),
                    launches_phrase(kb),
                    launches_phrase(ka),
                    self.noise.source(),
                    match launches_needed_per_side {
                        Some(k) => format!("{k} launches per side would settle it"),
                        None =>
                            "more than 100 launches per side would be needed to settle it".into(),
                    }
                ),
                label: format!("{} is not beyond the noise", pct(ab.effect_rel)),
            }),
        }
    }
}

fn launches_phrase(k: usize) -> String {
    if k == 1 {
        "1 launch".into()
    } else {
        format!("{k} launches")
    }
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

/// Where a side's power was measured, and the place that says so: the `power_w.kind` of the
/// level its first run is taken at, else that run's power trace kind.
fn power_kind(
    results: &[LoadedResult],
    side: &ResolvedSide,
) -> Option<(PowerKind, (usize, String))> {
    let i = *side.results.first()?;
    let doc = &results[i].doc;
    let level = side.points.first().map(|p| p.level).or_else(|| {
        let c = side.level?;
        doc.levels.iter().position(|l| l.key() == c)
    });
    if let Some(li) = level
        && let Some(kind) = doc.levels.get(li)?.power_w.as_ref().and_then(|p| p.kind)
    {
        return Some((kind, (i, format!("/levels/{li}/power_w/kind"))));
    }
    let kind = doc.artifacts.as_ref()?.power_trace.as_ref()?.kind?;
    Some((kind, (i, "/artifacts/power_trace/kind".to_string())))
}

/// The two sides being checked for a matched basis.
struct Pair<'p, 'a> {
    runs: &'p Runs<'a>,
    a: &'p ResolvedSide,
    b: &'p ResolvedSide,
    da: &'p ResultDoc,
    db: &'p ResultDoc,
    options: &'p CompareOptions,
    thresholds: &'p Thresholds,
}

/// How a setting compares across the sides.
enum Diff {
    Differ(String),
    Unknown(String),
}

impl Pair<'_, '_> {
    fn related(&self, pointer: &str) -> Vec<(usize, String)> {
        let mut out = Vec::new();
        if let Some(&i) = self.a.results.first() {
            out.push((i, pointer.to_string()));
        }
        if let Some(&i) = self.b.results.first() {
            out.push((i, pointer.to_string()));
        }
        out
    }

    fn names(&self) -> (&str, &str) {
        (&self.options.name_a, &self.options.name_b)
    }

    /// One setting: equal, different, or not recorded (see the module documentation).
    fn setting<T: PartialEq>(
        &self,
        what: &str,
        a: Option<T>,
        b: Option<T>,
        cancels: bool,
        show: impl Fn(&T) -> String,
    ) -> Option<Diff> {
        let (na, nb) = self.names();
        match (a, b) {
            (Some(x), Some(y)) if x == y => None,
            (Some(x), Some(y)) => Some(Diff::Differ(format!(
                "{what} {} on {nb} against {} on {na}",
                show(&y),
                show(&x)
            ))),
            (None, None) if cancels => None,
            (None, None) => Some(Diff::Unknown(format!("{what} is recorded on neither side"))),
            (Some(x), None) => Some(Diff::Unknown(format!(
                "{what} is {} on {na} and not recorded on {nb}",
                show(&x)
            ))),
            (None, Some(y)) => Some(Diff::Unknown(format!(
                "{what} is {} on {nb} and not recorded on {na}",
                show(&y)
            ))),
        }
    }

    fn push(
        &self,
        out: &mut Vec<Mismatch>,
        rule: &'static RuleMeta,
        diffs: Vec<Diff>,
        pointer: &str,
        why_differ: &str,
        why_unknown: &str,
    ) {
        if diffs.is_empty() {
            return;
        }
        let unknown = diffs.iter().all(|d| matches!(d, Diff::Unknown(_)));
        let parts: Vec<String> = diffs
            .into_iter()
            .map(|d| match d {
                Diff::Differ(s) | Diff::Unknown(s) => s,
            })
            .collect();
        let why = if unknown { why_unknown } else { why_differ };
        out.push(Mismatch {
            rule,
            message: format!("{}: {why}", parts.join("; ")),
            unknown,
            related: self.related(pointer),
        });
    }

    fn settings(&self, out: &mut Vec<Mismatch>) {
        let (da, db) = (self.da, self.db);
        let same_image = same_image(da, db);
        let same_checkpoint = same_checkpoint(da, db);
        let same_device = device_model(da).is_some() && device_model(da) == device_model(db);
        let deployment = self.options.basis == Some(Basis::Deployment);
        let model = |d: &ResultDoc| d.model.clone().unwrap_or_default();
        let engine = |d: &ResultDoc| d.engine.clone().unwrap_or_default();

        // C001: precision and kernel.
        let mut diffs = Vec::new();
        let (ma, mb) = (model(da), model(db));
        let precision = self.setting(
            "precision",
            ma.precision.as_ref(),
            mb.precision.as_ref(),
            same_checkpoint,
            |v| (*v).clone(),
        );
        let kernel = self.setting(
            "kernel",
            ma.kernel.as_ref(),
            mb.kernel.as_ref(),
            same_checkpoint && same_image && same_device,
            |v| (*v).clone(),
        );
        for d in [precision, kernel].into_iter().flatten() {
            if !(deployment && matches!(d, Diff::Differ(_))) {
                diffs.push(d);
            }
        }
        self.push(
            out,
            &c001_mixed_precision::RULE,
            diffs,
            "/model/precision",
            "the ratio measures the weight format and the kernel the engine picked as much as the hardware",
            "what the ratio measures cannot be known",
        );

        // C002: speculation.
        let (ea, eb) = (engine(da), engine(db));
        let spec = self.setting(
            "speculation",
            spec_state(&ea),
            spec_state(&eb),
            same_image,
            SpecState::words,
        );
        let spec: Vec<Diff> = spec
            .into_iter()
            .filter(|d| !(deployment && matches!(d, Diff::Differ(_))))
            .collect();
        self.push(
            out,
            &c002_mixed_speculation::RULE,
            spec,
            "/engine/speculative",
            "the speculative budget, not the hardware, moves the ratio (the gain is largest at one stream and shrinks with the batch)",
            "with an unknown speculative budget on a side, the ratio cannot be known",
        );

        // C003: graph mode, on either basis.
        let eager = self.setting(
            "graph mode (enforce_eager)",
            ea.enforce_eager,
            eb.enforce_eager,
            same_image,
            bool::to_string,
        );
        self.push(
            out,
            &c003_mixed_graph_mode::RULE,
            eager.into_iter().collect(),
            "/engine/enforce_eager",
            "eager mode is a flat tax on every step (2.4 times on decode in seed 004, 22.6 against 55 tok/s)",
            "a single unrecorded eager flag can dominate the ratio and leave no trace in the file",
        );

        // C004: peaks across sequence caps.
        if !self.options.service_level_matched && (self.a.at_peak || self.b.at_peak) {
            let cap = self.setting(
                "sequence cap (max_num_seqs)",
                ea.max_num_seqs,
                eb.max_num_seqs,
                same_image,
                u64::to_string,
            );
            let which = match (self.a.at_peak, self.b.at_peak) {
                (true, true) => "both sides are taken at their peaks".to_string(),
                (true, false) => format!("{} is taken at its peak", self.names().0),
                _ => format!("{} is taken at its peak", self.names().1),
            };
            self.push(
                out,
                &c004_mixed_sequence_cap::RULE,
                cap.into_iter().collect(),
                "/engine/max_num_seqs",
                &format!("{which}, so the ratio compares engine configuration, not hardware"),
                &format!("{which}, and a peak means nothing without the cap it ran under"),
            );
        }

        // C006: wall against device power (only when both sides say which).
        if let (Some((ka, pa)), Some((kb, pb))) = (
            power_kind(self.runs.results, self.a),
            power_kind(self.runs.results, self.b),
        ) && ka != kb
        {
            let word = |k: PowerKind| {
                if k == PowerKind::Wall {
                    "at the wall"
                } else {
                    "on the device rail"
                }
            };
            let (na, nb) = self.names();
            let per_watt = if self.options.metric.is_per_watt() {
                ", so a ratio of tokens per watt across them has no basis"
            } else {
                ""
            };
            out.push(Mismatch {
                rule: &c006_mixed_power_basis::RULE,
                message: format!(
                    "power was measured {} on {nb} and {} on {na}: a wall number and a device number never \
                     belong in one comparison (a GB10 draws about 46 W at the wall idle while its rail reports under 5 W){per_watt}",
                    word(kb),
                    word(ka)
                ),
                unknown: false,
                related: vec![pa, pb],
            });
        }

        // C007: prompt (and output) shape.
        self.shape(out);

        // C008: KV cache dtype, prefix caching, engine version (recorded on both sides only).
        let mut diffs = Vec::new();
        let known = |d: Option<Diff>| d.filter(|d| matches!(d, Diff::Differ(_)));
        diffs.extend(known(self.setting(
            "KV cache dtype",
            ea.kv_cache_dtype.as_ref(),
            eb.kv_cache_dtype.as_ref(),
            true,
            |v| (*v).clone(),
        )));
        diffs.extend(known(self.setting(
            "prefix caching (enable_prefix_caching)",
            ea.enable_prefix_caching,
            eb.enable_prefix_caching,
            true,
            bool::to_string,
        )));
        let version = |e: &crate::model::Engine| match (&e.name, &e.version) {
            (Some(n), Some(v)) => Some(format!("{n} {v}")),
            _ => None,
        };
        diffs.extend(known(self.setting(
            "engine",
            version(&ea),
            version(&eb),
            true,
            String::clone,
        )));
        self.push(
            out,
            &c008_mixed_engine_settings::RULE,
            diffs,
            "/engine",
            "part of the difference belongs to the engine settings, not the hardware",
            "",
        );
    }

    fn shape(&self, out: &mut Vec<Mismatch>) {
        let t = self.thresholds;
        let typical = |d: &ResultDoc| {
            d.workload
                .as_ref()?
                .prompt_tokens
                .as_ref()?
                .typical()
                .filter(|v| v.is_finite() && *v > 0.0)
        };
        let cap = |d: &ResultDoc| d.workload.as_ref()?.max_output_tokens.filter(|&v| v > 0);
        let (na, nb) = self.names();
        let mut parts = Vec::new();
        if let (Some(pa), Some(pb)) = (typical(self.da), typical(self.db)) {
            let heavy = |p: f64| p >= t.prefill_heavy_min_prompt_tokens;
            let rel = pa.max(pb) / pa.min(pb) - 1.0;
            if heavy(pa) != heavy(pb) || rel > t.prompt_shape_tolerance {
                let kind = |p: f64| {
                    if heavy(p) {
                        "prefill-heavy"
                    } else {
                        "decode-heavy"
                    }
                };
                parts.push(format!(
                    "prompts of {} tokens on {nb} ({}) against {} on {na} ({})",
                    num(pb),
                    kind(pb),
                    num(pa),
                    kind(pa)
                ));
            }
        }
        if let (Some(ca), Some(cb)) = (cap(self.da), cap(self.db)) {
            #[expect(clippy::cast_precision_loss, reason = "token caps are small")]
            let rel = ca.max(cb) as f64 / ca.min(cb) as f64 - 1.0;
            if rel > t.prompt_shape_tolerance {
                parts.push(format!(
                    "an output cap of {cb} tokens on {nb} against {ca} on {na}"
                ));
            }
        }
        if !parts.is_empty() {
            out.push(Mismatch {
                rule: &c007_mixed_prompt_shape::RULE,
                message: format!(
                    "the sides ran different request shapes: {}: prefill is compute bound and decode is bandwidth \
                     bound, so each shape favours a different platform",
                    parts.join("; ")
                ),
                unknown: false,
                related: self.related("/workload/prompt_tokens"),
            });
        }
    }

    fn levels(&self, out: &mut Vec<Mismatch>) {
        if self.options.service_level_matched {
            return;
        }
        let metric = self.options.metric;
        let (na, nb) = self.names();
        // C005: the same total streams over different device counts.
        if metric.is_engine_speed()
            && let (Some(sa), Some(sb)) = (self.a.total_streams(), self.b.total_streams())
            && let (Some(da), Some(db)) = (
                self.a.devices(self.runs.results),
                self.b.devices(self.runs.results),
            )
            && sa == sb
            && da != db
            && da > 0
            && db > 0
        {
            #[expect(
                clippy::cast_precision_loss,
                reason = "stream and device counts are small"
            )]
            let per = |s: u64, d: u64| num(s as f64 / d as f64);
            out.push(Mismatch {
                rule: &c005_constant_total_concurrency::RULE,
                message: format!(
                    "the same {} in total over {db} devices on {nb} and {da} on {na}: {} streams per device against {}, \
                     so the sides sit at different depths of the batching curve and a per-device figure divided from \
                     them manufactures a decline (seed 004: 150 → 107 → 67 tok/s per unit)",
                    streams(sa),
                    per(sb, db),
                    per(sa, da)
                ),
                unknown: false,
                related: self.level_related("/platform"),
            });
        }
        // C012: different per-user rates (service levels).
        if metric.is_engine_speed()
            && let (Some(ua), Some(ub)) = (self.a.per_user(), self.b.per_user())
            && ua > 0.0
            && ub > 0.0
        {
            let rel = ua.max(ub) / ua.min(ub) - 1.0;
            if rel > self.thresholds.service_level_tolerance {
                out.push(Mismatch {
                    rule: &c012_mismatched_service_level::RULE,
                    message: format!(
                        "the sides are compared at different per-user rates: {} tok/s per user on {nb} {} against {} on \
                         {na} {} ({} apart): users at {} tok/s are not served the same product as users at {}",
                        num(ub),
                        self.b.where_phrase(),
                        num(ua),
                        self.a.where_phrase(),
                        pct_abs(rel),
                        num(ua.min(ub)),
                        num(ua.max(ub)),
                    ),
                    unknown: false,
                    related: self.level_related("per_user_tok_s"),
                });
            }
        }
    }

    /// Related places at each side's level (`tail` under `/levels/N/`), or at `tail` itself when
    /// it is an absolute pointer.
    fn level_related(&self, tail: &str) -> Vec<(usize, String)> {
        let mut out = Vec::new();
        for side in [self.a, self.b] {
            if let Some(p) = side.first_point() {
                let pointer = if tail.starts_with('/') {
                    tail.to_string()
                } else {
                    format!("/levels/{}/{tail}", p.level)
                };
                out.push((p.result, pointer));
            } else if let Some(&i) = side.results.first() {
                out.push((
                    i,
                    if tail.starts_with('/') {
                        tail.to_string()
                    } else {
                        "/levels".into()
                    },
                ));
            }
        }
        out
    }
}

/// Speculative decoding as a comparable value.
#[derive(Debug, Clone, PartialEq)]
enum SpecState {
    Off,
    On {
        method: Option<String>,
        tokens: Option<u64>,
        draft: Option<String>,
    },
}

impl SpecState {
    fn words(&self) -> String {
        match self {
            SpecState::Off => "off".into(),
            SpecState::On { method, tokens, .. } => {
                let mut parts = Vec::new();
                if let Some(m) = method {
                    parts.push(m.clone());
                }
                if let Some(t) = tokens {
                    parts.push(format!("{t} tokens"));
                }
                if parts.is_empty() {
                    "on".into()
                } else {
                    format!("on ({})", parts.join(", "))
                }
            }
        }
    }
}

fn spec_state(engine: &crate::model::Engine) -> Option<SpecState> {
    let s = engine.speculative.as_ref()?;
    if s.enabled? {
        Some(SpecState::On {
            method: s.method.clone(),
            tokens: s.num_speculative_tokens,
            draft: s.draft_model.clone(),
        })
    } else {
        Some(SpecState::Off)
    }
}

fn device_model(d: &ResultDoc) -> Option<&str> {
    d.platform.as_ref()?.device.as_ref()?.model.as_deref()
}

/// Both sides ran the same engine image: equal digests, else (neither has one) equal image
/// references with equal engine versions.
fn same_image(a: &ResultDoc, b: &ResultDoc) -> bool {
    let (Some(ea), Some(eb)) = (&a.engine, &b.engine) else {
        return false;
    };
    match (&ea.image_digest, &eb.image_digest) {
        (Some(x), Some(y)) => x == y,
        (None, None) => ea.image.is_some() && ea.image == eb.image && ea.version == eb.version,
        _ => false,
    }
}

/// Both sides served the same checkpoint: equal model names and revisions.
fn same_checkpoint(a: &ResultDoc, b: &ResultDoc) -> bool {
    let (Some(ma), Some(mb)) = (&a.model, &b.model) else {
        return false;
    };
    ma.name.is_some() && ma.name == mb.name && ma.revision == mb.revision
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
        let Some(li) = doc.levels.iter().position(|l| l.concurrency == Some(c)) else {
            continue;
        };
        let Some(v) = metric.read(doc, &doc.levels[li]) else {
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
