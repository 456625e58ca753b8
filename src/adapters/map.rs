//! What every adapter needs: reading numbers the way harnesses write them (numbers, numeric
//! strings, `NaN` / `Infinity` read by the tolerant parser as strings), timestamps, result ids,
//! and a builder that fills a canonical document and records, for each value, the pointer in
//! the source document it came from (so a finding lands on the harness's own key).
//!
//! Conventions shared by all adapters (each module says how it applies them):
//!
//! - **id**: `<path>#<doc_index>`, plus `/<pointer>` when the result is a part of the document
//!   (`run.json#0/benchmarks/3`). Appending documents to a file (vLLM `--append-result`,
//!   `SGLang`'s JSON Lines) keeps the earlier ids; the path is the one given on the command line,
//!   without a leading `./`.
//! - **`measured_at`**: the file's own date (converted to RFC 3339); a naive local time is read
//!   as UTC (the file does not say its offset). A format that records no date gets
//!   [`UNDATED`], the epoch, which `ResultDoc::measured_date` reads as "no date": rules with
//!   an adoption date then apply strictly (an undated file cannot show it predates a rule).
//! - **load**: a level is keyed by its concurrency (closed loop: the cap on streams in flight
//!   the harness was given, also when every request was released at once under that cap) or
//!   by its request rate (open loop: `request_rate`, a number or `"inf"`, with the cap as
//!   `max_concurrency`); [`Builder::load`] applies this. A request count (`num_prompts`,
//!   `completed`) is never a concurrency: an open-loop level without a cap has none. A rate
//!   the harness names by a word (`"trace"`) is kept in `workload.sampling.request_rate`.
//! - **outcome**: `ok`, unless the file says otherwise (a harness's own cancelled flag) or
//!   every request of the run failed; that `failed` is benchlint's conclusion from the counts,
//!   recorded with provenance "derived" ([`Builder::derived`]): it is not a label the author
//!   gave, so R007 still reports the zero levels (DESIGN.md conventions). A throughput or
//!   latency the harness writes as `0.0` for a level with no completed request is not mapped:
//!   it is not a measurement.
//! - **labels**: free-form labels a harness records (vLLM's `--metadata` pairs and `--label`,
//!   `GuideLLM`'s scenario labels, `AIPerf`'s scenario) go to `labels` ([`labels`]), which the
//!   configuration fingerprint includes.
//! - A value the format does not record is left out, never a placeholder; numbers that are
//!   negative, `NaN` or infinite are left out too (formats.md §0.1, §0.9).

mod builder;
mod dates;
mod metadata;
mod read;

use serde_json::Value;

use super::Source;
use crate::json::escape_pointer_token;

pub(crate) use builder::Builder;
pub(crate) use dates::{from_compact_date, from_epoch_seconds, from_iso};
pub(crate) use metadata::{known_keys, labels};
pub(crate) use read::{count, flag, number, rate, text};

/// What a derived outcome `failed` is concluded from, as provenance and messages say it.
pub(crate) const NONE_COMPLETED: &str = "the counts: no request completed and some failed";

/// What a derived outcome `failed` is concluded from when the harness counted no request at
/// all, neither completed nor failed (a client that never got a request through).
pub(crate) const NOTHING_SERVED: &str =
    "the counts: no request was completed, none counted as sent";

/// `measured_at` of a format that records no date (`SGLang`, genai-perf): the epoch.
pub(crate) const UNDATED: &str = "1970-01-01T00:00:00Z";

/// The source pointer `base` extended by `tokens` (each escaped).
pub(crate) fn ptr(base: &str, tokens: &[&str]) -> String {
    let mut out = base.to_string();
    for t in tokens {
        out.push('/');
        out.push_str(&escape_pointer_token(t));
    }
    out
}

/// The value at `pointer`, unless it is absent or null.
pub(crate) fn at<'v>(doc: &'v Value, pointer: &str) -> Option<&'v Value> {
    doc.pointer(pointer).filter(|v| !v.is_null())
}

/// The id of a result read from `source`, at `sub` (a pointer inside the document, or "").
pub(crate) fn result_id(source: &Source<'_>, sub: &str) -> String {
    let path = source.path.strip_prefix("./").unwrap_or(source.path);
    format!("{path}#{}{sub}", source.doc_index)
}

#[cfg(test)]
mod tests;
