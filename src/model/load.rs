//! The load a level was measured under: streams kept in flight (closed loop) or requests sent
//! per second (open loop). A level is keyed by one or the other, never by a request count, and
//! everything that lines levels up (replicates, ladders, comparisons, charts) uses this key and
//! labels its axis by it.

use std::cmp::Ordering;
use std::fmt;

use serde::de::{self, Deserializer, Visitor};
use serde::{Deserialize, Serialize, Serializer};

use super::Level;

/// Requests sent per second: a finite rate, or `"inf"` (every request at once).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum RequestRate {
    /// A finite rate, requests per second.
    PerSecond(f64),
    /// All requests at once; only a concurrency cap bounds what is in flight.
    Unbounded,
}

impl RequestRate {
    /// The rate as a number, `None` for an unbounded rate.
    pub fn per_second(self) -> Option<f64> {
        match self {
            RequestRate::PerSecond(r) => Some(r),
            RequestRate::Unbounded => None,
        }
    }

    fn order(self, other: Self) -> Ordering {
        match (self, other) {
            (RequestRate::PerSecond(a), RequestRate::PerSecond(b)) => a.total_cmp(&b),
            (RequestRate::PerSecond(_), RequestRate::Unbounded) => Ordering::Less,
            (RequestRate::Unbounded, RequestRate::PerSecond(_)) => Ordering::Greater,
            (RequestRate::Unbounded, RequestRate::Unbounded) => Ordering::Equal,
        }
    }
}

impl fmt::Display for RequestRate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RequestRate::PerSecond(r) => write!(f, "{r}"),
            RequestRate::Unbounded => f.write_str("inf"),
        }
    }
}

impl Serialize for RequestRate {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            RequestRate::PerSecond(r) => s.serialize_f64(*r),
            RequestRate::Unbounded => s.serialize_str("inf"),
        }
    }
}

impl<'de> Deserialize<'de> for RequestRate {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct RateVisitor;
        impl Visitor<'_> for RateVisitor {
            type Value = RequestRate;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a positive number of requests per second, or \"inf\"")
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<RequestRate, E> {
                if v.is_finite() && v > 0.0 {
                    Ok(RequestRate::PerSecond(v))
                } else {
                    Err(E::custom(
                        "a request rate is a positive finite number or \"inf\"",
                    ))
                }
            }
            #[allow(clippy::cast_precision_loss)]
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<RequestRate, E> {
                self.visit_f64(v as f64)
            }
            #[allow(clippy::cast_precision_loss)]
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<RequestRate, E> {
                self.visit_f64(v as f64)
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<RequestRate, E> {
                if v == "inf" {
                    Ok(RequestRate::Unbounded)
                } else {
                    Err(E::custom("the only word a request rate takes is \"inf\""))
                }
            }
        }
        d.deserialize_any(RateVisitor)
    }
}

/// What a level is keyed by. Levels of replicates line up by equal keys; a ladder is ordered
/// by them (streams first, then rates, an unbounded rate last).
#[derive(Debug, Clone, Copy)]
pub enum LevelKey {
    /// Streams kept in flight.
    Streams(u64),
    /// Requests sent per second.
    Rate(RequestRate),
    /// Neither was recorded (the schema refuses such a level; kept so nothing panics).
    Unstated,
}

/// The axis a ladder's levels lie on, for labels.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum LoadAxis {
    /// Concurrency, in streams.
    Streams,
    /// Request rate, in requests per second.
    RequestRate,
    /// No load recorded.
    Unstated,
}

impl LoadAxis {
    /// The unit written after a value on this axis (`streams`, `req/s`).
    pub fn unit(self) -> &'static str {
        match self {
            LoadAxis::Streams => "streams",
            LoadAxis::RequestRate => "req/s",
            LoadAxis::Unstated => "(load not recorded)",
        }
    }

    /// A column or axis title (`concurrency`, `request rate (req/s)`).
    pub fn title(self) -> &'static str {
        match self {
            LoadAxis::Streams => "concurrency",
            LoadAxis::RequestRate => "request rate (req/s)",
            LoadAxis::Unstated => "load",
        }
    }
}

impl LevelKey {
    /// The axis this key lies on.
    pub fn axis(self) -> LoadAxis {
        match self {
            LevelKey::Streams(_) => LoadAxis::Streams,
            LevelKey::Rate(_) => LoadAxis::RequestRate,
            LevelKey::Unstated => LoadAxis::Unstated,
        }
    }

    /// Streams in flight, for a closed-loop key.
    pub fn streams(self) -> Option<u64> {
        match self {
            LevelKey::Streams(n) => Some(n),
            _ => None,
        }
    }

    /// The value alone, as a table cell (`32`, `2.5`, `inf`, `?`).
    pub fn value_text(self) -> String {
        match self {
            LevelKey::Streams(n) => n.to_string(),
            LevelKey::Rate(r) => r.to_string(),
            LevelKey::Unstated => "?".to_string(),
        }
    }

