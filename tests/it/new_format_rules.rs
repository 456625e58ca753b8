//! The rules that only the newer harnesses reveal (R025 to R028), and the older measurement and
//! secret rules (R006, R007, R024, M018, R022), on inference-perf, genai-bench, MLPerf loadgen,
//! InferenceX and AIPerf files as users have them: the real files in `../shared/realworld`
//! (skipped with a printed reason when absent) and fixtures of our own, or variants of them
//! written into a scratch folder (each says what changed).

use std::path::Path;

use benchlint::diagnostic::Finding;
use serde_json::Value;

use crate::support::realworld;

use realworld::{findings, real, with_code};

const FIXTURES: &str = "testdata/adapters";

/// The file name a finding is placed on.
fn file_of(f: &Finding) -> String {
    Path::new(f.primary.path.raw())
        .file_name()
        .unwrap()
        .to_string_lossy()
        .into_owned()
}

/// The whole check of `path`: its results and findings.
fn checked(path: &Path) -> benchlint::engine::Checked {
    benchlint::engine::check(
        &[path.to_path_buf()],
        &benchlint::corpus::Options::default(),
    )
}

/// Copies a fixture folder into `to`, file by file (the fixtures are flat).
fn copy_folder(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap().flatten() {
        if e.path().is_file() {
            std::fs::copy(e.path(), to.join(e.file_name())).unwrap();
        }
    }
}

/// Rewrites the JSON document at `path` with `edit`.
fn edit_json(path: &Path, edit: impl FnOnce(&mut Value)) {
    let mut v: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    edit(&mut v);
    std::fs::write(path, serde_json::to_string_pretty(&v).unwrap()).unwrap();
}

// ------------------------------------------------------------------ the real files, in whole

/// The two saturated inference-perf stages (R027), the three genai-bench levels whose
/// `error_rate` 0 sits beside 8, 21 and 23 failed requests (R025, as INDEX.md notes for those
/// files), and the MLPerf CM run declared VALID with a 0 ms minimum duration (R026).
#[test]
fn on_the_real_files_r025_to_r028_report_only_what_the_files_show() {
    let Some(root) = real("") else { return };
    let all = findings(&[&root]);
    let mine: Vec<String> = all
        .iter()
        .filter(|f| ["R025", "R026", "R027", "R028"].contains(&f.rule.code))
        .map(|f| format!("{} {} {}", f.rule.code, file_of(f), f.primary.pointer.raw()))
        .collect();
    assert_eq!(
        mine,
        [
            "R025 D8000_700_text-to-text_openai_gpt-oss-120b_num_concurrency_1_time_120s.json /aggregated_metrics/error_rate",
            "R025 D8000_700_text-to-text_openai_gpt-oss-120b_num_concurrency_2_time_117s.json /aggregated_metrics/error_rate",
            "R025 D8000_700_text-to-text_openai_gpt-oss-120b_num_concurrency_4_time_66s.json /aggregated_metrics/error_rate",
            "R027 stage_5_lifecycle_metrics.json /load_summary/achieved_rate",
            "R027 stage_6_lifecycle_metrics.json /load_summary/achieved_rate",
            "R026 mlperf_log_detail.txt /effective_min_duration_ms",
        ],
        "{mine:#?}"
    );
}

// ---------------------------------------------------------------------------------- R027

#[test]
fn the_kubecon_demo_stages_that_asked_87_and_104_qps_and_got_73_are_r027() {
    let Some(folder) = real("inference-perf/kubernetes-sigs__demo-vllm-eagle") else {
        return;
    };
    let all = findings(&[&folder]);
    let r027 = with_code(&all, "R027");
    assert_eq!(r027.len(), 2, "{r027:#?}");
    assert!(
        r027[0]
            .message
            .raw()
            .starts_with("at 86.81 req/s: the harness sent 73.08 requests")
            && r027[0].message.contains("84.2% of the 86.81 it asked for"),
        "{}",
        r027[0].message
    );
    assert!(
        r027[1]
            .message
            .raw()
            .starts_with("at 103.98 req/s: the harness sent 72.61 requests")
            && r027[1].message.contains("69.8% of the 103.98"),
        "{}",
        r027[1].message
    );
    // The stage at 69.65 QPS achieved its rate and is not reported.
    assert!(r027.iter().all(|f| !f.message.contains("69.65")));
}

