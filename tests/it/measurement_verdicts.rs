//! What the measurement rules say about real harness files is true: a server that served
//! nothing is reported as such and judged on nothing else; the false alarms real files exposed
//! (a per-user rate that the median TPOT gives, reasoning tokens the throughput does count,
//! `notes: "TODO"`, a 64-bit seed, claims written with `15.0`, the prefill and think time of
//! agentic traces) stay gone; and outputs far below their cap are reported whatever
//! `ignore_eos` says. Each on the real file (`../shared/realworld`, skipped with a printed
//! reason when absent) and on a fixture of our own.

use std::path::Path;

use serde_json::json;

use crate::support::realworld;

use realworld::{codes, copy_to, findings, json_of, real, sidecar, with_code};

/// Rules that judge how figures were measured: a run that served nothing has none of them.
const MEASUREMENT: [&str; 9] = [
    "R003", "R005", "R006", "R008", "R009", "R011", "R019", "R020", "L003",
];

fn judged_measurement(all: &[benchlint::diagnostic::Finding]) -> Vec<&'static str> {
    codes(all)
        .into_iter()
        .filter(|c| MEASUREMENT.contains(c))
        .collect()
}

// ---------------------------------------------------------------- a server that served nothing

#[test]
fn a_real_run_where_every_request_failed_is_r007_and_nothing_that_judges_figures() {
    let Some(file) = real("vllm/er0080__bench_serve_all_requests_failed_v0.25.1.json") else {
        return;
    };
    let all = findings(&[&file]);
    let r007 = with_code(&all, "R007");
    assert_eq!(r007.len(), 1);
    assert!(
        r007[0].message.contains("8 requests failed")
            && r007[0]
                .message
                .contains("benchlint derived the outcome `failed`"),
        "{}",
        r007[0].message
    );
    // vLLM's 0.0 throughput of a level with no completed request is not a figure it reports.
    assert_eq!(judged_measurement(&all), Vec::<&str>::new());
}

#[test]
fn a_stopped_server_guidellm_report_is_r007_at_every_level() {
    // GuideLLM 0.8.1 against a port nothing listens on (our own recording).
    let all = findings(&[Path::new(
        "testdata/adapters/guidellm/v0.8.1-dead-server-all-errored.json",
    )]);
    let r007 = with_code(&all, "R007");
    assert_eq!(r007.len(), 2, "{r007:?}");
    assert!(
        r007[0].message.contains("297 requests failed"),
        "{}",
        r007[0].message
    );
    assert_eq!(judged_measurement(&all), Vec::<&str>::new());
    let own = Path::new("testdata/rules/R007-all-zero-level/fail/vllm-every-request-failed.json");
    let all = findings(&[own]);
    assert_eq!(with_code(&all, "R007").len(), 1);
    assert_eq!(judged_measurement(&all), Vec::<&str>::new());
}

// ------------------------------------------------------------------------ false alarms, gone

#[test]
fn the_median_tpot_of_real_files_gives_their_per_user_rate() {
    let Some(vllm) = real("vllm") else { return };
    let Some(guidellm) = real("guidellm") else {
        return;
    };
    assert!(with_code(&findings(&[&vllm, &guidellm]), "L003").is_empty());
    // `capacity` takes it, and says why a configuration has none.
    let Some(nerdalert) = real("vllm/nerdalert-vllm-bench-automation__results.jsonl") else {
        return;
    };
    let doc = json_of(&["capacity"], &[&nerdalert]);
    let configs = doc["configurations"].as_array().unwrap();
    assert_eq!(configs.len(), 9);
    let first = configs
        .iter()
        .find(|c| c["results"][0].as_str().unwrap().ends_with("#0"));
    let first = first.unwrap();
    assert!(
        (first["per_user_tok_s"].as_f64().unwrap() - 73.07).abs() < 0.01,
        "{first}"
    );
    assert_eq!(first["capacity_request_rate"], 10.0);
    // The third run (unbounded rate, median TPOT 53.1 ms: 18.8 tok/s per user) clears nothing.
    let third = configs
        .iter()
        .find(|c| c["results"][0].as_str().unwrap().ends_with("#2"));
    assert_eq!(third.unwrap()["none_because"], "no level clears the floor");
    // A real SGLang line of 2024 records no TPOT: no per-user rate, and capacity says so.
    let Some(sglang) = real("sglang/h200-benchmarks__llama_3_3_70b_online_output.jsonl") else {
        return;
    };
    let doc = json_of(&["capacity"], &[&sglang]);
    assert_eq!(
        doc["configurations"][0]["none_because"],
        "no per-user rate is recorded or derivable at the first level"
    );
}

