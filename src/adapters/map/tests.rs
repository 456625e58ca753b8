use super::*;
use crate::adapters::Source;
use crate::model::Provenance;

#[test]
fn numbers_come_from_numbers_and_numeric_strings_but_not_from_non_finite_words() {
    assert_eq!(number(&Value::from("550")), Some(550.0));
    assert_eq!(number(&Value::from(1.5)), Some(1.5));
    assert_eq!(number(&Value::from("NaN")), None);
    assert_eq!(number(&Value::from("Infinity")), None);
    assert_eq!(count(&Value::from(66.0)), Some(66));
    assert_eq!(count(&Value::from(66.5)), None);
    assert_eq!(count(&Value::from(-1)), None);
}

#[test]
fn rates_keep_infinity_as_inf() {
    assert_eq!(rate(&Value::from("Infinity")), Some(Value::from("inf")));
    assert_eq!(rate(&Value::from("inf")), Some(Value::from("inf")));
    assert_eq!(rate(&Value::from(4.0)), Some(Value::from(4.0)));
    assert_eq!(rate(&Value::from("trace")), Some(Value::from("trace")));
    assert_eq!(rate(&Value::from("NaN")), None);
}

#[test]
fn dates_become_rfc3339() {
    assert_eq!(
        from_compact_date("20250530-194738").as_deref(),
        Some("2025-05-30T19:47:38Z")
    );
    assert_eq!(from_compact_date("2025-05-30"), None);
    assert_eq!(
        from_iso("2026-01-15T06:27:34.166021").as_deref(),
        Some("2026-01-15T06:27:34Z")
    );
    assert_eq!(
        from_iso("2026-01-15T06:27:34+02:00").as_deref(),
        Some("2026-01-15T06:27:34+02:00")
    );
    assert_eq!(
        from_epoch_seconds(1_703_135_943.0).as_deref(),
        Some("2023-12-21T05:19:03Z")
    );
    assert_eq!(
        from_epoch_seconds(1_749_157_168.18).as_deref(),
        Some("2025-06-05T20:59:28Z")
    );
    assert_eq!(from_epoch_seconds(12.0), None);
}

#[test]
fn put_makes_the_path_and_records_the_source() {
    let doc = serde_json::json!({"x": {"y": 2}});
    let source = Source {
        path: "./a.json",
        file_name: "a.json",
        doc_index: 0,
        doc_count: 1,
        folder: None,
        alone: false,
    };
    let mut b = Builder::new(&doc, &source, "");
    assert!(b.real("/levels/0/ttft_s/p50", "/x/y", 0.001));
    b.whole("/levels/0/concurrency", "/x/y", 1);
    let m = b.finish();
    assert_eq!(m.value["id"], "a.json#0");
    assert_eq!(m.value["levels"][0]["ttft_s"]["p50"], 0.002);
    assert_eq!(
        m.provenance.get("/levels/0/ttft_s/p50").as_deref(),
        Some(&Provenance::Recorded {
            pointer: "/x/y".into()
        })
    );
}
