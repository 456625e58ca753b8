//! The metrics regression mode compares (DESIGN.md "Regression mode"): aggregate and decode
//! throughput and the per-user rate, where higher is better; TTFT p50 and p95, TPOT p50 and
//! e2e p50, where lower is better. Each is read from a level only where it is recorded, and a
//! cell exists only where both sides record it.

use crate::model::Level;
use crate::stats::{Direction, STATIC_NOISE_FLOOR_TAIL_LATENCY, STATIC_NOISE_FLOOR_THROUGHPUT};

/// One metric of a cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum RegressMetric {
    /// Output tokens per second of the whole engine over the measured window.
    AggregateTokS,
    /// Generation throughput of the whole engine.
    DecodeTokS,
    /// One request's own decode rate (median, else mean).
    PerUserTokS,
    /// Median time to first token, seconds.
    TtftP50S,
    /// 95th percentile time to first token, seconds.
    TtftP95S,
    /// Median time per output token, milliseconds.
    TpotP50Ms,
    /// Median end-to-end request latency, seconds.
    E2eP50S,
}

impl RegressMetric {
    /// Every metric, in the order rows are shown.
    pub const ALL: [RegressMetric; 7] = [
        RegressMetric::AggregateTokS,
        RegressMetric::DecodeTokS,
        RegressMetric::PerUserTokS,
        RegressMetric::TtftP50S,
        RegressMetric::TtftP95S,
        RegressMetric::TpotP50Ms,
        RegressMetric::E2eP50S,
    ];

    /// The name on the command line and in JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            RegressMetric::AggregateTokS => "aggregate_tok_s",
            RegressMetric::DecodeTokS => "decode_tok_s",
            RegressMetric::PerUserTokS => "per_user_tok_s",
            RegressMetric::TtftP50S => "ttft_p50_s",
            RegressMetric::TtftP95S => "ttft_p95_s",
            RegressMetric::TpotP50Ms => "tpot_p50_ms",
            RegressMetric::E2eP50S => "e2e_p50_s",
        }
    }

    /// The metric named `name`.
    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|m| m.as_str() == name)
    }

    /// Which way it improves.
    pub fn direction(self) -> Direction {
        match self {
            RegressMetric::AggregateTokS
            | RegressMetric::DecodeTokS
            | RegressMetric::PerUserTokS => Direction::HigherIsBetter,
            _ => Direction::LowerIsBetter,
        }
    }

    /// `higher` or `lower`: which is better, as JSON writes it.
    pub fn better(self) -> &'static str {
        match self.direction() {
            Direction::HigherIsBetter => "higher",
            Direction::LowerIsBetter => "lower",
        }
    }

    /// An arrow for tables: ↑ higher is better, ↓ lower is better.
    pub fn arrow(self) -> &'static str {
        match self.direction() {
            Direction::HigherIsBetter => "↑",
            Direction::LowerIsBetter => "↓",
        }
    }

    /// The static noise floor (DESIGN.md "Statistics": 2% throughput, 5% tail latency); a
    /// median latency moves like a throughput between launches.
    pub fn static_floor(self) -> f64 {
        match self {
            RegressMetric::TtftP95S => STATIC_NOISE_FLOOR_TAIL_LATENCY,
            _ => STATIC_NOISE_FLOOR_THROUGHPUT,
        }
    }

    /// The value at `level`, when recorded, finite and positive (a ratio needs a logarithm;
    /// a zero level is rejected before it gets here).
    pub fn read(self, level: &Level) -> Option<f64> {
        let v = match self {
            RegressMetric::AggregateTokS => level.throughput_tok_s.as_ref()?.aggregate,
            RegressMetric::DecodeTokS => level.throughput_tok_s.as_ref()?.decode,
            RegressMetric::PerUserTokS => level.per_user_tok_s.as_ref()?.central(),
            RegressMetric::TtftP50S => level.ttft_s.as_ref()?.p50,
            RegressMetric::TtftP95S => level.ttft_s.as_ref()?.p95,
            RegressMetric::TpotP50Ms => level.tpot_ms.as_ref()?.p50,
            RegressMetric::E2eP50S => level.e2e_s.as_ref()?.p50,
        }?;
        (v.is_finite() && v > 0.0).then_some(v)
    }
}
