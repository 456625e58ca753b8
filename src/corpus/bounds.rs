//! Findings for what the pre-parse scan found (repeated keys, integers beyond 64 bits, arrays
//! cut at the bound) and the bound on levels per result.
//!
//! Decisions:
//! - A repeated key is E005 (a warning): `serde_json` keeps the last value, other parsers the
//!   first, so two tools can read two different results from one file.
//! - An integer beyond 64 bits is E005: it is read as the nearest double, its last digits
//!   lost (a value beyond the largest double is E002, "number out of range").
//! - An array over `max_array_items` is E001 (an error: part of the file was not read); its
//!   first `max_array_items` items are read, the rest never parsed.
//! - A result with more levels than `max_levels` is E001; its first `max_levels` levels are
//!   read and checked, the rest dropped before validation.

use std::collections::BTreeMap;

use serde_json::Value;

use super::translate::finding_at;
use crate::diagnostic::{Finding, Location};
use crate::json::{Document, ParsedText};
use crate::rules;

/// Start of the document that holds byte `offset`.
fn doc_start_of(documents: &[Document], offset: usize) -> usize {
    documents
        .iter()
        .rev()
        .find(|d| d.start <= offset)
        .map_or(0, |d| d.start)
}

fn at(path: &str, offset: usize) -> Location {
    let mut loc = Location::new(path, "");
    loc.offset = Some(offset);
    loc
}

/// A key as shown in a message: JSON-quoted (control characters escaped), at most 60 characters.
fn shown_key(key: &str) -> String {
    let short: String = key.chars().take(60).collect();
    let quoted = serde_json::to_string(&short).unwrap_or_default();
    if short.len() < key.len() {
        format!("{quoted}…")
    } else {
        quoted
    }
}

fn more(n: usize) -> String {
    if n > 0 {
        format!(" ({n} more in this document)")
    } else {
        String::new()
    }
}

/// E005 for repeated keys and wide integers (one finding per document and kind, at the first
/// occurrence), E001 for every array cut at the bound.
pub(super) fn report_scan(path: &str, parsed: &ParsedText, findings: &mut Vec<Finding>) {
    report_duplicates(path, parsed, findings);
    report_wide(path, parsed, findings);
    report_truncated(path, parsed, findings);
}

/// One finding per document for its repeated keys.
pub(super) fn report_duplicates(path: &str, parsed: &ParsedText, findings: &mut Vec<Finding>) {
    let mut dup_by_doc: BTreeMap<usize, Vec<&crate::json::DuplicateKey>> = BTreeMap::new();
    for d in &parsed.duplicate_keys {
        dup_by_doc
            .entry(doc_start_of(&parsed.documents, d.offset))
            .or_default()
            .push(d);
    }
    for dups in dup_by_doc.values() {
        let first = dups[0];
        let mut f = finding_at(
            &rules::e005_nonstandard_json::RULE,
            at(path, first.offset),
            format!(
                "the key {} appears more than once in the same object; benchlint reads the last value, other JSON parsers may read the first{}",
                shown_key(&first.key),
                more(dups.len() - 1)
            ),
            Some("keep one value per key".into()),
        );
        f.label = Some("repeated key".into());
        findings.push(f);
    }
}

/// One finding per document for its integers beyond 64 bits.
pub(super) fn report_wide(path: &str, parsed: &ParsedText, findings: &mut Vec<Finding>) {
    let mut wide_by_doc: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for &w in &parsed.wide_integers {
        wide_by_doc
            .entry(doc_start_of(&parsed.documents, w))
            .or_default()
            .push(w);
    }
    for offsets in wide_by_doc.values() {
        let mut f = finding_at(
            &rules::e005_nonstandard_json::RULE,
            at(path, offsets[0]),
            format!(
                "integer beyond the 64-bit range; it is read as the nearest double, which loses its last digits{}",
                more(offsets.len() - 1)
            ),
            Some("write such a value as a string, or in the unit that keeps it small".into()),
        );
        f.label = Some("wider than 64 bits".into());
        findings.push(f);
    }
}

/// One finding for each array cut at the bound.
pub(super) fn report_truncated(path: &str, parsed: &ParsedText, findings: &mut Vec<Finding>) {
    for t in &parsed.truncated_arrays {
        let mut f = finding_at(
            &rules::e001_unreadable_file::RULE,
            at(path, t.offset),
            format!(
                "this array holds {} items, over the bound of {} (`max_array_items`); only the first {} were read",
                t.items, t.kept, t.kept
            ),
            Some("split the samples over several files, or raise `max_array_items` under [thresholds] in benchlint.toml".into()),
        );
        f.label = Some("cut at the bound".into());
        findings.push(f);
    }
}

/// Keeps the first `max` levels of a result; the number there were, when some were dropped.
pub(super) fn bound_levels(value: &mut Value, max: usize) -> Option<usize> {
    let levels = value.get_mut("levels")?.as_array_mut()?;
    let n = levels.len();
    if n <= max {
        return None;
    }
    levels.truncate(max);
    levels.shrink_to_fit();
    Some(n)
}

/// The E001 finding for a result whose levels were cut.
pub(super) fn levels_finding(location: Location, had: usize, max: usize) -> Finding {
    let mut f = finding_at(
        &rules::e001_unreadable_file::RULE,
        location,
        format!("the result has {had} levels, over the bound of {max} (`max_levels`); only the first {max} were read and checked"),
        Some("split the ladder over several results, or raise `max_levels` under [thresholds] in benchlint.toml".into()),
    );
    f.label = Some("cut at the bound".into());
    f
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_are_cut_at_the_bound() {
        let mut v = serde_json::json!({"levels": [1, 2, 3]});
        assert_eq!(bound_levels(&mut v, 3), None);
        assert_eq!(bound_levels(&mut v, 2), Some(3));
        assert_eq!(v["levels"], serde_json::json!([1, 2]));
        assert_eq!(bound_levels(&mut serde_json::json!({"levels": 5}), 0), None);
    }

    #[test]
    fn keys_are_quoted_and_shortened() {
        assert_eq!(shown_key("a\u{1b}[2J"), "\"a\\u001b[2J\"");
        assert!(shown_key(&"k".repeat(100)).ends_with("\"…"));
    }
}
