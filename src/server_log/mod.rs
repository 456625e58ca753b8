//! Reading the engine's own log (`server.log` kept in a run folder) for what the engine said
//! about itself as it started: its name, version and settings, verbatim.
//!
//! Only a few lines matter, and logs run to many megabytes, so the log is streamed a line at a
//! time ([`LogScan::line`]) and the scan stops as soon as the lines below have been seen:
//!
//! - **vLLM**: the banner's `version X.Y.Z` (or `vLLM API server version X.Y.Z`);
//!   `non-default args: {...}` (the arguments given, as a Python dict); `Initializing a V1 LLM
//!   engine (vX.Y.Z) with config: k=v, ...` (older: `Initializing an LLM engine`), the
//!   effective configuration, defaults included; `Chunked prefill is enabled with
//!   max_num_batched_tokens=N`.
//! - **SGLang**: `server_args=ServerArgs(...)`, every server argument with its effective
//!   value. SGLang does not log its version there, so none is read.
//!
//! The effective configuration line answers what the arguments leave to defaults
//! (`enforce_eager=False`, `speculative_config=None` is an explicit off): the engine printed
//! what it ran with, which is exactly what the checklist asks. Where both lines name a setting
//! the effective one wins. The model is the name the server answered to
//! (`served_model_name`), else the path it loaded, so that it compares with the name a
//! harness sent. Precision is the quantization method, else the weight dtype the engine
//! resolved (`torch.bfloat16` is `bfloat16`; SGLang's `auto` says nothing).

mod pyrepr;

use serde_json::{Map, Value};

pub use pyrepr::{keyword_args, value as python_value};

/// One value the log gives, at a canonical pointer.
#[derive(Debug, Clone, PartialEq)]
pub struct Fact {
    /// Canonical pointer (`/engine/tensor_parallel_size`).
    pub pointer: String,
    /// The value, in the canonical field's type.
    pub value: Value,
    /// Byte offset of the line it was read from.
    pub offset: usize,
}

/// What a scan found.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LogFacts {
    /// The values, in canonical pointer order.
    pub facts: Vec<Fact>,
}

/// A scan in progress: feed it lines until [`LogScan::line`] returns false.
#[derive(Debug, Default)]
pub struct LogScan {
    vllm_at: Option<usize>,
    version: Option<(String, usize)>,
    non_default: Option<(Map<String, Value>, usize)>,
    config: Option<(Map<String, Value>, usize)>,
    batched: Option<(u64, usize)>,
    sglang: Option<(Map<String, Value>, usize)>,
}

impl LogScan {
    /// Reads one line (without its newline) that starts at byte `offset`; false once
    /// everything that matters has been seen.
    pub fn line(&mut self, offset: usize, line: &str) -> bool {
        if self.sglang.is_none()
            && let Some(i) = line.find("server_args=ServerArgs(")
        {
            if let Value::Object(args) = pyrepr::value(&line[i + "server_args=".len()..]) {
                self.sglang = Some((args, offset));
            }
            return false;
        }
        if self.version.is_none()
            && let Some(v) = banner_version(line)
        {
            self.version = Some((v, offset));
            self.vllm_at.get_or_insert(offset);
        }
        if self.non_default.is_none()
            && let Some(i) = line.find("non-default args: {")
            && let Value::Object(args) = pyrepr::value(&line[i + "non-default args: ".len()..])
        {
            self.non_default = Some((args, offset));
            self.vllm_at.get_or_insert(offset);
        }
        if self.batched.is_none()
            && let Some(i) = line.find("Chunked prefill is enabled with max_num_batched_tokens=")
        {
            let rest = &line[i + "Chunked prefill is enabled with max_num_batched_tokens=".len()..];
            let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
            if let Ok(n) = digits.parse::<u64>() {
                self.batched = Some((n, offset));
            }
        }
        if self.config.is_none()
            && line.contains("LLM engine (v")
            && let Some(i) = line.find(" with config: ")
        {
            let head = &line[..i];
            if self.version.is_none()
                && let Some(v) = head
                    .rsplit_once("LLM engine (v")
                    .and_then(|(_, r)| r.split(')').next())
                    .filter(|v| !v.is_empty())
            {
                self.version = Some((v.to_string(), offset));
            }
            self.config = Some((
                pyrepr::keyword_args(&line[i + " with config: ".len()..]),
                offset,
            ));
            self.vllm_at.get_or_insert(offset);
        }
        !(self.config.is_some() && self.version.is_some())
    }