// ---------------------------------------------------------------------------------- R026

#[test]
fn a_loadgen_run_valid_on_a_zero_minimum_duration_and_an_invalid_server_run_are_r026() {
    let offline = Path::new(FIXTURES).join("mlperf/offline-lowered-minimums");
    let all = findings(&[&offline]);
    let r026 = with_code(&all, "R026");
    // The detail log is the run's result; its summary is a companion: one finding.
    assert_eq!(r026.len(), 1, "{r026:#?}");
    assert_eq!(file_of(r026[0]), "mlperf_log_detail.txt");
    assert_eq!(r026[0].primary.pointer, "/effective_min_duration_ms");
    assert!(
        r026[0]
            .message
            .contains("Offline run VALID against a minimum duration of 0 s"),
        "{}",
        r026[0].message
    );

    let server = Path::new(FIXTURES).join("mlperf/server-invalid-summary-only");
    let all = findings(&[&server]);
    let r026 = with_code(&all, "R026");
    assert_eq!(r026.len(), 1, "{r026:#?}");
    assert_eq!(r026[0].primary.pointer, "/Result is");
    assert!(
        r026[0]
            .message
            .contains("INVALID (latency constraints not met)"),
        "{}",
        r026[0].message
    );
}

#[test]
fn the_real_amd_server_run_valid_on_loadgens_own_minimums_is_not_r026() {
    let Some(folder) = real("mlperf/mlcommons__v4.1_AMD_8xMI300X_llama2-70b-99_Server_run_1")
    else {
        return;
    };
    let all = findings(&[&folder]);
    assert!(with_code(&all, "R026").is_empty());
    // It was judged at all: the harness's verdict and minimums were read.
    let run = checked(&folder);
    let v = &run.corpus.results[0].value;
    assert_eq!(
        v.pointer("/harness/validity/verdict"),
        Some(&Value::from("valid"))
    );
    assert_eq!(
        v.pointer("/harness/validity/min_duration_s"),
        Some(&Value::from(600.0))
    );
}

// ---------------------------------------------------------------------------------- R025

#[test]
fn genai_bench_error_rate_zero_beside_eight_errors_is_r025_on_the_level_file() {
    let folder = Path::new(FIXTURES).join("genai-bench/sglang-experiment");
    let all = findings(&[&folder]);
    let r025 = with_code(&all, "R025");
    assert_eq!(r025.len(), 1, "{r025:#?}");
    assert!(file_of(r025[0]).contains("num_concurrency_16"));
    assert_eq!(r025[0].primary.pointer, "/aggregated_metrics/error_rate");
    assert!(
        r025[0]
            .message
            .contains("error rate of 0, but 8 of 12 requests failed"),
        "{}",
        r025[0].message
    );
    // The counts still tell R006 and R024 what the rate hides.
    assert_eq!(with_code(&all, "R006").len(), 1);
    assert_eq!(with_code(&all, "R024").len(), 1);
}

#[test]
fn real_counts_that_add_up_are_not_r025() {
    for rel in [
        "genai-bench/basetenlabs__training_benchmark",
        "llmperf/leaderboard__summary_bedrock_70b.json",
        "inference-perf/jjk-g__llama3-8b",
        "vllm",
    ] {
        let Some(path) = real(rel) else { return };
        let all = findings(&[&path]);
        assert!(with_code(&all, "R025").is_empty(), "{rel}");
    }
}

