//! The files an MLPerf run or submission folder holds beside the loadgen logs, recognised so
//! they are never reported as unknown: none carries a serving result of its own.

use serde_json::Value;

/// Whether `doc` (JSON) is one of the MLPerf side files: the system description
/// (`system_meta.json`, `systems/<system>.json`), the automation's host, SUT and version
/// records (`cm-*.json`, `mlc-*.json`, `os_info.json`), `pip_freeze.json`, the reference
/// harness's `results.json` (`TestScenario.*`), `measurements.json`, the accuracy log
/// (`mlperf_log_accuracy.json`) and the trace (`mlperf_log_trace.json`). Most are told by
/// their keys; the automation's `cm-*` / `mlc-*` records, whose shapes vary by script, also by
/// their name.
pub fn is_json_companion(doc: &Value, file_name: &str) -> bool {
    let lower = file_name.to_ascii_lowercase();
    match doc {
        Value::Object(map) => {
            let has = |k: &str| map.contains_key(k);
            (has("system_name")
                && (has("accelerator_model_name") || has("host_processor_model_name")))
                || (has("os_version") && has("cpu_version") && has("python_version"))
                || map.keys().any(|k| {
                    k.starts_with("app-mlperf-inference")
                        || k.starts_with("MLC_HOST_OS_")
                        || k.starts_with("CM_HOST_OS_")
                        || k.starts_with("TestScenario.")
                })
                || (has("pip_freeze") && map.len() == 1)
                || (has("starting_weights_filename") && has("weight_data_types"))
                || (has("hardware_name") && has("implementation") && has("framework"))
                || (has("traceEvents") && lower.starts_with("mlperf_log_trace"))
                || lower.starts_with("cm-")
                || lower.starts_with("mlc-")
        }
        Value::Array(items) => {
            lower.starts_with("mlperf_log_accuracy")
                || lower.starts_with("cm-")
                || lower.starts_with("mlc-")
                || lower.starts_with("mlperf_log_trace")
                || (!items.is_empty()
                    && items.iter().all(|i| {
                        i.get("qsl_idx").is_some() && i.get("data").is_some_and(Value::is_string)
                    }))
        }
        _ => false,
    }
}

/// Whether a text that is not JSON is one of the MLPerf side files: `user.conf` (lines of
/// `model.scenario.key = value`), `pip_freeze.raw` / `.txt` (lines of `package==version`), or
/// `accuracy.txt` (the accuracy script's output with its `hash=` line).
pub fn is_text_companion(lower_name: &str, text: &str) -> bool {
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .collect();
    if lines.is_empty() {
        return false;
    }
    let conf = |l: &&str| {
        l.split_once('=')
            .is_some_and(|(k, v)| k.trim().split('.').count() >= 3 && !v.trim().is_empty())
    };
    let conf_name = std::path::Path::new(lower_name)
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("conf"));
    if conf_name && lines.iter().all(conf) {
        return true;
    }
    let pinned = lines
        .iter()
        .filter(|l| l.contains("==") || l.contains(" @ "))
        .count();
    if lower_name.starts_with("pip_freeze") && pinned * 5 >= lines.len() * 4 {
        return true;
    }
    lower_name == "accuracy.txt" && lines.iter().any(|l| l.starts_with("hash="))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn side_files_are_recognised_by_content() {
        assert!(is_json_companion(
            &json!({"system_name": "s", "accelerator_model_name": "MI300X", "division": "closed"}),
            "system_meta.json"
        ));
        assert!(is_json_companion(
            &json!({"TestScenario.Offline": {"qps": 1.0}, "args": {}}),
            "results.json"
        ));
        assert!(is_json_companion(
            &json!([{"seq_id": 1, "qsl_idx": 2, "data": "AB", "token_count": 1}]),
            "x.json"
        ));
        assert!(is_json_companion(&json!([]), "mlperf_log_accuracy.json"));
        assert!(is_json_companion(
            &json!({"hardware_name": "a18cbc095633", "implementation": "reference", "device": "cuda", "framework": "onnxruntime"}),
            "cm-sut-info.json"
        ));
        assert!(is_json_companion(
            &json!({"os_version": "Linux-6.8", "cpu_version": "x86_64", "python_version": "3.10.12"}),
            "mlc-host-info.json"
        ));
        assert!(!is_json_companion(&json!({"results": {}}), "results.json"));
    }

    #[test]
    fn text_side_files_are_recognised_by_name_and_content() {
        assert!(is_text_companion(
            "user.conf",
            "# tuned\n*.Server.target_qps = 73.5\nllama2-70b.Server.min_duration = 600000\n"
        ));
        assert!(is_text_companion(
            "pip_freeze.raw",
            "numpy==1.26.4\ntorch==2.3.0\n"
        ));
        assert!(is_text_companion(
            "accuracy.txt",
            "{'rouge1': 44.4}\nhash=ab12\n"
        ));
        assert!(!is_text_companion("notes.conf", "just words\n"));
    }
}
