//! What `benchlint compare` writes: the two sides, the verdict with its numbers, the noise floor
//! and its source, and each mismatch, as text or as JSON.

use std::fmt::Write as _;

use serde_json::json;

use super::{BasisArg, Named};
use crate::claims::{Comparison, ResolvedSide, Runs, num, pct};
use crate::model::LevelKey;
use crate::numbers::plural;
use crate::stats::IntervalBasis;
use crate::text::Text;

/// One comparison and the sides it was asked for, ready to be written.
pub(super) struct View<'v, 'a> {
    pub(super) runs: &'v Runs<'a>,
    pub(super) a: &'v Named,
    pub(super) b: &'v Named,
    pub(super) side_a: &'v ResolvedSide,
    pub(super) side_b: &'v ResolvedSide,
    pub(super) cmp: &'v Comparison,
    pub(super) level: LevelKey,
    pub(super) basis: BasisArg,
}

impl View<'_, '_> {
    fn interval_words(side: &ResolvedSide) -> String {
        match side.interval() {
            None => "one run, no interval".to_string(),
            Some(iv) => {
                let over = match iv.basis {
                    IntervalBasis::AcrossLaunches { launches } => {
                        format!("across {launches} launches")
                    }
                    IntervalBasis::SingleInstance { runs } => {
                        format!("single instance, {runs} runs of one launch")
                    }
                };
                let (low, clipped) = crate::numbers::nonnegative_low(iv.low);
                let why = if clipped {
                    format!("; {}", crate::numbers::CLIPPED_AT_ZERO)
                } else {
                    String::new()
                };
                format!(
                    "95% interval {} to {} ({over}{why})",
                    num(low),
                    num(iv.high)
                )
            }
        }
    }

    fn side_text(&self, out: &mut String, name: &str, n: &Named, side: &ResolvedSide) {
        let config = &self.runs.configs[n.config];
        let unit = self.cmp.metric.unit();
        let _ = writeln!(
            out,
            "{name}: {} ({})",
            crate::text::line(config.fingerprint.label()),
            config.fingerprint.short()
        );
        let _ = writeln!(
            out,
            "   `{}` ({}): {} over {}",
            crate::text::line(&n.arg),
            n.by,
            plural(side.points.len(), "run", "runs"),
            plural(side.launches(), "launch", "launches")
        );
        let _ = writeln!(
            out,
            "   {} {unit}, {}; launch means {}",
            side.value().map_or_else(|| "no value".into(), num),
            Self::interval_words(side),
            side.launch_means()
                .iter()
                .map(|m| num(*m))
                .collect::<Vec<_>>()
                .join(", ")
        );
    }

    pub(super) fn text(&self) -> Vec<u8> {
        let cmp = self.cmp;
        let mut out = String::new();
        let _ = writeln!(
            out,
            "{} at {} ({} basis)",
            cmp.metric,
            self.level,
            match self.basis {
                BasisArg::Hardware => "hardware",
                BasisArg::Deployment => "deployment",
            }
        );
        self.side_text(&mut out, "A", self.a, self.side_a);
        self.side_text(&mut out, "B", self.b, self.side_b);
        let _ = writeln!(
            out,
            "effect: B/A = {}, {}",
            cmp.ratio.map_or_else(|| "none".into(), num),
            cmp.effect_words()
        );
        // Sentences that quote labels and ids from the files: masked and escaped whole.
        let quoting = |s: &str| Text::quoting(s).line().into_owned();
        let _ = writeln!(
            out,
            "noise floor: {} from {}",
            crate::claims::pct_abs(cmp.noise.value),
            quoting(&cmp.noise.source())
        );
        let _ = writeln!(out, "verdict: {}", cmp.verdict_words());
        if let Some(s) = cmp.stat_finding() {
            let _ = writeln!(
                out,
                "  {} {}: {}",
                s.rule.code,
                s.rule.name,
                quoting(&s.message)
            );
        }
        if cmp.mismatches.is_empty() {
            out.push_str("matched basis: no mismatch found\n");
        } else {
            let _ = writeln!(out, "mismatches ({}):", cmp.mismatches.len());
            for m in &cmp.mismatches {
                let _ = writeln!(
                    out,
                    "  {} {} ({}): {}",
                    m.rule.code,
                    m.rule.name,
                    m.rule.severity.as_str(),
                    quoting(&m.message)
                );
            }
        }
        out.into_bytes()
    }

    fn side_json(&self, n: &Named, side: &ResolvedSide) -> serde_json::Value {
        let config = &self.runs.configs[n.config];
        let iv = side.interval();
        json!({
            "argument": n.arg,
            "found_by": n.by,
            "label": config.fingerprint.label(),
            "fingerprint": config.fingerprint.short(),
            "results": side.points.iter().map(|p| self.runs.results[p.result].doc.id.clone()).collect::<Vec<_>>(),
            "runs": side.points.len(),
            "launches": side.launches(),
            "launch_means": side.launch_means(),
            "value": side.value(),
            "interval": iv.as_ref().map(|iv| json!({
                "low": iv.low,
                "high": iv.high,
                "single_instance": matches!(iv.basis, IntervalBasis::SingleInstance { .. }),
            })),
            "per_user_tok_s": side.per_user(),
        })
    }

    pub(super) fn json(&self) -> Vec<u8> {
        let cmp = self.cmp;
        let ab = cmp.ab.as_ref();
        let stat = cmp.stat_finding();
        let doc = json!({
            "metric": cmp.metric.as_str(),
            "concurrency": self.level.streams(),
            "request_rate": self.level.rate(),
            "basis": match self.basis { BasisArg::Hardware => "hardware", BasisArg::Deployment => "deployment" },
            "a": self.side_json(self.a, self.side_a),
            "b": self.side_json(self.b, self.side_b),
            "ratio": cmp.ratio,
            "effect_rel": ab.map(|x| x.effect_rel),
            "effect_ci95_rel": ab.and_then(|x| x.ci_rel).filter(|(l, h)| l.is_finite() && h.is_finite()).map(|(l, h)| [l, h]),
            "effect": ab.map(|x| pct(x.effect_rel)),
            "noise_floor": {
                "value": cmp.noise.value,
                "static": cmp.noise.static_floor,
                "from_controls": cmp.noise.from_controls,
                "source": cmp.noise.source(),
                "controls": cmp.noise.controls.iter().map(|c| json!({
                    "label": c.label,
                    "fingerprint": c.fingerprint,
                    "concurrency": c.concurrency,
                    "launch_means": c.launch_means,
                })).collect::<Vec<_>>(),
            },
            "verdict": cmp.verdict_words(),
            "finding": stat.map(|s| json!({ "code": s.rule.code, "name": s.rule.name, "message": s.message })),
            "mismatches": cmp.mismatches.iter().map(|m| json!({
                "code": m.rule.code,
                "name": m.rule.name,
                "severity": m.rule.severity.as_str(),
                "unknown": m.unknown,
                "message": m.message,
            })).collect::<Vec<_>>(),
        });
        crate::text::json::pretty_redacted(doc)
    }
}
