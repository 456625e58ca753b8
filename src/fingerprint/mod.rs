//! The configuration fingerprint: everything that defines what was measured, and nothing that
//! only identifies a run. Results with equal fingerprints are replicates of one configuration
//! (DESIGN.md "Concepts"); the replication rules (S) and `benchlint summary` group by it.
//!
//! # Defining fields
//!
//! [`DEFINING_FIELDS`], as dotted paths of the canonical result:
//!
//! * **platform**: `nodes`, `devices_per_node`, `device.model`, `shared_host`. The platform is a
//!   hardware class and its layout, not a machine: `host` is *not* defining. Two identical boxes
//!   running one configuration are replicates of it, and a run on a second box is a better
//!   replicate than a second run on the first, because the spread between machines (seed 000:
//!   one node at 494 MHz) is part of the variance a published interval has to cover.
//! * **harness**: `name` only. Two harnesses define aggregate throughput and TTFT differently
//!   (seed 004: total tokens over wall time against a steady window), so their figures are not
//!   replicates. The harness `version`, `revision` and `dirty` flag are run identity: a harness
//!   is updated far more often than its measurement changes, and splitting on its revision would
//!   make every routine update start the replication count again. A harness fix that changes
//!   what is measured has to say so in the workload (its `name` or `window`).
//! * **engine**: `name`, `version`, `image_digest` (and `image`, only when no digest is
//!   recorded: a tag is not an identity, M002, but it is the best there is), `speculative`
//!   (`enabled`, `method`, `num_speculative_tokens`, `draft_model`; with `enabled: false` the
//!   other three are dropped, since they configure nothing), `enforce_eager`, `kv_cache_dtype`,
//!   `max_num_seqs`, `max_model_len`, `max_num_batched_tokens`, `enable_prefix_caching`, and the
//!   tensor, pipeline, expert and data parallel sizes.
//! * **model**: `name`, `revision`, `precision`, `kernel`, `thinking`.
//! * **workload**: `name`, `kind`, `prompts`, `dataset`, `prompt_tokens` (`min`, `max`,
//!   `mean`, exactly as recorded), `max_output_tokens`, `ignore_eos`, `temperature`, `sampling`,
//!   `window` (`mode`, `ramp_s`, `measure_s`), `token_count_source`.
//! * **labels**: every free-form label the harness recorded (vLLM `--metadata` pairs that name
//!   no canonical field, its `--label`, a scenario name), key and text. A harness user labels
//!   what the file does not record (`deployment=no-features`, `gateway=kgateway`): three runs
//!   whose labels name three deployments are three configurations, not three replicates.
//!
//! An absent field is part of the fingerprint as an absence: a file that records
//! `enforce_eager: false` and one that records nothing are not known to be the same
//! configuration (DESIGN.md conventions: "Silence is not an answer").
//!
//! # Unknown is never equal to unknown
//!
//! Equal fingerprints make replicates only when the configuration is identified: the
//! [`IDENTIFYING_FIELDS`] (model name, engine name, device model, precision, and the workload by
//! its name, its `scenario` label or its prompt shape) are known. Two files that both lack the
//! model name may hold two models; pooling them would compute a spread between different
//! things. A result with any of them absent (or a placeholder such as `"unknown"`) is
//! **unpooled**: [`groups`] gives it a configuration of its own ([`Fingerprint::unpooled`]), so
//! it is never a replicate of anything, and the replication rules leave it alone until a
//! sidecar supplies what is missing; its M findings say what that is.
//!
//! # Never in the fingerprint
//!
//! [`RUN_FIELDS`]: what identifies one run (`id`, `measured_at`, `outcome`, `launch`,
//! `repeat`, the harness `version`, `revision`, `dirty` and `backend`), the conditions of that
//! run, which the M and R rules check per file (`platform.host`, `description`,
//! `device.memory_gib`, `load_snapshot`, `parity_check`, clocks, `fabric`, `hourly_cost_usd`,
//! `workload.seed`, `workload.tokenizer`, `workload.streaming`, warm-up settings,
//! `level_order`), how settings were recorded rather than what they are
//! (`engine.serve_command`, `serve_command_source`, `environment`: the settings a serve command
//! names are derived into the typed fields above) and the results themselves (`levels`,
//! `artifacts`, `cost`, `notes`).
//!
//! Decisions worth naming: `workload.seed` is identity (another seed draws another sample of
//! the same workload, which is replication, not a new configuration); `level_order` is identity
//! (it is how the ladder was walked, and with `random` every run walks it differently);
//! `platform.fabric` is free text and tuning detail that C rules compare, so it is left out
//! rather than splitting replicates on wording. `workload.tokenizer` is identity because a
//! tokenizer the client only counts with is measurement, not configuration: it changes how the
//! harness counted tokens and sized its prompts, not what the engine did (the prompt lengths
//! that result are in `prompt_tokens`, and a tokenizer of the wrong model is a finding, R022,
//! not another configuration). `harness.backend` is identity for the same reason: it is the
//! request format the client spoke (what it sent is in the workload fields), not the engine,
//! which is `engine.name`.
//!
//! # Representation
//!
//! The canonical form is a JSON object of the defining fields that are present, keyed by dotted
//! path in sorted order, with numbers written the same way whatever their JSON spelling (`32`
//! and `32.0` are one value). Its 64-bit FNV-1a hash, shown as 12 hex digits, is the short form;
//! the label is for people and need not be unique: the parts of the configuration that are
//! recorded, in words (`Qwen3-8B fp8 · vllm 0.11.2 · 2 × NVIDIA H100 · no speculation ·
//! chat-1k`), never a row of `?` for what is not ([`LABEL_LEGEND`] says what each part is).

