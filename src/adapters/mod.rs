//! Adapters: reading the result formats real harnesses write, in place, into the canonical
//! model. Each adapter recognises its format by content, maps what the format records (units
//! converted to the canonical keys' units), and leaves everything else absent so the checklist
//! rules report it. Rules never know which adapter produced a result.
//!
//! A format whose meaning spans a folder reads the files beside its document through
//! [`Source::folder`] ([`crate::io::beside`]: bounded, inside the corpus, cached per
//! folder): a ladder written as one file per level (`ladder`: inference-perf, genai-bench),
//! an experiment's metadata, a run's `config.yaml`. What a run folder keeps for every format
//! (the engine's log, the launch command) is merged by the loader, not by adapters
//! (`corpus::run_folder`).

mod genai_bench;
mod genai_perf;
mod genai_perf_companions;
mod gpu_telemetry;
mod guidellm;
mod inference_perf;
mod inferencex;
mod items;
mod ladder;
mod llmperf;
mod map;
pub mod mlperf;
mod sglang;
mod unread;
mod vllm;

use serde_json::Value;

use crate::io::beside::Folder;
use crate::model::ProvenanceMap;

pub use items::{Census, ItemsVerdict, MapItem, Tally, stand_in};
pub use unread::{describe as describe_unread, looks_like_result, non_serving_text};

/// What an adapter knows about the document it reads.
#[derive(Debug, Clone, Copy)]
pub struct Source<'a> {
    /// The file as reached from the command line.
    pub path: &'a str,
    /// The file name alone.
    pub file_name: &'a str,
    /// Position of this document in the file, from 0.
    pub doc_index: usize,
    /// Documents in the file.
    pub doc_count: usize,
    /// The files beside the document, when the loader read it from disk (`None` for a
    /// document read on its own: an adapter then maps what the document alone records).
    pub folder: Option<&'a Folder<'a>>,
    /// No result of the run was read beside this document: a document an adapter would take
    /// for a companion of results (a sweep's warm-up or summary, a summary of stages) is then
    /// read as the result it describes, so that a file is never a companion of nothing.
    pub alone: bool,
}

/// One canonical result produced from a harness document.
#[derive(Debug, Clone)]
pub struct Mapped {
    /// A canonical `benchlint/result/v1` document (schema, id, `measured_at`, outcome, levels
    /// required; every value the format records, nothing it does not).
    pub value: Value,
    /// For each canonical pointer the adapter filled, the pointer in the source document it
    /// came from. The entry for `""` is the object the result was read from; absent fields
    /// are reported there.
    pub provenance: ProvenanceMap,
}

/// What an adapter makes of a document.
pub enum Reading<'d> {
    /// Not this adapter's format.
    NotMine,
    /// A file the harness writes beside its results, which carries no result of its own
    /// (`AIPerf` `inputs.json`, a `GuideLLM` CSV export index, ...): named as a companion of
    /// the results read beside it, or reported when none is (the loader decides).
    Companion,
    /// Results read from the document, each mapped as it is taken.
    Results(Mapping<'d>),
}

impl Reading<'_> {
    /// Results mapped already.
    pub fn results(mapped: Vec<Mapped>) -> Self {
        Reading::Results(Mapping(Box::new(mapped.into_iter())))
    }
}

/// The results of a document, mapped one at a time as they are taken: a document of twenty
/// thousand rows (an `InferenceX` aggregate) never has every row's canonical JSON and
/// provenance built at once, only the one being finished.
pub struct Mapping<'d>(Box<dyn Iterator<Item = Mapped> + 'd>);

impl<'d> Mapping<'d> {
    /// The results `map` makes of each of `0..count`, made as they are taken.
    pub fn each(count: usize, map: impl FnMut(usize) -> Mapped + 'd) -> Self {
        Mapping(Box::new((0..count).map(map)))
    }
}

impl Iterator for Mapping<'_> {
    type Item = Mapped;

    fn next(&mut self) -> Option<Mapped> {
        self.0.next()
    }
}

impl std::fmt::Debug for Reading<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Reading::NotMine => "NotMine",
            Reading::Companion => "Companion",
            Reading::Results(_) => "Results",
        })
    }
}

/// A reader of one harness's format.
pub trait Adapter: Sync {
    /// Short name, used in provenance and `import` output (`vllm`, `sglang`, ...).
    fn name(&self) -> &'static str;
    /// Reads `doc` if it is this adapter's format.
    fn read<'d, 's: 'd>(&self, doc: &'d Value, source: &Source<'s>) -> Reading<'d>;
    /// Whether this adapter reads `doc` as results each read from one entry of an array of
    /// the document alone, so that [`Adapter::read_letting_go`] can let each entry go once its
    /// result is made.
    fn lets_go(&self, _doc: &Value, _source: &Source<'_>) -> bool {
        false
    }
    /// [`Adapter::read`] of a document its reader lets go as the results are taken: each
    /// entry a result was read from is left `null` once the result is made (the document is
    /// read no further). By default, [`Adapter::read`].
    fn read_letting_go<'d, 's: 'd>(&self, doc: &'d mut Value, source: &Source<'s>) -> Reading<'d> {
        self.read(doc, source)
    }
    /// For an adapter that reads documents that are arrays: a tally of an array's items that
    /// tells what [`Adapter::read`] makes of it ([`items`]). An adapter without one never
    /// reads a document that is an array.
    fn items_tally(&self) -> Option<Box<dyn Tally>> {
        None
    }
}

/// Every adapter, tried in order; the first that recognises a document wins.
///
/// Each recognises its format by content and none claims another's documents; `SGLang` comes
/// before vLLM because `SGLang`'s client is a fork of vLLM's and shares most keys.
pub static ADAPTERS: &[&dyn Adapter] = &[
    &sglang::Sglang,
    &vllm::Vllm,
    &guidellm::Guidellm,
    &genai_perf::GenaiPerf,
    &llmperf::Llmperf,
    &genai_bench::GenaiBench,
    &inference_perf::InferencePerf,
    &inferencex::InferenceX,
    &mlperf::Mlperf,
];

/// [`read`] of a document the caller reads no further once its results are taken: a document
/// of twenty thousand rows lets each row go once its result is made
/// ([`Adapter::read_letting_go`]), rather than being held whole until the last. What it reads
/// is what [`read`] reads.
pub fn read_letting_go<'d, 's: 'd>(
    doc: &'d mut Value,
    source: &Source<'s>,
) -> Option<(&'static str, Reading<'d>)> {
    if let Some(k) = ADAPTERS.iter().position(|a| a.lets_go(doc, source))
        && ADAPTERS[..k]
            .iter()
            .all(|a| matches!(a.read(doc, source), Reading::NotMine))
    {
        let adapter = ADAPTERS[k];
        return Some((adapter.name(), adapter.read_letting_go(doc, source)));
    }
    read(doc, source)
}

/// Reads `doc` with the first adapter that recognises it, returning that adapter's name.
pub fn read<'d, 's: 'd>(
    doc: &'d Value,
    source: &Source<'s>,
) -> Option<(&'static str, Reading<'d>)> {
    for adapter in ADAPTERS {
        match adapter.read(doc, source) {
            Reading::NotMine => {}
            other => return Some((adapter.name(), other)),
        }
    }
    None
}