#[test]
fn a_recorded_median_tpot_is_a_per_user_rate_for_l003_and_capacity() {
    let tpot =
        Path::new("testdata/rules/L003-aggregate-without-per-user/pass/vllm-median-tpot.json");
    assert!(with_code(&findings(&[tpot]), "L003").is_empty());
    let doc = json_of(&["capacity"], &[tpot]);
    let c = &doc["configurations"][0];
    assert_eq!(c["capacity"], 64, "{c}");
    assert!((c["per_user_tok_s"].as_f64().unwrap() - 1000.0 / 27.9).abs() < 1e-9);
    // The same run without its TPOT has no per-user rate, and capacity says that is why.
    let mut run: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(tpot).unwrap()).unwrap();
    run.as_object_mut().unwrap().remove("median_tpot_ms");
    let dir = tempfile::tempdir().unwrap();
    let without = dir.path().join("run.json");
    std::fs::write(&without, run.to_string()).unwrap();
    assert_eq!(with_code(&findings(&[&without]), "L003").len(), 1);
    let doc = json_of(&["capacity"], &[&without]);
    assert_eq!(
        doc["configurations"][0]["none_because"],
        "no per-user rate is recorded or derivable at the first level"
    );
}

#[test]
fn the_real_aiperf_throughput_counts_its_reasoning_tokens() {
    let Some(file) = real("genai-perf/wellflat-k8s-dev__aiperf__profile_export_aiperf.json") else {
        return;
    };
    let all = findings(&[&file]);
    let r015 = with_code(&all, "R015");
    assert_eq!(r015.len(), 1);
    let m = &r015[0].message;
    assert!(m.contains("25,567 of the 28,348 output tokens"), "{m}");
    assert!(m.contains("54.56 tok/s × 519.6 s ≈ 28,348 tokens"), "{m}");
    assert!(!m.contains("may be missing"), "{m}");
}

#[test]
fn real_agentic_traces_are_not_a_stall() {
    let Some(root) = real("inferencex-aiperf") else {
        return;
    };
    let checked = benchlint::engine::check(&[root], &benchlint::corpus::Options::default());
    assert!(with_code(&checked.findings, "R011").is_empty());
    // The condition: prefill (a 51 s median TTFT on 90,000-token prompts) and the pauses
    // between turns (11.9 of 16 streams in flight on average) are accounted for.
    let in_flight: Vec<f64> = checked
        .corpus
        .results
        .iter()
        .filter_map(|r| r.doc.levels.first()?.mean_in_flight)
        .collect();
    assert_eq!(in_flight.len(), 2);
    assert!(
        in_flight.iter().any(|m| (m - 11.93).abs() < 0.01),
        "{in_flight:?}"
    );
    // Seed 004's stall (a 6.1 s median TTFT on 41-token prompts at 16 streams) still is one.
    let stall =
        Path::new("testdata/rules/R011-aggregate-per-user-mismatch/fail/stall-at-16-streams.json");
    assert_eq!(with_code(&findings(&[stall]), "R011").len(), 1);
    for pass in [
        "agentic-long-prompts-between-turns.json",
        "long-prompts-prefill-before-decode.json",
        "long-prompts-no-ttft-recorded.json",
    ] {
        let p = Path::new("testdata/rules/R011-aggregate-per-user-mismatch/pass").join(pass);
        assert!(with_code(&findings(&[&p]), "R011").is_empty(), "{pass}");
    }
    // Without a TTFT, short prompts cannot explain a shortfall: still a stall.
    let stall = Path::new(
        "testdata/rules/R011-aggregate-per-user-mismatch/fail/stall-short-prompts-no-ttft.json",
    );
    assert_eq!(with_code(&findings(&[stall]), "R011").len(), 1);
}

#[test]
fn real_agentic_rows_without_a_ttft_are_not_a_stall() {
    let Some(rows) = real("inferencex/ajith-sirra-amd__0601_results_bmk_10__agg_bmk.json") else {
        return;
    };
    let checked = findings(&[&rows]);
    // Both rows summarise agentic-coding traces (prompts of tens of thousands of tokens) and
    // record no median TTFT: the prefill their aggregate includes is not a stall.
    assert!(with_code(&checked, "R011").is_empty());
}

