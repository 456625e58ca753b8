//! The files an MLPerf run or submission folder holds beside the loadgen logs, recognised so
//! they are never reported as unknown: none carries a serving result of its own.

use serde_json::Value;

use crate::adapters::{ItemsVerdict, Source, Tally};

/// Whether `doc` (JSON) is one of the MLPerf side files: the system description
/// (`system_meta.json`, `systems/<system>.json`), the automation's host, SUT and version
/// records (`cm-*.json`, `mlc-*.json`, `os_info.json`), `pip_freeze.json`, the reference
/// harness's `results.json` (`TestScenario.*`), `measurements.json`, the accuracy log
/// (`mlperf_log_accuracy.json`), the trace (`mlperf_log_trace.json`) and a power run's PTD
/// client and server session records (`performance/power/client.json`, `server.json`). Most
/// are told by their keys; the automation's `cm-*` / `mlc-*` records, whose shapes vary by
/// script, also by their name.
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
                        || k.starts_with("MLC_HOST_")
                        || k.starts_with("CM_HOST_")
                        || k.starts_with("TestScenario.")
                })
                || (has("pip_freeze") && map.len() == 1)
                || (has("starting_weights_filename") && has("weight_data_types"))
                || (has("hardware_name") && has("implementation") && has("framework"))
                || ([has("session_name"), has("phases"), has("uuid"), has("modules")]
                    .iter()
                    .filter(|h| **h)
                    .count()
                    >= 3)
                // The reference harness's `results.json` as MLCommons CM runs write it: the
                // parsed arguments, their `Namespace(...)` repr, the SUT runtime.
                || (has("args")
                    && has("runtime")
                    && map
                        .get("cmdline")
                        .and_then(Value::as_str)
                        .is_some_and(|c| c.starts_with("Namespace(")))
                || (has("traceEvents") && lower.starts_with("mlperf_log_trace"))
                || lower.starts_with("cm-")
                || lower.starts_with("mlc-")
        }
        // An array is told from its items one at a time ([`ArrayTally`]).
        _ => false,
    }
}

/// What MLPerf makes of an array: the accuracy log (`mlperf_log_accuracy.json`, a record of
/// `qsl_idx` and hex `data` per sample, millions in an accuracy run), the trace, or an
/// automation record by its name, whatever it holds; or any non-empty array of accuracy
/// records: a companion.
#[derive(Default)]
pub(super) struct ArrayTally {
    seen: usize,
    not_accuracy: usize,
}

impl Tally for ArrayTally {
    fn see(&mut self, item: &Value) {
        self.seen += 1;
        let record =
            item.get("qsl_idx").is_some() && item.get("data").is_some_and(Value::is_string);
        self.not_accuracy += usize::from(!record);
    }

    fn verdict(&self, source: &Source<'_>) -> ItemsVerdict {
        let lower = source.file_name.to_ascii_lowercase();
        let named = ["mlperf_log_accuracy", "cm-", "mlc-", "mlperf_log_trace"]
            .iter()
            .any(|p| lower.starts_with(p));
        if named || (self.seen > 0 && self.not_accuracy == 0) {
            ItemsVerdict::Companion
        } else {
            ItemsVerdict::NotMine
        }
    }
}

/// Whether an empty file is one of the MLPerf side files loadgen creates and leaves empty:
/// the trace (`mlperf_log_trace.json`, empty when tracing is off, the default) and the
/// accuracy log (`mlperf_log_accuracy.json`, empty in a performance run).
pub fn is_empty_side_file(lower_name: &str, text: &str) -> bool {
    text.trim().is_empty()
        && (lower_name.starts_with("mlperf_log_trace")
            || lower_name.starts_with("mlperf_log_accuracy"))
}

