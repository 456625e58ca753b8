//! What `benchlint audit` reports: the corpus report (what each file records and lacks, the
//! findings by file and by rule, every configuration's ladder with its intervals, capacity and
//! replication status, the losing runs) and, with a claims file, the retractions report on top
//! of it (for each published claim, a verdict: upheld, restated, unresolved, retracted,
//! pre-rule, with the codes and reasons behind it). Renderers in `report/` turn an
//! [`AuditReport`] into Markdown, HTML and JSON.

pub mod checklist;
pub mod corpus;
mod ladders;
pub mod replication;

use serde::Serialize;

pub use checklist::{Checklist, ChecklistItem, Coverage, FileCoverage};
pub use corpus::{CorpusReport, FileRow, RuleRow, SeverityCounts};
pub use ladders::Ladders;
pub use replication::{Need, Replication, Standing};

use crate::model::{LevelKey, RequestRate};
use crate::text::{FileText, Text};

/// What the audit decided about one claim.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    /// The runs support the published value on the basis it states.
    Upheld,
    /// The comparison holds only on a matched basis, at another value (`restated_value`).
    Restated,
    /// The runs disagree, or are too few, to decide ("not yet resolved").
    Unresolved,
    /// The runs do not support the claim.
    Retracted,
    /// Measured before a rule was adopted: labelled, not failed.
    PreRule,
}

impl Verdict {
    /// The kebab-case word used in every output.
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Upheld => "upheld",
            Verdict::Restated => "restated",
            Verdict::Unresolved => "unresolved",
            Verdict::Retracted => "retracted",
            Verdict::PreRule => "pre-rule",
        }
    }
}

/// The audit of one claim.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ClaimOutcome {
    /// The claim's id.
    pub id: FileText,
    /// The sentence as published, when given.
    pub statement: Option<FileText>,
    /// `figure` or `ratio`.
    pub kind: String,
    /// The metric (`aggregate_tok_s`, ...), as the claims file writes it.
    pub metric: FileText,
    /// The verdict.
    pub verdict: Verdict,
    /// Every rule code behind the verdict, sorted, unique.
    pub codes: Vec<String>,
    /// The value as published.
    pub published_value: f64,
    /// The value on a matched basis, for restated claims (never made up: `None` otherwise).
    pub restated_value: Option<f64>,
    /// The basis of the restated value, or the claim's own basis, in words.
    pub basis: Option<Text>,
    /// Why, in plain sentences (quoting ids between backticks).
    pub reasons: Vec<Text>,
    /// Result ids of the subject side.
    pub subject: Vec<FileText>,
    /// Result ids of the baseline side (ratio claims).
    pub baseline: Vec<FileText>,
}

/// A figure at one level with its 95% interval (equal bounds when it rests on one run).
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Estimate {
    /// The point estimate (mean of launch means, or the single value).
    pub value: f64,
    /// Lower bound of the 95% interval.
    pub low: f64,
    /// Upper bound of the 95% interval.
    pub high: f64,
}

/// One level of a configuration's ladder.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LadderPoint {
    /// The level's load: streams, or requests per second.
    #[serde(skip)]
    pub key: LevelKey,
    /// Streams in flight (closed loop).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub concurrency: Option<u64>,
    /// Requests per second (open loop).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub request_rate: Option<RequestRate>,
    /// Aggregate throughput, tokens per second.
    pub aggregate_tok_s: Option<Estimate>,
    /// Per-user rate, tokens per second.
    pub per_user_tok_s: Option<Estimate>,
    /// Runs behind the point.
    pub runs: usize,
    /// Launches behind the point.
    pub launches: usize,
}

/// Service-level capacity of a configuration (seed 004: the highest concurrency whose per-user
/// rate clears the floor at every level up to it).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Capacity {
    /// The floor, tokens per second per user.
    pub floor_tok_s: f64,
    /// Highest passing level (None: not even the first level clears the floor).
    #[serde(skip)]
    pub level: Option<LevelKey>,
    /// Highest passing concurrency, for a closed-loop ladder.
    pub concurrency: Option<u64>,
    /// Highest passing request rate, for an open-loop ladder.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub request_rate: Option<RequestRate>,
    /// Why there is no capacity, when there is none: no per-user rate at the first level, or
    /// no level clears the floor.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub none_because: Option<&'static str>,
    /// Aggregate throughput there.
    pub aggregate_tok_s: Option<f64>,
    /// When the next level is marginal (its interval straddles the floor): `[last pass,
    /// marginal level]`.
    pub marginal_interval: Option<(LevelKey, LevelKey)>,
    /// Whether the levels rest on one launch (single instance).
    pub single_instance: bool,
}

/// One configuration's ladder, for the charts.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ConfigLadder {
    /// Label for people (made of the results' names and settings).
    pub label: FileText,
    /// Short fingerprint.
    pub fingerprint: String,
    /// Result ids of its runs.
    pub results: Vec<FileText>,
    /// Its levels, by concurrency.
    pub points: Vec<LadderPoint>,
    /// Its capacity at the audit's floor.
    pub capacity: Option<Capacity>,
    /// Its runs, launches and what is missing before a figure could be published.
    pub replication: Option<Replication>,
}

/// A result that did not produce figures (failed, aborted, does-not-fit): reported as a
/// result, never omitted (seed 004).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LosingRun {
    /// Result id.
    pub id: FileText,
    /// Its outcome.
    pub outcome: String,
    /// The file it came from.
    pub path: FileText,
    /// Its notes, when any.
    pub notes: Option<FileText>,
}

/// Everything the renderers need.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct AuditReport<'a> {
    /// Per-user floor used for capacity and matched-basis restatements, tokens per second.
    pub floor_tok_s: f64,
    /// One entry per claim, in the claims file's order.
    pub claims: Vec<ClaimOutcome>,
    /// Every configuration's ladder, by label: made as a writer asks for it when the report
    /// is the audit's of a corpus ([`Ladders`]).
    pub ladders: Ladders<'a>,
    /// Results that lost.
    pub losing_runs: Vec<LosingRun>,
    /// The corpus sections (files, rules, checklist coverage); `None` for a report of claims
    /// alone.
    pub corpus: Option<CorpusReport>,
}
