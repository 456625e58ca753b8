//! The summaries of a corpus put away as it is read are those of the same corpus held in
//! memory, and the figures gathered a run at a time are those the per-level series give:
//! drawn corpora made of the bundled results, with copies of runs, unidentified results, failed
//! runs, shared and tied places, labels that share prefixes or hold a NUL, launches recorded,
//! blank or absent, at key budgets that keep every key in memory or put a run away every few
//! keys, and with the results on disk or held.

use std::path::Path;
use std::sync::Arc;

use std::collections::BTreeMap;

use super::spooled::{Order, SpooledCorpus};
use super::{
    Ci95, ConfigSummary, Configuration, LevelSummary, PER_USER, Series, TTFT_P50, configurations,
    launches, runs, series, spooled_summaries, summaries, throughput_series,
};
use crate::model::LevelKey;
use crate::model::loaded::LoadedResult;
use crate::model::loaded::spool::ResultSpool;
use crate::model::{Engine, Launch, Model, Outcome};
use crate::seeded::below;
use crate::stats::{describe, launch_interval, quantile_type7};

/// The bundled results (lean, parts each their own), and the real ones where they are beside
/// the tree.
pub(crate) fn base() -> Vec<LoadedResult> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut roots = vec![root.join("testdata/corpora"), root.join("testdata/rules")];
    let real = root.join("../shared/realworld");
    if real.is_dir() {
        roots.push(real);
    } else {
        println!("../shared/realworld is not beside the tree: drawn from testdata only");
    }
    let options = crate::corpus::Options {
        lean: true,
        put_away: true,
        ..crate::corpus::Options::default()
    };
    crate::corpus::load_results(&roots, &options).results
}

/// Places results share or tie on; `a-b` sorts before `a/b` as text, after it as a walk.
const PATHS: [&str; 6] = [
    "a/b.json",
    "a-b.json",
    "a/b/c.json",
    "z.jsonl",
    "a/b.json\0x",
    "m.json",
];

/// A drawn corpus of `n` results taken from `base` and changed.
pub(crate) fn drawn(base: &[LoadedResult], state: &mut u64, n: usize) -> Vec<LoadedResult> {
    let mut out: Vec<LoadedResult> = Vec::new();
    for _ in 0..n {
        // A copy of a run drawn before, read from another place: S010 leaves it out.
        if !out.is_empty() && below(state, 6) == 0 {
            let mut copy = out[below(state, out.len())].clone();
            copy.origin.path = PATHS[below(state, PATHS.len())].into();
            copy.origin.doc_start = below(state, 4) * 100;
            out.push(copy);
            continue;
        }
        let mut r = base[below(state, base.len())].clone();
        r.origin.path = PATHS[below(state, PATHS.len())].into();
        r.origin.doc_start = below(state, 4) * 100;
        r.doc.id = format!("run-{}", below(state, 50));
        if below(state, 8) == 0 {
            r.doc.outcome = Outcome::Failed;
        }
        match below(state, 7) {
            // Another engine version: a configuration of its own, or of a few.
            0 | 1 => {
                let mut engine = r.doc.engine.as_deref().cloned().unwrap_or_default();
                engine.version = Some(format!("0.{}", below(state, 3)));
                r.doc.engine = Some(Arc::new(engine));
            }
            // A model name that sorts among the others, or holds a NUL.
            2 => {
                let mut model = r.doc.model.as_deref().cloned().unwrap_or_default();
                model.name = Some(["Qwen", "Qwen\0", "Qwen3-8B", "a"][below(state, 4)].into());
                r.doc.model = Some(Arc::new(model));
            }
            // Unidentified: a configuration of its own, named by the result.
            3 => r.doc.model = Some(Arc::new(Model::default())),
            4 => r.doc.engine = Some(Arc::new(Engine::default())),
            // A setting the label does not show: configurations of one label.
            5 => {
                let mut engine = r.doc.engine.as_deref().cloned().unwrap_or_default();
                engine.max_num_seqs = Some(below(state, 4) as u64);
                r.doc.engine = Some(Arc::new(engine));
            }
            _ => {}
        }
        // Launches: one of a few ids, a blank one, or none.
        r.doc.launch = match below(state, 4) {
            0 => None,
            1 => Some(Arc::new(Launch {
                id: Some(" ".into()),
                ..Launch::default()
            })),
            _ => Some(Arc::new(Launch {
                id: Some(format!("launch-{}", below(state, 3))),
                ..Launch::default()
            })),
        };
        out.push(r);
    }
    out
}

