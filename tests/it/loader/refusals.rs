//! What fails or is refused: a folder that reads no result, `import` with two inputs for one
//! output name, baseline entries outside its folder, an in-tree config capping errors away.

use serde_json::{Value, json};

use super::{clean_corpus, exit_of, failing_vllm};
use crate::support::watchdog::{LIMIT, bin, run};

#[test]
fn a_folder_that_reads_no_result_fails_and_names_what_it_found() {
    let dir = tempfile::tempdir().unwrap();
    let report = "===========================================================\n= ENGINE DETAILS\n===========================================================\nModel:                  meta-llama/Llama-3.1-8B\nTensorRT-LLM Version:   0.17.0\n===========================================================\n= PERFORMANCE OVERVIEW\n===========================================================\nRequest Throughput (req/sec):                     41.2\nTotal Output Throughput (tokens/sec):             5273.6\n";
    for name in ["tp1.txt", "tp2.txt"] {
        std::fs::write(dir.path().join(name), report).unwrap();
    }
    std::fs::write(dir.path().join("notes.md"), "# runs\n").unwrap();
    let (code, out, err) = exit_of(&["--format", "json"], dir.path());
    assert_eq!(code, Some(1), "{out}\n{err}");
    let v: Value = serde_json::from_str(&out).unwrap();
    let ds = v["diagnostics"].as_array().unwrap();
    assert_eq!(ds.len(), 1, "{ds:#?}");
    let message = ds[0]["message"].as_str().unwrap();
    assert_eq!(ds[0]["severity"], "error");
    assert!(message.contains("no result was read"), "{message}");
    assert!(
        message.contains("2 files that are each a trtllm-bench report"),
        "{message}"
    );
    assert!(message.contains("not a serving benchmark"), "{message}");
    assert!(message.contains("1 file of other kinds"), "{message}");
    // A folder of companions only fails the same way.
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(
        "testdata/adapters/genai-perf/inputs-companion.json",
        dir.path().join("inputs.json"),
    )
    .unwrap();
    let (code, out, _) = exit_of(&[], dir.path());
    assert_eq!(code, Some(1), "{out}");
}

#[test]
fn import_refuses_two_inputs_that_map_to_one_output_name() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in");
    std::fs::create_dir(&input).unwrap();
    let vllm = failing_vllm();
    std::fs::write(input.join("r.json"), vllm.to_string()).unwrap();
    let mut other = vllm;
    other["date"] = json!("20250101-000000");
    std::fs::write(input.join("r.provenance.json"), other.to_string()).unwrap();
    let out = dir.path().join("out");
    let r = run(
        {
            let mut c = bin();
            c.arg("import").arg(&input).arg("-o").arg(&out);
            c
        },
        LIMIT,
    );
    r.assert_ran("import");
    assert_eq!(r.code, Some(1), "{}\n{}", r.out(), r.err());
    assert!(r.out().contains("refused"), "{}", r.out());
    assert!(r.out().contains("r.provenance.json"), "{}", r.out());
    // The first input's provenance file is its own, not overwritten by the second's result.
    let provenance: Value =
        serde_json::from_str(&std::fs::read_to_string(out.join("r.provenance.json")).unwrap())
            .unwrap();
    assert_eq!(provenance["schema"], "benchlint/provenance/v1");
}

#[test]
fn baseline_entries_outside_its_folder_are_refused_alike_whatever_exists() {
    let dir = clean_corpus();
    let messages: Vec<String> = ["../../../../etc/passwd", "../../../../no/such/file.json"]
        .iter()
        .map(|entry| {
            let baseline = dir.path().join("baseline.json");
            let body = json!({"version": 1, "tool": "benchlint",
                "findings": {*entry: {"M001": ["/platform"]}}});
            std::fs::write(&baseline, body.to_string()).unwrap();
            let r = run(
                {
                    let mut c = bin();
                    c.args(["check", "--isolated", "--baseline"])
                        .arg(&baseline)
                        .arg(dir.path());
                    c
                },
                LIMIT,
            );
            r.assert_ran("check");
            assert_eq!(r.code, Some(1), "{entry}: {}", r.err());
            assert!(!r.err().contains("stale"), "{entry}: {}", r.err());
            assert!(
                r.err().contains("outside its folder"),
                "{entry}: {}",
                r.err()
            );
            r.err().replace(entry, "ENTRY")
        })
        .collect();
    assert_eq!(
        messages[0], messages[1],
        "the message tells which file exists"
    );
}

#[test]
fn an_in_tree_config_cannot_cap_error_findings_out_of_sarif() {
    let dir = clean_corpus();
    std::fs::write(dir.path().join("bad.json"), failing_vllm().to_string()).unwrap();
    std::fs::write(
        dir.path().join("benchlint.toml"),
        "[thresholds]\nmax_findings = 0\nmax_findings_per_file = 0\n",
    )
    .unwrap();
    let r = run(
        {
            let mut c = bin();
            c.current_dir(dir.path())
                .args(["check", "--format", "sarif", "."]);
            c
        },
        LIMIT,
    );
    r.assert_ran("check");
    assert_eq!(r.code, Some(1), "{}", r.err());
    let v: Value = serde_json::from_slice(&r.stdout).unwrap();
    let results = v["runs"][0]["results"].as_array().unwrap();
    assert!(results.iter().any(|x| x["level"] == "error"), "{}", r.err());
    assert!(r.err().contains("max_findings"), "{}", r.err());
}
