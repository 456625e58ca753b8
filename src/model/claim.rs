//! A published claim as a claims file (`benchlint/claims/v1`) writes it, typed: read once,
//! when its file is loaded, and what the claims analysis works from.

use serde::Deserialize;

use super::{LevelKey, RequestRate};

/// A figure (one value of the subject) or a ratio (subject over baseline).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ClaimKind {
    /// One value of the subject.
    Figure,
    /// Subject over baseline.
    Ratio,
}

/// The basis of a comparison (seed 004: "Publish the off-against-off ratio as the hardware
/// comparison and the best-against-best ratio as the deployment comparison").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Basis {
    /// Speculation and settings matched, off against off.
    Hardware,
    /// Each side at its own best setting.
    Deployment,
}

/// One side of a claim as the claims file writes it.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct SideSpec {
    /// Result ids the side rests on.
    pub results: Vec<String>,
    /// The level the side was taken at (streams per replica) for a closed-loop ladder; the
    /// peak when neither this nor `request_rate` is given.
    #[serde(default)]
    pub concurrency: Option<u64>,
    /// The level the side was taken at for an open-loop ladder: the request rate asked for
    /// (requests per second, or `"inf"`). The schema allows one of the two, not both.
    #[serde(default)]
    pub request_rate: Option<RequestRate>,
    /// Independent replicas the side adds up (1 when absent).
    #[serde(default)]
    pub replicas: Option<u64>,
}

impl SideSpec {
    /// The level the side names: its concurrency (streams), else its request rate; `None`
    /// for the peak.
    pub fn level(&self) -> Option<LevelKey> {
        self.concurrency
            .map(LevelKey::Streams)
            .or_else(|| self.request_rate.map(LevelKey::Rate))
    }

    /// The replicas, 1 when not given (or given as 0, which the schema rejects).
    pub fn replicas(&self) -> u64 {
        self.replicas.unwrap_or(1).max(1)
    }
}

/// One published claim.
#[derive(Debug, Clone, PartialEq, Deserialize)]
pub struct Claim {
    /// Id, unique in the claims file.
    pub id: String,
    /// Publication date.
    #[serde(default)]
    pub published_at: Option<String>,
    /// The sentence as published.
    #[serde(default)]
    pub statement: Option<String>,
    /// Figure or ratio.
    pub kind: ClaimKind,
    /// The metric, as written (an unknown name is kept, so that the verdict can say so).
    pub metric: String,
    /// The published value.
    pub value: f64,
    /// Half-width of the published 95% interval.
    #[serde(default)]
    pub ci95: Option<f64>,
    /// Runs the published value rests on.
    #[serde(default)]
    pub n: Option<u64>,
    /// The side the value is about (a ratio's numerator).
    pub subject: SideSpec,
    /// A ratio's denominator.
    #[serde(default)]
    pub baseline: Option<SideSpec>,
    /// The basis of a comparison.
    #[serde(default)]
    pub basis: Option<Basis>,
}

impl Claim {
    /// The `kind` as written.
    pub fn kind_str(&self) -> &'static str {
        match self.kind {
            ClaimKind::Figure => "figure",
            ClaimKind::Ratio => "ratio",
        }
    }
}
