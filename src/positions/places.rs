//! Where a value of a document read from a text that is not JSON sits in that text, so a
//! finding about it is drawn there: YAML through the YAML reader's [`crate::yaml::locate`],
//! MLPerf loadgen logs through their index of keys. A JSON text is left to the JSON locator.

use crate::adapters;
use crate::diagnostic::Location;
use crate::yaml;

/// Whether `text` reads as JSON whatever its name: it opens an object or an array, or its
/// first line is a JSON value on its own.
pub fn is_json_text(text: &str) -> bool {
    let body = text.trim_start();
    match body.as_bytes().first() {
        None | Some(b'{' | b'[') => true,
        Some(_) => {
            let first = body.lines().next().unwrap_or_default().trim();
            serde_json::from_str::<serde_json::Value>(first).is_ok()
        }
    }
}

/// For each location, the byte offset of its value in `text` (the value's key, for a YAML
/// mapping's member; its nearest written ancestor when the value is not written out), or
/// `None` where it cannot be placed; `None` altogether when `text` is JSON.
pub fn places_in_text(text: &str, locations: &[&Location]) -> Option<Vec<Option<usize>>> {
    if is_json_text(text) {
        return None;
    }
    if let Some(index) = adapters::mlperf::log_places(text) {
        return Some(
            locations
                .iter()
                .map(|l| {
                    let mut p = l.pointer.raw();
                    loop {
                        if let Some((_, o)) = index.iter().find(|(k, _)| k == p) {
                            return Some(*o);
                        }
                        p = &p[..p.rfind('/')?];
                    }
                })
                .collect(),
        );
    }
    let wanted: Vec<(usize, &str)> = locations
        .iter()
        .map(|l| (l.doc_start, l.pointer.raw()))
        .collect();
    Some(yaml::locate_at_starts(text, &wanted))
}

/// The span of the value a YAML or log location names, on its line, for masking a secret:
/// from the character after `key:` (or the value's own start) to the end of the line.
pub fn value_span(text: &str, offset: usize) -> Option<(usize, usize)> {
    let line_end = text[offset..].find('\n').map_or(text.len(), |i| offset + i);
    let line = &text[offset..line_end];
    let start = match line.find(": ") {
        Some(i) => offset + i + 2,
        None => offset,
    };
    let value = text[start..line_end].trim_end();
    let start = start + (value.len() - value.trim_start().len());
    let end = start + value.trim_start().len();
    (end > start + 1).then_some((start, end))
}
