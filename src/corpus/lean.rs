//! What a kept result lets go once its own rules have run: what only they read, and its
//! canonical JSON, so that the corpus-wide rules hold summaries, not documents.

use std::sync::Arc;

use super::{LoadedResult, Options};
use crate::model::ResultDoc;

/// Keeps of `r` what a lean load keeps ([`drop_per_result_detail`], the configuration parts
/// shared, no canonical JSON): for a result handed whole to a streaming caller first. A caller
/// that puts results away (`Options::put_away`, [`super::load_streaming_into`]) had the whole
/// result when it was handed over and is then given where it was read: nothing else of it is
/// kept, so that the results of a long JSON Lines file, kept until its last line is read, hold
/// their place and little more.
pub(super) fn keep_lean(r: &mut LoadedResult, options: &Options) {
    if options.put_away {
        r.doc = ResultDoc::default();
        r.provenance = crate::model::ProvenanceMap::default();
        r.checklist = None;
    } else {
        drop_per_result_detail(&mut r.doc);
        options.shared.share_result(&mut r.doc, &mut r.provenance);
    }
    r.value = crate::model::loaded::Canonical::none();
}

/// What only the per-result rules read, dropped once they have run (`Options::lean`): the
/// per-request samples, the serve command and environment (their settings are already derived
/// into typed fields, which the corpus-wide rules compare) and the load snapshots. The
/// corpus-wide rules never read these, and they are most of a result's heap. Nor do they read
/// the `schema` (the same for every result), the free-text `notes` of a successful run (the
/// audit quotes those of a losing run) or the artifacts' file names (only whether a quality
/// gate is paired, and the power trace's kind): those go too, so
/// a lean result is for reading, never for writing out. The levels left are packed
/// ([`crate::model::Levels::pack`]): the corpus-wide rules read them back exactly, at a few
/// dozen bytes a level instead of 464.
pub(super) fn drop_per_result_detail(doc: &mut ResultDoc) {
    for level in doc.levels.to_mut() {
        level.samples = None;
    }
    doc.levels.pack();
    doc.schema = String::new();
    if doc.outcome == crate::model::Outcome::Ok {
        doc.notes = None;
    }
    if let Some(artifacts) = doc.artifacts.as_mut() {
        if let Some(trace) = artifacts.power_trace.as_mut() {
            trace.path = None;
        }
        if let Some(gate) = artifacts.quality_gate.as_mut() {
            gate.path = None;
        }
    }
    if let Some(engine) = doc.engine.as_mut().map(Arc::make_mut) {
        engine.serve_command = None;
        engine.environment = None;
    }
    if let Some(platform) = doc.platform.as_mut().map(Arc::make_mut) {
        platform.load_snapshot = None;
    }
}
