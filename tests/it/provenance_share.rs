//! Sharing a result's provenance ([`ProvenanceMap::share_from`]: the rows of one document keep
//! one map, the pointer of each row's object kept apart) never changes what the map says: over
//! every result the adapters read from the fixtures, and variants of each map that put a
//! pointer outside the row's object, one that begins with the object's pointer without lying
//! under it (`/1` and `/10/x`), or a derivation naming a canonical pointer, every lookup and
//! every location a finding would get are the same before and after.

use std::path::Path;

use benchlint::adapters::{self, Reading, Source};
use benchlint::model::translate::{Origin, translate};
use benchlint::model::{Provenance, ProvenanceMap, ProvenancePool};
use serde_json::Value;

/// Every document of the adapters' fixtures: each JSON file whole, each JSON Lines line.
fn documents() -> Vec<(String, Value)> {
    let mut out = Vec::new();
    for entry in walkdir::WalkDir::new("testdata/adapters").sort_by_file_name() {
        let entry = entry.unwrap();
        let path = entry.path();
        let Some(ext) = path.extension().and_then(|e| e.to_str()) else {
            continue;
        };
        let Ok(text) = std::fs::read_to_string(path) else {
            continue;
        };
        let name = path.display().to_string();
        match ext {
            "json" => out.extend(serde_json::from_str(&text).ok().map(|v| (name, v))),
            "jsonl" => out.extend(
                text.lines()
                    .filter_map(|l| serde_json::from_str(l).ok())
                    .map(|v| (name.clone(), v)),
            ),
            _ => {}
        }
    }
    out
}

/// `map` changed as the variant `k` says.
fn variant(map: &ProvenanceMap, k: usize) -> ProvenanceMap {
    let mut map = map.clone();
    let base = match map.get("").as_deref() {
        Some(Provenance::Recorded { pointer }) => pointer.clone(),
        _ => String::new(),
    };
    match k {
        1 => map.insert(
            "/workload/dataset",
            Provenance::Recorded {
                pointer: "/shared/args".into(),
            },
        ),
        2 => map.insert(
            "/workload/dataset",
            Provenance::Recorded {
                pointer: format!("{base}0/x"),
            },
        ),
        3 => map.insert(
            "/workload/tokenizer",
            Provenance::Derived {
                from: "the model".into(),
                pointer: "/model/name".into(),
            },
        ),
        _ => {}
    }
    map
}

#[test]
fn sharing_a_result_s_provenance_changes_nothing_it_says() {
    let docs = documents();
    assert!(docs.len() > 30, "{} fixture documents", docs.len());
    let mut pool = ProvenancePool::default();
    let (mut rows, mut compared, mut saved) = (0, 0, 0);
    for (path, doc) in &docs {
        let file_name = Path::new(path).file_name().unwrap().to_str().unwrap();
        let source = Source {
            path,
            file_name,
            doc_index: 0,
            doc_count: 1,
            folder: None,
            alone: true,
        };
        let Some((name, Reading::Results(mapped))) = adapters::read(doc, &source) else {
            continue;
        };
        let origin = Origin {
            path: path.as_str().into(),
            doc_start: 0,
            format: name,
        };
        // The maps of this document's results as they are read, shared among themselves.
        let mut own = ProvenancePool::default();
        let mut results = 0;
        for m in mapped {
            results += 1;
            m.provenance.clone().share_from(&mut own);
            rows += usize::from(!matches!(
                m.provenance.get("").as_deref(),
                Some(Provenance::Recorded { pointer }) if pointer.is_empty()
            ));
            for k in 0..4 {
                let map = variant(&m.provenance, k);
                let mut shared = map.clone();
                shared.share_from(&mut pool);
                let entries: Vec<_> = map.iter().collect();
                assert_eq!(
                    shared.iter().collect::<Vec<_>>(),
                    entries,
                    "{path}, variant {k}"
                );
                for (key, _) in &entries {
                    for pointer in [(*key).clone(), format!("{key}/0"), format!("{key}/x/y")] {
                        assert_eq!(
                            shared.lookup(&pointer),
                            map.lookup(&pointer),
                            "{path} {pointer}"
                        );
                        assert_eq!(
                            translate(&origin, &shared, &pointer),
                            translate(&origin, &map, &pointer),
                            "{path}, variant {k}, {pointer}"
                        );
                        compared += 1;
                    }
                }
            }
        }
        saved += results - own.len();
    }
    // The draw reaches what it is for: results read from an object inside their document, some
    // of which share one map (none did before the object's pointer was kept apart).
    assert!(
        rows >= 10,
        "{rows} results read from an object inside the document"
    );
    assert!(compared > 5000, "{compared} pointers compared");
    assert!(
        saved >= 3,
        "{saved} maps shared with another row of their document"
    );
}
