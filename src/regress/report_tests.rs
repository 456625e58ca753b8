//! A report's cells grouped by configuration in one pass, against asking each configuration
//! for its own cells, over drawn reports whose cells come in any order of configurations.

use super::cells::blank_cell;
use super::{Config, Options, RegressMetric, Report, Runs, Verdict};
use crate::model::LevelKey;
use crate::seeded::below;
use crate::text::FileText;

fn config(i: usize) -> Config {
    Config {
        label: FileText::new(format!("model-{i}")),
        fingerprint: format!("{i:012x}"),
        versions: (Vec::new(), Vec::new()),
        speculative: false,
        mismatches: Vec::new(),
        notes: Vec::new(),
    }
}

#[test]
fn cells_are_grouped_by_configuration_in_their_order() {
    let mut state = 5;
    for _ in 0..200 {
        let configs = below(&mut state, 12);
        let cells = if configs == 0 {
            Vec::new()
        } else {
            (0..below(&mut state, 60))
                .map(|k| {
                    let level = LevelKey::Streams(u64::try_from(k).unwrap_or(0));
                    blank_cell(
                        below(&mut state, configs),
                        level,
                        RegressMetric::ALL[0],
                        Verdict::Inconclusive,
                    )
                })
                .collect()
        };
        let report = Report {
            options: Options::default(),
            configs: (0..configs).map(config).collect(),
            cells,
            runs: Runs::default(),
            family: 0,
            control: false,
            no_comparable: None,
            exit_code: 0,
        };
        let each: Vec<Vec<usize>> = (0..configs)
            .map(|ci| {
                (0..report.cells.len())
                    .filter(|&i| report.cells[i].config == ci)
                    .collect()
            })
            .collect();
        assert_eq!(report.cells_by_config(), each);
    }
}
