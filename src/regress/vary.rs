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

use std::collections::HashMap;
use std::sync::Arc;

use crate::model::{Engine, Harness, Model, ResultDoc};

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
    Neutraliser::new(varied).neutralise(doc);
}

/// The neutralised parts (engine, harness, model) of the documents neutralised so far, by the
/// part they were made from.
struct Memo<T> {
    /// A part shared by several documents (the one engine of a file's many rows): its
    /// neutralised copy, made once and shared again, with the part it was made from, held so
    /// that its address is not given to another part while the memo lives.
    shared: HashMap<usize, (Arc<T>, Arc<T>)>,
    /// The part made for documents that record none (the stand-in alone).
    absent: Option<Arc<T>>,
}

impl<T: Clone + Default> Memo<T> {
    fn new() -> Self {
        Memo {
            shared: HashMap::new(),
            absent: None,
        }
    }

    /// `part` neutralised by `change`; made when absent if `make`.
    fn apply(&mut self, part: &mut Option<Arc<T>>, make: bool, change: impl Fn(&mut T)) {
        match part.take() {
            None if make => {
                let made = self.absent.get_or_insert_with(|| {
                    let mut t = T::default();
                    change(&mut t);
                    Arc::new(t)
                });
                *part = Some(Arc::clone(made));
            }
            None => {}
            Some(mut own) if Arc::strong_count(&own) == 1 => {
                change(Arc::make_mut(&mut own));
                *part = Some(own);
            }
            Some(shared) => {
                let key = Arc::as_ptr(&shared) as usize;
                let (_, neutral) = self.shared.entry(key).or_insert_with(|| {
                    let mut t = (*shared).clone();
                    change(&mut t);
                    (shared, Arc::new(t))
                });
                *part = Some(Arc::clone(neutral));
            }
        }
    }
}

/// Neutralises documents one after the other, each part several documents share neutralised
/// once: a copy of a shared engine made for every document was 700 bytes a result, held for
/// the whole run.
pub struct Neutraliser<'v> {
    varied: &'v [String],
    engines: Memo<Engine>,
    harnesses: Memo<Harness>,
    models: Memo<Model>,
}

impl<'v> Neutraliser<'v> {
    /// A neutraliser of the fields of `varied`.
    pub fn new(varied: &'v [String]) -> Self {
        Neutraliser {
            varied,
            engines: Memo::new(),
            harnesses: Memo::new(),
            models: Memo::new(),
        }
    }

    /// `doc` with every varied field replaced by its stand-in (text) or taken out (settings).
    pub fn neutralise(&mut self, doc: &mut ResultDoc) {
        let varied = self.varied;
        let under = |prefix: &str| {
            varied
                .iter()
                .filter_map(|f| f.strip_prefix(prefix))
                .collect::<Vec<&str>>()
        };
        let engine = under("engine.");
        if !engine.is_empty() {
            // Made when absent: the stand-in of a version is part of every fingerprint.
            self.engines.apply(&mut doc.engine, true, |e| {
                for f in &engine {
                    engine_field(e, f);
                }
            });
        }
        let harness = under("harness.");
        if !harness.is_empty() {
            self.harnesses.apply(&mut doc.harness, false, |h| {
                for f in &harness {
                    harness_field(h, f);
                }
            });
        }
        let model = under("model.");
        if !model.is_empty() {
            self.models.apply(&mut doc.model, false, |m| {
                for f in &model {
                    model_field(m, f);
                }
            });
        }
        if varied.iter().any(|f| f == "labels") {
            doc.labels = None;
        }
    }
}

/// The stand-in of a varied text field.
fn stand_in() -> String {
    COMPARED.to_string()
}

fn engine_field(e: &mut Engine, field: &str) {
    match field {
        "version" => e.version = Some(stand_in()),
        "image" => e.image = Some(stand_in()),
        "image_digest" => e.image_digest = Some(stand_in()),
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
}

fn harness_field(h: &mut Harness, field: &str) {
    match field {
        "revision" => h.revision = None,
        "name" => h.name = Some(stand_in()),
        _ => {}
    }
}

fn model_field(m: &mut Model, field: &str) {
    match field {
        "revision" => m.revision = Some(stand_in()),
        "kernel" => m.kernel = Some(stand_in()),
        "precision" => m.precision = Some(stand_in()),
        _ => {}
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
            neutralise(&mut d, &[field.to_string()]);
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

    #[test]
    fn parts_shared_by_documents_are_neutralised_once_as_each_alone() {
        let text = std::fs::read_to_string("testdata/regress/base/a-l1.json").unwrap();
        let doc: ResultDoc = serde_json::from_str(&text).unwrap();
        let mut state = 3;
        for case in 0..200 {
            // Documents sharing the parts of one (the rows of one file), one with parts of its
            // own, one that records no engine, harness or model.
            let mut own = doc.clone();
            own.engine = own.engine.as_deref().cloned().map(Arc::new);
            own.model = own.model.as_deref().cloned().map(Arc::new);
            let mut bare = doc.clone();
            (bare.engine, bare.harness, bare.model) = (None, None, None);
            let mut docs = vec![
                doc.clone(),
                own,
                doc.clone(),
                bare.clone(),
                doc.clone(),
                bare,
            ];
            let varied: Vec<String> = VARIABLE
                .iter()
                .filter(|_| crate::seeded::below(&mut state, 3) == 0)
                .map(|f| (*f).to_string())
                .collect();
            let alone: Vec<String> = docs
                .iter()
                .map(|d| {
                    let mut d = d.clone();
                    neutralise(&mut d, &varied);
                    serde_json::to_string(&d).unwrap()
                })
                .collect();
            let mut n = Neutraliser::new(&varied);
            for d in &mut docs {
                n.neutralise(d);
            }
            let together: Vec<String> = docs
                .iter()
                .map(|d| serde_json::to_string(d).unwrap())
                .collect();
            assert_eq!(together, alone, "case {case}: {varied:?}");
            if varied.iter().any(|f| f.starts_with("engine.")) {
                let (a, b) = (docs[0].engine.as_ref(), docs[4].engine.as_ref());
                assert!(Arc::ptr_eq(a.unwrap(), b.unwrap()), "case {case}");
            }
        }
    }
}
