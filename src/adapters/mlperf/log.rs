//! The two text logs MLPerf's loadgen writes into a run folder, read into JSON values the
//! adapter maps like any other document, with an index of where each key's value is written
//! (findings are drawn there).
//!
//! - `mlperf_log_summary.txt`: `key : value` lines under `====` banners. Each key becomes a
//!   member (`"Scenario"`, `"target_qps"`, `"99.00 percentile first token latency (ns)"`),
//!   its value a number where it reads as one (whole numbers exactly, seeds included), else
//!   text. A key written twice (`Completed tokens per second` is) keeps its first value. A key
//!   with nothing after the colon collects the `* ...` lines under it (`"TTFT Early Stopping
//!   Result": ["Run successful."]`). `No warnings encountered during test.` and
//!   `9 warnings encountered. See detailed log.` become `"warnings": 0` and `9` (`"errors"`
//!   likewise).
//! - `mlperf_log_detail.txt`: one `:::MLLOG {json}` record per line; each record's `key`
//!   becomes a member holding its `value` (the first, where a key repeats). Lines that are not
//!   records, or not JSON, are skipped.

use serde_json::{Map, Value};

use crate::json::escape_pointer_token;

/// Which log a text is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LogKind {
    /// `mlperf_log_summary.txt`.
    Summary,
    /// `mlperf_log_detail.txt`.
    Detail,
}

/// Each member's pointer and the byte offset of its value in the text.
pub type Index = Vec<(String, usize)>;

/// Which loadgen log `text` is, by its content.
pub fn log_kind(text: &str) -> Option<LogKind> {
    let mut head = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .take(6);
    let lines: Vec<&str> = head.by_ref().collect();
    if lines.first().is_some_and(|l| l.starts_with(":::MLLOG")) {
        return Some(LogKind::Detail);
    }
    if lines.contains(&"MLPerf Results Summary")
        || (lines.iter().any(|l| l.starts_with("SUT name"))
            && lines.iter().any(|l| l.starts_with("Scenario")))
    {
        return Some(LogKind::Summary);
    }
    None
}

/// Reads a log of either kind.
pub fn read(text: &str) -> Option<(LogKind, Value, Index)> {
    let kind = log_kind(text)?;
    let (value, index) = match kind {
        LogKind::Summary => summary(text),
        LogKind::Detail => detail(text),
    };
    Some((kind, value, index))
}

/// Lines of `text` with the byte offset each starts at.
fn lines_at(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut at = 0;
    text.split_inclusive('\n').map(move |l| {
        let start = at;
        at += l.len();
        (start, l.trim_end_matches(['\n', '\r']))
    })
}

fn pointer(key: &str) -> String {
    format!("/{}", escape_pointer_token(key))
}

/// Reads `mlperf_log_summary.txt`.
pub fn summary(text: &str) -> (Value, Index) {
    let mut map = Map::new();
    let mut index = Index::new();
    let mut list: Option<String> = None;
    for (at, line) in lines_at(text) {
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with("====") {
            list = None;
            continue;
        }
        if let (Some(key), Some(item)) = (&list, trimmed.strip_prefix("* ")) {
            if let Some(Value::Array(items)) = map.get_mut(key) {
                items.push(Value::from(item.trim()));
            }
            continue;
        }
        let lower = trimmed.to_ascii_lowercase();
        if lower.contains("encountered") && (lower.contains("warning") || lower.contains("error")) {
            let key = if lower.contains("warning") {
                "warnings"
            } else {
                "errors"
            };
            let first = trimmed.split_whitespace().next().unwrap_or_default();
            let count = first.parse::<u64>().unwrap_or(0);
            if !map.contains_key(key) {
                map.insert(key.into(), Value::from(count));
                index.push((pointer(key), at + (line.len() - line.trim_start().len())));
            }
            continue;
        }
        let Some(colon) = line.find(':') else {
            continue;
        };
        let key = line[..colon].trim();
        let raw = line[colon + 1..].trim();
        if key.is_empty() || map.contains_key(key) {
            list = None;
            continue;
        }
        if raw.is_empty() {
            map.insert(key.into(), Value::Array(Vec::new()));
            index.push((pointer(key), at + (line.len() - line.trim_start().len())));
            list = Some(key.to_string());
            continue;
        }
        list = None;
        let value_at =
            at + colon + 1 + (line[colon + 1..].len() - line[colon + 1..].trim_start().len());
        map.insert(key.into(), scalar(raw));
        index.push((pointer(key), value_at));
    }
    (Value::Object(map), index)
}

