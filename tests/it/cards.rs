//! `benchlint cards`: three cards per result, cost only with an hourly cost and its basis.

use std::process::Command;

use serde_json::Value;

fn cards(path: &str) -> (i32, Value) {
    let out = Command::new(env!("CARGO_BIN_EXE_benchlint"))
        .args(["cards", path])
        .output()
        .unwrap();
    let code = out.status.code().unwrap();
    (
        code,
        serde_json::from_slice(&out.stdout).unwrap_or(Value::Null),
    )
}

#[test]
fn cards_of_a_result_with_an_hourly_cost() {
    let (code, v) = cards("testdata/corpora/demo/gb10-x8/prose-r1.json");
    assert_eq!(code, 0);
    assert_eq!(v["engine"]["peak_concurrency"], 24);
    assert_eq!(v["engine"]["peak_aggregate_tok_s"], 511.2);
    // $1.84 per hour over 511.2 tok/s × 3600 s = $1.00 per million output tokens.
    assert_eq!(v["platform"]["cost_per_million_output_usd"], 1.0);
    assert!(
        v["platform"]["cost_basis"]
            .as_str()
            .unwrap()
            .starts_with("output tokens only")
    );
    assert_eq!(v["model"]["single_stream_tok_s"], 74.03);
    assert_eq!(v["engine"]["scaling_curve"].as_array().unwrap().len(), 6);
}

#[test]
fn no_hourly_cost_no_cost_figure() {
    let (code, v) = cards("testdata/bad/minimal.json");
    assert_eq!(code, 0);
    assert!(v["platform"].get("cost_per_million_output_usd").is_none());
    assert!(v["platform"].get("cost_basis").is_none());
    assert_eq!(v["engine"]["peak_aggregate_tok_s"], 204.8);
}

#[test]
fn a_file_without_results_is_exit_2() {
    let (code, _) = cards("testdata/bad/truncated.json");
    assert_eq!(code, 2);
    let (code, _) = cards("testdata/empty");
    assert_eq!(code, 2);
}

#[test]
fn a_folder_gives_the_cards_of_each_result_with_the_result_they_are_for() {
    let (code, v) = cards("testdata/corpora/demo/gb10-x8");
    assert_eq!(code, 0);
    let all = v.as_array().expect("an array for several results");
    let ids: Vec<&str> = all.iter().map(|c| c["result"].as_str().unwrap()).collect();
    assert_eq!(ids.len(), 3, "{ids:?}");
    assert_eq!(
        all[0]["path"],
        "testdata/corpora/demo/gb10-x8/prose-r1.json"
    );
    // The same cards as the file alone gives, with the result named.
    let (_, alone) = cards("testdata/corpora/demo/gb10-x8/prose-r1.json");
    let mut first = all[0].clone();
    first.as_object_mut().unwrap().remove("path");
    assert_eq!(first, alone);
}

#[test]
fn a_rate_driven_run_is_carded_by_its_request_rate_never_by_its_prompt_count() {
    let path = "../shared/realworld/vllm/nerdalert-vllm-bench-automation__results.jsonl";
    if !std::path::Path::new(path).exists() {
        println!("skipping: ../shared/realworld not found");
        return;
    }
    let (code, v) = cards(path);
    assert_eq!(code, 0);
    let cards = v.as_array().unwrap();
    assert_eq!(cards.len(), 9);
    // The first line ran 300 prompts at 10 req/s: no concurrency of 300 anywhere.
    assert_eq!(cards[0]["engine"]["peak_request_rate"], 10.0);
    for card in cards {
        assert!(card["engine"].get("peak_concurrency").is_none(), "{card}");
        for point in card["engine"]["scaling_curve"].as_array().unwrap() {
            assert!(point.get("concurrency").is_none(), "{point}");
            assert!(point.get("request_rate").is_some(), "{point}");
        }
    }
}

#[test]
fn a_rate_driven_fixture_is_carded_by_its_request_rate() {
    let (code, v) = cards("testdata/adapters/genai-perf/nested-config-request-rate.json");
    assert_eq!(code, 0);
    let engine = &v["engine"];
    assert_eq!(engine["scaling_curve"][0]["request_rate"], 10.0, "{engine}");
    assert!(
        engine["scaling_curve"][0].get("concurrency").is_none(),
        "{engine}"
    );
}
