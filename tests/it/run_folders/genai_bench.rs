//! A genai-bench experiment: an API key in its command reported and never printed, one level
//! file read alone, and a finding about a level landing in that level's file.

use std::path::Path;

use benchlint::model::Provenance;
use serde_json::Value;

use super::{FIXTURES, REALWORLD, check, findings};

#[test]
fn an_api_key_in_genai_bench_cmd_is_reported_on_the_metadata_and_never_printed() {
    let folder = Path::new(FIXTURES).join("genai-bench/sglang-experiment");
    let checked = check(&folder);
    let m018 = findings(&checked, "M018");
    assert_eq!(m018.len(), 1, "{m018:?}");
    assert!(
        m018[0]
            .primary
            .path
            .raw()
            .ends_with("experiment_metadata.json")
    );
    assert_eq!(m018[0].primary.pointer, "/cmd");
    let key = "sk-proj-4fJ2k9QxLmN8pRt3VwYz7HcB";
    for f in &checked.findings {
        assert!(!f.message.contains(key), "{}", f.message);
        assert!(
            !f.help
                .as_ref()
                .map(benchlint::text::Text::raw)
                .unwrap_or_default()
                .contains(key)
        );
    }
    // The client's command is not the serve command.
    let r = &checked.corpus.results[0];
    assert!(r.value.pointer("/engine/serve_command").is_none());
    assert!(!r.value.to_string().contains(key));
    assert!(findings(&checked, "M003").iter().any(|f| {
        f.help
            .as_ref()
            .is_some_and(|h| h.contains("genai-bench's `cmd`"))
    }));
}

#[test]
fn one_level_file_read_alone_is_a_one_level_result_with_the_experiment_identity() {
    let file = Path::new(FIXTURES).join(
        "genai-bench/sglang-experiment/D(100,1000)_text-to-text_num_concurrency_16_time_13s.json",
    );
    let checked = check(&file);
    assert_eq!(checked.corpus.results.len(), 1);
    let r = &checked.corpus.results[0];
    assert_eq!(r.doc.levels.len(), 1);
    assert_eq!(r.doc.levels.as_slice()[0].concurrency, Some(16));
    assert_eq!(r.doc.levels.as_slice()[0].failed, Some(8));
    // Milliseconds in the file (`_time_unit`), seconds and milliseconds in the result.
    let ttft = r
        .value
        .pointer("/levels/0/ttft_s/p50")
        .and_then(Value::as_f64);
    assert!(ttft.is_some_and(|t| (t - 0.1862).abs() < 1e-9), "{ttft:?}");
    assert_eq!(
        r.value.pointer("/engine/version"),
        Some(&Value::from("0.4.6.post2"))
    );
    assert_eq!(
        r.value.pointer("/workload/max_output_tokens"),
        Some(&Value::from(1000))
    );
    match r.provenance.get("/engine/version").as_deref() {
        Some(Provenance::Beside { path, pointer }) => {
            assert!(path.ends_with("experiment_metadata.json"), "{path}");
            assert_eq!(pointer, "/server_version");
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_finding_about_a_level_lands_in_that_level_s_file() {
    let base = Path::new(REALWORLD);
    if !base.is_dir() {
        println!("skipping: ../shared/realworld not found");
        return;
    }
    let checked = check(&base.join("genai-bench/basetenlabs__training_benchmark"));
    let r012 = findings(&checked, "R012");
    assert_eq!(r012.len(), 1, "{r012:?}");
    assert!(
        r012[0]
            .primary
            .path
            .raw()
            .ends_with("N2000_200_200_20_text-to-text_num_concurrency_64_time_14s.json")
    );
    assert_eq!(
        r012[0].primary.pointer,
        "/aggregated_metrics/mean_output_throughput_tokens_per_s"
    );
}
