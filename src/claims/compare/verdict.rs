//! What a comparison found: the [`Comparison`] of two sides, and its A/B verdict in words and
//! as one of C009–C011.

use super::{Mismatch, NoiseFloor};
use crate::claims::Metric;
use crate::claims::side::{num, pct, pct_abs};
use crate::rules::{
    RuleMeta, c009_below_control_noise, c010_single_launch_difference, c011_tie_within_variance,
};
use crate::stats::{AbResult, Verdict};

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
