//! An array told from its items seen one at a time is what reading it whole makes of it: the
//! same adapter, the same companion, the same results read from the same items with the same
//! provenance, whatever the array holds; and an adapter without a tally reads no array.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde_json::{Value, json};

use super::{Census, ItemsVerdict, stand_in};
use crate::adapters::{ADAPTERS, Reading, Source, read, read_letting_go};
use crate::seeded::below;

/// Every object of the fixtures' documents that parse: each object document, and each item of
/// each array document (a sweep's rows, a list of runs, per-request records).
fn item_pool() -> Vec<Value> {
    let mut pool = Vec::new();
    for folder in ["testdata/adapters", "testdata/clean"] {
        for entry in walkdir::WalkDir::new(folder).sort_by_file_name() {
            let entry = entry.unwrap();
            if entry.path().extension().is_none_or(|e| e != "json") {
                continue;
            }
            let Ok(text) = std::fs::read_to_string(entry.path()) else {
                continue;
            };
            if text.len() > 200_000 {
                continue;
            }
            match serde_json::from_str::<Value>(&text) {
                Ok(Value::Array(items)) => pool.extend(items),
                Ok(v @ Value::Object(_)) => pool.push(v),
                _ => {}
            }
        }
    }
    assert!(
        pool.len() > 100,
        "the fixtures hold documents: {}",
        pool.len()
    );
    pool
}

/// The arrays of the fixtures, whole: the kinds of array the adapters read.
fn array_pool() -> Vec<Vec<Value>> {
    let mut arrays = Vec::new();
    for entry in walkdir::WalkDir::new("testdata").sort_by_file_name() {
        let entry = entry.unwrap();
        if entry.path().extension().is_none_or(|e| e != "json") {
            continue;
        }
        if let Ok(text) = std::fs::read_to_string(entry.path())
            && let Ok(Value::Array(items)) = serde_json::from_str::<Value>(&text)
            && !items.is_empty()
        {
            arrays.push(items);
        }
    }
    assert!(
        arrays.len() >= 5,
        "the fixtures hold arrays: {}",
        arrays.len()
    );
    arrays
}

/// `item` changed the way a row or run goes wrong: a key lost, a run marked a warm-up or
/// numbered, a failure's keys added, or something that is no object at all.
fn mutate(state: &mut u64, item: &mut Value) {
    match below(state, 8) {
        0 => {
            if let Some(obj) = item.as_object_mut()
                && !obj.is_empty()
            {
                let key = obj.keys().nth(below(state, obj.len())).cloned().unwrap();
                obj.shift_remove(&key);
            }
        }
        1 => {
            if let Some(obj) = item.as_object_mut() {
                obj.insert("run_number".into(), json!(-1));
            }
        }
        2 => {
            if let Some(obj) = item.as_object_mut() {
                obj.insert("run_number".into(), json!(below(state, 4)));
            }
        }
        3 => {
            if let Some(obj) = item.as_object_mut() {
                obj.insert("error".into(), json!("server died"));
                obj.insert("serve_overrides".into(), json!({}));
                obj.shift_remove("completed");
            }
        }
        4 => *item = [json!(3), json!("row"), Value::Null, json!([1, 2])][below(state, 4)].clone(),
        _ => {}
    }
}

/// An array: mostly the items of one of the fixtures' arrays, repeated and reordered, now and
/// then items of any document mixed in, and some changed.
fn drawn_array(state: &mut u64, items: &[Value], arrays: &[Vec<Value>]) -> Value {
    let theme = &arrays[below(state, arrays.len())];
    let count = below(state, 14);
    let mut out = Vec::with_capacity(count);
    for _ in 0..count {
        let mut item = if below(state, 6) == 0 {
            items[below(state, items.len())].clone()
        } else {
            theme[below(state, theme.len())].clone()
        };
        if below(state, 5) == 0 {
            mutate(state, &mut item);
        }
        out.push(item);
    }
    Value::Array(out)
}

fn source(alone: bool) -> Source<'static> {
    Source {
        path: "drawn/array.json",
        file_name: "array.json",
        doc_index: 0,
        doc_count: 1,
        folder: None,
        alone,
    }
}

/// What a reading shows: the adapter, and its companion or each result with its provenance.
fn shown(found: Option<(&'static str, Reading<'_>)>) -> String {
    match found {
        None => "none".into(),
        Some((name, Reading::NotMine)) => format!("{name}: not mine"),
        Some((name, Reading::Companion)) => format!("{name}: companion"),
        Some((name, Reading::Results(mapped))) => {
            let mut out = format!("{name}: results");
            for m in mapped {
                let _ = write!(out, "\n{}\n{:?}", m.value, m.provenance);
            }
            out
        }
    }
}

/// What the census makes of `array`, each result read from its item alone.
fn told(array: &Value, source: &Source<'_>) -> String {
    let mut census = Census::new();
    let items = array.as_array().unwrap();
    for item in items {
        census.see(item);
    }
    match census.verdict(source) {
        None => "none".into(),
        Some((name, ItemsVerdict::NotMine)) => format!("{name}: not mine"),
        Some((name, ItemsVerdict::Companion)) => format!("{name}: companion"),
        Some((name, ItemsVerdict::Results { items: read, map })) => {
            let mut out = format!("{name}: results");
            for i in read {
                let alone = stand_in(i, items[i].clone());
                let m = map(&alone, source, &format!("/{i}"));
                let _ = write!(out, "\n{}\n{:?}", m.value, m.provenance);
            }
            out
        }
    }
}

#[test]
fn an_array_told_from_its_items_is_what_reading_it_whole_makes_of_it() {
    let items = item_pool();
    let arrays = array_pool();
    let mut state = 0x17e5_u64;
    let mut reached: BTreeMap<String, usize> = BTreeMap::new();
    for case in 0..3_000 {
        let array = drawn_array(&mut state, &items, &arrays);
        let source = source(case % 3 == 0);
        let whole = shown(read(&array, &source));
        assert_eq!(told(&array, &source), whole, "case {case}: {array}");
        // Letting each item go as its result is made reads the same.
        let mut let_go = array.clone();
        assert_eq!(
            shown(read_letting_go(&mut let_go, &source)),
            whole,
            "case {case}, let go: {array}"
        );
        let head = whole.lines().next().unwrap_or_default().to_string();
        *reached.entry(head).or_default() += 1;
    }
    // The draws reach every verdict of every adapter that reads arrays.
    for verdict in [
        "none",
        "inferencex: results",
        "vllm: results",
        "vllm: companion",
        "llmperf: companion",
    ] {
        assert!(
            reached.get(verdict).copied().unwrap_or(0) > 20,
            "{verdict}: {reached:?}"
        );
    }
}

#[test]
fn an_adapter_without_a_tally_reads_no_array() {
    let items = item_pool();
    let arrays = array_pool();
    let mut state = 0xa77a_u64;
    let blind: Vec<_> = ADAPTERS
        .iter()
        .filter(|a| a.items_tally().is_none())
        .collect();
    assert!(blind.len() >= 5, "{} adapters without a tally", blind.len());
    for case in 0..1_500 {
        let mut array = drawn_array(&mut state, &items, &arrays);
        // Any object of the fixtures alone in an array, too.
        if case % 4 == 0 {
            array = Value::Array(vec![items[below(&mut state, items.len())].clone()]);
        }
        for alone in [false, true] {
            for adapter in &blind {
                assert!(
                    matches!(adapter.read(&array, &source(alone)), Reading::NotMine),
                    "{} reads case {case}: {array}",
                    adapter.name()
                );
            }
        }
    }
}