fn spooled(results: &[LoadedResult], budget: usize, held: bool) -> Vec<ConfigSummary> {
    let spool = if held {
        ResultSpool::in_folder(&std::env::temp_dir().join("benchlint-no-such/folder"))
    } else {
        ResultSpool::default()
    };
    let mut corpus = SpooledCorpus::with_budget(spool, budget, Order::LabelFingerprint);
    for r in results {
        corpus.keep(r);
    }
    spooled_summaries(corpus, 0.05)
        .collect::<Result<Vec<_>, _>>()
        .expect("read back")
}

#[test]
fn spooled_summaries_are_those_of_the_corpus_in_memory() {
    let base = base();
    assert!(base.len() > 50, "{} bundled results", base.len());
    let mut state = 0x5eed_0000_0000_0029_u64;
    let mut copies_seen = 0;
    for round in 0..60 {
        let n = 1 + below(&mut state, 150);
        let results = drawn(&base, &mut state, n);
        let in_memory: Vec<ConfigSummary> = summaries(&results, 0.05).collect();
        let mask = crate::copies::copy_mask(&results, &super::path_order(&results));
        copies_seen += mask.iter().filter(|&&c| c).count();
        for (budget, held) in [(usize::MAX, false), (2_000, false), (0, true)] {
            assert_eq!(
                spooled(&results, budget, held),
                in_memory,
                "round {round}: {n} results, budget {budget}, held {held}"
            );
        }
    }
    assert!(
        copies_seen > 100,
        "the drawn corpora hold copies: {copies_seen}"
    );
}

/// The real corpora and the bundled ones, whole, give the same summaries both ways.
#[test]
fn spooled_summaries_of_whole_corpora_are_those_in_memory() {
    let base = base();
    let in_memory: Vec<ConfigSummary> = summaries(&base, 0.05).collect();
    assert!(in_memory.len() > 40, "{} configurations", in_memory.len());
    assert_eq!(spooled(&base, 50_000, false), in_memory);
}

/// An empty corpus walks no configuration; one of failed runs only, none either.
#[test]
fn a_corpus_without_a_successful_run_has_no_configuration() {
    assert!(spooled(&[], 0, false).is_empty());
    let mut failed: Vec<LoadedResult> = base().into_iter().take(5).collect();
    for r in &mut failed {
        r.doc.outcome = Outcome::Failed;
    }
    assert!(spooled(&failed, 0, false).is_empty());
}

/// A configuration's summary as the per-level series make it: the reference the figures
/// gathered a run at a time are held to.
fn summary_by_series(
    results: &[crate::model::loaded::LoadedResult],
    config: &Configuration,
    max_cv: f64,
) -> ConfigSummary {
    let members = &config.members;
    let l = launches(results, members);
    let by_level = |series: Vec<Series>| -> BTreeMap<LevelKey, Vec<f64>> {
        series.into_iter().map(|s| (s.key, s.values())).collect()
    };
    let per_user = by_level(series(results, members, PER_USER));
    let ttft = by_level(series(results, members, TTFT_P50));
    let levels = throughput_series(results, members)
        .into_iter()
        .filter_map(|s| {
            let values = s.values();
            let d = describe(&values)?;
            let ci95 = launch_interval(&s.by_launch())
                .filter(|_| config.is_identified())
                .map(|iv| Ci95::of(&iv));
            let median_of = |m: &BTreeMap<LevelKey, Vec<f64>>| {
                m.get(&s.key).and_then(|v| quantile_type7(v, 0.5))
            };
            Some(LevelSummary {
                key: s.key,
                concurrency: s.key.streams(),
                request_rate: match s.key {
                    LevelKey::Rate(r) => Some(r),
                    _ => None,
                },
                figure: s.figure_name(),
                n: d.n,
                launches: s.by_launch().len(),
                median: d.median,
                min: d.min,
                max: d.max,
                mean: d.mean,
                cv: d.cv,
                high_cv: d.cv.is_some_and(|c| c > max_cv),
                ci95,
                per_user_median_tok_s: median_of(&per_user),
                ttft_p50_s: median_of(&ttft),
            })
        })
        .collect();
    ConfigSummary {
        fingerprint: config.fingerprint.short(),
        label: config.fingerprint.label().into(),
        runs: runs(results, members),
        launches: l.count,
        runs_without_launch_id: l.unrecorded,
        unidentified: config.unidentified.clone(),
        levels,
    }
}

/// Every configuration's summary by the series, in `summary`'s order.
fn summaries_by_series(results: &[LoadedResult]) -> Vec<ConfigSummary> {
    let mut configs = configurations(results);
    configs.sort_by(|a, b| {
        (a.fingerprint.label(), &a.fingerprint).cmp(&(b.fingerprint.label(), &b.fingerprint))
    });
    configs
        .iter()
        .map(|c| summary_by_series(results, c, 0.05))
        .collect()
}

