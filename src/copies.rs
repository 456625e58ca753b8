//! Runs that appear more than once in a corpus (S010): a run folder copied into two sweep
//! folders, a result file kept under two names. A copy is not a replicate: counting it would
//! inflate n, shrink the spread and narrow every interval computed over the configuration.
//!
//! Two results are **the same run** when they record the same start time (`measured_at`), the
//! same launch (`launch.id`, `launch.started_at`) and repeat index, and identical levels: every
//! figure equal (whatever its JSON spelling, `32` and `32.0` being one value). Two runs measured
//! independently never agree on every figure to the last digit. The levels must hold at least
//! one measured figure (a window length, a throughput, a latency, a per-user rate): levels that
//! record only counts (a sweep's failed run) can coincide by chance and are not compared.
//!
//! The first result of each set in path order is the one counted ([`copy_mask`]); the others
//! are reported by S010 and left out of every configuration.

use std::collections::BTreeMap;
use std::hash::{Hash, Hasher};
use std::ops::Deref;

use crate::model::loaded::LoadedResult;
use crate::model::{Level, RequestRate, ResultDoc};

/// One run that the corpus holds more than once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CopySet {
    /// The result counted: the first in path order.
    pub kept: usize,
    /// The other copies, in path order.
    pub copies: Vec<usize>,
}

/// Every run held more than once, in path order of the result kept. `order` is
/// [`path_order`](crate::fingerprint::path_order) of `results`.
pub fn copy_sets(results: &[LoadedResult], order: &[usize]) -> Vec<CopySet> {
    // Bucket by a hash of what a copy shares, then confirm equality inside each bucket.
    let mut buckets: BTreeMap<u64, Vec<usize>> = BTreeMap::new();
    for &i in order {
        if let Some(key) = copy_key(&results[i].doc) {
            buckets.entry(key).or_default().push(i);
        }
    }
    let mut sets: Vec<CopySet> = buckets
        .into_values()
        .flat_map(|bucket| classes(bucket.into_iter().map(|i| (i, &results[i].doc))))
        .filter(|class| class.len() > 1)
        .map(|class| CopySet {
            kept: class[0],
            copies: class[1..].to_vec(),
        })
        .collect();
    let rank: BTreeMap<usize, usize> = order
        .iter()
        .copied()
        .enumerate()
        .map(|(r, i)| (i, r))
        .collect();
    sets.sort_by_key(|s| rank.get(&s.kept).copied().unwrap_or(usize::MAX));
    sets
}

/// For each result, whether it is a copy of a run counted elsewhere (never the first copy).
pub fn copy_mask(results: &[LoadedResult], order: &[usize]) -> Vec<bool> {
    let mut mask = vec![false; results.len()];
    for set in copy_sets(results, order) {
        for i in set.copies {
            mask[i] = true;
        }
    }
    mask
}

/// What the copies of a run share, hashed ([`key_hash`]), for a result whose levels hold a
/// measured figure: only such results are compared, and only with those of an equal key.
pub fn copy_key(doc: &ResultDoc) -> Option<u64> {
    doc.levels
        .iter()
        .any(|l| has_measured_figure(&l))
        .then(|| key_hash(doc))
}

/// The runs among `bucket` (results of one [`copy_key`], in path order): each class holds the
/// results that are the same run as its first ([`same_run`]), the first counted and the rest
/// its copies; classes in the order their first comes.
pub fn classes<D: Deref<Target = ResultDoc>>(
    bucket: impl IntoIterator<Item = (usize, D)>,
) -> Vec<Vec<usize>> {
    let mut classes: Vec<(D, Vec<usize>)> = Vec::new();
    for (i, doc) in bucket {
        match classes.iter_mut().find(|(first, _)| same_run(first, &doc)) {
            Some((_, class)) => class.push(i),
            None => classes.push((doc, vec![i])),
        }
    }
    classes.into_iter().map(|(_, class)| class).collect()
}

