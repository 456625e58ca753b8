//! Typed serde structs for one canonical result (`benchlint/result/v1`).
//!
//! Field names follow vLLM's engine arguments where one exists; units are in the key names.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use super::{Artifacts, Cost, Engine, Levels, Model, Platform, Workload};

/// `measured_at` of a result whose file records no date (adapters write the Unix epoch).
pub const UNDATED_PREFIX: &str = "1970-01-01T00:00:00";

/// One result: one ladder run by one harness against one engine launch.
///
/// The parts that describe a configuration (harness, platform, engine, model, workload,
/// labels) are reference-counted: replicates repeat them, and a corpus kept for the group
/// rules holds each distinct one once ([`crate::corpus::SharedParts`]).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ResultDoc {
    /// Always `benchlint/result/v1`.
    pub schema: String,
    /// Unique, stable id in the corpus; claims refer to it.
    pub id: String,
    /// RFC 3339 time of the measurement; rule adoption dates compare against it.
    pub measured_at: String,
    /// Whether the run produced a result (`ok`) or lost (`does-not-fit`, `failed`, `aborted`).
    pub outcome: Outcome,
    /// The harness that wrote the file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub harness: Option<Arc<Harness>>,
    /// The engine launch (one start of the serving engine) this run belongs to (shared by the
    /// kept results of one launch, like the configuration parts).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub launch: Option<Arc<Launch>>,
    /// Index (from 1) of this ladder inside its launch.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub repeat: Option<u64>,
    /// The hardware the engine ran on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub platform: Option<Arc<Platform>>,
    /// The serving engine and its settings.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub engine: Option<Arc<Engine>>,
    /// The served model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<Arc<Model>>,
    /// What the harness sent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub workload: Option<Arc<Workload>>,
    /// One entry per concurrency level (packed once the result is only kept for the
    /// corpus-wide rules, [`Levels`]).
    #[serde(default)]
    pub levels: Levels,
    /// Files paired with this result (power trace, quality gate). Boxed, as `cost`: most
    /// results record neither, and a result is kept for every run of the corpus.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub artifacts: Option<Box<Artifacts>>,
    /// Cost figures and the basis they rest on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cost: Option<Box<Cost>>,
    /// Free-form labels the harness recorded (vLLM `--metadata` pairs and `--label`, a scenario
    /// name), key to text. Part of the configuration fingerprint: two deployments a harness
    /// labels differently are two configurations, whatever else they record.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub labels: Option<Arc<super::SmallMap<String>>>,
    /// Free text.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub notes: Option<String>,
}

/// How a run ended. Losing runs are results too (seed 004).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Outcome {
    /// The run completed and produced figures.
    #[default]
    Ok,
    /// The model did not load on this platform.
    DoesNotFit,
    /// The run failed.
    Failed,
    /// The run was stopped before it finished.
    Aborted,
}

impl Outcome {
    /// The value as written in the file.
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Ok => "ok",
            Outcome::DoesNotFit => "does-not-fit",
            Outcome::Failed => "failed",
            Outcome::Aborted => "aborted",
        }
    }
}

/// The benchmark harness.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Harness {
    /// Harness name (`vllm-bench-serve`, `guidellm`, a team's own).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Harness version.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    /// Git revision (sha) of the harness.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub revision: Option<String>,
    /// Whether the harness checkout had uncommitted changes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dirty: Option<bool>,
    /// The client API the harness spoke (`vllm`, `openai-chat`, `openai_http`, `chat`): the
    /// request format, in the harness's own word, not the engine that served it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub backend: Option<String>,
    /// The harness's own verdict on the run and the parameters it judged it against.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub validity: Option<HarnessValidity>,
}

/// A harness's own verdict (MLPerf loadgen's `Result is : VALID`) and the minimums, caps and
/// limits behind it: a verdict is only as good as its parameters.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct HarnessValidity {
    /// Valid (every check the harness makes passed) or invalid.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub verdict: Option<Verdict>,
    /// Why the harness declared the run invalid, in its words.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub invalid_reason: Option<String>,
    /// The run lasted at least `min_duration_s`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_duration_met: Option<bool>,
    /// The run issued at least `min_queries`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_queries_met: Option<bool>,
    /// The early-stopping criterion was met.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub early_stopping_met: Option<bool>,
    /// The latency constraints were met.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub latency_constraints_met: Option<bool>,
    /// Minimum run duration held to, seconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_duration_s: Option<f64>,
    /// Cap on run duration, seconds (0: none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_duration_s: Option<f64>,
    /// Minimum query count held to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_queries: Option<u64>,
    /// Cap on queries issued (0: none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_queries: Option<u64>,
    /// Time-to-first-token limit of the latency constraint, seconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ttft_limit_s: Option<f64>,
    /// Time-per-output-token limit of the latency constraint, milliseconds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tpot_limit_ms: Option<f64>,
}

/// A harness's verdict on a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// Every check the harness makes passed.
    Valid,
    /// At least one failed.
    Invalid,
}

/// One start of the serving engine: the unit of replication.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Launch {
    /// Id shared by every run against the same engine start.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// RFC 3339 time the engine started.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub started_at: Option<String>,
}

impl ResultDoc {
    /// The typical prompt length of the workload ([`super::PromptTokens::typical`]), when
    /// recorded.
    pub fn typical_prompt_tokens(&self) -> Option<f64> {
        self.workload.as_ref()?.prompt_tokens.as_ref()?.typical()
    }

    /// Whether speculative decoding was on, when that is known.
    pub fn speculation_on(&self) -> Option<bool> {
        self.engine.as_ref()?.speculative.as_ref()?.enabled
    }

    /// The date part (`YYYY-MM-DD`) of `measured_at`, when it has one. The Unix epoch is what
    /// adapters write for a file that records no date: it is not a date, and a rule adoption
    /// date is then applied strictly rather than labelling the result as measured before it.
    pub fn measured_date(&self) -> Option<&str> {
        if self.measured_at.starts_with(UNDATED_PREFIX) {
            return None;
        }
        let d = self.measured_at.get(..10)?;
        let b = d.as_bytes();
        let shape_ok = b.len() == 10
            && b[4] == b'-'
            && b[7] == b'-'
            && b.iter()
                .enumerate()
                .all(|(i, c)| i == 4 || i == 7 || c.is_ascii_digit());
        shape_ok.then_some(d)
    }
}
