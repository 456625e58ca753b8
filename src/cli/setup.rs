//! What `check` has resolved before it runs (thresholds, selection, sidecars, the config file
//! and the baseline in force): made by the CI setup, read by the notices.

use crate::baseline::Baseline;
use crate::config::Config;
use crate::corpus::Options;

/// Everything `check` needs before it runs.
#[derive(Debug, Clone)]
pub struct Setup {
    /// Thresholds, selection and sidecars.
    pub options: Options,
    /// The config file in force, if any.
    pub config: Option<Config>,
    /// The baseline, if one was given.
    pub baseline: Option<Baseline>,
}