/// Whether a text that is not JSON is one of the MLPerf side files: `user.conf` (lines of
/// `model.scenario.key = value`), `pip_freeze.raw` / `.txt` (lines of `package==version`),
/// `accuracy.txt` (the accuracy script's output with its `hash=` line), or a power run's PTD
/// files ([`is_power_text`]).
pub fn is_text_companion(lower_name: &str, text: &str) -> bool {
    if is_power_text(lower_name, text) {
        return true;
    }
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

/// Whether `text` is one of the text files of an MLPerf power run, told by its first lines:
/// SPEC PTDaemon's sample log (`spl.txt`: `Time,<stamp>,Watts,...`), its own log
/// (`ptd_logs.txt`: `MM-DD-YYYY HH:MM:SS.fff: message`, some lines without a stamp when the
/// file is named so), or the power client's and server's logs (`client.log`, `server.log`:
/// `client 2025-06-03 14:17:02,114 [INFO] ...`).
fn is_power_text(lower_name: &str, text: &str) -> bool {
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .take(20)
        .collect();
    let ptd_stamp = |l: &&str| {
        l.get(..23)
            .and_then(super::power::ptd_time)
            .is_some_and(|_| l[23..].starts_with(':'))
    };
    let power_log = |l: &&str| {
        ["client ", "server "].iter().any(|who| {
            l.strip_prefix(who).is_some_and(|rest| {
                let b = rest.as_bytes();
                b.len() > 26
                    && b[4] == b'-'
                    && b[7] == b'-'
                    && b[10] == b' '
                    && b[19] == b','
                    && rest.get(24..).is_some_and(|r| r.starts_with('['))
            })
        })
    };
    let sample = |l: &&str| l.starts_with("Time,") && l.contains(",Watts,");
    if lower_name.starts_with("ptd_log") && lines.iter().any(ptd_stamp) {
        return true;
    }
    !lines.is_empty()
        && lines
            .iter()
            .take(3)
            .all(|l| sample(l) || ptd_stamp(l) || power_log(l))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    /// Whether MLPerf's tally of the array `doc`, in the file `name`, makes it a companion.
    fn array_companion(doc: &Value, name: &str) -> bool {
        let mut tally = ArrayTally::default();
        for item in doc.as_array().unwrap() {
            tally.see(item);
        }
        let source = Source {
            path: name,
            file_name: name,
            doc_index: 0,
            doc_count: 1,
            folder: None,
            alone: false,
        };
        matches!(tally.verdict(&source), ItemsVerdict::Companion)
    }

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
        assert!(array_companion(
            &json!([{"seq_id": 1, "qsl_idx": 2, "data": "AB", "token_count": 1}]),
            "x.json"
        ));
        assert!(array_companion(&json!([]), "mlperf_log_accuracy.json"));
        assert!(!array_companion(&json!([]), "x.json"));
        assert!(!array_companion(
            &json!([{"qsl_idx": 2, "data": "AB"}, {"qsl_idx": 3}]),
            "x.json"
        ));
        assert!(is_json_companion(
            &json!({"hardware_name": "a18cbc095633", "implementation": "reference", "device": "cuda", "framework": "onnxruntime"}),
            "cm-sut-info.json"
        ));
        assert!(is_json_companion(
            &json!({"os_version": "Linux-6.8", "cpu_version": "x86_64", "python_version": "3.10.12"}),
            "mlc-host-info.json"
        ));
        assert!(is_json_companion(
            &json!({"version": "1.0", "timezone": 0, "session_name": "2025-06-03_14-17-02", "uuid": {"client": "a", "server": "b"}, "phases": {"ranging": [], "testing": []}}),
            "client.json"
        ));
        assert!(!is_json_companion(&json!({"results": {}}), "results.json"));
        assert!(is_json_companion(
            &json!({"CM_HOST_CPU_ARCHITECTURE": "x86_64", "CM_HOST_CPU_SOCKETS": "2"}),
            "cpu_info.json"
        ));
        assert!(is_json_companion(
            &json!({"args": {"scenario": "Offline"}, "cmdline": "Namespace(scenario='Offline')", "runtime": "pytorch-SUT", "time": 1_717_228_058, "version": "2.3.0"}),
            "results.json"
        ));
        assert!(is_empty_side_file("mlperf_log_trace.json", ""));
        assert!(is_empty_side_file("mlperf_log_accuracy.json", "\n"));
        assert!(!is_empty_side_file("results.json", ""));
        assert!(!is_empty_side_file("mlperf_log_trace.json", "{"));
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
        assert!(is_text_companion(
            "spl.txt",
            "Time,06-03-2025 14:20:10.412,Watts,38.120000,Volts,229.810000,Amps,0.301220,PF,0.550700,Mark,m\n"
        ));
        assert!(is_text_companion(
            "ptd_logs.txt",
            "06-03-2025 14:17:31.207: Uncertainty checking for Yokogawa WT310E is activated\n06-03-2025 14:17:40.002: Go with mark 'x_ranging'\n"
        ));
        assert!(is_text_companion(
            "ptd_logs.txt",
            "PTDaemon 1.11.1\n06-03-2025 14:17:31.207: Uncertainty checking for Yokogawa WT310E is activated\n"
        ));
        assert!(is_text_companion(
            "server.log",
            "server 2025-06-03 14:17:02,114 [INFO] Ready to accept connections at 0.0.0.0:4950\n"
        ));
        assert!(!is_text_companion(
            "server.log",
            "INFO 06-03 14:17:02 api_server.py:712] vLLM API server version 0.9.0\n"
        ));
        assert!(!is_text_companion("spl.txt", "Time,soon\n"));
    }
}
