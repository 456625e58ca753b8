//! The nine metrics a claim may be about, how each is read from a level, which way it
//! improves, and whether it adds up across replicas.
//!
//! `tok_s_per_w` is the level's aggregate over its mean power (`power_w.mean`), and is only
//! read when the level says where that power was measured (`power_w.kind`): a per-watt figure
//! without its basis is not a measurement (L005), and a ratio of one across a wall and a device
//! side is retracted (C006, seed 004: "A wall number and a device number must never appear in
//! the same comparison").

use crate::cards;
use crate::model::{Level, ResultDoc};
use crate::stats::{Direction, STATIC_NOISE_FLOOR_TAIL_LATENCY, STATIC_NOISE_FLOOR_THROUGHPUT};

/// A claim's metric (`schemas/claims.schema.json`, `metric`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Metric {
    /// `decode_tok_s`: generation throughput of the whole engine, tokens per second.
    DecodeTokS,
    /// `aggregate_tok_s`: output tokens over the measured window, all requests together.
    AggregateTokS,
    /// `prefill_tok_s`: prompt processing throughput, tokens per second.
    PrefillTokS,
    /// `per_user_tok_s`: one request's own decode rate (the median, else the mean).
    PerUserTokS,
    /// `ttft_p50_s`: median time to first token, seconds.
    TtftP50S,
    /// `ttft_p95_s`: 95th percentile time to first token, seconds.
    TtftP95S,
    /// `tpot_p50_ms`: median time per output token, milliseconds.
    TpotP50Ms,
    /// `cost_per_million_usd`: hourly cost over the output tokens an hour at this level, US
    /// dollars per million output tokens.
    CostPerMillionUsd,
    /// `tok_s_per_w`: aggregate tokens per second over the level's mean power, watts.
    TokSPerW,
}

impl Metric {
    /// Every metric, in the schema's order.
    pub const ALL: [Metric; 9] = [
        Metric::DecodeTokS,
        Metric::AggregateTokS,
        Metric::PrefillTokS,
        Metric::PerUserTokS,
        Metric::TtftP50S,
        Metric::TtftP95S,
        Metric::TpotP50Ms,
        Metric::CostPerMillionUsd,
        Metric::TokSPerW,
    ];

    /// The metric named `name` as the claims file writes it; `None` for anything else.
    pub fn parse(name: &str) -> Option<Metric> {
        Metric::ALL.into_iter().find(|m| m.as_str() == name)
    }

    /// The name as the claims file writes it.
    pub fn as_str(self) -> &'static str {
        match self {
            Metric::DecodeTokS => "decode_tok_s",
            Metric::AggregateTokS => "aggregate_tok_s",
            Metric::PrefillTokS => "prefill_tok_s",
            Metric::PerUserTokS => "per_user_tok_s",
            Metric::TtftP50S => "ttft_p50_s",
            Metric::TtftP95S => "ttft_p95_s",
            Metric::TpotP50Ms => "tpot_p50_ms",
            Metric::CostPerMillionUsd => "cost_per_million_usd",
            Metric::TokSPerW => "tok_s_per_w",
        }
    }

    /// The unit, for messages.
    pub fn unit(self) -> &'static str {
        match self {
            Metric::DecodeTokS | Metric::AggregateTokS | Metric::PrefillTokS => "tok/s",
            Metric::PerUserTokS => "tok/s per user",
            Metric::TtftP50S | Metric::TtftP95S => "s",
            Metric::TpotP50Ms => "ms",
            Metric::CostPerMillionUsd => "USD per million output tokens",
            Metric::TokSPerW => "tok/s per W",
        }
    }

    /// Which way the metric improves.
    pub fn direction(self) -> Direction {
        match self {
            Metric::DecodeTokS
            | Metric::AggregateTokS
            | Metric::PrefillTokS
            | Metric::PerUserTokS
            | Metric::TokSPerW => Direction::HigherIsBetter,
            Metric::TtftP50S | Metric::TtftP95S | Metric::TpotP50Ms | Metric::CostPerMillionUsd => {
                Direction::LowerIsBetter
            }
        }
    }

    /// Whether independent replicas add the metric up (`replicas` multiplies it): the engine
    /// throughputs. Per-user rates, latencies, cost per token and tokens per watt are the same
    /// for every replica.
    pub fn adds_over_replicas(self) -> bool {
        matches!(
            self,
            Metric::DecodeTokS | Metric::AggregateTokS | Metric::PrefillTokS
        )
    }

    /// Whether the metric is a speed of the whole engine (throughput, or the cost and the
    /// efficiency derived from it): what C005, C012 and C014 are about.
    pub fn is_engine_speed(self) -> bool {
        self.adds_over_replicas() || matches!(self, Metric::CostPerMillionUsd | Metric::TokSPerW)
    }

    /// Whether the metric divides by power: a comparison of it across a wall and a device side
    /// has no basis (C006 retracts it).
    pub fn is_per_watt(self) -> bool {
        self == Metric::TokSPerW
    }

    /// Whether the metric is a speed at all (every `_tok_s` metric and the cost derived from
    /// throughput): a claim of one needs a paired quality gate (C014).
    pub fn is_speed(self) -> bool {
        self.is_engine_speed() || self == Metric::PerUserTokS
    }

    /// The static noise floor (DESIGN.md "Statistics"): 5% for the tail latency, 2% otherwise.
    pub fn static_noise_floor(self) -> f64 {
        if self == Metric::TtftP95S {
            STATIC_NOISE_FLOOR_TAIL_LATENCY
        } else {
            STATIC_NOISE_FLOOR_THROUGHPUT
        }
    }

    /// The canonical pointer of the metric in level `index` of a result.
    pub fn pointer(self, index: usize) -> String {
        let tail = match self {
            Metric::DecodeTokS => "throughput_tok_s/decode",
            Metric::AggregateTokS | Metric::CostPerMillionUsd => "throughput_tok_s/aggregate",
            Metric::PrefillTokS => "throughput_tok_s/prefill",
            Metric::PerUserTokS => "per_user_tok_s",
            Metric::TtftP50S => "ttft_s/p50",
            Metric::TtftP95S => "ttft_s/p95",
            Metric::TpotP50Ms => "tpot_ms/p50",
            Metric::TokSPerW => "power_w",
        };
        format!("/levels/{index}/{tail}")
    }

    /// The metric at `level` of `doc`, finite, when the level records it.
    ///
    /// The aggregate is the labelled one, else output tokens over the window ([`cards::aggregate`]).
    /// The cost is the hourly cost (`cost.hourly_usd`, else `platform.hourly_cost_usd`) over the
    /// output tokens an hour at this level's aggregate; without an hourly cost, the recorded
    /// `cost.per_million_output_usd` is used for the level it was computed at (the peak). Tokens
    /// per watt is the aggregate over `power_w.mean`, for a level whose power says its kind.
    pub fn read(self, doc: &ResultDoc, level: &Level) -> Option<f64> {
        let t = level.throughput_tok_s.as_ref();
        let value = match self {
            Metric::DecodeTokS => t.and_then(|t| t.decode),
            Metric::AggregateTokS => cards::aggregate(level),
            Metric::PrefillTokS => t.and_then(|t| t.prefill),
            Metric::PerUserTokS => level
                .per_user_tok_s
                .as_ref()
                .and_then(crate::model::PerUser::central),
            Metric::TtftP50S => level.ttft_s.as_ref().and_then(|x| x.p50),
            Metric::TtftP95S => level.ttft_s.as_ref().and_then(|x| x.p95),
            Metric::TpotP50Ms => level.tpot_ms.as_ref().and_then(|x| x.p50),
            Metric::CostPerMillionUsd => cost_per_million(doc, level),
            Metric::TokSPerW => per_watt(level),
        };
        value.filter(|v| v.is_finite())
    }
}