    /// The facts found.
    pub fn finish(self) -> LogFacts {
        let mut facts = Vec::new();
        if let Some((args, offset)) = &self.sglang {
            sglang_facts(args, *offset, &mut facts);
        } else if let Some(at) = self.vllm_at {
            self.vllm_facts(at, &mut facts);
        }
        facts.sort_by(|a, b| a.pointer.cmp(&b.pointer));
        facts.dedup_by(|a, b| a.pointer == b.pointer);
        LogFacts { facts }
    }

    fn vllm_facts(&self, at: usize, facts: &mut Vec<Fact>) {
        let mut put = |pointer: &str, value: Value, offset: usize| {
            if !facts.iter().any(|f| f.pointer == pointer) {
                facts.push(Fact {
                    pointer: pointer.to_string(),
                    value,
                    offset,
                });
            }
        };
        put("/engine/name", Value::from("vllm"), at);
        if let Some((v, offset)) = &self.version {
            put(
                "/engine/version",
                Value::from(v.trim_start_matches('v')),
                *offset,
            );
        }
        // The effective configuration first, then the arguments given.
        let sources = [
            self.config.as_ref().map(|(m, o)| (m, *o, true)),
            self.non_default.as_ref().map(|(m, o)| (m, *o, false)),
        ];
        for (args, offset, effective) in sources.into_iter().flatten() {
            let get = |k: &str| args.get(k);
            for (key, pointer) in [
                ("tensor_parallel_size", "/engine/tensor_parallel_size"),
                ("pipeline_parallel_size", "/engine/pipeline_parallel_size"),
                ("data_parallel_size", "/engine/data_parallel_size"),
                ("max_num_seqs", "/engine/max_num_seqs"),
                ("max_model_len", "/engine/max_model_len"),
                ("max_seq_len", "/engine/max_model_len"),
                ("max_num_batched_tokens", "/engine/max_num_batched_tokens"),
            ] {
                if let Some(n) = get(key).and_then(Value::as_u64).filter(|n| *n >= 1) {
                    put(pointer, Value::from(n), offset);
                }
            }
            for (key, pointer) in [
                ("enable_prefix_caching", "/engine/enable_prefix_caching"),
                ("enforce_eager", "/engine/enforce_eager"),
            ] {
                if let Some(b) = get(key).and_then(Value::as_bool) {
                    put(pointer, Value::from(b), offset);
                }
            }
            if let Some(d) = get("kv_cache_dtype").and_then(word) {
                put("/engine/kv_cache_dtype", Value::from(d), offset);
            }
            for key in ["served_model_name", "model", "model_tag"] {
                if let Some(m) = get(key).and_then(first_word) {
                    put("/model/name", Value::from(m), offset);
                }
            }
            if let Some(r) = get("revision").and_then(word) {
                put("/model/revision", Value::from(r), offset);
            }
            if let Some(q) = get("quantization").and_then(word) {
                put("/model/precision", Value::from(q), offset);
            } else if effective && let Some(d) = get("dtype").and_then(word).filter(|d| d != "auto")
            {
                put(
                    "/model/precision",
                    Value::from(d.trim_start_matches("torch.")),
                    offset,
                );
            }
            match get("speculative_config") {
                Some(Value::Null) if effective => {
                    put("/engine/speculative/enabled", Value::from(false), offset);
                }
                Some(Value::Object(spec)) => {
                    put("/engine/speculative/enabled", Value::from(true), offset);
                    if let Some(m) = spec.get("method").and_then(word) {
                        put(
                            "/engine/speculative/method",
                            Value::from(m.to_ascii_lowercase()),
                            offset,
                        );
                    }
                    if let Some(n) = spec.get("num_speculative_tokens").and_then(Value::as_u64) {
                        put(
                            "/engine/speculative/num_speculative_tokens",
                            Value::from(n),
                            offset,
                        );
                    }
                    if let Some(d) = spec.get("model").and_then(word) {
                        put("/engine/speculative/draft_model", Value::from(d), offset);
                    }
                }
                _ => {}
            }
        }
        if let Some((n, offset)) = self.batched {
            put("/engine/max_num_batched_tokens", Value::from(n), offset);
        }
    }
}

