//! What a result names beside it: the power trace, the quality gate, and the cost of the run.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

/// Files paired with a result.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Artifacts {
    /// The power trace.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub power_trace: Option<PowerTrace>,
    /// The quality-gate result.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub quality_gate: Option<QualityGate>,
}

/// A power trace file.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct PowerTrace {
    /// Path relative to the result file's folder.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// Wall power or device power.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<PowerKind>,
}

/// Where power was measured.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PowerKind {
    /// At the wall outlet.
    Wall,
    /// The accelerator's own rail.
    Device,
}

/// A quality-gate result paired with the throughput run.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct QualityGate {
    /// Path relative to the result file's folder.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// Whether the gate passed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub passed: Option<bool>,
    /// Score.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score: Option<f64>,
}

/// Cost figures.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Cost {
    /// Hourly hardware cost, USD.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hourly_usd: Option<f64>,
    /// Cost per million output tokens, USD.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub per_million_output_usd: Option<f64>,
    /// The stated basis of the cost figure (shared: a corpus repeats one basis sentence in
    /// every result priced the same way).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub basis: Option<Arc<str>>,
}