/// Whether two results record the same run: start time, launch, repeat and every figure.
pub fn same_run(a: &ResultDoc, b: &ResultDoc) -> bool {
    a.measured_at == b.measured_at
        && a.launch == b.launch
        && a.repeat == b.repeat
        && a.levels == b.levels
}

/// Whether a level holds a measured figure: a window length, a throughput, a latency or a
/// per-user rate (not only counts).
fn has_measured_figure(level: &Level) -> bool {
    level.duration_s.is_some()
        || level
            .throughput_tok_s
            .as_ref()
            .is_some_and(|t| t.aggregate.is_some() || t.decode.is_some() || t.prefill.is_some())
        || level.ttft_s.as_ref().is_some_and(|t| t.p50.is_some())
        || level.tpot_ms.as_ref().is_some_and(|t| t.p50.is_some())
        || level.e2e_s.as_ref().is_some_and(|t| t.p50.is_some())
        || level.per_user_tok_s.is_some()
}

/// A hash of everything [`same_run`] compares: start time, launch, repeat and every field of
/// every level, so that runs equal as [`same_run`] sees them hash equal and runs that differ in
/// any figure rarely collide. Hashing only a few figures made every bucket of results that share
/// them (undated, launch-less harness files at the same load) compare each result with every
/// distinct run before it: quadratic. `DefaultHasher::new` has fixed keys: stable per process.
fn key_hash(doc: &ResultDoc) -> u64 {
    let mut h = std::collections::hash_map::DefaultHasher::new();
    doc.measured_at.hash(&mut h);
    doc.launch
        .as_deref()
        .map(|l| (&l.id, &l.started_at))
        .hash(&mut h);
    doc.repeat.hash(&mut h);
    doc.levels.len().hash(&mut h);
    for level in &doc.levels {
        hash_level(&level, &mut h);
    }
    h.finish()
}

/// Feeds every field of `level` to `h`, figures as their value (`+ 0.0` makes -0.0 and 0.0,
/// equal as figures, hash alike). The destructuring names every field: a field added to
/// [`Level`] does not compile until it is hashed here too, so equal levels always hash equal.
fn hash_level(level: &Level, h: &mut impl Hasher) {
    let Level {
        concurrency,
        request_rate,
        achieved_request_rate,
        max_concurrency,
        mean_in_flight,
        requests,
        failed,
        total_requests,
        error_rate,
        duration_s,
        output_tokens,
        server_output_tokens,
        reasoning_tokens,
        throughput_tok_s,
        per_user_tok_s,
        ttft_s,
        tpot_ms,
        e2e_s,
        gpu_mem_gib,
        power_w,
        samples,
    } = level;
    (
        concurrency,
        max_concurrency,
        requests,
        failed,
        total_requests,
    )
        .hash(h);
    (output_tokens, server_output_tokens, reasoning_tokens).hash(h);
    match request_rate {
        None => 0u8.hash(h),
        Some(RequestRate::Unbounded) => 1u8.hash(h),
        Some(RequestRate::PerSecond(r)) => {
            2u8.hash(h);
            hash_figure(Some(*r), h);
        }
    }
    for x in [
        achieved_request_rate,
        mean_in_flight,
        error_rate,
        duration_s,
        gpu_mem_gib,
    ] {
        hash_figure(*x, h);
    }
    throughput_tok_s.is_some().hash(h);
    if let Some(t) = throughput_tok_s {
        for x in [&t.decode, &t.prefill, &t.aggregate] {
            hash_figure(*x, h);
        }
    }
    per_user_tok_s.is_some().hash(h);
    if let Some(p) = per_user_tok_s {
        for x in [&p.mean, &p.median, &p.p10] {
            hash_figure(*x, h);
        }
    }
    ttft_s.is_some().hash(h);
    if let Some(p) = ttft_s {
        for x in [&p.p50, &p.p95, &p.p99] {
            hash_figure(*x, h);
        }
    }
    for p in [tpot_ms, e2e_s] {
        p.is_some().hash(h);
        if let Some(p) = p {
            hash_figure(p.p50, h);
            hash_figure(p.p95, h);
        }
    }
    power_w.is_some().hash(h);
    if let Some(p) = power_w {
        hash_figure(p.mean, h);
        p.kind.as_ref().map(std::mem::discriminant).hash(h);
    }
    samples.is_some().hash(h);
    if let Some(s) = samples {
        for v in [&s.ttft_s, &s.tpot_ms, &s.per_user_tok_s, &s.output_tokens] {
            v.as_ref().map(Vec::len).hash(h);
            for x in v.iter().flatten() {
                hash_figure(Some(*x), h);
            }
        }
    }
}

