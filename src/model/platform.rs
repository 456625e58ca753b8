//! Where a result was measured: the machines, their devices, load and fabric.

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The hardware.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Platform {
    /// Host name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub host: Option<String>,
    /// Hardware description in words.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// Number of nodes (machines) that took part.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nodes: Option<u64>,
    /// Accelerators per node that took part.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub devices_per_node: Option<u64>,
    /// The accelerator model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub device: Option<Device>,
    /// The host also serves other traffic.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shared_host: Option<bool>,
    /// Concurrent load sampled before, during and after the run (shared hosts).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub load_snapshot: Option<LoadSnapshot>,
    /// A timestamped pre-run parity check across nodes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parity_check: Option<ParityCheck>,
    /// Nominal accelerator clock, MHz.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nominal_clock_mhz: Option<f64>,
    /// Clock of each device measured under load, MHz.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clocks_under_load_mhz: Option<Vec<f64>>,
    /// Interconnect and collective-library settings (multi-node runs).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fabric: Option<Fabric>,
    /// Hourly cost of the platform, USD.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hourly_cost_usd: Option<f64>,
}

impl Platform {
    /// Devices in total: nodes × devices per node, when both are known.
    pub fn total_devices(&self) -> Option<u64> {
        self.nodes.unwrap_or(1).checked_mul(self.devices_per_node?)
    }
}

/// An accelerator model.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Device {
    /// Model name, for example `NVIDIA H200 NVL`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// Memory per device, GiB.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub memory_gib: Option<f64>,
}

/// Load on a shared host around the run.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct LoadSnapshot {
    /// Sampled before the run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub before: Option<Value>,
    /// Sampled during the run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub during: Option<Value>,
    /// Sampled after the run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub after: Option<Value>,
}

/// A pre-run check that the nodes agree.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ParityCheck {
    /// RFC 3339 time of the check.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub at: Option<String>,
    /// Whether it passed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub passed: Option<bool>,
}

/// Interconnect and collectives.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Fabric {
    /// Interconnect, for example `200G RoCE`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub interconnect: Option<String>,
    /// Collective-library settings that were tuned (`NCCL_*` and the like).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub collectives: Option<super::SmallMap<Value>>,
}
