//! The replication standing of configurations that are replicated, short of runs,
//! unresolved, pre-rule and not identified.

use serde_json::Value;

use super::{DEMO, REPLICATED, replication, report_json, write};

fn set_measured(doc: &mut Value, at: &str) {
    doc["measured_at"] = Value::from(at);
}

/// Short of runs, unresolved, pre-rule and not identified, each with what it needs.
#[test]
fn replication_standings() {
    let demo = report_json(DEMO);
    let x8 = replication(&demo, "8 × NVIDIA GB10");
    assert_eq!(x8["standing"], "needs-more");
    assert_eq!(
        (x8["runs"].as_u64(), x8["launches"].as_u64()),
        (Some(3), Some(2))
    );
    assert_eq!(
        x8["summary"],
        "3 runs over 2 launches, 3 full ladders; needs 2 more runs (S002); 2 more full ladders of 2 or more levels, 5 in all for a published figure (S004)"
    );
    let gb300 = replication(&demo, "GB300");
    assert_eq!(
        gb300["needs"][0]["what"],
        "14 more runs over 1 more launch on this workload"
    );
    assert_eq!(
        gb300["needs"][0]["codes"],
        serde_json::json!(["S001", "S003"])
    );

    // Two runs that disagree by 30% at one level: not yet resolved.
    let tmp = tempfile::tempdir().unwrap();
    for (i, name) in ["prose-r1.json", "prose-r2.json"].iter().enumerate() {
        let mut doc: Value = serde_json::from_str(
            &std::fs::read_to_string(format!("{DEMO}/gb10-x8/{name}")).unwrap(),
        )
        .unwrap();
        if i == 1 {
            let agg = &mut doc["levels"][3]["throughput_tok_s"]["aggregate"];
            *agg = Value::from(agg.as_f64().unwrap() * 1.3);
        }
        write(tmp.path(), name, &doc);
    }
    let v = report_json(tmp.path().to_str().unwrap());
    let r = &v["ladders"][0]["replication"];
    assert_eq!(r["standing"], "unresolved", "{r}");
    assert!(
        r["needs"]
            .as_array()
            .unwrap()
            .iter()
            .any(|n| n["codes"] == serde_json::json!(["S006"])
                && n["what"].as_str().unwrap().contains("8 streams")),
        "{r}"
    );

    // Speculation on, five ladders over two launches, measured before S001 was adopted: short
    // only of the pre-rule count.
    let tmp = tempfile::tempdir().unwrap();
    for name in [
        "prose-l1-r2",
        "prose-l1-r3",
        "prose-l2-r1",
        "prose-l2-r2",
        "prose-l2-r3",
    ] {
        let mut doc: Value = serde_json::from_str(
            &std::fs::read_to_string(format!("{REPLICATED}/workload-prose/{name}.json")).unwrap(),
        )
        .unwrap();
        set_measured(&mut doc, "2026-05-01T10:00:00Z");
        write(tmp.path(), &format!("{name}.json"), &doc);
    }
    let v = report_json(tmp.path().to_str().unwrap());
    let r = &v["ladders"][0]["replication"];
    assert_eq!(r["standing"], "pre-rule", "{r}");
    assert_eq!(r["needs"][0]["pre_rule"], true);
    assert!(r["summary"].as_str().unwrap().contains("(S001, pre-rule)"));

    // A vLLM file that names no engine nor device: not identified, nothing judged.
    let v = report_json("testdata/adapters/vllm/bench-serve-save-detailed.json");
    let r = &v["ladders"][0]["replication"];
    assert_eq!(r["standing"], "not-identified");
    assert_eq!(r["needs"], Value::Array(vec![]));
    let summary = r["summary"].as_str().unwrap();
    assert!(
        summary.starts_with("not identified: ") && summary.contains("device model"),
        "{summary}"
    );
}
