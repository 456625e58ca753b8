//! `AIPerf`'s per-request records beside its export (`profile_export.jsonl`, one JSON object
//! per request: `metadata` with the phase it ran in, `metrics`, and `error` when it failed):
//! the failed count of a run whose export records none (no `error_request_count`, no
//! `error_summary`), counted over the profiling phase only (warm-up requests are not part of
//! the result).

use serde_json::Value;

use crate::adapters::Source;
use crate::io::beside::Place;

/// The per-request records' file name.
pub(super) const RECORDS: &str = "profile_export.jsonl";

/// Errors and requests among the profiled records of `profile_export.jsonl` beside the
/// export, when the file is there and holds any.
pub(super) fn errors(source: &Source<'_>) -> Option<(u64, u64)> {
    let folder = source.folder?;
    let (mut errors, mut profiled) = (0u64, 0u64);
    let opened = folder.scan_lines(Place::Here, RECORDS, |_, line| {
        let Ok(record) = serde_json::from_str::<Value>(line) else {
            return true;
        };
        let phase = ["/metadata/benchmark_phase", "/metadata/phase_kind"]
            .iter()
            .find_map(|p| record.pointer(p).and_then(Value::as_str));
        if phase.is_some_and(|p| p.eq_ignore_ascii_case("warmup")) || !record.is_object() {
            return true;
        }
        profiled += 1;
        if record.get("error").is_some_and(|e| !e.is_null()) {
            errors += 1;
        }
        true
    });
    (opened && profiled > 0).then_some((errors, profiled))
}
