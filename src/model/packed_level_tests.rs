//! Packing keeps every field of every level exactly: checked over many generated levels (every
//! field present or absent, figures of every shape), figure by figure on raw bit patterns, and
//! through serde, which must write a packed result byte for byte as a whole one.

use super::*;
use crate::model::{Levels, ResultDoc};

/// Draws from [`crate::seeded`]: a fixed sequence, so a failure reproduces.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        crate::seeded::next(&mut self.0)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    fn some<T>(&mut self, make: impl FnOnce(&mut Self) -> T) -> Option<T> {
        (self.below(5) < 3).then(|| make(self))
    }

    fn whole(&mut self) -> u64 {
        match self.below(5) {
            0 => 0,
            1 => self.below(128),
            2 => self.below(5_000_000),
            3 => u64::MAX - self.below(3),
            _ => self.next(),
        }
    }

    #[expect(clippy::cast_precision_loss, reason = "any figure will do")]
    fn figure(&mut self) -> f64 {
        match self.below(10) {
            // What harnesses write: a few decimals.
            0..=3 => {
                let k = usize::try_from(self.below(7)).unwrap();
                self.below(10_000_000) as f64 / POW10[k]
            }
            4 => -(self.below(100_000) as f64) / 1e3,
            5 => [
                0.0,
                -0.0,
                f64::MIN_POSITIVE,
                5e-324,
                f64::MAX,
                1e300,
                9.007_199_254_740_993e15,
            ][usize::try_from(self.below(7)).unwrap()],
            // Any bit pattern at all: long fractions, subnormals, infinities, NaNs.
            _ => f64::from_bits(self.next()),
        }
    }

    fn level(&mut self) -> Level {
        Level {
            concurrency: self.some(Rng::whole),
            request_rate: self.some(|r| {
                if r.below(3) == 0 {
                    RequestRate::Unbounded
                } else {
                    RequestRate::PerSecond(r.figure())
                }
            }),
            achieved_request_rate: self.some(Rng::figure),
            max_concurrency: self.some(Rng::whole),
            mean_in_flight: self.some(Rng::figure),
            requests: self.some(Rng::whole),
            failed: self.some(Rng::whole),
            total_requests: self.some(Rng::whole),
            error_rate: self.some(Rng::figure),
            duration_s: self.some(Rng::figure),
            output_tokens: self.some(Rng::whole),
            server_output_tokens: self.some(Rng::whole),
            reasoning_tokens: self.some(Rng::whole),
            throughput_tok_s: self.some(|r| Throughput {
                decode: r.some(Rng::figure),
                prefill: r.some(Rng::figure),
                aggregate: r.some(Rng::figure),
            }),
            per_user_tok_s: self.some(|r| PerUser {
                mean: r.some(Rng::figure),
                median: r.some(Rng::figure),
                p10: r.some(Rng::figure),
            }),
            ttft_s: self.some(|r| Percentiles3 {
                p50: r.some(Rng::figure),
                p95: r.some(Rng::figure),
                p99: r.some(Rng::figure),
            }),
            tpot_ms: self.some(|r| Percentiles2 {
                p50: r.some(Rng::figure),
                p95: r.some(Rng::figure),
            }),
            e2e_s: self.some(|r| Percentiles2 {
                p50: r.some(Rng::figure),
                p95: r.some(Rng::figure),
            }),
            gpu_mem_gib: self.some(Rng::figure),
            power_w: self.some(|r| LevelPower {
                mean: r.some(Rng::figure),
                kind: r.some(|r| {
                    if r.below(2) == 0 {
                        PowerKind::Wall
                    } else {
                        PowerKind::Device
                    }
                }),
            }),
            samples: (self.below(8) == 0).then(|| {
                Box::new(Samples {
                    ttft_s: self.some(|r| (0..r.below(4)).map(|_| r.figure()).collect()),
                    output_tokens: Some(vec![]),
                    ..Samples::default()
                })
            }),
        }
    }
}

/// Every field as written by `Debug`, where each f64 prints the shortest text that reads back
/// to its bits (NaNs aside, checked apart below).
fn exact(levels: impl IntoIterator<Item = impl std::fmt::Debug>) -> Vec<String> {
    levels.into_iter().map(|l| format!("{l:?}")).collect()
}

