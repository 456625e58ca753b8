//! An inference-perf run folder: a summary never counted twice, and a stage that lost its load
//! reported while the ladder keeps its other stages.

use std::path::Path;

use benchlint::corpus::LoadedResult;
use benchlint::model::Provenance;
use serde_json::Value;

use super::{FIXTURES, check};

#[test]
fn a_summary_is_never_counted_twice() {
    let folder = Path::new(FIXTURES).join("inference-perf/older-stages-rates-in-config");
    let checked = check(&folder);
    assert_eq!(checked.corpus.results.len(), 1);
    let r = &checked.corpus.results[0];
    assert_eq!(r.doc.levels.len(), 2);
    let rates: Vec<Value> = r.value["levels"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["request_rate"].clone())
        .collect();
    assert_eq!(rates, vec![Value::from(2.0), Value::from(8.0)]);
    // The older files do not record the rate: it is the config's, and says so.
    match r.provenance.get("/levels/1/request_rate").as_deref() {
        Some(Provenance::Beside { path, pointer }) => {
            assert!(path.ends_with("config.yaml"));
            assert_eq!(pointer, "/load/stages/1/rate");
        }
        other => panic!("{other:?}"),
    }
    // The summary alone is still not a level: it pools two rates.
    let alone = check(&folder.join("summary_lifecycle_metrics.json"));
    assert!(alone.corpus.results.is_empty());
    assert!(alone.findings.iter().all(|f| f.rule.code != "E004"));
}

/// A copy of the fixture ladder `newer-three-stages` with `load_summary` taken out of the stage
/// files `without` (by stage index), and, when `config` is given, that `config.yaml` beside it.
fn three_stages_without(without: &[usize], config: Option<&str>) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let from = Path::new(FIXTURES).join("inference-perf/newer-three-stages");
    for i in 0..3 {
        let name = format!("stage_{i}_lifecycle_metrics.json");
        let mut doc: Value =
            serde_json::from_str(&std::fs::read_to_string(from.join(&name)).unwrap()).unwrap();
        if without.contains(&i) {
            doc.as_object_mut().unwrap().remove("load_summary");
        }
        std::fs::write(dir.path().join(&name), doc.to_string()).unwrap();
    }
    if let Some(config) = config {
        std::fs::write(dir.path().join("config.yaml"), config).unwrap();
    }
    dir
}

fn level_rates(r: &LoadedResult) -> Vec<Value> {
    r.value["levels"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["request_rate"].clone())
        .collect()
}

#[test]
fn a_stage_that_lost_its_load_is_reported_and_the_ladder_keeps_its_other_stages() {
    let whole = check(&Path::new(FIXTURES).join("inference-perf/newer-three-stages"));
    assert_eq!(whole.corpus.results.len(), 1);
    assert_eq!(
        level_rates(&whole.corpus.results[0]),
        [Value::from(4.0), Value::from(12.0), Value::from(20.0)]
    );
    assert!(whole.findings.iter().all(|f| f.rule.code != "E003"));

    // The newer layout records each stage's rate only in its `load_summary`: without it the
    // stage has no load, is reported on its own file, and the ladder is read without it.
    let dir = three_stages_without(&[1], None);
    let checked = check(dir.path());
    assert_eq!(checked.corpus.results.len(), 1, "{:?}", checked.findings);
    let r = &checked.corpus.results[0];
    assert_eq!(level_rates(r), [Value::from(4.0), Value::from(20.0)]);
    // The level at 20 req/s still points into its own file, renumbered as level 1.
    match r
        .provenance
        .lookup("/levels/1/request_rate")
        .as_ref()
        .map(|(p, rest)| (&**p, *rest))
    {
        Some((Provenance::Beside { path, .. }, _)) => {
            assert!(path.ends_with("stage_2_lifecycle_metrics.json"), "{path}");
        }
        other => panic!("{other:?}"),
    }
    let e003: Vec<_> = checked
        .findings
        .iter()
        .filter(|f| f.rule.code == "E003")
        .collect();
    assert_eq!(e003.len(), 1, "{e003:?}");
    assert!(
        e003[0]
            .primary
            .path
            .raw()
            .ends_with("stage_1_lifecycle_metrics.json")
    );
    assert_eq!(
        e003[0].message.raw(),
        "level 1 records neither a concurrency nor a request rate (a request count is neither): \
         it is left out, and the result is read with its other 2 levels"
    );
    // `--show-files` names the stage for what became of it, not as the ladder's companion.
    let fate = checked
        .corpus
        .read
        .iter()
        .find(|f| f.path.raw().ends_with("stage_1_lifecycle_metrics.json"))
        .unwrap();
    assert!(
        fate.read_as
            .starts_with("none (E003 schema-violation: its level is left out of `"),
        "{}",
        fate.read_as
    );
    // No finding of the other stages moved onto the stage that was left out.
    assert!(
        checked
            .findings
            .iter()
            .filter(|f| f
                .primary
                .path
                .raw()
                .ends_with("stage_1_lifecycle_metrics.json"))
            .all(|f| f.rule.code == "E003")
    );

    // The older layout gives the rate in `config.yaml`: the stage keeps its level.
    let config = "load:\n  type: constant\n  stages:\n    - rate: 4\n      duration: 60\n    \
                  - rate: 12\n      duration: 60\n    - rate: 20\n      duration: 60\n\
                  api:\n  type: completion\nserver:\n  type: vllm\n  model_name: demo\n";
    let dir = three_stages_without(&[1], Some(config));
    let checked = check(dir.path());
    assert_eq!(checked.corpus.results.len(), 1);
    assert_eq!(
        level_rates(&checked.corpus.results[0]),
        [Value::from(4.0), Value::from(12.0), Value::from(20.0)]
    );
    assert!(checked.findings.iter().all(|f| f.rule.code != "E003"));

    // With no stage keyed, nothing is read and the result is one E003.
    let dir = three_stages_without(&[0, 1, 2], None);
    let checked = check(dir.path());
    assert!(checked.corpus.results.is_empty());
    assert!(checked.findings.iter().any(|f| f.rule.code == "E003"));
}