use std::collections::BTreeMap;
use std::fmt;

mod by_parts;
mod canonical;
mod fields;
mod identity;
mod label;
mod packed;

use canonical::{defining_values, json_string};
use label::label;

pub use by_parts::{LastParts, group_equal, per_parts};
pub use fields::{DEFINING_FIELDS, RUN_FIELDS};
pub use identity::{IDENTIFYING_FIELDS, unidentified};
pub use label::LABEL_LEGEND;

use crate::model::loaded::LoadedResult;
use crate::model::{Outcome, ResultDoc};

/// A configuration fingerprint. Equal fingerprints are replicates; the order is that of the
/// canonical form, so maps keyed by it iterate deterministically.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Fingerprint {
    /// The canonical form, packed ([`packed`]): equal and ordered exactly as the text is.
    packed: Box<[u8]>,
    label: Box<str>,
    pooled: bool,
}

impl Fingerprint {
    /// The fingerprint of a result's configuration.
    pub fn of(doc: &ResultDoc) -> Self {
        Self::build(doc, true)
    }

    /// The fingerprint without the workload: the setup (platform, engine, model). Two
    /// configurations that differ only in what was sent share it (S007 compares their
    /// workload kinds).
    pub fn setup_of(doc: &ResultDoc) -> Self {
        Self::build(doc, false)
    }

    fn build(doc: &ResultDoc, with_workload: bool) -> Self {
        let mut packer = packed::Packer::default();
        for (key, value) in &defining_values(doc, with_workload) {
            packer.field(key, value);
        }
        Fingerprint {
            packed: packer.finish(),
            label: label(doc, with_workload).into_boxed_str(),
            pooled: true,
        }
    }

    /// The fingerprint of a result that is not identified ([`unidentified`]): its own
    /// configuration, never equal to another result's. `key` tells it apart (the result's id
    /// and where it was read); it is written into the canonical form as `"unpooled"`, and the
    /// label ends with the result's id.
    pub fn unpooled(doc: &ResultDoc, key: &str) -> Self {
        let print = Self::build(doc, true);
        let mut packer = packed::Packer::reopen(&print.packed);
        packer.field(packed::UNPOOLED, &json_string(key));
        // Its label names the result: several unidentified results read alike otherwise.
        let label = if &*print.label == "unnamed configuration" {
            format!("result {}", doc.id)
        } else {
            format!("{} · result {}", print.label, doc.id)
        };
        Fingerprint {
            packed: packer.finish(),
            label: label.into_boxed_str(),
            pooled: false,
        }
    }

    /// A fingerprint from what [`Fingerprint::identity_bytes`], [`Fingerprint::label`] and
    /// [`Fingerprint::is_pooled`] gave: the same fingerprint again, for one put away as those.
    pub fn from_parts(identity: &[u8], label: &str, pooled: bool) -> Self {
        Fingerprint {
            packed: identity.into(),
            label: label.into(),
            pooled,
        }
    }

    /// Whether results may share this fingerprint: false for an unidentified result's own.
    pub fn is_pooled(&self) -> bool {
        self.pooled
    }

    /// The canonical form: the defining fields present, as sorted JSON (written out on each
    /// call: only the packed form is kept).
    pub fn canonical(&self) -> String {
        packed::unpack(&self.packed)
    }

    /// Bytes equal exactly when two canonical forms are, and ordered as they are: a key for
    /// grouping by the canonical form without writing it out.
    pub fn identity_bytes(&self) -> &[u8] {
        &self.packed
    }

    /// 64-bit FNV-1a hash of the canonical form (stable across runs, platforms and versions).
    pub fn hash64(&self) -> u64 {
        let mut hash = Fnv1a::default();
        packed::unpack_into(&self.packed, &mut |piece| hash.write(piece));
        hash.0
    }

    /// The short form: the first 12 hex digits of [`Fingerprint::hash64`].
    pub fn short(&self) -> String {
        format!("{:016x}", self.hash64())[..12].to_string()
    }

