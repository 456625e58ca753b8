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
use std::fmt::Write as _;

use serde_json::Value;

mod identity;

pub use identity::{IDENTIFYING_FIELDS, unidentified};

use crate::corpus::LoadedResult;
use crate::model::{Outcome, ResultDoc};

/// The fields that define a configuration, as dotted paths of the canonical result.
/// `engine.image` counts only when `engine.image_digest` is absent; the speculative method,
/// budget and draft model count only when speculation is not explicitly off.
pub const DEFINING_FIELDS: &[&str] = &[
    "platform.nodes",
    "platform.devices_per_node",
    "platform.device.model",
    "platform.shared_host",
    "harness.name",
    "engine.name",
    "engine.version",
    "engine.image_digest",
    "engine.image",
    "engine.speculative.enabled",
    "engine.speculative.method",
    "engine.speculative.num_speculative_tokens",
    "engine.speculative.draft_model",
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
    "model.name",
    "model.revision",
    "model.precision",
    "model.kernel",
    "model.thinking",
    "workload.name",
    "workload.kind",
    "workload.prompts",
    "workload.dataset",
    "workload.prompt_tokens.min",
    "workload.prompt_tokens.max",
    "workload.prompt_tokens.mean",
    "workload.max_output_tokens",
    "workload.ignore_eos",
    "workload.temperature",
    "workload.sampling",
    "workload.window.mode",
    "workload.window.ramp_s",
    "workload.window.measure_s",
    "workload.token_count_source",
    "labels",
];

/// Everything else a canonical result holds, never part of the fingerprint: run identity, run
/// conditions, provenance of the settings, and the results. A path covers everything under it.
pub const RUN_FIELDS: &[&str] = &[
    "schema",
    "id",
    "measured_at",
    "outcome",
    "harness.version",
    "harness.revision",
    "harness.dirty",
    // The client API, not the engine: how the harness spoke, not what was measured.
    "harness.backend",
    "launch",
    "repeat",
    "platform.host",
    "platform.description",
    "platform.device.memory_gib",
    "platform.load_snapshot",
    "platform.parity_check",
    "platform.nominal_clock_mhz",
    "platform.clocks_under_load_mhz",
    "platform.fabric",
    "platform.hourly_cost_usd",
    "engine.serve_command",
    "engine.serve_command_source",
    "engine.environment",
    "workload.seed",
    // The client's tokenizer counts tokens: measurement, not configuration (see above).
    "workload.tokenizer",
    // Whether responses were streamed changes what the client can time (a first token), not
    // the tokens the engine computed: measurement, like the tokenizer.
    "workload.streaming",
    "workload.warmup_requests",
    "workload.warmup_excluded",
    "workload.level_order",
    "levels",
    "artifacts",
    "cost",
    "notes",
];

/// A configuration fingerprint. Equal fingerprints are replicates; the order is that of the
/// canonical form, so maps keyed by it iterate deterministically.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Fingerprint {
    canonical: String,
    label: String,
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
        let fields = defining_values(doc, with_workload);
        let mut canonical = String::from("{");
        for (i, (key, value)) in fields.iter().enumerate() {
            if i > 0 {
                canonical.push(',');
            }
            canonical.push_str(&json_string(key));
            canonical.push(':');
            canonical.push_str(value);
        }
        canonical.push('}');
        Fingerprint {
            canonical,
            label: label(doc, with_workload),
            pooled: true,
        }
    }

    /// The fingerprint of a result that is not identified ([`unidentified`]): its own
    /// configuration, never equal to another result's. `key` tells it apart (the result's id
    /// and where it was read); it is written into the canonical form as `"unpooled"`, and the
    /// label ends with the result's id.
    pub fn unpooled(doc: &ResultDoc, key: &str) -> Self {
        let mut print = Self::build(doc, true);
        print.canonical.pop();
        if print.canonical.len() > 1 {
            print.canonical.push(',');
        }
        print.canonical.push_str("\"unpooled\":");
        print.canonical.push_str(&json_string(key));
        print.canonical.push('}');
        print.pooled = false;
        // Its label names the result: several unidentified results read alike otherwise.
        print.label = if print.label == "unnamed configuration" {
            format!("result {}", doc.id)
        } else {
            format!("{} · result {}", print.label, doc.id)
        };
        print
    }

    /// Whether results may share this fingerprint: false for an unidentified result's own.
    pub fn is_pooled(&self) -> bool {
        self.pooled
    }

    /// The canonical form: the defining fields present, as sorted JSON.
    pub fn canonical(&self) -> &str {
        &self.canonical
    }

    /// 64-bit FNV-1a hash of the canonical form (stable across runs, platforms and versions).
    pub fn hash64(&self) -> u64 {
        fnv1a(self.canonical.as_bytes())
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
/// of its own ([`Fingerprint::unpooled`]).
pub fn groups(results: &[LoadedResult]) -> BTreeMap<Fingerprint, Vec<usize>> {
    use rayon::prelude::*;
    let copy = crate::copies::copy_mask(results);
    // Fingerprints are built in parallel (each is a small canonical JSON); grouping them stays
    // in path order.
    let order = path_order(results);
    let prints: Vec<Option<Fingerprint>> = order
        .par_iter()
        .map(|&i| {
            let r = &results[i];
            (r.doc.outcome == Outcome::Ok && !copy[i]).then(|| {
                if unidentified(&r.doc, true).is_empty() {
                    Fingerprint::of(&r.doc)
                } else {
                    let key = format!("{} {}#{}", r.doc.id, r.origin.path, r.origin.doc_start);
                    Fingerprint::unpooled(&r.doc, &key)
                }
            })
        })
        .collect();
    let mut out: BTreeMap<Fingerprint, Vec<usize>> = BTreeMap::new();
    for (i, print) in order.into_iter().zip(prints) {
        if let Some(print) = print {
            out.entry(print).or_default().push(i);
        }
    }
    out
}

/// Indices of `results` sorted by file path and position in the file (stable).
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
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    hash
}

