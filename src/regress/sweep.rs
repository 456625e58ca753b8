//! GuideLLM's `sweep` profile chooses its rates itself: a synchronous run, a throughput run,
//! then constant rates spaced between the two rates it just measured. Two sweeps of two builds
//! therefore run at two different sets of rates, and a rate level of one has no counterpart in
//! the other: such levels are NOT COMPARABLE level by level, and say so (fixed rates, a
//! `constant` profile with `--rate`, compare).
//!
//! The canonical model records the levels, not the profile, so a sweep is recognised from
//! what a report holds: one GuideLLM report (one file) with a synchronous level (one stream,
//! no rate), an unbounded-rate level and at least one finite rate. No other GuideLLM profile
//! puts all three into one report (`constant` has no throughput run, `throughput` no finite
//! rate).

use std::collections::{BTreeMap, BTreeSet};

use crate::model::RequestRate;
use crate::model::loaded::LoadedResult;

/// Indices of `results` whose finite-rate levels a GuideLLM sweep chose.
pub fn adaptive(results: &[LoadedResult]) -> BTreeSet<usize> {
    #[derive(Default)]
    struct Seen {
        synchronous: bool,
        unbounded: bool,
        finite: Vec<usize>,
    }
    let mut by_file: BTreeMap<&str, Seen> = BTreeMap::new();
    for (i, r) in results.iter().enumerate() {
        let guidellm = r
            .doc
            .harness
            .as_ref()
            .and_then(|h| h.name.as_deref())
            .is_some_and(|n| n.eq_ignore_ascii_case("guidellm"));
        if !guidellm {
            continue;
        }
        let seen = by_file.entry(r.origin.path.raw()).or_default();
        for level in r.doc.levels.as_slice().iter() {
            match level.request_rate {
                None if level.concurrency == Some(1) => seen.synchronous = true,
                Some(RequestRate::Unbounded) => seen.unbounded = true,
                Some(RequestRate::PerSecond(_)) => seen.finite.push(i),
                None => {}
            }
        }
    }
    by_file
        .into_values()
        .filter(|s| s.synchronous && s.unbounded)
        .flat_map(|s| s.finite)
        .collect()
}