/// A non-empty text value that is not Python's `None`.
fn word(v: &Value) -> Option<String> {
    v.as_str()
        .map(str::trim)
        .filter(|s| !s.is_empty() && *s != "None")
        .map(str::to_string)
}

/// A name, or the first of a list of names (`served_model_name` may be a list).
fn first_word(v: &Value) -> Option<String> {
    match v {
        Value::Array(items) if items.len() == 1 => word(&items[0]),
        other => word(other),
    }
}

/// The version in vLLM's start banner (`... █  version 0.22.0`) or its older start line
/// (`vLLM API server version 0.6.3`).
fn banner_version(line: &str) -> Option<String> {
    let rest = if let Some(i) = line.find("vLLM API server version ") {
        &line[i + "vLLM API server version ".len()..]
    } else if line.contains('█')
        && let Some(i) = line.find(" version ")
    {
        &line[i + " version ".len()..]
    } else {
        return None;
    };
    let v: String = rest
        .trim_start()
        .chars()
        .take_while(|c| !c.is_whitespace())
        .collect();
    (v.chars().next().is_some_and(|c| c.is_ascii_digit()) && v.len() <= 64).then_some(v)
}

/// SGLang's server arguments, with the keys `bench_serving`'s `server_info` carries.
fn sglang_facts(args: &Map<String, Value>, offset: usize, facts: &mut Vec<Fact>) {
    let mut put = |pointer: &str, value: Value| {
        facts.push(Fact {
            pointer: pointer.to_string(),
            value,
            offset,
        });
    };
    put("/engine/name", Value::from("sglang"));
    let get = |k: &str| args.get(k);
    for (key, pointer) in [
        ("tp_size", "/engine/tensor_parallel_size"),
        ("pp_size", "/engine/pipeline_parallel_size"),
        ("dp_size", "/engine/data_parallel_size"),
        ("ep_size", "/engine/expert_parallel_size"),
        ("max_running_requests", "/engine/max_num_seqs"),
        ("context_length", "/engine/max_model_len"),
    ] {
        if let Some(n) = get(key).and_then(Value::as_u64).filter(|n| *n >= 1) {
            put(pointer, Value::from(n));
        }
    }
    // `--chunked-prefill-size` is the per-step token budget (serve_command's mapping too);
    // -1 turns chunking off and records nothing.
    if let Some(n) = get("chunked_prefill_size")
        .and_then(Value::as_u64)
        .filter(|n| *n >= 1)
    {
        put("/engine/max_num_batched_tokens", Value::from(n));
    }
    if let Some(d) = get("kv_cache_dtype").and_then(word) {
        put("/engine/kv_cache_dtype", Value::from(d));
    }
    if let Some(off) = get("disable_radix_cache").and_then(Value::as_bool) {
        put("/engine/enable_prefix_caching", Value::from(!off));
    }
    if let Some(b) = get("disable_cuda_graph").and_then(Value::as_bool) {
        put("/engine/enforce_eager", Value::from(b));
    }
    if let Some(m) = get("served_model_name")
        .and_then(first_word)
        .or_else(|| get("model_path").and_then(word))
    {
        put("/model/name", Value::from(m));
    }
    if let Some(r) = get("revision").and_then(word) {
        put("/model/revision", Value::from(r));
    }
    if let Some(q) = get("quantization").and_then(word) {
        put("/model/precision", Value::from(q));
    } else if let Some(d) = get("dtype").and_then(word).filter(|d| d != "auto") {
        put("/model/precision", Value::from(d));
    }
    match get("speculative_algorithm") {
        Some(Value::Null) => put("/engine/speculative/enabled", Value::from(false)),
        Some(v) => {
            if let Some(name) = word(v) {
                put("/engine/speculative/enabled", Value::from(true));
                put(
                    "/engine/speculative/method",
                    Value::from(name.to_ascii_lowercase()),
                );
                if let Some(n) = get("speculative_num_steps").and_then(Value::as_u64) {
                    put("/engine/speculative/num_speculative_tokens", Value::from(n));
                }
                if let Some(d) = get("speculative_draft_model_path").and_then(word) {
                    put("/engine/speculative/draft_model", Value::from(d));
                }
            }
        }
        None => {}
    }
}

#[cfg(test)]
mod tests;
