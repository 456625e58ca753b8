//! The two walks of a run (the p of every tested cell first, the cells made again and settled
//! with their q later) against making every cell and deciding them at once, over drawn pairs
//! of sides.

use std::path::PathBuf;

use super::cells::{self, Plan};
use super::matching::match_sides;
use super::{Cell, FailOn, Options, RegressMetric, Report, decide, regress};
use crate::model::loaded::LoadedResult;
use crate::seeded::below;

/// Every result of the regression fixtures and the demo corpus, read as `regress` reads them.
fn pool() -> Vec<LoadedResult> {
    let options = crate::corpus::Options {
        lean: true,
        drop_claims: true,
        ..crate::corpus::Options::default()
    };
    let roots: Vec<PathBuf> = [
        "testdata/regress/base",
        "testdata/regress/head",
        "testdata/regress/rates",
        "testdata/corpora/demo",
    ]
    .iter()
    .map(PathBuf::from)
    .collect();
    crate::corpus::load_results(&roots, &options).results
}

fn draw_side(state: &mut u64, pool: &[LoadedResult]) -> Vec<LoadedResult> {
    let n = below(state, pool.len() + 1);
    (0..n)
        .map(|_| pool[below(state, pool.len())].clone())
        .collect()
}

fn draw_options(state: &mut u64) -> Options {
    let mut options = Options {
        threshold: [0.01, 0.05, 0.2][below(state, 3)],
        alpha: [0.05, 0.2, 0.5][below(state, 3)],
        fail_on: [
            FailOn::Regression,
            FailOn::Confirmed,
            FailOn::Undecided,
            FailOn::None,
        ][below(state, 4)],
        ..Options::default()
    };
    if below(state, 3) == 0 {
        options.metrics = RegressMetric::ALL
            .into_iter()
            .filter(|_| below(state, 2) == 0)
            .collect();
    }
    if below(state, 4) == 0 {
        options.varied.push("model.precision".into());
    }
    options
}

/// Every cell made at once and decided as one family: what a run did before its cells were
/// made again at each walk.
fn all_at_once(
    base: Vec<LoadedResult>,
    head: Vec<LoadedResult>,
    control: Option<Vec<LoadedResult>>,
    options: &Options,
) -> (Vec<super::Config>, Vec<Cell>) {
    let m = match_sides(base, head, control, options);
    let plan = Plan::new(&m, options);
    let (mut configs, mut all) = (Vec::new(), Vec::new());
    for ci in 0..m.groups.len() {
        let (config, cells) = cells::of_config(&m, &plan, ci, options);
        configs.push(config);
        all.extend(cells);
    }
    decide::decide(&mut all, options);
    (configs, all)
}

#[test]
fn cells_made_again_at_each_walk_are_those_decided_at_once() {
    let pool = pool();
    assert!(pool.len() > 20, "{}", pool.len());
    let mut state = 29;
    let mut tested = 0;
    for case in 0..120 {
        let base = draw_side(&mut state, &pool);
        let head = draw_side(&mut state, &pool);
        let control = (below(&mut state, 4) == 0).then(|| draw_side(&mut state, &pool));
        let options = draw_options(&mut state);
        let (configs, expected) =
            all_at_once(base.clone(), head.clone(), control.clone(), &options);
        let report = regress(base, head, control, &options);
        assert_eq!(
            format!("{:?}", report.configs),
            format!("{configs:?}"),
            "case {case}"
        );
        // Walked twice: each walk makes the same cells.
        for _ in 0..2 {
            let walked: Vec<Cell> = report.by_config().flat_map(|(_, cells)| cells).collect();
            assert_eq!(
                format!("{walked:?}"),
                format!("{expected:?}"),
                "case {case}"
            );
        }
        let held = Report::of_cells(
            options.clone(),
            report.configs.clone(),
            expected.clone(),
            report.runs.clone(),
        );
        assert_eq!(report.tally, held.tally, "case {case}");
        assert_eq!(report.family, held.family, "case {case}");
        assert_eq!(report.exit_code, held.exit_code, "case {case}");
        assert_eq!(report.no_comparable, held.no_comparable, "case {case}");
        tested += report.family;
    }
    // The drawn sides reach the statistics, not only the structural verdicts.
    assert!(tested > 200, "{tested}");
}
