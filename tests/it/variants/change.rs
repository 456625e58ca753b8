//! The changes a variant makes to its seed file (a key dropped, a record cut or emptied, a key
//! added, a number as a string, the file moved), drawn from the generator, and the scratch
//! corpus each is laid out in.

use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

use super::Rng;

/// The objects of a document that are records: the elements of a top-level array, a
/// `GuideLLM` report's benchmarks, else the document itself.
pub(super) fn record_pointers(doc: &Value) -> Vec<String> {
    match doc {
        Value::Array(items) => (0..items.len())
            .filter(|i| items[*i].is_object())
            .map(|i| format!("/{i}"))
            .collect(),
        Value::Object(m) => match m.get("benchmarks").and_then(Value::as_array) {
            Some(b) if !b.is_empty() => (0..b.len()).map(|i| format!("/benchmarks/{i}")).collect(),
            _ => vec![String::new()],
        },
        _ => Vec::new(),
    }
}

/// One way of changing a seed.
#[derive(Debug, Clone)]
pub(super) enum Change {
    /// Key `key` removed from the record at `record`.
    DropKey { record: String, key: String },
    /// The record at `record` cut to every other key.
    Subset { record: String },
    /// Every completion count of the record at `record` set to 0.
    ZeroRequests { record: String },
    /// An unknown key added to the document and to every record.
    UnknownKey,
    /// The `n`-th number of the document written as a string.
    NumberAsString { n: usize },
    /// The file alone in another folder.
    Moved,
    /// The file under another name (same extension).
    Renamed,
    /// The folder one level deeper.
    Nested,
}

impl Change {
    pub(super) fn touches_one_record(&self) -> bool {
        matches!(
            self,
            Change::DropKey { .. } | Change::Subset { .. } | Change::ZeroRequests { .. }
        )
    }
}

/// Whether `key` names a count of completed requests in some harness.
fn is_completion_count(key: &str) -> bool {
    let k = key.to_ascii_lowercase();
    [
        "completed",
        "num_requests_successful",
        "num_completed_requests",
        "successful",
        "successful_requests",
        "request_count",
        "total_requests_completed",
        "n_success",
    ]
    .contains(&k.as_str())
}

fn zero_counts(v: &mut Value, depth: usize) {
    if depth > 4 {
        return;
    }
    match v {
        Value::Object(m) => {
            for (k, x) in m.iter_mut() {
                if is_completion_count(k) && x.is_number() {
                    *x = Value::from(0);
                } else if k == "count" && x.is_number() && depth > 0 {
                    // `successes.count` (inference-perf), `request_count.avg`-like blocks.
                    *x = Value::from(0);
                } else {
                    zero_counts(x, depth + 1);
                }
            }
        }
        Value::Array(a) => a.iter_mut().for_each(|x| zero_counts(x, depth + 1)),
        _ => {}
    }
}

/// The `n`-th number of `v` (depth-first), written as a string.
fn number_as_string(v: &mut Value, n: usize) -> bool {
    fn walk(v: &mut Value, n: &mut usize) -> bool {
        match v {
            Value::Number(num) => {
                if *n == 0 {
                    *v = Value::String(num.to_string());
                    return true;
                }
                *n -= 1;
                false
            }
            Value::Object(m) => m.values_mut().any(|x| walk(x, n)),
            Value::Array(a) => a.iter_mut().any(|x| walk(x, n)),
            _ => false,
        }
    }
    let mut left = n;
    walk(v, &mut left)
}

fn count_numbers(v: &Value) -> usize {
    match v {
        Value::Number(_) => 1,
        Value::Object(m) => m.values().map(count_numbers).sum(),
        Value::Array(a) => a.iter().map(count_numbers).sum(),
        _ => 0,
    }
}