/// The defining fields present in `doc`, dotted path to canonical JSON text, sorted by path.
fn defining_values(doc: &ResultDoc, with_workload: bool) -> BTreeMap<&'static str, String> {
    let mut fields = BTreeMap::new();
    let mut put = |key: &'static str, value: Option<String>| {
        if let Some(v) = value {
            fields.insert(key, v);
        }
    };
    let text = |v: &Option<String>| v.as_deref().map(json_string);
    let int = |v: Option<u64>| v.map(|n| n.to_string());
    let flag = |v: Option<bool>| v.map(|x| x.to_string());
    let num = |v: Option<f64>| v.map(number);
    let word = |v: Option<String>| v.as_deref().map(json_string);

    if let Some(p) = &doc.platform {
        put("platform.nodes", int(p.nodes));
        put("platform.devices_per_node", int(p.devices_per_node));
        put(
            "platform.device.model",
            p.device.as_ref().and_then(|d| text(&d.model)),
        );
        put("platform.shared_host", flag(p.shared_host));
    }
    if let Some(h) = &doc.harness {
        put("harness.name", text(&h.name));
    }
    if let Some(en) = &doc.engine {
        put("engine.name", text(&en.name));
        put("engine.version", text(&en.version));
        put("engine.image_digest", text(&en.image_digest));
        if en.image_digest.is_none() {
            put("engine.image", text(&en.image));
        }
        if let Some(sp) = &en.speculative {
            put("engine.speculative.enabled", flag(sp.enabled));
            if sp.enabled != Some(false) {
                put("engine.speculative.method", text(&sp.method));
                put(
                    "engine.speculative.num_speculative_tokens",
                    int(sp.num_speculative_tokens),
                );
                put("engine.speculative.draft_model", text(&sp.draft_model));
            }
        }
        put("engine.enforce_eager", flag(en.enforce_eager));
        put("engine.kv_cache_dtype", text(&en.kv_cache_dtype));
        put("engine.max_num_seqs", int(en.max_num_seqs));
        put("engine.max_model_len", int(en.max_model_len));
        put(
            "engine.max_num_batched_tokens",
            int(en.max_num_batched_tokens),
        );
        put(
            "engine.enable_prefix_caching",
            flag(en.enable_prefix_caching),
        );
        put("engine.tensor_parallel_size", int(en.tensor_parallel_size));
        put(
            "engine.pipeline_parallel_size",
            int(en.pipeline_parallel_size),
        );
        put("engine.expert_parallel_size", int(en.expert_parallel_size));
        put("engine.data_parallel_size", int(en.data_parallel_size));
    }
    if let Some(mo) = &doc.model {
        put("model.name", text(&mo.name));
        put("model.revision", text(&mo.revision));
        put("model.precision", text(&mo.precision));
        put("model.kernel", text(&mo.kernel));
        put("model.thinking", flag(mo.thinking));
    }
    // Labels may name the deployment as well as the workload: they belong to the setup too.
    put(
        "labels",
        doc.labels.as_ref().filter(|l| !l.is_empty()).map(|map| {
            let v: serde_json::Map<String, Value> = map
                .iter()
                .map(|(k, v)| (k.clone(), Value::from(v.as_str())))
                .collect();
            canonical_json(&Value::Object(v))
        }),
    );
    if !with_workload {
        return fields;
    }
    if let Some(w) = &doc.workload {
        put("workload.name", text(&w.name));
        put("workload.kind", word(w.kind.map(enum_str)));
        put("workload.prompts", word(w.prompts.map(enum_str)));
        put("workload.dataset", text(&w.dataset));
        if let Some(pt) = &w.prompt_tokens {
            put("workload.prompt_tokens.min", num(pt.min));
            put("workload.prompt_tokens.max", num(pt.max));
            put("workload.prompt_tokens.mean", num(pt.mean));
        }
        put("workload.max_output_tokens", int(w.max_output_tokens));
        put("workload.ignore_eos", flag(w.ignore_eos));
        put("workload.temperature", num(w.temperature));
        put(
            "workload.sampling",
            w.sampling.as_ref().map(|map| {
                let v: serde_json::Map<String, Value> = map.clone().into_iter().collect();
                canonical_json(&Value::Object(v))
            }),
        );
        if let Some(win) = &w.window {
            put("workload.window.mode", word(win.mode.map(enum_str)));
            put("workload.window.ramp_s", num(win.ramp_s));
            put("workload.window.measure_s", num(win.measure_s));
        }
        put(
            "workload.token_count_source",
            word(w.token_count_source.map(enum_str)),
        );
    }
    fields
}