/// A value as written: a whole number exactly (64-bit seeds included), a finite decimal, or
/// text.
fn scalar(raw: &str) -> Value {
    if let Ok(i) = raw.parse::<i64>() {
        return Value::from(i);
    }
    if let Ok(u) = raw.parse::<u64>() {
        return Value::from(u);
    }
    match raw.parse::<f64>() {
        Ok(f) if f.is_finite() && raw.bytes().any(|b| b.is_ascii_digit()) => Value::from(f),
        _ => Value::from(raw),
    }
}

/// Reads `mlperf_log_detail.txt`.
pub fn detail(text: &str) -> (Value, Index) {
    let mut map = Map::new();
    let mut index = Index::new();
    for (at, line) in lines_at(text) {
        let Some(rest) = line.trim_start().strip_prefix(":::MLLOG") else {
            continue;
        };
        let Ok(Value::Object(mut record)) = serde_json::from_str::<Value>(rest.trim()) else {
            continue;
        };
        let Some(Value::String(key)) = record.remove("key") else {
            continue;
        };
        if map.contains_key(&key) {
            continue;
        }
        let value_at = line
            .find("\"value\":")
            .map_or(at, |i| at + i + "\"value\":".len());
        let value_at = value_at + (text[value_at..].len() - text[value_at..].trim_start().len());
        index.push((pointer(&key), value_at));
        map.insert(key, record.remove("value").unwrap_or(Value::Null));
    }
    (Value::Object(map), index)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    const SUMMARY: &str = "\
================================================
MLPerf Results Summary
================================================
SUT name : PySUT
Scenario : Offline
Mode     : PerformanceOnly
Samples per second: 80.15
Result is : INVALID
  Min duration satisfied : NO
TTFT Early Stopping Result:
 * Run unsuccessful.
 * Processed 10 queries.

================================================
Test Parameters Used
================================================
target_qps : 80
min_duration (ms): 0
qsl_rng_seed : 10688027786191513374

9 warnings encountered. See detailed log.

No errors encountered during test.
";

    #[test]
    fn a_summary_reads_as_its_keys() {
        assert_eq!(log_kind(SUMMARY), Some(LogKind::Summary));
        let (v, index) = summary(SUMMARY);
        assert_eq!(v["Scenario"], "Offline");
        assert_eq!(v["Mode"], "PerformanceOnly");
        assert_eq!(v["Samples per second"], json!(80.15));
        assert_eq!(v["Min duration satisfied"], "NO");
        assert_eq!(v["min_duration (ms)"], json!(0));
        assert_eq!(v["qsl_rng_seed"], json!(10_688_027_786_191_513_374_u64));
        assert_eq!(
            v["TTFT Early Stopping Result"],
            json!(["Run unsuccessful.", "Processed 10 queries."])
        );
        assert_eq!(
            (v["warnings"].clone(), v["errors"].clone()),
            (json!(9), json!(0))
        );
        let at = index.iter().find(|(k, _)| k == "/target_qps").unwrap().1;
        assert_eq!(&SUMMARY[at..at + 2], "80");
        let at = index.iter().find(|(k, _)| k == "/Result is").unwrap().1;
        assert_eq!(&SUMMARY[at..at + 7], "INVALID");
    }

    #[test]
    fn a_detail_log_reads_as_its_records() {
        let text = ":::MLLOG {\"key\": \"loadgen_version\", \"value\": \"4.1 @ 379ee5345a\", \"time_ms\": 0.006}\n\
garbage line\n\
:::MLLOG {\"key\": \"result_validity\", \"value\": \"VALID\", \"time_ms\": 1.0}\n\
:::MLLOG {\"key\": \"result_validity\", \"value\": \"INVALID\", \"time_ms\": 2.0}\n\
:::MLLOG {broken\n";
        assert_eq!(log_kind(text), Some(LogKind::Detail));
        let (v, index) = detail(text);
        assert_eq!(
            v,
            json!({"loadgen_version": "4.1 @ 379ee5345a", "result_validity": "VALID"})
        );
        let at = index
            .iter()
            .find(|(k, _)| k == "/result_validity")
            .unwrap()
            .1;
        assert_eq!(&text[at..at + 7], "\"VALID\"");
    }

    #[test]
    fn other_text_is_not_a_log() {
        assert_eq!(log_kind("a,b\n1,2\n"), None);
        assert_eq!(log_kind(""), None);
    }
}
