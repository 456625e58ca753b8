//! Provenance maps: lookups fall back to the nearest ancestor, equal maps share one copy,
//! levels renumbered, and the rows of one document share one map that reads as each row's.

use super::*;

#[test]
fn dropped_levels_leave_no_entry_and_the_rest_are_renumbered() {
    let mut map = ProvenanceMap::default();
    let at = |pointer: &str| Provenance::Recorded {
        pointer: pointer.to_string(),
    };
    map.insert("", at(""));
    map.insert("/levels", at("/stages"));
    map.insert("/levels/0/request_rate", at("/s0"));
    map.insert("/levels/1", at("/s1"));
    map.insert("/levels/1/requests", at("/s1/n"));
    map.insert("/levels/2/requests", at("/s2/n"));
    map.insert("/levels/10/requests", at("/s10/n"));
    map.insert("/model/name", at("/m"));
    map.retain_levels(&[true, false, true]);
    let keys: Vec<&str> = map.iter().map(|(k, _)| k.as_str()).collect();
    assert_eq!(
        keys,
        [
            "",
            "/levels",
            "/levels/0/request_rate",
            "/levels/1/requests",
            "/levels/10/requests",
            "/model/name"
        ]
    );
    assert_eq!(map.get("/levels/1/requests").as_deref(), Some(&at("/s2/n")));
}

#[test]
fn equal_maps_share_one_copy_and_a_change_copies_it_first() {
    let map = |pointer: &str| {
        let mut m = ProvenanceMap::default();
        m.insert(
            "/levels/0/ttft_s",
            Provenance::Recorded {
                pointer: pointer.into(),
            },
        );
        m
    };
    let mut pool = ProvenancePool::default();
    let (mut a, mut b, mut c) = (map("/ttft"), map("/ttft"), map("/other"));
    for m in [&mut a, &mut b, &mut c] {
        m.share_from(&mut pool);
    }
    assert!(a.shares_with(&b));
    assert!(!a.shares_with(&c));
    assert_eq!(pool.len(), 2);
    b.insert(
        "/id",
        Provenance::Recorded {
            pointer: "/name".into(),
        },
    );
    assert_eq!(a, map("/ttft"), "the shared copy is left as it was");
    assert_eq!(
        b.get("/id").as_deref(),
        Some(&Provenance::Recorded {
            pointer: "/name".into()
        })
    );
}

#[test]
fn lookup_falls_back_to_the_nearest_ancestor() {
    let mut map = ProvenanceMap::default();
    map.insert(
        "/levels/0",
        Provenance::Recorded {
            pointer: "/benchmarks/3".into(),
        },
    );
    let (p, rest) = map.lookup("/levels/0/ttft_s/p50").unwrap();
    assert_eq!(rest, "/ttft_s/p50");
    assert_eq!(
        *p,
        Provenance::Recorded {
            pointer: "/benchmarks/3".into()
        }
    );
    assert!(map.lookup("/engine").is_none());
}

/// A row's map as an adapter makes it: its object, values under it, a value derived from
/// one of its keys, one derived from another canonical value, one from a sidecar.
fn row(i: usize) -> ProvenanceMap {
    let mut map = ProvenanceMap::default();
    let at = |pointer: String| Provenance::Recorded { pointer };
    map.insert("", at(format!("/{i}")));
    map.insert("/model/name", at(format!("/{i}/model")));
    map.insert("/levels/0/ttft_s", at(format!("/{i}/ttft")));
    map.insert(
        "/engine/version",
        Provenance::Derived {
            from: "the image tag".into(),
            pointer: format!("/{i}/image"),
        },
    );
    map.insert(
        "/engine/name",
        Provenance::Derived {
            from: "the model".into(),
            pointer: "/model/name".into(),
        },
    );
    map.insert(
        "/platform/host",
        Provenance::Sidecar {
            path: "side.yaml".into(),
            pointer: "/host".into(),
        },
    );
    map
}

#[test]
fn the_rows_of_one_document_share_one_map_and_read_as_before() {
    let mut pool = ProvenancePool::default();
    let mut rows: Vec<ProvenanceMap> = (0..50).map(row).collect();
    for r in &mut rows {
        r.share_from(&mut pool);
    }
    assert_eq!(pool.len(), 1, "one map for every row");
    assert!(rows[3].shares_with(&rows[40]));
    for (i, r) in rows.iter().enumerate() {
        let whole = row(i);
        assert_eq!(
            r.iter().collect::<Vec<_>>(),
            whole.iter().collect::<Vec<_>>()
        );
        for pointer in [
            "",
            "/engine/name",
            "/model/name",
            "/levels/0/ttft_s/p50",
            "/engine/version",
            "/platform/host/x",
            "/nothing",
        ] {
            assert_eq!(
                r.lookup(pointer),
                whole.lookup(pointer),
                "row {i}, {pointer}"
            );
        }
    }
    // A change after sharing reads the whole pointers too.
    let mut changed = rows[7].clone();
    changed.insert(
        "/id",
        Provenance::Recorded {
            pointer: "/7/name".into(),
        },
    );
    let mut whole = row(7);
    whole.insert(
        "/id",
        Provenance::Recorded {
            pointer: "/7/name".into(),
        },
    );
    assert_eq!(changed, whole);
    assert_eq!(
        rows[7].lookup("/id").map(|(p, _)| p.into_owned()),
        Some(Provenance::Recorded {
            pointer: "/7".into()
        })
    );
}

#[test]
fn a_map_with_a_pointer_outside_its_object_keeps_its_pointers_whole() {
    let mut pool = ProvenancePool::default();
    // A value recorded outside the row (a document's shared settings), and a derivation
    // naming a pointer of the row that, cut, would read as a canonical pointer.
    let mut outside = row(2);
    outside.insert(
        "/workload/dataset",
        Provenance::Recorded {
            pointer: "/args/data".into(),
        },
    );
    let mut named = row(4);
    named.insert(
        "/workload/tokenizer",
        Provenance::Derived {
            from: "the model".into(),
            pointer: "/4/model/name".into(),
        },
    );
    for map in [outside, named] {
        let mut shared = map.clone();
        shared.share_from(&mut pool);
        assert!(shared.base.is_none(), "{map:?}");
        assert_eq!(shared, map);
    }
}
