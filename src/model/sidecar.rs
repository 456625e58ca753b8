//! Merging a sidecar (a partial canonical document) into a result: it fills what the file does
//! not record, and every disagreement is a conflict (M019), never a silent override.
//!
//! Two things in a sidecar are not values. A `null` is a value not known yet: `benchlint
//! sidecar` writes one for every checklist item a file lacks, and until the team replaces it
//! the item stays absent (its finding stays), the sidecar is still valid, and nothing is
//! merged for it. The top-level `"$benchlint"` object is the skeleton's own note (which file it
//! was made for, which values benchlint derived and from what); it is never merged, and a team
//! may keep it as a record or delete it.

use std::path::{Path, PathBuf};

use serde_json::Value;

use crate::json::escape_pointer_token;
use crate::model::{Provenance, ProvenanceMap};

/// A value the sidecar and the file disagree on.
#[derive(Debug, Clone, PartialEq)]
pub struct Conflict {
    /// Canonical pointer of the value.
    pub pointer: String,
    /// What the file records.
    pub file_value: Value,
    /// What the sidecar says.
    pub sidecar_value: Value,
}

/// Sidecar files that may sit beside `path`: `run.meta.json` and `run.json.meta.json`.
pub fn candidates(path: &Path) -> Vec<PathBuf> {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut out = vec![path.with_file_name(format!("{name}.meta.json"))];
    for ext in [".jsonl", ".ndjson", ".json"] {
        if let Some(stem) = name.strip_suffix(ext) {
            out.insert(0, path.with_file_name(format!("{stem}.meta.json")));
            break;
        }
    }
    out
}

/// The result files a sidecar at `path` may attach to (the files whose [`candidates`] hold
/// it): `run.meta.json` belongs to `run.json`, `run.jsonl` or `run.ndjson`, and
/// `run.yaml.meta.json` to `run.yaml`.
pub fn owners(path: &Path) -> Vec<PathBuf> {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    if !is_sidecar_name(&name) {
        return Vec::new();
    }
    let stem = &name[..name.len() - ".meta.json".len()];
    if stem.is_empty() {
        return Vec::new();
    }
    let mut out: Vec<PathBuf> = [".json", ".jsonl", ".ndjson"]
        .iter()
        .map(|ext| path.with_file_name(format!("{stem}{ext}")))
        .collect();
    if Path::new(stem).extension().is_some() {
        out.push(path.with_file_name(stem));
    }
    out.retain(|owner| candidates(owner).iter().any(|c| c == path));
    out
}

/// Whether a file name is a sidecar's.
pub fn is_sidecar_name(name: &str) -> bool {
    name.to_ascii_lowercase().ends_with(".meta.json")
}

/// Keys of a sidecar that never apply: they identify a document, not a configuration.
const NOT_MERGED: [&str; 3] = ["schema", "id", "levels"];

/// The key of a skeleton's note (`benchlint sidecar`), never merged.
pub const NOTE_KEY: &str = "$benchlint";

/// Makes a sidecar as read into the partial result it stands for: the note
/// ([`NOTE_KEY`]) dropped, and every member whose value is `null` (not known yet) removed, at
/// any depth. Validation and merging see the result.
pub fn prepare(value: &mut Value) {
    if let Some(map) = value.as_object_mut() {
        map.remove(NOTE_KEY);
    }
    without_nulls(value, 0);
}

/// Removes the null members of every object under `value`, and the objects left empty by
/// that (`{"enabled": null}` says nothing, so it is not an empty object the file would then
/// hold). Returns whether `value` is such an object. Bounded by depth, as every walk of input.
fn without_nulls(value: &mut Value, depth: usize) -> bool {
    if depth > 64 {
        return false;
    }
    match value {
        Value::Object(map) => {
            let had = map.len();
            map.retain(|_, child| !child.is_null() && !without_nulls(child, depth + 1));
            had > 0 && map.is_empty()
        }
        Value::Array(items) => {
            for item in items {
                without_nulls(item, depth + 1);
            }
            false
        }
        _ => false,
    }
}

/// Merges `sidecar` into `target`, recording provenance for every value it adds.
pub fn merge(
    target: &mut Value,
    sidecar: &Value,
    sidecar_path: &str,
    provenance: &mut ProvenanceMap,
) -> Vec<Conflict> {
    merge_with(target, sidecar, provenance, &|pointer| {
        Some(Provenance::Sidecar {
            path: sidecar_path.to_string(),
            pointer: pointer.to_string(),
        })
    })
}