    /// A plotting position: streams, or requests per second (an unbounded rate has none).
    #[allow(clippy::cast_precision_loss)]
    pub fn position(self) -> Option<f64> {
        match self {
            LevelKey::Streams(n) => Some(n as f64),
            LevelKey::Rate(r) => r.per_second(),
            LevelKey::Unstated => None,
        }
    }

    fn rank(self) -> u8 {
        match self {
            LevelKey::Streams(_) => 0,
            LevelKey::Rate(_) => 1,
            LevelKey::Unstated => 2,
        }
    }
}

impl fmt::Display for LevelKey {
    /// `1 stream`, `32 streams`, `2.5 req/s`, `an unbounded request rate`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LevelKey::Streams(1) => f.write_str("1 stream"),
            LevelKey::Streams(n) => write!(f, "{n} streams"),
            LevelKey::Rate(RequestRate::PerSecond(r)) => {
                write!(f, "{r} req/s")
            }
            LevelKey::Rate(RequestRate::Unbounded) => f.write_str("an unbounded request rate"),
            LevelKey::Unstated => f.write_str("an unstated load"),
        }
    }
}

impl Serialize for LevelKey {
    /// The bare value: streams as an integer, a rate as a number or `"inf"`, `null` when
    /// unstated. The axis is said by the field that holds it.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            LevelKey::Streams(n) => s.serialize_u64(*n),
            LevelKey::Rate(r) => r.serialize(s),
            LevelKey::Unstated => s.serialize_none(),
        }
    }
}

impl LevelKey {
    /// The rate of an open-loop key.
    pub fn rate(self) -> Option<RequestRate> {
        match self {
            LevelKey::Rate(r) => Some(r),
            _ => None,
        }
    }
}

impl Ord for LevelKey {
    fn cmp(&self, other: &Self) -> Ordering {
        match (self, other) {
            (LevelKey::Streams(a), LevelKey::Streams(b)) => a.cmp(b),
            (LevelKey::Rate(a), LevelKey::Rate(b)) => a.order(*b),
            _ => self.rank().cmp(&other.rank()),
        }
    }
}

impl PartialOrd for LevelKey {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for LevelKey {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}

impl Eq for LevelKey {}

impl Level {
    /// The level's load key: its concurrency when it has one (closed loop, or an unbounded
    /// rate capped at a concurrency, which keeps that many streams in flight), else its
    /// request rate.
    pub fn key(&self) -> LevelKey {
        match (self.concurrency, self.request_rate) {
            (Some(n), _) => LevelKey::Streams(n),
            (None, Some(r)) => LevelKey::Rate(r),
            (None, None) => LevelKey::Unstated,
        }
    }

    /// Streams in flight when the level was closed loop.
    pub fn streams(&self) -> Option<u64> {
        self.concurrency
    }

    /// Requests in flight on average: the concurrency of a closed-loop level, else the mean
    /// the harness measured.
    #[allow(clippy::cast_precision_loss)]
    pub fn in_flight(&self) -> Option<f64> {
        self.concurrency.map(|n| n as f64).or(self.mean_in_flight)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rate_reads_as_a_number_or_inf_and_nothing_else() {
        let r: RequestRate = serde_json::from_str("10").unwrap();
        assert_eq!(r, RequestRate::PerSecond(10.0));
        let r: RequestRate = serde_json::from_str("2.5").unwrap();
        assert_eq!(r, RequestRate::PerSecond(2.5));
        let r: RequestRate = serde_json::from_str("\"inf\"").unwrap();
        assert_eq!(r, RequestRate::Unbounded);
        assert!(serde_json::from_str::<RequestRate>("\"fast\"").is_err());
        assert!(serde_json::from_str::<RequestRate>("0").is_err());
        assert_eq!(
            serde_json::to_string(&RequestRate::Unbounded).unwrap(),
            "\"inf\""
        );
    }

    #[test]
    fn keys_order_streams_then_rates_then_unbounded() {
        let mut keys = [
            LevelKey::Rate(RequestRate::Unbounded),
            LevelKey::Rate(RequestRate::PerSecond(10.0)),
            LevelKey::Streams(32),
            LevelKey::Rate(RequestRate::PerSecond(1.0)),
            LevelKey::Streams(4),
        ];
        keys.sort();
        let text: Vec<String> = keys.iter().map(ToString::to_string).collect();
        assert_eq!(
            text,
            [
                "4 streams",
                "32 streams",
                "1 req/s",
                "10 req/s",
                "an unbounded request rate"
            ]
        );
    }

    #[test]
    fn concurrency_takes_precedence_over_an_unbounded_rate() {
        let level = Level {
            concurrency: Some(32),
            request_rate: Some(RequestRate::Unbounded),
            ..Level::default()
        };
        assert_eq!(level.key(), LevelKey::Streams(32));
        let open = Level {
            request_rate: Some(RequestRate::PerSecond(10.0)),
            max_concurrency: Some(64),
            ..Level::default()
        };
        assert_eq!(open.key(), LevelKey::Rate(RequestRate::PerSecond(10.0)));
        assert_eq!(open.streams(), None);
    }
}
