//! What is being compared: the fingerprint fields regression mode takes out before it matches
//! configurations across BASE and HEAD. By default the engine version, image and digest (and
//! the harness revision, which is never in the fingerprint); `--vary FIELD` adds others.
//!
//! A varied field is set to one stand-in value on every result of every side, so that two
//! results that differ only in it get equal fingerprints, and the matched-basis checks
//! (`crate::claims::compare_sides`) see the same image on both sides. That has one
//! consequence, decided here on purpose: a setting recorded on neither side is read as the
//! engine's default, which is part of what is compared (a new version that changes a default
//! is a change of the engine), so it cancels as it does for one image; a setting recorded on
//! one side only still makes the cell NOT COMPARABLE.

use std::sync::Arc;

use crate::model::ResultDoc;

/// The stand-in written into a varied text field.
const COMPARED: &str = "(compared)";

/// Fields always varied.
pub const DEFAULT_VARIED: [&str; 4] = [
    "engine.version",
    "engine.image",
    "engine.image_digest",
    "harness.revision",
];

/// Every field `--vary` accepts: the configuration fingerprint's fields that can differ
/// between two builds of one serving setup. The workload, the model's name and the device
/// model are not among them: a change of what was sent or of the hardware is never a
/// regression (DESIGN.md "Rules in this mode").
pub const VARIABLE: [&str; 20] = [
    "engine.version",
    "engine.image",
    "engine.image_digest",
    "harness.revision",
    "harness.name",
    "engine.speculative",
    "engine.enforce_eager",
    "engine.kv_cache_dtype",
    "engine.max_num_seqs",
    "engine.max_model_len",
    "engine.max_num_batched_tokens",
    "engine.enable_prefix_caching",
    "engine.tensor_parallel_size",
    "engine.pipeline_parallel_size",
    "engine.expert_parallel_size",
    "engine.data_parallel_size",
    "model.revision",
    "model.kernel",
    "model.precision",
    "labels",
];

/// Checks a `--vary` value.
pub fn parse_field(s: &str) -> Result<String, String> {
    if VARIABLE.contains(&s) {
        Ok(s.to_string())
    } else {
        Err(format!(
            "`{s}` cannot be varied; one of {}",
            VARIABLE.join(", ")
        ))
    }
}

/// `doc` with every field of `varied` replaced by its stand-in (text) or taken out (settings).
pub fn neutralise(doc: &mut ResultDoc, varied: &[String]) {
    for field in varied {
        apply(doc, field);
    }
}

fn apply(doc: &mut ResultDoc, field: &str) {
    let stand_in = || Some(COMPARED.to_string());
    if let Some(rest) = field.strip_prefix("engine.") {
        let e = Arc::make_mut(doc.engine.get_or_insert_with(Default::default));
        match rest {
            "version" => e.version = stand_in(),
            "image" => e.image = stand_in(),
            "image_digest" => e.image_digest = stand_in(),
            "speculative" => e.speculative = None,
            "enforce_eager" => e.enforce_eager = None,
            "kv_cache_dtype" => e.kv_cache_dtype = None,
            "max_num_seqs" => e.max_num_seqs = None,
            "max_model_len" => e.max_model_len = None,
            "max_num_batched_tokens" => e.max_num_batched_tokens = None,
            "enable_prefix_caching" => e.enable_prefix_caching = None,
            "tensor_parallel_size" => e.tensor_parallel_size = None,
            "pipeline_parallel_size" => e.pipeline_parallel_size = None,
            "expert_parallel_size" => e.expert_parallel_size = None,
            "data_parallel_size" => e.data_parallel_size = None,
            _ => {}
        }
    } else if let Some(rest) = field.strip_prefix("harness.") {
        if let Some(h) = doc.harness.as_mut() {
            let h = Arc::make_mut(h);
            match rest {
                "revision" => h.revision = None,
                "name" => h.name = stand_in(),
                _ => {}
            }
        }
    } else if let Some(rest) = field.strip_prefix("model.") {
        if let Some(m) = doc.model.as_mut() {
            let m = Arc::make_mut(m);
            match rest {
                "revision" => m.revision = stand_in(),
                "kernel" => m.kernel = stand_in(),
                "precision" => m.precision = stand_in(),
                _ => {}
            }
        }
    } else if field == "labels" {
        doc.labels = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_variable_field_is_applied() {
        // Each field of VARIABLE changes a document that records it (or is the harness
        // revision, which no fingerprint holds): none is accepted and then ignored.
        let text = std::fs::read_to_string("testdata/regress/base/a-l1.json").unwrap();
        let doc: ResultDoc = serde_json::from_str(&text).unwrap();
        for field in VARIABLE {
            let mut doc = doc.clone();
            if field == "engine.image" {
                // The image is in the fingerprint only when no digest is recorded.
                std::sync::Arc::make_mut(doc.engine.as_mut().unwrap()).image_digest = None;
            }
            let mut d = doc.clone();
            apply(&mut d, field);
            if field != "harness.revision" {
                assert_ne!(
                    crate::fingerprint::Fingerprint::of(&d),
                    crate::fingerprint::Fingerprint::of(&doc),
                    "{field}"
                );
            }
        }
        assert!(parse_field("workload.name").is_err());
    }
}
