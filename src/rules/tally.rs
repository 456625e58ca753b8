//! What the corpus-wide rules that judge the corpus as a whole (S008, S009) read of it: counts
//! and a range made a result at a time, so that a run whose results are put away on disk as
//! they are read ([`crate::engine`]) judges the corpus without holding them.

use crate::model::{Outcome, ResultDoc, Verdict};
use crate::thresholds::Thresholds;

/// Counts of the corpus's results, made by [`CorpusTally::add`] in any order.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CorpusTally {
    /// Results of any outcome.
    pub results: usize,
    /// Whether any result is losing evidence ([`lost`]).
    pub any_lost: bool,
    /// Successful results.
    pub ok: usize,
    /// Successful results that record a finite typical prompt length.
    pub prompts: usize,
    /// The shortest and longest of those prompts (infinite while there is none).
    pub prompt_min: f64,
    pub prompt_max: f64,
    /// Whether one of those prompts is prefill-heavy (within the thresholds'
    /// `prefill_heavy_min_prompt_tokens` to `prefill_heavy_max_prompt_tokens`).
    pub prefill_heavy: bool,
    /// The prefill-heavy range the tally was made with.
    range: (f64, f64),
}

impl CorpusTally {
    /// Nothing counted, prompts judged against `thresholds`' prefill-heavy range.
    pub fn new(thresholds: &Thresholds) -> Self {
        CorpusTally {
            results: 0,
            any_lost: false,
            ok: 0,
            prompts: 0,
            prompt_min: f64::INFINITY,
            prompt_max: f64::NEG_INFINITY,
            prefill_heavy: false,
            range: (
                thresholds.prefill_heavy_min_prompt_tokens,
                thresholds.prefill_heavy_max_prompt_tokens,
            ),
        }
    }

    /// The tally of `docs`.
    pub fn of<'d>(docs: impl IntoIterator<Item = &'d ResultDoc>, thresholds: &Thresholds) -> Self {
        let mut tally = CorpusTally::new(thresholds);
        for doc in docs {
            tally.add(doc);
        }
        tally
    }

    /// Counts `doc`.
    pub fn add(&mut self, doc: &ResultDoc) {
        self.results += 1;
        self.any_lost |= lost(doc);
        if doc.outcome != Outcome::Ok {
            return;
        }
        self.ok += 1;
        let Some(p) = doc.typical_prompt_tokens().filter(|p| p.is_finite()) else {
            return;
        };
        self.prompts += 1;
        self.prompt_min = self.prompt_min.min(p);
        self.prompt_max = self.prompt_max.max(p);
        let (lo, hi) = self.range;
        self.prefill_heavy |= p >= lo && p <= hi;
    }
}

/// Whether a result is losing evidence: a losing outcome, failed requests at some level, or
/// the harness's own verdict `invalid`.
pub fn lost(doc: &ResultDoc) -> bool {
    doc.outcome != Outcome::Ok
        || doc
            .levels
            .as_slice()
            .iter()
            .any(|l| l.failed.is_some_and(|f| f > 0))
        || doc
            .harness
            .as_ref()
            .and_then(|h| h.validity.as_ref())
            .and_then(|v| v.verdict)
            == Some(Verdict::Invalid)
}
