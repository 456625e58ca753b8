//! The engine and workload settings each side records, compared (C001–C004, C006–C008): what
//! differs, what is not recorded, and when an unrecorded setting cancels because both sides ran
//! the same image (see the documentation of the parent module).

use super::pair::{Diff, Pair};
use super::{Mismatch, device_model};
use crate::claims::Basis;
use crate::claims::side::{ResolvedSide, num};
use crate::model::loaded::LoadedResult;
use crate::model::{PowerKind, ResultDoc};
use crate::rules::{
    c001_mixed_precision, c002_mixed_speculation, c003_mixed_graph_mode, c004_mixed_sequence_cap,
    c006_mixed_power_basis, c007_mixed_prompt_shape, c008_mixed_engine_settings,
};

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

impl Pair<'_, '_> {
    pub(super) fn settings(&self, out: &mut Vec<Mismatch>) {
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
