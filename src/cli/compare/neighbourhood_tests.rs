//! `compare` on the part of a corpus it reads gives what it gives on the whole corpus held in
//! memory: drawn corpora (copies of runs read from other places, failed runs, ids shared
//! between configurations, unidentified results, launches shared, blank or absent, settings
//! the label does not show), sides named by a result id, by a fingerprint prefix in either
//! case, or by nothing in the corpus, at any metric, level, basis and format.

use super::neighbourhood::{Gathering, Neighbourhood};
use super::{BasisArg, CompareArgs, CompareFormat, Output, compare_gathered, compare_in};
use crate::claims::Metric;
use crate::corpus::Options;
use crate::model::loaded::LoadedResult;
use crate::model::loaded::spool::ResultSpool;
use crate::replication::spooled_tests::{base, drawn};
use crate::replication::{Order, SpooledCorpus, configurations};
use crate::seeded::below;

/// A side as someone might name it.
fn side(results: &[LoadedResult], state: &mut u64) -> String {
    match below(state, 10) {
        0..=4 => results[below(state, results.len())].doc.id.clone(),
        5 => format!("run-{}", below(state, 60)),
        6..=8 => {
            let configs = configurations(results);
            if configs.is_empty() {
                return "zzzz".into();
            }
            let hex = format!(
                "{:016x}",
                configs[below(state, configs.len())].fingerprint.hash64()
            );
            let digits = &hex[..4 + below(state, 13)];
            if below(state, 2) == 0 {
                digits.to_ascii_uppercase()
            } else {
                digits.to_string()
            }
        }
        _ => ["abcd", "zzzz", "", "0"][below(state, 4)].into(),
    }
}

fn args(results: &[LoadedResult], state: &mut u64) -> CompareArgs {
    let metrics = [
        "aggregate_tok_s",
        "decode_tok_s",
        "ttft_p95_s",
        "per_user_tok_s",
    ];
    CompareArgs {
        a: side(results, state),
        b: side(results, state),
        paths: Vec::new(),
        metric: metrics[below(state, metrics.len())]
            .parse()
            .unwrap_or_default(),
        concurrency: [None, None, None, None, Some(1), Some(8), Some(64)][below(state, 7)],
        request_rate: None,
        basis: [BasisArg::Hardware, BasisArg::Deployment][below(state, 2)],
        format: [CompareFormat::Text, CompareFormat::Json][below(state, 2)],
    }
}

/// What a run of `compare` shows: its output and exit status, or its error.
fn shown(out: Result<Output, String>) -> Result<(String, u8), String> {
    out.map(|o| (String::from_utf8_lossy(&o.bytes).into_owned(), o.code))
}

#[test]
fn the_part_read_compares_as_the_whole_corpus() {
    let base = base();
    assert!(base.len() > 20, "the bundled results are beside the tree");
    let mut state = 0x5eed_c0de_u64;
    let (mut compared, mut with_controls, mut smaller) = (0, 0, 0);
    for round in 0..300 {
        let n = 4 + below(&mut state, 60);
        let results = drawn(&base, &mut state, n);
        let args = args(&results, &mut state);
        let Some(metric) = Metric::parse(&args.metric) else {
            continue;
        };
        let whole = shown(compare_in(&results, &args, metric, &Options::default()));
        let budget = [64, 1 << 20][round % 2];
        let mut gathering = Gathering::new(SpooledCorpus::with_budget(
            ResultSpool::default(),
            budget,
            Order::LabelFingerprint,
        ));
        for r in &results {
            gathering.keep(r);
        }
        let part = shown(compare_gathered(
            gathering,
            &args,
            metric,
            &Options::default(),
        ));
        assert_eq!(
            part,
            whole,
            "round {round}: compare {} {} on {} results",
            args.a,
            args.b,
            results.len()
        );
        if let Ok((text, _)) = &whole {
            compared += 1;
            // The text names its controls; the JSON lists each with its launch means.
            with_controls += usize::from(
                text.contains("same-vs-same control") || text.contains("\"launch_means\""),
            );
        }
        // How much was read: the part, against the corpus.
        let mut gathering = Gathering::new(SpooledCorpus::new(Order::LabelFingerprint));
        for r in &results {
            gathering.keep(r);
        }
        let mut hood = Neighbourhood::walk(gathering).expect("walked");
        let sides = hood.sides([&args.a, &args.b]).expect("read back");
        smaller += usize::from(sides.len() < results.len());
    }
    println!("{compared} compared, {with_controls} with controls, {smaller} parts smaller");
    assert!(compared >= 60, "{compared} comparisons made");
    assert!(
        with_controls >= 10,
        "{with_controls} comparisons had controls"
    );
    assert!(smaller >= 150, "{smaller} parts smaller than their corpus");
}