#[test]
fn figures_gathered_a_run_at_a_time_are_those_the_series_give() {
    let base = base();
    assert_eq!(
        summaries(&base, 0.05).collect::<Vec<_>>(),
        summaries_by_series(&base)
    );
    let mut state = 0x5eed_0000_0000_0030_u64;
    for round in 0..60 {
        let n = 1 + below(&mut state, 150);
        let results = drawn(&base, &mut state, n);
        assert_eq!(
            summaries(&results, 0.05).collect::<Vec<_>>(),
            summaries_by_series(&results),
            "round {round}: {n} results"
        );
    }
}

/// What a walk gives, as it can be compared with the configurations in memory: each
/// configuration's fingerprint and its runs' places and ids, in order.
type Walked = Vec<(
    crate::fingerprint::Fingerprint,
    Vec<(String, usize, String)>,
)>;

fn walked(results: &[LoadedResult], order: Order, budget: usize) -> Walked {
    let mut corpus = SpooledCorpus::with_budget(ResultSpool::default(), budget, order);
    for r in results {
        corpus.keep(r);
    }
    let mut walk = corpus.configurations();
    let mut out = Vec::new();
    while let Some(group) = walk.next() {
        let (fingerprint, numbers) = group.expect("walked");
        let runs = numbers
            .iter()
            .map(|&n| {
                let r = walk.read(n).expect("read back");
                (
                    r.origin.path.raw().to_string(),
                    r.origin.doc_start,
                    r.doc.id,
                )
            })
            .collect();
        out.push((fingerprint, runs));
    }
    out
}

/// The configurations in memory, in `order`: `summary` sorts by label and fingerprint,
/// `capacity` and the audit by label and short form, each stably over the fingerprint order.
fn in_memory(results: &[LoadedResult], order: Order) -> Walked {
    let mut configs = configurations(results);
    match order {
        Order::LabelFingerprint => configs.sort_by(|a, b| {
            (a.fingerprint.label(), &a.fingerprint).cmp(&(b.fingerprint.label(), &b.fingerprint))
        }),
        Order::LabelShort => configs.sort_by(|a, b| {
            (a.fingerprint.label(), a.fingerprint.short())
                .cmp(&(b.fingerprint.label(), b.fingerprint.short()))
        }),
        // Results only: no configuration is walked.
        Order::ResultsOnly => configs.clear(),
    }
    configs
        .into_iter()
        .map(|c| {
            let runs = c
                .members
                .iter()
                .map(|&i| {
                    let r = &results[i];
                    (
                        r.origin.path.raw().to_string(),
                        r.origin.doc_start,
                        r.doc.id.clone(),
                    )
                })
                .collect();
            (c.fingerprint, runs)
        })
        .collect()
}

#[test]
fn the_walk_gives_the_configurations_in_memory_in_either_order() {
    let base = base();
    let mut state = 0x5eed_0000_0000_0031_u64;
    for round in 0..60 {
        let n = 1 + below(&mut state, 150);
        let results = drawn(&base, &mut state, n);
        for order in [Order::LabelFingerprint, Order::LabelShort] {
            let expected = in_memory(&results, order);
            for budget in [usize::MAX, 1_500] {
                assert_eq!(
                    walked(&results, order, budget),
                    expected,
                    "round {round}: {n} results, {order:?}, budget {budget}"
                );
            }
        }
    }
    for order in [Order::LabelFingerprint, Order::LabelShort] {
        assert_eq!(
            walked(&base, order, 40_000),
            in_memory(&base, order),
            "{order:?}"
        );
    }
}

#[test]
fn a_corpus_kept_for_its_results_walks_no_configuration() {
    assert!(walked(&base(), Order::ResultsOnly, 40_000).is_empty());
}

/// Every result, of any outcome and copies too, comes back in path order: the order `cards`
/// prints them in, the one [`super::path_order`] gives the results in memory.
#[test]
fn results_come_back_in_path_order() {
    let base = base();
    let mut state = 0x5eed_0000_0000_0032_u64;
    for round in 0..40 {
        let n = below(&mut state, 150);
        let results = drawn(&base, &mut state, n);
        let mut corpus = SpooledCorpus::new(Order::ResultsOnly);
        for r in &results {
            corpus.keep(r);
        }
        assert_eq!(corpus.len(), n);
        let back: Vec<String> = corpus
            .in_path_order()
            .map(|r| serde_json::to_string(&r.expect("read back").doc).unwrap())
            .collect();
        let expected: Vec<String> = super::path_order(&results)
            .into_iter()
            .map(|i| serde_json::to_string(&results[i].doc).unwrap())
            .collect();
        assert_eq!(back, expected, "round {round}: {n} results");
    }
}