#[test]
fn every_generated_level_unpacks_to_itself() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    for round in 0..5_000 {
        let count = usize::try_from(rng.below(9)).unwrap();
        let levels: Vec<Level> = (0..count).map(|_| rng.level()).collect();
        let packed = PackedLevels::pack(&levels);
        assert_eq!(packed.len(), count, "round {round}");
        let back: Vec<Level> = packed.unpack().collect();
        assert_eq!(exact(&back), exact(&levels), "round {round}");
        let mut kept = Levels::from(levels.clone());
        kept.pack();
        assert!(kept.is_packed());
        assert_eq!(kept.len(), count);
        assert_eq!(exact(kept.iter()), exact(&levels), "round {round}");
        for (i, level) in levels.iter().enumerate() {
            assert_eq!(
                exact(kept.get(i)),
                exact([level]),
                "round {round} level {i}"
            );
        }
        assert!(kept.get(count).is_none());
        assert_eq!(exact(kept.into_vec()), exact(&levels), "round {round}");
    }
}

#[test]
fn each_figure_keeps_its_bits_nans_and_signed_zeros_included() {
    let mut rng = Rng(0x0123_4567_89ab_cdef);
    let specials = [
        0.0,
        -0.0,
        f64::NAN,
        -f64::NAN,
        f64::from_bits(0x7ff0_0000_0000_0001),
        f64::INFINITY,
        f64::NEG_INFINITY,
        5e-324,
        0.1 + 0.2,
        46.9,
        0.1005,
        1320.0,
    ];
    let figures = specials
        .into_iter()
        .chain((0..100_000).map(|_| rng.figure()));
    for v in figures {
        let mut out = Vec::new();
        write_figure(&mut out, v);
        let mut r = Reader::new(&out);
        assert_eq!(read_figure(&mut r).to_bits(), v.to_bits(), "{v:?}");
        assert_eq!(r.at, out.len(), "{v:?} read to its end");
    }
}

#[test]
fn a_figure_with_a_few_decimals_takes_a_few_bytes() {
    for (v, bytes) in [
        (46.9, 2),
        (0.1005, 3),
        (1320.0, 3),
        (2_258.212_337_970_085, 9),
    ] {
        let mut out = Vec::new();
        write_figure(&mut out, v);
        assert_eq!(out.len(), bytes, "{v}");
    }
}

#[test]
fn a_packed_result_is_written_byte_for_byte_as_a_whole_one() {
    let mut rng = Rng(42);
    let mut compared = 0;
    for _ in 0..500 {
        let count = usize::try_from(rng.below(7)).unwrap();
        // Only levels a file can hold: serde_json writes a NaN as `null`, and a request rate
        // must be positive.
        let levels: Vec<Level> = (0..count)
            .map(|_| rng.level())
            .filter(|l| {
                let text = serde_json::to_string(l).unwrap();
                serde_json::from_str::<Level>(&text)
                    .is_ok_and(|back| serde_json::to_string(&back).unwrap() == text)
            })
            .collect();
        let whole = ResultDoc {
            id: "r".into(),
            levels: Levels::from(levels),
            ..ResultDoc::default()
        };
        if whole.levels.is_empty() {
            continue;
        }
        compared += whole.levels.len();
        let mut packed = whole.clone();
        packed.levels.pack();
        let text = serde_json::to_string(&whole).unwrap();
        assert_eq!(serde_json::to_string(&packed).unwrap(), text);
        assert_eq!(packed, whole);
        let read: ResultDoc = serde_json::from_str(&text).unwrap();
        assert!(!read.levels.is_packed());
        assert_eq!(serde_json::to_string(&read).unwrap(), text);
    }
    assert!(compared > 300, "only {compared} levels a file can hold");
}

#[test]
fn a_packed_level_changed_is_unpacked_first() {
    let mut levels = Levels::from(vec![Level {
        concurrency: Some(4),
        ..Level::default()
    }]);
    levels.pack();
    levels.get_mut(0).unwrap().failed = Some(1);
    assert!(!levels.is_packed());
    assert_eq!(levels.first().unwrap().concurrency, Some(4));
    assert_eq!(levels.first().unwrap().failed, Some(1));
}
