//! What the file's cap needs of a finding that can never be shown: whether it repeats one
//! before it, and how it is counted. A document of twenty thousand results makes every
//! finding of every result before the file's cap applies; past the cap's worth of distinct
//! ones, each is kept as a key of a few bytes instead of a finding of a few hundred.

use std::collections::HashMap;
use std::hash::{BuildHasher, Hash, Hasher};

use crate::config::Selection;
use crate::diagnostic::{Finding, Location, Omitted, Severity};
use crate::text::PathText;

/// A finding past the file's cap for good, reduced to what the cap does with it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Ghost {
    /// What [`crate::diagnostic::dedup_in_order`] sorts findings by (places, rule, message),
    /// hashed to 128 bits: two findings that differ share a hash with a chance of about one in
    /// 10^38.
    place: [u64; 2],
    /// That and the rest of what makes a finding an exact repeat (related places, severity).
    key: [u64; 2],
    /// Its severity once the selection is applied, as the cap counts it.
    severity: Severity,
    /// Whether it predates its rule (counted apart).
    pre_rule: bool,
    /// Whether the cap counts it at all (its rule runs on its file): one it does not count
    /// still hides a later repeat of it.
    counted: bool,
}

impl Ghost {
    /// The ghost of `finding`, with the selection applied (`None` when the selection drops
    /// it, as [`Selection::apply`] would), its places in the file `path` moved by `base` as
    /// [`super::shift::Before::move_since`] moves those of the findings kept.
    pub(super) fn of(
        mut finding: Finding,
        selection: &Selection,
        (path, base): (&PathText, usize),
    ) -> Option<Ghost> {
        if !selection.keeps(&mut finding) {
            return None;
        }
        super::shift::move_findings(std::slice::from_mut(&mut finding), path, base);
        let (place, key) = keys_of(&finding);
        Some(Ghost {
            place,
            key,
            severity: finding.severity,
            pre_rule: finding.pre_rule,
            counted: selection.runs_on(finding.primary.path.raw(), finding.rule.code),
        })
    }

    /// Counts this ghost as [`super::keep_within`] counts a finding past the cap.
    pub(super) fn count(self, omitted: &mut Omitted) {
        if self.counted {
            omitted.count(self.severity, self.pre_rule);
        }
    }

    /// What [`crate::diagnostic::dedup_in_order`] leaves of `ghosts` after `kept` (the findings
    /// before them, the selection applied and their repeats dropped). It drops a finding that
    /// repeats exactly the last finding kept before it among those sorted equal to it (same
    /// places, rule and message): so does this, remembering that last finding's key for each.
    ///
    /// The ghosts left come in the order of their places: only their count is read. They are
    /// sorted where they lie (stably, so that each place's keep their order) rather than each
    /// place's last key held in a map: a document of twenty thousand rows leaves hundreds of
    /// thousands of ghosts, whose map was twice their own size at the file's end.
    pub(super) fn not_repeating(mut ghosts: Vec<Ghost>, kept: &[Finding]) -> Vec<Ghost> {
        // The findings kept are within the file's cap: few.
        let kept: HashMap<[u64; 2], [u64; 2], foldhash::fast::RandomState> =
            kept.iter().map(keys_of).collect();
        ghosts.sort_by_key(|g| g.place);
        let mut last: Option<([u64; 2], [u64; 2])> = None;
        ghosts.retain(|g| {
            let before = match last {
                Some((place, key)) if place == g.place => Some(key),
                _ => kept.get(&g.place).copied(),
            };
            last = Some((g.place, g.key));
            before != Some(g.key)
        });
        ghosts
    }
}

/// A finding's place hash and key ([`Ghost`]), each two independent 64-bit hashes.
fn keys_of(f: &Finding) -> ([u64; 2], [u64; 2]) {
    let place = SEEDS.map(|seed| {
        let mut h = hasher(seed);
        hash_location(&f.primary, &mut h);
        f.rule.code.hash(&mut h);
        f.message.hash_raw(&mut h);
        h.finish()
    });
    let key = SEEDS.map(|seed| {
        let mut h = hasher(seed);
        place.hash(&mut h);
        f.severity.hash(&mut h);
        f.related.len().hash(&mut h);
        for r in &f.related {
            hash_location(r, &mut h);
        }
        h.finish()
    });
    (place, key)
}

const SEEDS: [u64; 2] = [0x6265_6e63_686c_696e, 0x9e37_79b9_7f4a_7c15];

fn hasher(seed: u64) -> impl Hasher {
    foldhash::quality::FixedState::with_seed(seed).build_hasher()
}

fn hash_location(loc: &Location, h: &mut impl Hasher) {
    loc.path.raw().hash(h);
    loc.doc_start.hash(h);
    loc.pointer.raw().hash(h);
    loc.offset.hash(h);
}

#[cfg(test)]
#[path = "ghost_tests.rs"]
mod tests;
