//! A typed model of a canonical result (`schemas/result.schema.json`), written for this
//! measurement only. Every parser that speaks serde (serde_json, simd-json's serde layer,
//! sonic-rs) reads into the same types.
//!
//! What it reads: every top-level member of the schema, typed, except the free-form objects
//! (`engine.environment` and `labels` are read as lists of string pairs; `workload.sampling`,
//! `platform.fabric.collectives` and `platform.load_snapshot.*` are skipped with `IgnoredAny`).
//! Each level is read field by field; its `samples` object is read either into four
//! `Vec<f64>` ([`Samples`]) or skipped ([`serde::de::IgnoredAny`]), by the type parameter `S`.
//! Unknown members are ignored. Strings are borrowed from the input where the parser allows it
//! ([`Text`]). Integers outside the levels are read as `u64` (`workload.seed` as `i64`); a
//! level's numbers, counts included, as `f64`; other numbers as `f64`.

use std::borrow::Cow;
use std::fmt;

use serde::Deserialize;
use serde::de::{self, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};

/// A string borrowed from the input when it has no escapes (or when the parser unescapes in
/// place, as simd-json does), owned otherwise. Serde's own `Cow<str>` always owns inside an
/// `Option`, so this small wrapper does the borrowing.
#[derive(Clone, PartialEq)]
pub struct Text<'a>(pub Cow<'a, str>);

/// Printed as the string alone, borrowed or not, so two parsers' reads print alike.
impl fmt::Debug for Text<'_> {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        fmt::Debug::fmt(&*self.0, f)
    }
}

impl<'de: 'a, 'a> Deserialize<'de> for Text<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Text<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a string")
            }
            fn visit_borrowed_str<E: de::Error>(self, s: &'de str) -> Result<Self::Value, E> {
                Ok(Text(Cow::Borrowed(s)))
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<Self::Value, E> {
                Ok(Text(Cow::Owned(s.to_owned())))
            }
            fn visit_string<E: de::Error>(self, s: String) -> Result<Self::Value, E> {
                Ok(Text(Cow::Owned(s)))
            }
        }
        d.deserialize_str(V)
    }
}

/// A JSON object of strings read as a list of pairs, in document order.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Pairs<'a>(pub Vec<(Text<'a>, Text<'a>)>);

impl<'de: 'a, 'a> Deserialize<'de> for Pairs<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Pairs<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an object of strings")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
                let mut out = Vec::with_capacity(map.size_hint().unwrap_or(0));
                while let Some(pair) = map.next_entry::<Text<'de>, Text<'de>>()? {
                    out.push(pair);
                }
                Ok(Pairs(out))
            }
        }
        d.deserialize_map(V)
    }
}

/// `engine.serve_command`: an argv array or one shell line.
#[derive(Debug, Clone, PartialEq)]
pub enum Command<'a> {
    Argv(Vec<Text<'a>>),
    Line(Text<'a>),
}

impl<'de: 'a, 'a> Deserialize<'de> for Command<'a> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Command<'de>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an array of strings or a string")
            }
            fn visit_borrowed_str<E: de::Error>(self, s: &'de str) -> Result<Self::Value, E> {
                Ok(Command::Line(Text(Cow::Borrowed(s))))
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<Self::Value, E> {
                Ok(Command::Line(Text(Cow::Owned(s.to_owned()))))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
                let mut out = Vec::with_capacity(seq.size_hint().unwrap_or(0));
                while let Some(arg) = seq.next_element::<Text<'de>>()? {
                    out.push(arg);
                }
                Ok(Command::Argv(out))
            }
        }
        d.deserialize_any(V)
    }
}

/// `levels[].request_rate`: a number, or `"inf"`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Rate {
    PerSecond(f64),
    Infinite,
}

