//! What a document that no adapter reads looks like, said in its one finding (E004): a known
//! format that is not a serving benchmark is named for what it is, anything else is described
//! by its shape and first keys so the reader can tell which file it is.

use serde_json::Value;

/// Keys every llama-bench record carries (`llama-bench -o json` / `-o jsonl`).
const LLAMA_BENCH_KEYS: [&str; 4] = ["build_commit", "n_prompt", "n_gen", "avg_ts"];

/// A few words on what `doc` is, for a finding that says it was skipped.
pub fn describe(doc: &Value) -> String {
    if let Some(known) = known_format(doc) {
        return known.to_string();
    }
    match doc {
        Value::Object(map) if map.is_empty() => "an empty object".into(),
        Value::Object(map) => format!("an object with keys {}", first_keys(map.keys())),
        Value::Array(items) if items.is_empty() => "an empty array".into(),
        Value::Array(items) => {
            let objects: Vec<&serde_json::Map<String, Value>> =
                items.iter().filter_map(Value::as_object).collect();
            if objects.len() == items.len() {
                format!(
                    "an array of {} object{} with keys {}",
                    items.len(),
                    if items.len() == 1 { "" } else { "s" },
                    first_keys(objects[0].keys())
                )
            } else {
                format!("an array of {} values", items.len())
            }
        }
        Value::String(_) => "a lone string, not a document".into(),
        Value::Number(_) => "a lone number, not a document".into(),
        Value::Bool(_) => "a lone boolean, not a document".into(),
        Value::Null => "a lone null, not a document".into(),
    }
}

/// Formats people keep beside serving results that benchlint deliberately does not read.
fn known_format(doc: &Value) -> Option<&'static str> {
    let record = match doc {
        Value::Array(items) => items.first()?,
        other => other,
    };
    let map = record.as_object()?;
    if LLAMA_BENCH_KEYS.iter().all(|k| map.contains_key(*k)) {
        return Some(
            "llama-bench JSON: a microbenchmark of prompt processing and generation speed on one model, not a serving benchmark",
        );
    }
    if ["results", "versions", "config"]
        .iter()
        .all(|k| map.contains_key(*k))
        && map.get("results").is_some_and(Value::is_object)
    {
        return Some(
            "lm-evaluation-harness results: a quality evaluation, not a serving benchmark (name it as a quality gate in a result's artifacts to pair them)",
        );
    }
    if map.contains_key("traceEvents") {
        return Some("a Chrome trace (traceEvents), not a result");
    }
    None
}

fn first_keys<'a>(keys: impl Iterator<Item = &'a String>) -> String {
    let keys: Vec<&String> = keys.collect();
    let mut shown: Vec<String> = keys.iter().take(4).map(|k| format!("`{k}`")).collect();
    if keys.len() > 4 {
        shown.push("…".into());
    }
    shown.join(", ")
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn llama_bench_is_named_for_what_it_is() {
        let record = json!({"build_commit": "a1b2", "model_type": "llama 8B Q4_0",
            "n_prompt": 512, "n_gen": 0, "avg_ts": 5120.3, "stddev_ts": 12.0});
        assert!(describe(&json!([record.clone()])).starts_with("llama-bench JSON"));
        assert!(describe(&record).contains("not a serving benchmark"));
    }

    #[test]
    fn anything_else_by_its_shape() {
        assert_eq!(
            describe(&json!({"a": 1, "b": 2, "c": 3, "d": 4, "e": 5})),
            "an object with keys `a`, `b`, `c`, `d`, …"
        );
        assert_eq!(
            describe(&json!([{"x": 1}, {"x": 2}])),
            "an array of 2 objects with keys `x`"
        );
        assert_eq!(describe(&json!(3)), "a lone number, not a document");
    }
}
