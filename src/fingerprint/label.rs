//! The label of a configuration, for people: the parts of it that are recorded, in words.

use std::fmt::Write as _;

use super::canonical::kind_str;
use crate::model::ResultDoc;

/// `engine version | model precision spec | platform | workload`, with `?` for what is absent.
/// What a configuration's label says, for the legend of every output that shows labels.
pub const LABEL_LEGEND: &str = "A configuration is named by what its files record, in this order: model and precision · engine and version · devices × device model (and nodes) · speculative decoding · workload. A part not recorded is left out (`benchlint check` lists what is missing); a result that is not identified, and so pooled with nothing, ends with its result id (a harness's file and position).";

/// The label of a configuration: the parts of [`LABEL_LEGEND`] that `doc` records, joined by
/// ` · `; "unnamed configuration" when it records none.
pub(super) fn label(doc: &ResultDoc, with_workload: bool) -> String {
    let known = |v: Option<&String>| {
        v.map(|s| s.trim())
            .filter(|s| !s.is_empty() && !crate::rules::support::is_placeholder(s))
            .map(ToString::to_string)
    };
    let mut parts: Vec<String> = Vec::new();
    let model = doc.model.as_ref();
    let model_name = known(model.and_then(|m| m.name.as_ref()))
        .map(|n| n.rsplit('/').next().unwrap_or(&n).to_string());
    let precision = known(model.and_then(|m| m.precision.as_ref()));
    push_joined(&mut parts, [model_name, precision]);
    let engine = doc.engine.as_ref();
    let engine_name = known(engine.and_then(|e| e.name.as_ref()));
    let version = known(engine.and_then(|e| e.version.as_ref()));
    match (engine_name, version) {
        (Some(n), Some(v)) => parts.push(format!("{n} {v}")),
        (Some(n), None) => parts.push(n),
        (None, Some(v)) => parts.push(format!("engine {v}")),
        (None, None) => {}
    }
    if let Some(p) = platform_part(doc) {
        parts.push(p);
    }
    match engine.and_then(|e| e.speculative.as_ref()) {
        Some(sp) if sp.enabled == Some(true) => {
            let method = sp
                .method
                .as_deref()
                .map_or_else(String::new, |m| format!("{m} "));
            parts.push(match sp.num_speculative_tokens {
                Some(n) => format!("{method}speculation ({n} tokens)"),
                None => format!("{method}speculation"),
            });
        }
        Some(sp) if sp.enabled == Some(false) => parts.push("no speculation".to_string()),
        _ => {}
    }
    if with_workload && let Some(w) = workload_part(doc) {
        parts.push(w);
    }
    if parts.is_empty() {
        "unnamed configuration".to_string()
    } else {
        parts.join(" · ")
    }
}

/// The known ones of `words`, joined by a space, as one part.
fn push_joined<const N: usize>(parts: &mut Vec<String>, words: [Option<String>; N]) {
    let words: Vec<String> = words.into_iter().flatten().collect();
    if !words.is_empty() {
        parts.push(words.join(" "));
    }
}

/// `8 × NVIDIA GB10 on 8 nodes`, `NVIDIA H200`, `2 devices`.
fn platform_part(doc: &ResultDoc) -> Option<String> {
    let platform = doc.platform.as_ref()?;
    let device = platform
        .device
        .as_ref()
        .and_then(|d| d.model.as_deref())
        .map(str::trim)
        .filter(|d| !d.is_empty() && !crate::rules::support::is_placeholder(d));
    let total = crate::model::Platform::total_devices(platform);
    let nodes = platform.nodes.filter(|n| *n > 1);
    let mut text = match (total, device) {
        (Some(t), Some(d)) => format!("{t} × {d}"),
        (None, Some(d)) => d.to_string(),
        (Some(1), None) => "1 device".to_string(),
        (Some(t), None) => format!("{t} devices"),
        (None, None) => return None,
    };
    if let Some(n) = nodes {
        let _ = write!(text, " on {n} nodes");
    }
    Some(text)
}

/// The workload by its name, its scenario label, its kind or its typical prompt length.
fn workload_part(doc: &ResultDoc) -> Option<String> {
    let workload = doc.workload.as_ref();
    let named = workload
        .and_then(|w| w.name.as_deref())
        .or_else(|| {
            doc.labels
                .as_ref()
                .and_then(|l| l.get("scenario"))
                .map(String::as_str)
        })
        .map(str::trim)
        .filter(|n| !n.is_empty());
    if let Some(n) = named {
        return Some(n.to_string());
    }
    if let Some(k) = workload.and_then(|w| w.kind) {
        return Some(format!("{} workload", kind_str(k)));
    }
    workload
        .and_then(|w| w.prompt_tokens.as_ref())
        .and_then(crate::model::PromptTokens::typical)
        .filter(|t| t.is_finite())
        .map(|t| format!("prompts of {} tokens", crate::numbers::num(t.round())))
}
