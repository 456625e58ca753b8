//! A ladder's capacity at a floor, and a ladder's runs held by their launch's rank giving the
//! ladder they gave held with their launch ids: over drawn configurations whose runs record a
//! launch id, none or a blank one, share launches or not, measure levels twice, in any order,
//! with and without each rate.

use super::*;
use crate::claims::side::group_by_launch;
use crate::model::translate::Origin;
use crate::replication::launch_id;
use crate::seeded::below;

/// The ladder as it was made before ranks: each value with its run's launch id, grouped by id.
fn ladder_by_id(results: &[LoadedResult], members: &[usize]) -> Vec<LadderPoint> {
    type Row<'a> = (
        Vec<(Option<&'a str>, f64)>,
        Vec<(Option<&'a str>, f64)>,
        usize,
        Vec<Option<&'a str>>,
    );
    let mut by_level: BTreeMap<LevelKey, Row<'_>> = BTreeMap::new();
    for &i in members {
        let launch = launch_id(&results[i]);
        let mut seen = std::collections::BTreeSet::new();
        for level in &results[i].doc.levels {
            if !seen.insert(level.key()) {
                continue;
            }
            let row = by_level.entry(level.key()).or_default();
            row.2 += 1;
            row.3.push(launch);
            if let Some(a) = cards::aggregate(&level) {
                row.0.push((launch, a));
            }
            if let Some(u) = level
                .per_user_tok_s
                .as_ref()
                .and_then(crate::model::PerUser::central)
                .filter(|u| u.is_finite())
            {
                row.1.push((launch, u));
            }
        }
    }
    by_level
        .into_iter()
        .map(|(key, (agg, user, runs, mut launches))| {
            launches.sort_unstable();
            launches.dedup();
            LadderPoint {
                key,
                concurrency: key.streams(),
                request_rate: key.rate(),
                aggregate_tok_s: estimate(&group_by_launch(agg.into_iter())),
                per_user_tok_s: estimate(&group_by_launch(user.into_iter())),
                runs,
                launches: launches.len(),
            }
        })
        .collect()
}

fn run(state: &mut u64, i: usize) -> LoadedResult {
    let launch = match below(state, 6) {
        0 => serde_json::Value::Null,
        1 => serde_json::json!({"id": " "}),
        2 => serde_json::json!({}),
        n => serde_json::json!({"id": format!("launch-{}", n + below(state, 4))}),
    };
    let levels: Vec<serde_json::Value> = (0..=below(state, 4))
        .map(|_| {
            let concurrency = [1, 2, 4, 8][below(state, 4)];
            let mut level = serde_json::json!({ "concurrency": concurrency });
            if below(state, 4) > 0 {
                #[expect(clippy::cast_precision_loss, reason = "small draws")]
                let a = 100.0 + below(state, 1000) as f64 / 7.0;
                level["throughput_tok_s"] = serde_json::json!({"aggregate": a});
            }
            if below(state, 4) > 0 {
                #[expect(clippy::cast_precision_loss, reason = "small draws")]
                let u = 10.0 + below(state, 100) as f64 / 3.0;
                level["per_user_tok_s"] = serde_json::json!({"median": u});
            }
            level
        })
        .collect();
    let mut doc = serde_json::json!({
        "schema": "benchlint/result/v1",
        "id": format!("r{i}"),
        "measured_at": "2026-01-01T00:00:00Z",
        "outcome": "ok",
        "levels": levels,
    });
    if !launch.is_null() {
        doc["launch"] = launch;
    }
    LoadedResult {
        origin: Origin {
            path: format!("r{i}.json").into(),
            doc_start: 0,
            format: "canonical",
        },
        doc: serde_json::from_value(doc).expect("a canonical result"),
        value: serde_json::Value::Null.into(),
        provenance: crate::model::ProvenanceMap::default(),
        checklist: None,
    }
}

#[test]
fn a_ladder_held_by_launch_ranks_is_the_ladder_held_by_launch_ids() {
    let mut state = 0x6c61_6464_6572_u64;
    let mut shared = 0;
    for _ in 0..300 {
        let n = 1 + below(&mut state, 30);
        let results: Vec<LoadedResult> = (0..n).map(|i| run(&mut state, i)).collect();
        // Members in any order, not every result among them.
        let mut members: Vec<usize> = (0..n).filter(|_| below(&mut state, 5) > 0).collect();
        for k in (1..members.len()).rev() {
            members.swap(k, below(&mut state, k + 1));
        }
        let ranked = ladder(&results, &members);
        shared += usize::from(ranked.iter().any(|p| p.launches < p.runs));
        assert_eq!(
            format!("{ranked:#?}"),
            format!("{:#?}", ladder_by_id(&results, &members))
        );
    }
    assert!(shared > 100, "only {shared} ladders share a launch");
}

fn point(c: u64, agg: f64, user: (f64, f64)) -> LadderPoint {
    LadderPoint {
        key: LevelKey::Streams(c),
        concurrency: Some(c),
        request_rate: None,
        aggregate_tok_s: Some(Estimate {
            value: agg,
            low: agg,
            high: agg,
        }),
        per_user_tok_s: Some(Estimate {
            value: f64::midpoint(user.0, user.1),
            low: user.0,
            high: user.1,
        }),
        runs: 1,
        launches: 1,
    }
}

#[test]
fn capacity_is_the_last_level_of_the_passing_prefix() {
    let ladder = [
        point(1, 32.4, (33.1, 33.1)),
        point(4, 98.9, (30.4, 30.4)),
        point(8, 140.8, (20.1, 20.1)),
        point(16, 222.0, (14.8, 14.8)),
    ];
    let c = capacity(&ladder, 20.0, 4);
    assert_eq!(c.concurrency, Some(8));
    assert!((c.aggregate_tok_s.unwrap() - 563.2).abs() < 1e-9);
    assert_eq!(c.marginal_interval, None);
    assert!(c.single_instance);
    let c = capacity(&ladder, 30.0, 1);
    assert_eq!(c.concurrency, Some(4));
}

#[test]
fn a_straddling_level_gives_an_interval() {
    let ladder = [
        point(1, 40.0, (40.0, 41.0)),
        point(8, 200.0, (19.0, 22.0)),
        point(16, 300.0, (25.0, 26.0)),
    ];
    let c = capacity(&ladder, 20.0, 1);
    assert_eq!(c.concurrency, Some(1));
    assert_eq!(
        c.marginal_interval,
        Some((LevelKey::Streams(1), LevelKey::Streams(8)))
    );
    let none = capacity(&ladder, 50.0, 1);
    assert_eq!(none.concurrency, None);
    assert_eq!(none.aggregate_tok_s, None);
}