    /// A label for people ([`LABEL_LEGEND`]): model and precision, engine, platform,
    /// speculation, workload, as far as they are recorded.
    pub fn label(&self) -> &str {
        &self.label
    }
}

impl fmt::Display for Fingerprint {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.short())
    }
}

/// The replicates of each configuration: indices into `results` of the successful runs
/// (`outcome` ok), in path order. Losing runs (failed, aborted, does-not-fit) are results of
/// the corpus but never replicates (DESIGN.md conventions); a copy of a run already counted
/// ([`crate::copies`], S010) is not counted again; an unidentified result is a configuration
/// of its own ([`Fingerprint::unpooled`]). `order` is [`path_order`] of `results`.
pub fn groups(results: &[LoadedResult], order: &[usize]) -> BTreeMap<Fingerprint, Vec<usize>> {
    let copy = crate::copies::copy_mask(results, order);
    let counted: Vec<usize> = order
        .iter()
        .copied()
        .filter(|&i| results[i].doc.outcome == Outcome::Ok && !copy[i])
        .collect();
    // Fingerprinted once per distinct set of shared parts; an unidentified result's own
    // fingerprint names the result, so it is built for the result itself below.
    let (prints, slot_of) = by_parts::per_parts(results, &counted, |doc| {
        unidentified(doc, true)
            .is_empty()
            .then(|| Fingerprint::of(doc))
    });
    // Each distinct set of parts is a slot; slots whose fingerprints are equal are one
    // configuration, made of the first such slot's fingerprint, moved, never copied: with every
    // configuration distinct, a copy of each would double what the grouping holds.
    let mut by_print: Vec<usize> = (0..prints.len())
        .filter(|&slot| prints[slot].is_some())
        .collect();
    by_print.sort_by(|&a, &b| prints[a].cmp(&prints[b]).then(a.cmp(&b)));
    let mut group_of: Vec<usize> = (0..prints.len()).collect();
    for pair in by_print.windows(2) {
        if prints[pair[0]] == prints[pair[1]] {
            group_of[pair[1]] = group_of[pair[0]];
        }
    }
    let mut members: Vec<Vec<usize>> = vec![Vec::new(); prints.len()];
    let mut out: BTreeMap<Fingerprint, Vec<usize>> = BTreeMap::new();
    for (&i, &slot) in counted.iter().zip(&slot_of) {
        if prints[slot].is_some() {
            members[group_of[slot]].push(i);
        } else {
            let r = &results[i];
            out.entry(Fingerprint::unpooled(&r.doc, &unpooled_key(r)))
                .or_default()
                .push(i);
        }
    }
    // An unpooled fingerprint holds the key `unpooled`, which no pooled one has: the two never
    // meet.
    for (slot, print) in prints.into_iter().enumerate() {
        let group = std::mem::take(&mut members[slot]);
        if let (Some(print), false) = (print, group.is_empty()) {
            out.insert(print, group);
        }
    }
    out
}

/// What tells an unidentified result's own configuration apart ([`Fingerprint::unpooled`]):
/// its id and where it was read.
pub fn unpooled_key(r: &LoadedResult) -> String {
    format!(
        "{} {}#{}",
        r.doc.id,
        r.origin.path.raw(),
        r.origin.doc_start
    )
}

/// The fingerprint a configuration's results make ([`groups`]), as [`Fingerprint::of`] or
/// [`Fingerprint::unpooled`] gives it: pooled when the result is identified.
pub fn of_result(r: &LoadedResult) -> Fingerprint {
    if unidentified(&r.doc, true).is_empty() {
        Fingerprint::of(&r.doc)
    } else {
        Fingerprint::unpooled(&r.doc, &unpooled_key(r))
    }
}

/// Indices of `results` sorted by file path and position in the file (stable). A run computes
/// it once and hands it to everything that walks the corpus in that order
/// ([`crate::rules::CorpusCtx::order`]).
pub fn path_order(results: &[LoadedResult]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..results.len()).collect();
    order.sort_by(|&a, &b| {
        let (x, y) = (&results[a].origin, &results[b].origin);
        (&x.path, x.doc_start).cmp(&(&y.path, y.doc_start))
    });
    order
}

/// 64-bit FNV-1a (Fowler, Noll, Vo): offset basis 0xcbf29ce484222325, prime 0x100000001b3.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut hash = Fnv1a::default();
    hash.write(bytes);
    hash.0
}

/// [`fnv1a`] fed a piece at a time.
struct Fnv1a(u64);

impl Default for Fnv1a {
    fn default() -> Self {
        Fnv1a(0xcbf2_9ce4_8422_2325)
    }
}

impl Fnv1a {
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }
}

#[cfg(test)]
mod packed_tests;
#[cfg(test)]
mod tests;
