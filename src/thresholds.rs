//! The named thresholds of every rule, with the source each default comes from.
//!
//! The configuration file may override any of them; rules read them only from here.

/// Thresholds in force for a run.
#[derive(Debug, Clone, PartialEq)]
pub struct Thresholds {
    /// Largest file read, bytes (E001). Files are never read whole before this is checked.
    pub max_file_bytes: u64,
    /// Largest fall of throughput from one level to the next that is still a plateau, a
    /// fraction (R012): DESIGN.md "Statistics", the static 2% throughput noise floor.
    pub ladder_dip_tolerance: f64,
    /// Gain of the top level over the one below from which a ladder is not saturated, a
    /// fraction (R013): DESIGN.md conventions, "the last level still gains at least 5%".
    pub saturation_gain: f64,
    /// Relative difference allowed between a reported summary and the value recomputed from
    /// the file's samples (R017), on top of half a unit in the last reported digit (rounding to
    /// the precision the file writes): 1%, so that only a real disagreement fires.
    pub summary_tolerance: f64,
    /// Smallest mean output per request, as a fraction of the fixed length asked for (R020):
    /// the `MLPerf` output-length guard accepts 0.9 to 1.1 times (research/peers.md).
    pub min_output_fraction: f64,
    /// Relative difference allowed between a published cost per million tokens and the one
    /// recomputed from the hourly cost and the measured peak (L004), on top of rounding: 5%.
    pub cost_tolerance: f64,
}

impl Default for Thresholds {
    fn default() -> Self {
        Thresholds {
            max_file_bytes: 256 * 1024 * 1024,
            ladder_dip_tolerance: 0.02,
            saturation_gain: 0.05,
            summary_tolerance: 0.01,
            min_output_fraction: 0.90,
            cost_tolerance: 0.05,
        }
    }
}