/// Applies a content change to `doc`; false when it does not apply.
pub(super) fn apply(doc: &mut Value, change: &Change) -> bool {
    match change {
        Change::DropKey { record: r, key } => doc
            .pointer_mut(r)
            .and_then(Value::as_object_mut)
            .is_some_and(|m| m.remove(key).is_some()),
        Change::Subset { record: r } => doc
            .pointer_mut(r)
            .and_then(Value::as_object_mut)
            .is_some_and(|m| {
                let keep: Map<String, Value> = std::mem::take(m)
                    .into_iter()
                    .enumerate()
                    .filter(|(i, _)| i % 2 == 0)
                    .map(|(_, kv)| kv)
                    .collect();
                *m = keep;
                true
            }),
        Change::ZeroRequests { record: r } => doc.pointer_mut(r).is_some_and(|m| {
            let before = m.clone();
            zero_counts(m, 0);
            *m != before
        }),
        Change::UnknownKey => {
            let ptrs = record_pointers(doc);
            for p in ptrs {
                if let Some(m) = doc.pointer_mut(&p).and_then(Value::as_object_mut) {
                    m.insert(
                        "zz_field_from_a_newer_version".into(),
                        serde_json::json!({"nested": [1, "two", null], "flag": true}),
                    );
                }
            }
            if let Some(m) = doc.as_object_mut() {
                m.insert("zz_top_level_unknown".into(), Value::from("x"));
            }
            true
        }
        Change::NumberAsString { n } => number_as_string(doc, *n),
        Change::Moved | Change::Renamed | Change::Nested => true,
    }
}

/// The content changes drawn for one document: every key of one record dropped in turn (up
/// to `budget`), a subset record, a zero-request record, an unknown key, numbers as strings.
pub(super) fn draw(doc: &Value, rng: &mut Rng, budget: usize) -> Vec<Change> {
    let records = record_pointers(doc);
    let mut out = Vec::new();
    if records.is_empty() {
        return out;
    }
    let r = records[rng.below(records.len())].clone();
    if let Some(m) = doc.pointer(&r).and_then(Value::as_object) {
        let keys: Vec<&String> = m.keys().collect();
        let start = rng.below(keys.len().max(1));
        for k in keys.iter().cycle().skip(start).take(keys.len().min(budget)) {
            out.push(Change::DropKey {
                record: r.clone(),
                key: (*k).clone(),
            });
        }
    }
    if records.len() > 1 {
        out.push(Change::Subset { record: r.clone() });
    }
    out.push(Change::ZeroRequests { record: r });
    out.push(Change::UnknownKey);
    let n = count_numbers(doc);
    for _ in 0..2 {
        if n > 0 {
            out.push(Change::NumberAsString { n: rng.below(n) });
        }
    }
    out.extend([Change::Moved, Change::Renamed, Change::Nested]);
    out
}

/// A scratch corpus: the seed's folder (when small) with the seed changed, laid out as the
/// change says. Returns the root to check and the changed file's path in it.
pub(super) fn lay_out(
    scratch: &Path,
    seed: &Path,
    text: &str,
    change: &Change,
) -> (PathBuf, PathBuf) {
    let folder = seed.parent().unwrap();
    let siblings: Vec<PathBuf> = std::fs::read_dir(folder)
        .map(|r| {
            r.filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.is_file())
                .collect()
        })
        .unwrap_or_default();
    let with_siblings = !matches!(change, Change::Moved) && siblings.len() <= 24;
    let root = scratch.to_path_buf();
    let base = match change {
        Change::Nested => root.join("deeper").join("run"),
        Change::Moved => root.join("elsewhere"),
        _ => root.join("run"),
    };
    std::fs::create_dir_all(&base).unwrap();
    if with_siblings {
        for s in &siblings {
            if s != seed && std::fs::metadata(s).is_ok_and(|m| m.len() < 2_000_000) {
                std::fs::copy(s, base.join(s.file_name().unwrap())).unwrap();
            }
        }
    }
    let name = seed.file_name().unwrap().to_string_lossy().into_owned();
    let name = if matches!(change, Change::Renamed) {
        let ext = seed.extension().unwrap().to_string_lossy();
        format!("renamed-{}.{ext}", name.len())
    } else {
        name
    };
    let file = base.join(name);
    std::fs::write(&file, text).unwrap();
    (root, file)
}