#[test]
fn notes_todo_and_a_64_bit_seed_are_values_on_a_real_file() {
    let Some(file) = real("vllm/er0080__bench_serve_v0.25.1.json") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let copy = copy_to(&file, dir.path(), "bench.json");
    sidecar(
        &copy,
        &json!({ "notes": "TODO", "workload": { "seed": 18_446_744_073_709_551_615_u64 } }),
    );
    let checked = benchlint::engine::check(&[copy], &benchlint::corpus::Options::default());
    assert!(with_code(&checked.findings, "M016").is_empty());
    assert!(with_code(&checked.findings, "E003").is_empty());
    assert_eq!(checked.corpus.results.len(), 1);
    let seed = checked.corpus.results[0]
        .doc
        .workload
        .as_ref()
        .unwrap()
        .seed
        .clone();
    assert_eq!(seed.unwrap().as_u64(), Some(u64::MAX));
    for own in [
        "testdata/rules/M016-placeholder-value/pass/todo-in-notes.json",
        "testdata/rules/E003-schema-violation/pass/seed-above-i64.json",
    ] {
        let all = findings(&[Path::new(own)]);
        assert!(with_code(&all, "M016").is_empty() && with_code(&all, "E003").is_empty());
    }
}

#[test]
fn claims_on_real_runs_read_integers_written_15_0() {
    let Some(file) = real(
        "vllm/er0080__vllm_sweep_v0.25.1__SERVE--max_num_seqs=4-BENCH--max_concurrency=2-num_prompts=8__run=0.json",
    ) else {
        return;
    };
    let check_claims = |n: &str, concurrency: &str| {
        let dir = tempfile::tempdir().unwrap();
        let run = copy_to(&file, dir.path(), "run=0.json");
        let id = format!("{}#0", run.display());
        let claims = format!(
            r#"{{ "schema": "benchlint/claims/v1", "claims": [ {{ "id": "opt-at-2",
              "kind": "figure", "metric": "aggregate_tok_s", "value": 93.75, "n": {n},
              "subject": {{ "results": ["{id}"], "concurrency": {concurrency} }} }} ] }}"#
        );
        std::fs::write(dir.path().join("claims.json"), claims).unwrap();
        let all = findings(&[dir.path()]);
        let scratch = dir.path().display().to_string();
        let mut claim: Vec<String> = all
            .iter()
            .filter(|f| f.rule.code.starts_with('C') || f.rule.code == "E003")
            .map(|f| {
                format!(
                    "{} {}",
                    f.rule.code,
                    f.message.raw().replace(&scratch, "DIR")
                )
            })
            .collect();
        claim.sort();
        claim
    };
    let integers = check_claims("5", "2");
    assert!(
        integers.iter().any(|m| m.contains("publishes n = 5")),
        "{integers:?}"
    );
    assert_eq!(check_claims("5.0", "2.0"), integers);
    // A claim that cannot be read at all is a finding, never a silent "unresolved".
    let unusable = check_claims("5", "1e20");
    assert!(
        unusable
            .iter()
            .any(|m| m.starts_with("E003 claim 1 could not be read")),
        "{unusable:?}"
    );
}

// --------------------------------------------------------------------- outputs far below the cap

#[test]
fn the_real_nerdalert_outputs_fall_far_below_their_cap() {
    let Some(file) = real("vllm/nerdalert-vllm-bench-automation__results.jsonl") else {
        return;
    };
    let all = findings(&[&file]);
    let r020 = with_code(&all, "R020");
    assert_eq!(r020.len(), 9);
    let m = &r020[0].message;
    assert!(
        m.contains("mean output 269.8 tokens per request over 300 requests")
            && m.contains("54.0% of the 500-token cap (ignore_eos not recorded)"),
        "{m}"
    );
    // SGLang's random lengths drawn from 0 to 1,024 tokens average half the cap, as asked.
    let Some(sglang) = real("sglang/h200-benchmarks__llama_3_3_70b_online_output.jsonl") else {
        return;
    };
    assert!(with_code(&findings(&[&sglang]), "R020").is_empty());
}

#[test]
fn outputs_far_below_the_cap_are_reported_unless_real_text_ended_at_eos() {
    let rules = Path::new("testdata/rules/R020-output-shortfall");
    let far = findings(&[&rules.join("fail/far-below-the-cap-eos-not-recorded.json")]);
    assert_eq!(with_code(&far, "R020").len(), 1);
    let honoured = findings(&[&rules.join("pass/eos-honoured.json")]);
    assert!(with_code(&honoured, "R020").is_empty());
}