/// The kebab-case spelling of a serialisable unit enum (`"stream-chunks"`).
fn enum_str<T: serde::Serialize>(v: T) -> String {
    match serde_json::to_value(v) {
        Ok(Value::String(s)) => s,
        _ => "?".to_string(),
    }
}

/// The spelling of a workload kind.
fn kind_str(kind: crate::model::WorkloadKind) -> &'static str {
    use crate::model::WorkloadKind;
    match kind {
        WorkloadKind::Code => "code",
        WorkloadKind::Prose => "prose",
        WorkloadKind::Mixed => "mixed",
        WorkloadKind::Other => "other",
    }
}

/// A JSON string literal.
fn json_string(s: &str) -> String {
    serde_json::to_string(s).expect("a string serialises")
}

/// A number written one way whatever its JSON spelling: whole values as integers (`32.0` is
/// `32`), others in Rust's shortest round-trip form.
fn number(x: f64) -> String {
    if x == 0.0 {
        // -0.0 and 0.0 are one value.
        return "0".to_string();
    }
    #[expect(
        clippy::cast_possible_truncation,
        reason = "checked whole and within ±2^53"
    )]
    if x.fract() == 0.0 && x.abs() < 9.0e15 {
        return (x as i64).to_string();
    }
    format!("{x}")
}

/// JSON with object keys sorted at every depth and numbers as [`number`] writes them.
fn canonical_json(v: &Value) -> String {
    match v {
        Value::Null | Value::Bool(_) | Value::String(_) => v.to_string(),
        Value::Number(n) => match (n.as_u64(), n.as_i64(), n.as_f64()) {
            (Some(u), _, _) => u.to_string(),
            (_, Some(i), _) => i.to_string(),
            (_, _, Some(f)) => number(f),
            _ => n.to_string(),
        },
        Value::Array(items) => {
            let inner: Vec<String> = items.iter().map(canonical_json).collect();
            format!("[{}]", inner.join(","))
        }
        Value::Object(map) => {
            let sorted: BTreeMap<&String, &Value> = map.iter().collect();
            let inner: Vec<String> = sorted
                .into_iter()
                .map(|(k, v)| format!("{}:{}", json_string(k), canonical_json(v)))
                .collect();
            format!("{{{}}}", inner.join(","))
        }
    }
}

/// `engine version | model precision spec | platform | workload`, with `?` for what is absent.
/// What a configuration's label says, for the legend of every output that shows labels.
pub const LABEL_LEGEND: &str = "A configuration is named by what its files record, in this order: model and precision · engine and version · devices × device model (and nodes) · speculative decoding · workload. A part not recorded is left out (`benchlint check` lists what is missing); a result that is not identified, and so pooled with nothing, ends with its result id (a harness's file and position).";

/// The label of a configuration: the parts of [`LABEL_LEGEND`] that `doc` records, joined by
/// ` · `; "unnamed configuration" when it records none.
fn label(doc: &ResultDoc, with_workload: bool) -> String {
    let known = |v: Option<&String>| {
        v.map(|s| s.trim())
            .filter(|s| !s.is_empty() && !crate::rules::m016_placeholder_value::is_placeholder(s))
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
        .filter(|d| !d.is_empty() && !crate::rules::m016_placeholder_value::is_placeholder(d));
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

#[cfg(test)]
mod tests;