impl<'de> Deserialize<'de> for Rate {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = Rate;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a number or \"inf\"")
            }
            fn visit_f64<E: de::Error>(self, x: f64) -> Result<Rate, E> {
                Ok(Rate::PerSecond(x))
            }
            #[allow(clippy::cast_precision_loss)]
            fn visit_u64<E: de::Error>(self, x: u64) -> Result<Rate, E> {
                Ok(Rate::PerSecond(x as f64))
            }
            #[allow(clippy::cast_precision_loss)]
            fn visit_i64<E: de::Error>(self, x: i64) -> Result<Rate, E> {
                Ok(Rate::PerSecond(x as f64))
            }
            fn visit_str<E: de::Error>(self, s: &str) -> Result<Rate, E> {
                if s == "inf" {
                    Ok(Rate::Infinite)
                } else {
                    Err(E::invalid_value(de::Unexpected::Str(s), &self))
                }
            }
        }
        d.deserialize_any(V)
    }
}

/// A canonical result document. `S` is what a level's `samples` object is read into.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Document<'a, S> {
    #[serde(borrow)]
    pub schema: Text<'a>,
    #[serde(borrow)]
    pub id: Text<'a>,
    #[serde(borrow)]
    pub measured_at: Text<'a>,
    #[serde(borrow)]
    pub outcome: Text<'a>,
    #[serde(borrow)]
    pub harness: Option<Harness<'a>>,
    #[serde(borrow)]
    pub launch: Option<Launch<'a>>,
    pub repeat: Option<u64>,
    #[serde(borrow)]
    pub platform: Option<Platform<'a>>,
    #[serde(borrow)]
    pub engine: Option<Engine<'a>>,
    #[serde(borrow)]
    pub model: Option<Model<'a>>,
    #[serde(borrow)]
    pub workload: Option<Workload<'a>>,
    pub levels: Vec<Level<S>>,
    #[serde(borrow)]
    pub artifacts: Option<Artifacts<'a>>,
    #[serde(borrow)]
    pub cost: Option<Cost<'a>>,
    #[serde(borrow)]
    pub labels: Option<Pairs<'a>>,
    #[serde(borrow)]
    pub notes: Option<Text<'a>>,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Harness<'a> {
    #[serde(borrow)]
    pub name: Option<Text<'a>>,
    #[serde(borrow)]
    pub version: Option<Text<'a>>,
    #[serde(borrow)]
    pub revision: Option<Text<'a>>,
    pub dirty: Option<bool>,
    #[serde(borrow)]
    pub backend: Option<Text<'a>>,
    #[serde(borrow)]
    pub validity: Option<Validity<'a>>,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Validity<'a> {
    #[serde(borrow)]
    pub verdict: Option<Text<'a>>,
    #[serde(borrow)]
    pub invalid_reason: Option<Text<'a>>,
    pub min_duration_met: Option<bool>,
    pub min_queries_met: Option<bool>,
    pub early_stopping_met: Option<bool>,
    pub latency_constraints_met: Option<bool>,
    pub min_duration_s: Option<f64>,
    pub max_duration_s: Option<f64>,
    pub min_queries: Option<u64>,
    pub max_queries: Option<u64>,
    pub ttft_limit_s: Option<f64>,
    pub tpot_limit_ms: Option<f64>,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Launch<'a> {
    #[serde(borrow)]
    pub id: Option<Text<'a>>,
    #[serde(borrow)]
    pub started_at: Option<Text<'a>>,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Platform<'a> {
    #[serde(borrow)]
    pub host: Option<Text<'a>>,
    #[serde(borrow)]
    pub description: Option<Text<'a>>,
    pub nodes: Option<u64>,
    pub devices_per_node: Option<u64>,
    #[serde(borrow)]
    pub device: Option<Device<'a>>,
    pub shared_host: Option<bool>,
    pub load_snapshot: Option<LoadSnapshot>,
    #[serde(borrow)]
    pub parity_check: Option<ParityCheck<'a>>,
    pub nominal_clock_mhz: Option<f64>,
    pub clocks_under_load_mhz: Option<Vec<f64>>,
    #[serde(borrow)]
    pub fabric: Option<Fabric<'a>>,
    pub hourly_cost_usd: Option<f64>,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Device<'a> {
    #[serde(borrow)]
    pub model: Option<Text<'a>>,
    pub memory_gib: Option<f64>,
}

/// Free-form samples of the host's load: skipped.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct LoadSnapshot {
    pub before: Option<IgnoredAny>,
    pub during: Option<IgnoredAny>,
    pub after: Option<IgnoredAny>,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct ParityCheck<'a> {
    #[serde(borrow)]
    pub at: Option<Text<'a>>,
    pub passed: Option<bool>,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Fabric<'a> {
    #[serde(borrow)]
    pub interconnect: Option<Text<'a>>,
    /// Free-form (strings and numbers): skipped.
    pub collectives: Option<IgnoredAny>,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Engine<'a> {
    #[serde(borrow)]
    pub name: Option<Text<'a>>,
    #[serde(borrow)]
    pub version: Option<Text<'a>>,
    #[serde(borrow)]
    pub image: Option<Text<'a>>,
    #[serde(borrow)]
    pub image_digest: Option<Text<'a>>,
    #[serde(borrow)]
    pub serve_command: Option<Command<'a>>,
    #[serde(borrow)]
    pub serve_command_source: Option<Text<'a>>,
    #[serde(borrow)]
    pub environment: Option<Pairs<'a>>,
    #[serde(borrow)]
    pub speculative: Option<Speculative<'a>>,
    pub enforce_eager: Option<bool>,
    #[serde(borrow)]
    pub kv_cache_dtype: Option<Text<'a>>,
    pub max_num_seqs: Option<u64>,
    pub max_model_len: Option<u64>,
    pub max_num_batched_tokens: Option<u64>,
    pub enable_prefix_caching: Option<bool>,
    pub tensor_parallel_size: Option<u64>,
    pub pipeline_parallel_size: Option<u64>,
    pub expert_parallel_size: Option<u64>,
    pub data_parallel_size: Option<u64>,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Speculative<'a> {
    pub enabled: Option<bool>,
    #[serde(borrow)]
    pub method: Option<Text<'a>>,
    pub num_speculative_tokens: Option<u64>,
    #[serde(borrow)]
    pub draft_model: Option<Text<'a>>,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Model<'a> {
    #[serde(borrow)]
    pub name: Option<Text<'a>>,
    #[serde(borrow)]
    pub revision: Option<Text<'a>>,
    #[serde(borrow)]
    pub precision: Option<Text<'a>>,
    #[serde(borrow)]
    pub kernel: Option<Text<'a>>,
    pub thinking: Option<bool>,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Workload<'a> {
    #[serde(borrow)]
    pub name: Option<Text<'a>>,
    #[serde(borrow)]
    pub kind: Option<Text<'a>>,
    #[serde(borrow)]
    pub prompts: Option<Text<'a>>,
    #[serde(borrow)]
    pub dataset: Option<Text<'a>>,
    pub prompt_tokens: Option<TokenRange>,
    pub max_output_tokens: Option<u64>,
    pub ignore_eos: Option<bool>,
    pub temperature: Option<f64>,
    pub seed: Option<i64>,
    /// Free-form sampling parameters: skipped.
    pub sampling: Option<IgnoredAny>,
    pub warmup_requests: Option<u64>,
    pub warmup_excluded: Option<bool>,
    #[serde(borrow)]
    pub level_order: Option<Text<'a>>,
    #[serde(borrow)]
    pub window: Option<Window<'a>>,
    pub streaming: Option<bool>,
    #[serde(borrow)]
    pub tokenizer: Option<Text<'a>>,
    #[serde(borrow)]
    pub token_count_source: Option<Text<'a>>,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct TokenRange {
    pub min: Option<f64>,
    pub max: Option<f64>,
    pub mean: Option<f64>,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Window<'a> {
    #[serde(borrow)]
    pub mode: Option<Text<'a>>,
    pub ramp_s: Option<f64>,
    pub measure_s: Option<f64>,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Artifacts<'a> {
    #[serde(borrow)]
    pub power_trace: Option<PowerTrace<'a>>,
    #[serde(borrow)]
    pub quality_gate: Option<QualityGate<'a>>,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct PowerTrace<'a> {
    #[serde(borrow)]
    pub path: Option<Text<'a>>,
    #[serde(borrow)]
    pub kind: Option<Text<'a>>,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct QualityGate<'a> {
    #[serde(borrow)]
    pub path: Option<Text<'a>>,
    pub passed: Option<bool>,
    pub score: Option<f64>,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Cost<'a> {
    pub hourly_usd: Option<f64>,
    pub per_million_output_usd: Option<f64>,
    #[serde(borrow)]
    pub basis: Option<Text<'a>>,
}

/// One level of the ladder. Counts are integers in the schema; they are read as `f64` so that
/// a count written `250.0` (valid against the schema's `integer`) reads as it does in a
/// `serde_json::Value`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Level<S> {
    pub concurrency: Option<f64>,
    pub request_rate: Option<Rate>,
    pub achieved_request_rate: Option<f64>,
    pub max_concurrency: Option<f64>,
    pub mean_in_flight: Option<f64>,
    pub requests: Option<f64>,
    pub failed: Option<f64>,
    pub total_requests: Option<f64>,
    pub error_rate: Option<f64>,
    pub duration_s: Option<f64>,
    pub output_tokens: Option<f64>,
    pub server_output_tokens: Option<f64>,
    pub reasoning_tokens: Option<f64>,
    pub throughput_tok_s: Option<Throughput>,
    pub per_user_tok_s: Option<PerUser>,
    pub ttft_s: Option<Quantiles3>,
    pub tpot_ms: Option<Quantiles2>,
    pub e2e_s: Option<Quantiles2>,
    pub gpu_mem_gib: Option<f64>,
    pub power_w: Option<Power>,
    pub samples: Option<S>,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Throughput {
    pub decode: Option<f64>,
    pub prefill: Option<f64>,
    pub aggregate: Option<f64>,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct PerUser {
    pub mean: Option<f64>,
    pub median: Option<f64>,
    pub p10: Option<f64>,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Quantiles3 {
    pub p50: Option<f64>,
    pub p95: Option<f64>,
    pub p99: Option<f64>,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Quantiles2 {
    pub p50: Option<f64>,
    pub p95: Option<f64>,
}

#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Power {
    pub mean: Option<f64>,
    /// `"wall"` or `"device"`; an enum in the schema, read as a plain string tag here.
    pub kind: Option<PowerKind>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PowerKind {
    Wall,
    Device,
}

/// The per-request arrays of a level, read into numbers.
#[derive(Debug, Clone, PartialEq, Default, Deserialize)]
pub struct Samples {
    #[serde(default)]
    pub ttft_s: Vec<f64>,
    #[serde(default)]
    pub tpot_ms: Vec<f64>,
    #[serde(default)]
    pub per_user_tok_s: Vec<f64>,
    #[serde(default)]
    pub output_tokens: Vec<f64>,
}

/// What the samples of a level contribute to the check of a parse: the count of numbers read
/// and their sum.
pub trait SampleTally {
    fn tally(&self) -> (usize, f64);
}

impl SampleTally for Samples {
    fn tally(&self) -> (usize, f64) {
        let all = [
            &self.ttft_s,
            &self.tpot_ms,
            &self.per_user_tok_s,
            &self.output_tokens,
        ];
        (
            all.iter().map(|v| v.len()).sum(),
            all.iter().flat_map(|v| v.iter()).sum(),
        )
    }
}

impl SampleTally for IgnoredAny {
    fn tally(&self) -> (usize, f64) {
        (0, 0.0)
    }
}

impl<S: SampleTally> Document<'_, S> {
    /// Numbers read from the samples of every level, and their sum.
    pub fn sample_tally(&self) -> (usize, f64) {
        self.levels
            .iter()
            .filter_map(|l| l.samples.as_ref())
            .map(SampleTally::tally)
            .fold((0, 0.0), |a, b| (a.0 + b.0, a.1 + b.1))
    }
}