impl std::fmt::Display for Metric {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Aggregate tokens per second per watt at `level`: only with a positive mean power whose kind
/// is recorded (see [`Metric::read`]).
fn per_watt(level: &Level) -> Option<f64> {
    let power = level.power_w.as_ref()?;
    power.kind?;
    let watts = power.mean.filter(|w| w.is_finite() && *w > 0.0)?;
    Some(cards::aggregate(level)? / watts)
}

/// Cost per million output tokens at `level` (see [`Metric::read`]).
fn cost_per_million(doc: &ResultDoc, level: &Level) -> Option<f64> {
    let hourly = doc
        .cost
        .as_ref()
        .and_then(|c| c.hourly_usd)
        .or_else(|| doc.platform.as_ref().and_then(|p| p.hourly_cost_usd))
        .filter(|h| h.is_finite() && *h >= 0.0);
    let aggregate = cards::aggregate(level).filter(|a| *a > 0.0);
    if let (Some(h), Some(a)) = (hourly, aggregate) {
        return Some(h * 1e6 / (a * 3600.0));
    }
    let recorded = doc.cost.as_ref()?.per_million_output_usd?;
    let (peak, _) = cards::peak(doc)?;
    (peak.concurrency == level.concurrency).then_some(recorded)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Cost, LevelPower, PowerKind, Throughput};

    #[test]
    fn names_round_trip() {
        for m in Metric::ALL {
            assert_eq!(Metric::parse(m.as_str()), Some(m));
        }
        assert_eq!(Metric::parse("tok_s"), None);
    }

    #[test]
    fn tokens_per_watt_needs_the_power_kind() {
        let mut level = Level {
            concurrency: Some(32),
            throughput_tok_s: Some(Throughput {
                aggregate: Some(257.8),
                ..Throughput::default()
            }),
            power_w: Some(LevelPower {
                mean: Some(412.0),
                kind: None,
            }),
            ..Level::default()
        };
        let doc = ResultDoc::default();
        assert_eq!(Metric::TokSPerW.read(&doc, &level), None);
        level.power_w = Some(LevelPower {
            mean: Some(412.0),
            kind: Some(PowerKind::Wall),
        });
        let v = Metric::TokSPerW.read(&doc, &level).unwrap();
        assert!((v - 257.8 / 412.0).abs() < 1e-12, "{v}");
        level.power_w = Some(LevelPower {
            mean: Some(0.0),
            kind: Some(PowerKind::Device),
        });
        assert_eq!(Metric::TokSPerW.read(&doc, &level), None);
    }

    #[test]
    fn cost_is_recomputed_from_the_hourly_cost() {
        let level = Level {
            concurrency: Some(32),
            throughput_tok_s: Some(Throughput {
                aggregate: Some(257.8),
                ..Throughput::default()
            }),
            ..Level::default()
        };
        let doc = ResultDoc {
            cost: Some(Box::new(Cost {
                hourly_usd: Some(1.84),
                ..Cost::default()
            })),
            levels: vec![level.clone()].into(),
            ..ResultDoc::default()
        };
        // 1.84 USD / (257.8 tok/s × 3600 s) × 1e6 = 1.98256...
        let c = Metric::CostPerMillionUsd.read(&doc, &level).unwrap();
        assert!((c - 1.982_56).abs() < 1e-4, "{c}");
    }
}