/// Feeds a figure to `h` as its value: `+ 0.0` makes -0.0 and 0.0 (equal figures) hash alike.
fn hash_figure<H: Hasher>(x: Option<f64>, h: &mut H) {
    x.map(|v| (v + 0.0).to_bits()).hash(h);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Launch, Levels, Throughput};

    fn run(measured_at: &str, aggregate: f64) -> ResultDoc {
        ResultDoc {
            measured_at: measured_at.into(),
            levels: Levels::from(vec![Level {
                concurrency: Some(8),
                requests: Some(300),
                duration_s: Some(35.844_724_891_000_17),
                throughput_tok_s: Some(Throughput {
                    aggregate: Some(aggregate),
                    ..Throughput::default()
                }),
                ..Level::default()
            }]),
            ..ResultDoc::default()
        }
    }

    #[test]
    fn the_same_start_time_and_figures_are_the_same_run() {
        let a = run("2025-05-30T19:47:38Z", 2_258.212_337_970_085);
        assert!(same_run(&a, &a.clone()));
        assert_eq!(key_hash(&a), key_hash(&a.clone()));
        // Another start time, another figure or another launch: another run.
        assert!(!same_run(
            &a,
            &run("2025-05-30T19:48:48Z", 2_258.212_337_970_085)
        ));
        assert!(!same_run(&a, &run("2025-05-30T19:47:38Z", 2258.2)));
        let mut relaunched = a.clone();
        relaunched.launch = Some(std::sync::Arc::new(Launch {
            id: Some("launch-2".into()),
            started_at: None,
        }));
        assert!(!same_run(&a, &relaunched));
    }

    #[test]
    fn levels_with_counts_only_are_not_compared() {
        let counts = Level {
            concurrency: Some(4),
            requests: Some(0),
            failed: Some(8),
            ..Level::default()
        };
        assert!(!has_measured_figure(&counts));
        assert!(has_measured_figure(
            &run("2025-05-30T19:47:38Z", 1.0).levels.first().unwrap()
        ));
    }

    /// A change to one field of a level.
    type Variant = Box<dyn Fn(&mut Level)>;

    /// Every field of a level, changed one at a time, makes another run with another key (the
    /// key covers all that `same_run` compares, so results that share start, launch, repeat and
    /// most figures do not pile into one bucket); a copy, with -0.0 for 0.0, keeps the key.
    #[test]
    fn the_key_covers_every_figure_a_copy_shares() {
        let full = Level {
            concurrency: Some(8),
            request_rate: Some(RequestRate::PerSecond(4.0)),
            achieved_request_rate: Some(3.9),
            max_concurrency: Some(16),
            mean_in_flight: Some(7.5),
            requests: Some(300),
            failed: Some(0),
            total_requests: Some(300),
            error_rate: Some(0.0),
            duration_s: Some(35.8),
            output_tokens: Some(76_800),
            server_output_tokens: Some(76_800),
            reasoning_tokens: Some(10),
            throughput_tok_s: Some(Throughput {
                decode: Some(2_300.0),
                prefill: Some(9_000.0),
                aggregate: Some(2_258.2),
            }),
            per_user_tok_s: Some(crate::model::PerUser {
                mean: Some(47.7),
                median: Some(47.8),
                p10: Some(46.5),
            }),
            ttft_s: Some(crate::model::Percentiles3 {
                p50: Some(0.1),
                p95: Some(0.11),
                p99: Some(0.12),
            }),
            tpot_ms: Some(crate::model::Percentiles2 {
                p50: Some(20.9),
                p95: Some(21.6),
            }),
            e2e_s: Some(crate::model::Percentiles2 {
                p50: Some(4.8),
                p95: Some(5.4),
            }),
            gpu_mem_gib: Some(104.6),
            power_w: Some(crate::model::LevelPower {
                mean: Some(450.0),
                kind: Some(crate::model::PowerKind::Wall),
            }),
            samples: Some(Box::new(crate::model::Samples {
                ttft_s: Some(vec![0.1, 0.2]),
                ..crate::model::Samples::default()
            })),
        };
        let doc = |l: Level| ResultDoc {
            measured_at: "1970-01-01T00:00:00Z".into(),
            levels: Levels::from(vec![l]),
            ..ResultDoc::default()
        };
        let base = doc(full.clone());
        // A figure nudged, a figure dropped: each a variant of one field.
        let nudge = |x: &mut Option<f64>| *x = x.map(|v| v * 1.000_001 + 1e-9);
        let variants: Vec<Variant> = vec![
            Box::new(|l| l.concurrency = Some(9)),
            Box::new(|l| l.request_rate = Some(RequestRate::Unbounded)),
            Box::new(move |l| nudge(&mut l.achieved_request_rate)),
            Box::new(|l| l.max_concurrency = None),
            Box::new(move |l| nudge(&mut l.mean_in_flight)),
            Box::new(|l| l.requests = Some(301)),
            Box::new(|l| l.failed = Some(1)),
            Box::new(|l| l.total_requests = None),
            Box::new(move |l| l.error_rate = Some(0.01)),
            Box::new(move |l| nudge(&mut l.duration_s)),
            Box::new(|l| l.output_tokens = Some(1)),
            Box::new(|l| l.server_output_tokens = None),
            Box::new(|l| l.reasoning_tokens = Some(11)),
            Box::new(move |l| nudge(&mut l.throughput_tok_s.as_mut().unwrap().decode)),
            Box::new(move |l| nudge(&mut l.throughput_tok_s.as_mut().unwrap().prefill)),
            Box::new(move |l| nudge(&mut l.per_user_tok_s.as_mut().unwrap().p10)),
            Box::new(move |l| nudge(&mut l.ttft_s.as_mut().unwrap().p99)),
            Box::new(move |l| nudge(&mut l.tpot_ms.as_mut().unwrap().p95)),
            Box::new(move |l| nudge(&mut l.e2e_s.as_mut().unwrap().p50)),
            Box::new(move |l| nudge(&mut l.gpu_mem_gib)),
            Box::new(|l| l.power_w.as_mut().unwrap().kind = Some(crate::model::PowerKind::Device)),
            Box::new(move |l| nudge(&mut l.power_w.as_mut().unwrap().mean)),
            Box::new(|l| l.samples.as_mut().unwrap().ttft_s = Some(vec![0.1, 0.3])),
            Box::new(|l| l.samples = None),
        ];
        for (k, change) in variants.iter().enumerate() {
            let mut l = full.clone();
            change(&mut l);
            let other = doc(l);
            assert!(!same_run(&base, &other), "variant {k}");
            assert_ne!(key_hash(&base), key_hash(&other), "variant {k}");
        }
        let mut copy = full.clone();
        copy.error_rate = Some(-0.0);
        let copy = doc(copy);
        assert!(same_run(&base, &copy));
        assert_eq!(key_hash(&base), key_hash(&copy));
    }
}