/// Merges the partial document `sidecar` into `target` like [`merge`], recording `origin` of
/// each canonical pointer it adds (a run folder's server log or launch command); a pointer
/// whose origin is `None` (an object made only to hold the values) records nothing, so what
/// is absent under it still lands on the result.
pub fn merge_with(
    target: &mut Value,
    sidecar: &Value,
    provenance: &mut ProvenanceMap,
    origin: &dyn Fn(&str) -> Option<Provenance>,
) -> Vec<Conflict> {
    let mut conflicts = Vec::new();
    let Some(side) = sidecar.as_object() else {
        return conflicts;
    };
    if !target.is_object() {
        return conflicts;
    }
    for (k, v) in side {
        if NOT_MERGED.contains(&k.as_str()) {
            continue;
        }
        let pointer = format!("/{}", escape_pointer_token(k));
        merge_value(
            target,
            &pointer,
            k,
            v,
            origin,
            provenance,
            &mut conflicts,
            0,
        );
    }
    conflicts
}

#[expect(
    clippy::too_many_arguments,
    reason = "a recursive walk carrying its context"
)]
fn merge_value(
    parent: &mut Value,
    pointer: &str,
    key: &str,
    side: &Value,
    origin: &dyn Fn(&str) -> Option<Provenance>,
    provenance: &mut ProvenanceMap,
    conflicts: &mut Vec<Conflict>,
    depth: usize,
) {
    let Some(obj) = parent.as_object_mut() else {
        return;
    };
    match obj.get_mut(key) {
        None | Some(Value::Null) => {
            obj.insert(key.to_string(), side.clone());
            record_all(pointer, side, origin, provenance);
        }
        Some(existing) => {
            if let (Some(side_obj), true) = (side.as_object(), existing.is_object()) {
                if depth > 32 {
                    return;
                }
                for (k, v) in side_obj {
                    let child = format!("{pointer}/{}", escape_pointer_token(k));
                    merge_value(
                        existing,
                        &child,
                        k,
                        v,
                        origin,
                        provenance,
                        conflicts,
                        depth + 1,
                    );
                }
            } else if !same(existing, side) {
                conflicts.push(Conflict {
                    pointer: pointer.to_string(),
                    file_value: existing.clone(),
                    sidecar_value: side.clone(),
                });
            }
        }
    }
}

fn record_all(
    pointer: &str,
    value: &Value,
    origin: &dyn Fn(&str) -> Option<Provenance>,
    provenance: &mut ProvenanceMap,
) {
    if let Some(p) = origin(pointer) {
        provenance.insert(pointer, p);
    }
    if let Value::Object(map) = value {
        for (k, v) in map {
            record_all(
                &format!("{pointer}/{}", escape_pointer_token(k)),
                v,
                origin,
                provenance,
            );
        }
    }
}

fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
        _ => a == b,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn fills_holes_and_reports_disagreements() {
        let mut target = json!({"engine": {"max_num_seqs": 32, "name": "vllm"}});
        let side = json!({"engine": {"max_num_seqs": 64, "enforce_eager": false}, "id": "other"});
        let mut prov = ProvenanceMap::default();
        let conflicts = merge(&mut target, &side, "a.meta.json", &mut prov);
        assert_eq!(target["engine"]["enforce_eager"], json!(false));
        assert_eq!(
            target["engine"]["max_num_seqs"],
            json!(32),
            "the file's value is kept"
        );
        assert_eq!(conflicts.len(), 1);
        assert_eq!(conflicts[0].pointer, "/engine/max_num_seqs");
        assert!(prov.is_sidecar("/engine/enforce_eager"));
        assert!(!prov.is_sidecar("/engine/max_num_seqs"));
        assert!(target.get("id").is_none());
    }

    #[test]
    fn nulls_and_the_note_are_not_values() {
        let mut side = json!({
            "$benchlint": {"skeleton_for": "a.json"},
            "platform": {"host": null, "device": {"model": "NVIDIA H200", "memory_gib": null}},
            "engine": {"speculative": {"enabled": null}},
            "workload": {"sampling": {"top_p": 1.0, "top_k": null}},
            "labels": {},
            "platform2": [null]
        });
        prepare(&mut side);
        assert_eq!(
            side,
            json!({
                "platform": {"device": {"model": "NVIDIA H200"}},
                "workload": {"sampling": {"top_p": 1.0}},
                "labels": {},
                "platform2": [null]
            })
        );
    }

    #[test]
    fn sidecar_names() {
        let c = candidates(Path::new("r/run1.json"));
        assert_eq!(
            c,
            vec![
                PathBuf::from("r/run1.meta.json"),
                PathBuf::from("r/run1.json.meta.json")
            ]
        );
        assert!(is_sidecar_name("run1.meta.json"));
    }
}
