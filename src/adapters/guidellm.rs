//! GuideLLM (placeholder while the real 0.8 output is examined).

use serde_json::Value;

use super::{Adapter, Reading, Source};

/// The GuideLLM adapter.
pub struct Guidellm;

impl Adapter for Guidellm {
    fn name(&self) -> &'static str {
        "guidellm"
    }

    fn read(&self, _doc: &Value, _source: &Source<'_>) -> Reading {
        Reading::NotMine
    }
}
