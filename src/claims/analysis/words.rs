//! The analysis in words, shared by the C rules, `benchlint audit` and `benchlint compare`: the
//! matched basis, the arithmetic of a side, the basis of a claim.

use std::fmt::Write as _;

use crate::claims::side::{ResolvedSide, num};
use crate::claims::{Basis, Metric};

/// "each side at its highest concurrency clearing 20 tok/s per user: the subject at 8 streams ×
/// 4 replicas, the baseline at 32 streams".
pub fn matched_words(floor: f64, subject: &ResolvedSide, baseline: &ResolvedSide) -> String {
    format!(
        "each side at its highest concurrency clearing {} tok/s per user: the subject {}, the baseline {}",
        num(floor),
        subject.where_phrase(),
        baseline.where_phrase()
    )
}

/// The arithmetic of a comparison in words: "4 × 140.8 = 563.2 tok/s (20.1 tok/s per user)".
pub fn side_arithmetic(side: &ResolvedSide, metric: Metric) -> String {
    let Some(v) = side.value() else {
        return "no value".into();
    };
    #[expect(clippy::cast_precision_loss, reason = "replica counts are small")]
    let each = v / side.replicas as f64;
    let mut s = if side.replicas > 1 && metric.adds_over_replicas() {
        format!(
            "{} × {} = {} {}",
            side.replicas,
            num(each),
            num(v),
            metric.unit()
        )
    } else {
        format!("{} {}", num(v), metric.unit())
    };
    let each = if side.replicas > 1 { " each" } else { "" };
    if let (Some(c), Some(u)) = (side.level, side.per_user())
        && metric != Metric::PerUserTokS
    {
        let _ = write!(s, " at {c}{each} ({} tok/s per user)", num(u));
    } else if let Some(c) = side.level {
        let _ = write!(s, " at {c}{each}");
    }
    s
}

/// The basis of a claim in words.
pub fn basis_words(basis: Option<Basis>) -> Option<&'static str> {
    match basis? {
        Basis::Hardware => Some("hardware"),
        Basis::Deployment => Some("deployment"),
    }
}