#[test]
fn inferencex_rows_compare_the_clients_tokens_with_the_servers_counter() {
    let Some(file) = real("inferencex/ajith-sirra-amd__0601_results_bmk_10__agg_bmk.json") else {
        return;
    };
    let run = checked(&file);
    let level = &run.corpus.results[0].value["levels"][0];
    // The client's tokens are what the output throughput divides by the duration.
    assert_eq!(level["output_tokens"], 159_787);
    assert_eq!(level["server_output_tokens"], 184_008);
    // Not two figures of one count that contradict each other (R025), but a client count short
    // of the server's (R002).
    let all = run.findings;
    assert!(with_code(&all, "R025").is_empty());
    assert_eq!(with_code(&all, "R002").len(), 2);
}

// ---------------------------------------------------------------------------------- R028

#[test]
fn a_genai_bench_experiment_sent_without_streaming_is_r028_at_every_level() {
    // Our fixture with `"stream": false` in the request parameters (and TTFT equal to e2e).
    let folder =
        Path::new("testdata/rules/R028-ttft-without-streaming/fail/genai-bench-not-streamed");
    let all = findings(&[folder]);
    let r028 = with_code(&all, "R028");
    assert_eq!(r028.len(), 2, "{r028:#?}");
    for f in &r028 {
        assert_eq!(f.primary.pointer, "/aggregated_metrics/stats/ttft/p50");
        assert!(f.message.contains("did not stream"), "{}", f.message);
    }
    // Without the flag, the TTFT equal to the end-to-end latency still shows it.
    let tmp = tempfile::tempdir().unwrap();
    copy_folder(folder, tmp.path());
    edit_json(&tmp.path().join("experiment_metadata.json"), |m| {
        m["additional_request_params"]
            .as_object_mut()
            .unwrap()
            .remove("stream");
    });
    let all = findings(&[tmp.path()]);
    let r028 = with_code(&all, "R028");
    assert_eq!(r028.len(), 2, "{r028:#?}");
    assert!(
        r028[0].message.contains("is the end-to-end p50"),
        "{}",
        r028[0].message
    );
}

#[test]
fn streamed_real_runs_are_not_r028_and_say_they_streamed() {
    let Some(aiperf) = real("genai-perf/wellflat-k8s-dev__aiperf__profile_export_aiperf.json")
    else {
        return;
    };
    let run = checked(&aiperf);
    assert_eq!(
        run.corpus.results[0].value.pointer("/workload/streaming"),
        Some(&Value::Bool(true))
    );
    let Some(root) = real("") else { return };
    assert!(with_code(&findings(&[&root]), "R028").is_empty());
}

// ---------------------------------------------------------- existing rules on the new formats

#[test]
fn failed_requests_under_a_throughput_are_r006_and_r024_in_inference_perf_stages() {
    for (rel, message) in [
        (
            "inference-perf/jjk-g__gemma4-vllm",
            "at 2 req/s: 4 of 60 requests failed (6.7%",
        ),
        (
            "inference-perf/jjk-g__llama3-8b",
            "at 5 req/s: 21 of 300 requests failed (7.0%",
        ),
    ] {
        let Some(folder) = real(rel) else { return };
        let all = findings(&[&folder]);
        let r024 = with_code(&all, "R024");
        assert_eq!(r024.len(), 1, "{rel}");
        assert!(
            r024[0].message.raw().starts_with(message),
            "{}",
            r024[0].message
        );
        assert_eq!(r024[0].primary.pointer, "/failures/count");
        assert_eq!(with_code(&all, "R006").len(), 1, "{rel}");
    }
    // Our fixture: the second of two stages lost 2 of 16.
    let all = findings(&[&Path::new(FIXTURES).join("inference-perf/older-stages-rates-in-config")]);
    assert_eq!(with_code(&all, "R024").len(), 1);
    assert_eq!(with_code(&all, "R006").len(), 1);
}

#[test]
fn an_inference_perf_stage_where_every_request_failed_is_r007() {
    let all = findings(&[&Path::new(FIXTURES).join("inference-perf/newer-every-request-failed")]);
    let r007 = with_code(&all, "R007");
    assert_eq!(r007.len(), 1, "{r007:#?}");
    assert!(
        r007[0].message.contains("30 requests failed")
            && r007[0]
                .message
                .contains("benchlint derived the outcome `failed`"),
        "{}",
        r007[0].message
    );
    // Its zeros are not figures the level reports.
    assert!(with_code(&all, "R006").is_empty() && with_code(&all, "R024").is_empty());
}

