//! The two sides being checked for a matched basis, the machinery every check shares (one
//! setting compared across the sides, a finding pushed with its places), and the checks at the
//! level each side is taken at (C005, C012).

use super::{CompareOptions, Mismatch, Runs};
use crate::claims::side::{ResolvedSide, num, pct_abs, streams};
use crate::model::ResultDoc;
use crate::rules::{RuleMeta, c005_constant_total_concurrency, c012_mismatched_service_level};
use crate::thresholds::Thresholds;

/// The two sides being checked for a matched basis.
pub(super) struct Pair<'p, 'a> {
    pub(super) runs: &'p Runs<'a>,
    pub(super) a: &'p ResolvedSide,
    pub(super) b: &'p ResolvedSide,
    pub(super) da: &'p ResultDoc,
    pub(super) db: &'p ResultDoc,
    pub(super) options: &'p CompareOptions,
    pub(super) thresholds: &'p Thresholds,
}

/// How a setting compares across the sides.
pub(super) enum Diff {
    Differ(String),
    Unknown(String),
}

impl Pair<'_, '_> {
    pub(super) fn related(&self, pointer: &str) -> Vec<(usize, String)> {
        let mut out = Vec::new();
        if let Some(&i) = self.a.results.first() {
            out.push((i, pointer.to_string()));
        }
        if let Some(&i) = self.b.results.first() {
            out.push((i, pointer.to_string()));
        }
        out
    }

    pub(super) fn names(&self) -> (&str, &str) {
        (&self.options.name_a, &self.options.name_b)
    }

    /// One setting: equal, different, or not recorded (see the module documentation).
    pub(super) fn setting<T: PartialEq>(
        &self,
        what: &str,
        a: Option<T>,
        b: Option<T>,
        cancels: bool,
        show: impl Fn(&T) -> String,
    ) -> Option<Diff> {
        let (na, nb) = self.names();
        match (a, b) {
            (Some(x), Some(y)) if x == y => None,
            (Some(x), Some(y)) => Some(Diff::Differ(format!(
                "{what} {} on {nb} against {} on {na}",
                show(&y),
                show(&x)
            ))),
            (None, None) if cancels => None,
            (None, None) => Some(Diff::Unknown(format!("{what} is recorded on neither side"))),
            (Some(x), None) => Some(Diff::Unknown(format!(
                "{what} is {} on {na} and not recorded on {nb}",
                show(&x)
            ))),
            (None, Some(y)) => Some(Diff::Unknown(format!(
                "{what} is {} on {nb} and not recorded on {na}",
                show(&y)
            ))),
        }
    }

    pub(super) fn push(
        &self,
        out: &mut Vec<Mismatch>,
        rule: &'static RuleMeta,
        diffs: Vec<Diff>,
        pointer: &str,
        why_differ: &str,
        why_unknown: &str,
    ) {
        if diffs.is_empty() {
            return;
        }
        let unknown = diffs.iter().all(|d| matches!(d, Diff::Unknown(_)));
        let parts: Vec<String> = diffs
            .into_iter()
            .map(|d| match d {
                Diff::Differ(s) | Diff::Unknown(s) => s,
            })
            .collect();
        let why = if unknown { why_unknown } else { why_differ };
        out.push(Mismatch {
            rule,
            message: format!("{}: {why}", parts.join("; ")),
            unknown,
            related: self.related(pointer),
        });
    }

    pub(super) fn levels(&self, out: &mut Vec<Mismatch>) {
        if self.options.service_level_matched {
            return;
        }
        let metric = self.options.metric;
        let (na, nb) = self.names();
        // C005: the same total streams over different device counts.
        if metric.is_engine_speed()
            && let (Some(sa), Some(sb)) = (self.a.total_streams(), self.b.total_streams())
            && let (Some(da), Some(db)) = (
                self.a.devices(self.runs.results),
                self.b.devices(self.runs.results),
            )
            && sa == sb
            && da != db
            && da > 0
            && db > 0
        {
            #[expect(
                clippy::cast_precision_loss,
                reason = "stream and device counts are small"
            )]
            let per = |s: u64, d: u64| num(s as f64 / d as f64);
            out.push(Mismatch {
                rule: &c005_constant_total_concurrency::RULE,
                message: format!(
                    "the same {} in total over {db} devices on {nb} and {da} on {na}: {} streams per device against {}, \
                     so the sides sit at different depths of the batching curve and a per-device figure divided from \
                     them manufactures a decline (seed 004: 150 → 107 → 67 tok/s per unit)",
                    streams(sa),
                    per(sb, db),
                    per(sa, da)
                ),
                unknown: false,
                related: self.level_related("/platform"),
            });
        }
        // C012: different per-user rates (service levels).
        if metric.is_engine_speed()
            && let (Some(ua), Some(ub)) = (self.a.per_user(), self.b.per_user())
            && ua > 0.0
            && ub > 0.0
        {
            let rel = ua.max(ub) / ua.min(ub) - 1.0;
            if rel > self.thresholds.service_level_tolerance {
                out.push(Mismatch {
                    rule: &c012_mismatched_service_level::RULE,
                    message: format!(
                        "the sides are compared at different per-user rates: {} tok/s per user on {nb} {} against {} on \
                         {na} {} ({} apart): users at {} tok/s are not served the same product as users at {}",
                        num(ub),
                        self.b.where_phrase(),
                        num(ua),
                        self.a.where_phrase(),
                        pct_abs(rel),
                        num(ua.min(ub)),
                        num(ua.max(ub)),
                    ),
                    unknown: false,
                    related: self.level_related("per_user_tok_s"),
                });
            }
        }
    }

    /// Related places at each side's level (`tail` under `/levels/N/`), or at `tail` itself when
    /// it is an absolute pointer.
    fn level_related(&self, tail: &str) -> Vec<(usize, String)> {
        let mut out = Vec::new();
        for side in [self.a, self.b] {
            if let Some(p) = side.first_point() {
                let pointer = if tail.starts_with('/') {
                    tail.to_string()
                } else {
                    format!("/levels/{}/{tail}", p.level)
                };
                out.push((p.result, pointer));
            } else if let Some(&i) = side.results.first() {
                out.push((
                    i,
                    if tail.starts_with('/') {
                        tail.to_string()
                    } else {
                        "/levels".into()
                    },
                ));
            }
        }
        out
    }
}
