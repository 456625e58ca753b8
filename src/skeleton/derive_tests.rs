//! The derivations of a skeleton's values, and the tallies of what a file's results record,
//! made a result at a time: each against what judging every result held says.

use serde_json::{Value, json};

use super::derive::{Derivation, Derived, Recorded, Recording, from_result, short};
use crate::corpus::{LoadedResult, Origin};
use crate::model::ProvenanceMap;

/// What `results` record at `pointer`, fed a result at a time.
fn recorded(results: &[&LoadedResult], pointer: &str) -> Recorded {
    let mut recording = Recording::default();
    for r in results {
        recording.add(r.value.pointer(pointer));
    }
    recording.finish()
}

/// What every one of `lacking` lets benchlint work out at `pointer`, fed a result at a time.
fn from_results(lacking: &[&LoadedResult], pointer: &str) -> Option<Derived> {
    let mut derivation = Derivation::default();
    for r in lacking {
        derivation.add(&r.value, pointer);
    }
    derivation.finish()
}

fn result(value: &Value) -> LoadedResult {
    let mut full = json!({
        "schema": "benchlint/result/v1", "id": "r", "measured_at": "2026-01-01T00:00:00Z",
        "outcome": "ok", "levels": [{"concurrency": 1}]
    });
    for (k, v) in value.as_object().unwrap() {
        full[k] = v.clone();
    }
    LoadedResult {
        origin: Origin {
            path: "a.json".into(),
            doc_start: 0,
            format: "vllm",
        },
        doc: serde_json::from_value(full.clone()).unwrap(),
        value: full.into(),
        provenance: ProvenanceMap::default(),
        checklist: None,
    }
}

#[test]
fn a_typed_command_fills_settings_to_check() {
    let r = result(&json!({"engine": {
        "serve_command": "vllm serve m --max-num-seqs 64 --enforce-eager",
        "serve_command_source": "typed"}}));
    let d = from_results(&[&r], "/engine/max_num_seqs").unwrap();
    assert_eq!(d.value, json!(64));
    assert!(d.from.contains("\"typed\""), "{}", d.from);
    assert_eq!(
        from_results(&[&r], "/engine/enforce_eager").unwrap().value,
        json!(true)
    );
    assert!(from_results(&[&r], "/engine/kv_cache_dtype").is_none());
}

#[test]
fn device_count_and_precision_from_what_is_recorded() {
    let r = result(&json!({
        "engine": {"tensor_parallel_size": 4, "data_parallel_size": 2},
        "model": {"name": "MiniMaxAI/MiniMax-M2.5-MXFP4"}}));
    assert_eq!(
        from_results(&[&r], "/platform/devices_per_node")
            .unwrap()
            .value,
        json!(8)
    );
    assert_eq!(
        from_results(&[&r], "/model/precision").unwrap().value,
        json!("mxfp4")
    );
    let two = result(&json!({"model": {"name": "x/Model-FP8-KV-FP16"}}));
    assert!(from_results(&[&two], "/model/precision").is_none());
}

#[test]
fn the_other_results_agree_or_not() {
    let a = result(&json!({"platform": {"host": "h1"}}));
    let b = result(&json!({"platform": {"host": "h1"}}));
    let c = result(&json!({"platform": {"host": "h2"}}));
    assert!(matches!(
        recorded(&[&a, &b], "/platform/host"),
        Recorded::Agreed(_, 2)
    ));
    assert!(matches!(
        recorded(&[&a, &c], "/platform/host"),
        Recorded::Disagree(v) if v == vec!["\"h1\"", "\"h2\""]
    ));
    assert!(matches!(
        recorded(&[&a], "/platform/nodes"),
        Recorded::Nowhere
    ));
}

/// What holding every value said: all collected, then compared, the shown forms sorted,
/// deduplicated and cut to four.
fn recorded_held(values: &[&Value]) -> Recorded {
    let Some(first) = values.first() else {
        return Recorded::Nowhere;
    };
    if values.iter().all(|v| v == first) {
        return Recorded::Agreed((*first).clone(), values.len());
    }
    let mut shown: Vec<String> = values.iter().map(|v| short(v)).collect();
    shown.sort();
    shown.dedup();
    shown.truncate(4);
    Recorded::Disagree(shown)
}

#[test]
fn recording_a_value_at_a_time_says_what_holding_them_all_said() {
    let long = "x".repeat(45);
    let pool = [
        Value::Null,
        json!("h1"),
        json!("h2"),
        json!(1),
        json!(1.0),
        json!(format!("{long}a")),
        json!(format!("{long}b")),
        json!({"a": 1}),
        json!([1, 2]),
        json!("a"),
        json!("b"),
        json!("c"),
        json!("d"),
        json!("e"),
    ];
    let mut state = 0x5eed_u64;
    let mut outcomes = [0usize; 3];
    for _ in 0..3000 {
        let n = crate::seeded::below(&mut state, 14);
        // Mostly one value, so that agreeing runs are drawn as often as disagreeing ones.
        let common = crate::seeded::below(&mut state, pool.len());
        let values: Vec<Option<&Value>> = (0..n)
            .map(|_| match crate::seeded::below(&mut state, 8) {
                0 => None,
                1 | 2 => Some(&pool[crate::seeded::below(&mut state, pool.len())]),
                _ => Some(&pool[common]),
            })
            .collect();
        let mut recording = Recording::default();
        for v in &values {
            recording.add(*v);
        }
        let held: Vec<&Value> = values
            .iter()
            .flatten()
            .copied()
            .filter(|v| !v.is_null())
            .collect();
        let expected = recorded_held(&held);
        outcomes[match expected {
            Recorded::Nowhere => 0,
            Recorded::Agreed(..) => 1,
            Recorded::Disagree(_) => 2,
        }] += 1;
        assert_eq!(recording.finish(), expected, "{values:?}");
    }
    assert!(outcomes.iter().all(|&n| n > 100), "{outcomes:?}");
}

#[test]
fn deriving_a_result_at_a_time_says_what_holding_them_all_said() {
    let models = [
        "org/M-FP8",
        "org/M-AWQ",
        "org/N-FP8",
        "plain",
        "M-FP8-KV-FP16",
    ];
    let mut state = 0xd1ce_u64;
    let mut found = 0;
    for _ in 0..600 {
        let n = crate::seeded::below(&mut state, 6);
        let results: Vec<LoadedResult> = (0..n)
            .map(|_| {
                let name = models[crate::seeded::below(&mut state, 3).min(models.len() - 1)
                    + usize::from(crate::seeded::below(&mut state, 5) == 0) * 2];
                result(&json!({"model": {"name": name}}))
            })
            .collect();
        let held: Vec<&LoadedResult> = results.iter().collect();
        // Held: the first gives the value and its words; a result giving none or another
        // value gives nothing.
        let mut expected: Option<Derived> = None;
        let mut failed = false;
        for r in &held {
            match (from_result(&r.value, "/model/precision"), &expected) {
                (None, _) => failed = true,
                (Some(d), Some(e)) if d.value != e.value => failed = true,
                (Some(_), Some(_)) => {}
                (Some(d), None) => expected = Some(d),
            }
        }
        let expected = expected.filter(|_| !failed);
        found += usize::from(expected.is_some());
        assert_eq!(from_results(&held, "/model/precision"), expected);
    }
    assert!(found > 50, "{found}");
}