#[test]
fn a_client_tokenizer_of_another_family_is_r022_in_genai_bench_and_inference_perf() {
    let tmp = tempfile::tempdir().unwrap();
    // genai-bench: the metadata's tokenizer changed to Llama 2's for a Llama 3.1 model.
    let gb = tmp.path().join("genai-bench");
    copy_folder(
        &Path::new(FIXTURES).join("genai-bench/sglang-experiment"),
        &gb,
    );
    edit_json(&gb.join("experiment_metadata.json"), |m| {
        m["server_model_tokenizer"] = Value::from("hf-internal-testing/llama-tokenizer");
    });
    let all = findings(&[&gb]);
    let r022 = with_code(&all, "R022");
    assert_eq!(r022.len(), 1, "{r022:#?}");
    assert_eq!(file_of(r022[0]), "experiment_metadata.json");
    assert_eq!(r022[0].primary.pointer, "/server_model_tokenizer");

    // inference-perf: the config's tokenizer changed to Llama 3's for a Qwen3 model.
    let ip = tmp.path().join("inference-perf");
    copy_folder(
        &Path::new(FIXTURES).join("inference-perf/older-stages-rates-in-config"),
        &ip,
    );
    let config = ip.join("config.yaml");
    let text = std::fs::read_to_string(&config).unwrap();
    let changed = text.replace(
        "pretrained_model_name_or_path: Qwen/Qwen3-8B",
        "pretrained_model_name_or_path: meta-llama/Llama-3.1-8B-Instruct",
    );
    assert_ne!(text, changed, "the fixture names its tokenizer");
    std::fs::write(&config, changed).unwrap();
    let all = findings(&[&ip]);
    let r022 = with_code(&all, "R022");
    assert_eq!(r022.len(), 1, "{r022:#?}");
    assert_eq!(file_of(r022[0]), "config.yaml");
    // The fixtures as written name their model's own tokenizer.
    for folder in [
        "genai-bench/sglang-experiment",
        "inference-perf/older-stages-rates-in-config",
    ] {
        let all = findings(&[&Path::new(FIXTURES).join(folder)]);
        assert!(with_code(&all, "R022").is_empty(), "{folder}");
    }
}

#[test]
fn an_api_key_in_a_genai_bench_command_is_m018_and_a_template_slot_is_not() {
    let all = findings(&[&Path::new(FIXTURES).join("genai-bench/sglang-experiment")]);
    let m018 = with_code(&all, "M018");
    assert_eq!(m018.len(), 1);
    assert_eq!(m018[0].primary.pointer, "/cmd");
    // The real experiment's command passes no key.
    let Some(folder) = real("genai-bench/basetenlabs__training_benchmark") else {
        return;
    };
    assert!(with_code(&findings(&[&folder]), "M018").is_empty());
    // Nor does the inference-perf demo config, whose token is a `<your-hf-token>` slot.
    let Some(demo) = real("inference-perf/kubernetes-sigs__demo-vllm-eagle") else {
        return;
    };
    assert!(with_code(&findings(&[&demo]), "M018").is_empty());
}

// ----------------------------------------------------------------------------------- power

#[test]
fn aiperf_dcgm_telemetry_gives_the_serving_gpus_device_power() {
    let Some(file) = real("genai-perf/wellflat-k8s-dev__aiperf__profile_export_aiperf.json") else {
        return;
    };
    let run = checked(&file);
    let power = &run.corpus.results[0].value["levels"][0]["power_w"];
    // One A100 held the model (73 GB in use); the seven idle ones on the node are not counted.
    assert!(
        (power["mean"].as_f64().unwrap() - 94.617_877).abs() < 1e-5,
        "{power}"
    );
    assert_eq!(power["kind"], "device");
    assert!(with_code(&run.findings, "L005").is_empty());
}
