//! The order findings are sorted and shown in, and the exact duplicates dropped: each
//! finding moved once along a permutation of indices, never copied through a merge sort.

use std::cmp::Ordering;

use super::{Finding, one_path};

/// Sorts findings into their output order and drops exact duplicates. Their indices are
/// sorted (stably, as the findings themselves would be) and each finding then moved once:
/// a run's corpus-wide findings are a quarter of a million at 100,000 files, and a merge sort of
/// the findings would copy each of them many times over, through a buffer half their size.
pub fn sort_findings(findings: &mut Vec<Finding>) {
    sort_keeping_repeats(findings);
    let cmp = key_order(findings);
    findings.dedup_by(|a, b| same(cmp, a, b));
}

/// [`sort_findings`] without dropping the duplicates: the order is stable, so of two equal
/// findings the one made first comes first. The runs a run's held findings are written to disk
/// in are sorted so, and their duplicates dropped as they are merged ([`repeats`]).
pub fn sort_keeping_repeats(findings: &mut [Finding]) {
    let cmp = key_order(findings);
    let mut order: Vec<usize> = (0..findings.len()).collect();
    order.sort_by(|&a, &b| cmp(&findings[a], &findings[b]));
    permute(findings, &order);
}

/// Whether `b`, coming right after `a` in sorted order, repeats it exactly: [`sort_findings`]
/// keeps `a` only.
pub fn repeats(a: &Finding, b: &Finding) -> bool {
    same(Finding::sort_key_cmp, a, b)
}

/// Reorders `items` in place so that the `k`-th is the one that was at `order[k]` (`order` a
/// permutation), each moved once along the cycles of the permutation.
pub(crate) fn permute<T>(items: &mut [T], order: &[usize]) {
    debug_assert_eq!(items.len(), order.len());
    let mut done = vec![false; order.len()];
    for start in 0..order.len() {
        if done[start] {
            continue;
        }
        // Along the cycle, slot `k` takes the item at `order[k]`; the item first at `start`
        // travels ahead to the slot that wants it, where the cycle closes.
        let mut k = start;
        loop {
            done[k] = true;
            let from = order[k];
            if from == start {
                break;
            }
            items.swap(k, from);
            k = from;
        }
    }
}

/// [`Finding::sort_key_cmp`], or the same order without the path when all share one.
fn key_order(findings: &[Finding]) -> fn(&Finding, &Finding) -> Ordering {
    if one_path(findings) {
        Finding::cmp_in_file
    } else {
        Finding::sort_key_cmp
    }
}

/// Whether `b` repeats `a` exactly (under `cmp`, [`key_order`]): [`sort_findings`] keeps one
/// of them.
fn same(cmp: fn(&Finding, &Finding) -> Ordering, a: &Finding, b: &Finding) -> bool {
    cmp(a, b) == Ordering::Equal && a.related == b.related && a.severity == b.severity
}

/// Drops the exact duplicates [`sort_findings`] would drop, keeping the order the findings were
/// made in (which the per-file cap keeps the first of).
pub fn dedup_in_order(findings: &mut Vec<Finding>) {
    if findings.len() < 2 {
        return;
    }
    let repeat = repeats_in_order(findings);
    let mut i = 0;
    findings.retain(|_| {
        i += 1;
        !repeat[i - 1]
    });
}

/// Which of `findings` repeat one made before them: what [`dedup_in_order`] drops.
fn repeats_in_order(findings: &[Finding]) -> Vec<bool> {
    let mut repeat = vec![false; findings.len()];
    if findings.len() < 2 {
        return repeat;
    }
    let cmp = key_order(findings);
    let mut order: Vec<usize> = (0..findings.len()).collect();
    order.sort_by(|&a, &b| cmp(&findings[a], &findings[b]).then(a.cmp(&b)));
    let mut kept = order[0];
    for &i in &order[1..] {
        if same(cmp, &findings[kept], &findings[i]) {
            repeat[i] = true;
        } else {
            kept = i;
        }
    }
    repeat
}

/// One past where the `n`-th of `findings` that repeats none before it lies: no finding from
/// there on is among the first `n` that [`dedup_in_order`] keeps, in this list or in any list
/// that puts findings before these and cuts its end (the per-file cap). `None` when fewer than
/// `n` findings repeat none before them.
pub fn past_first_distinct(findings: &[Finding], n: usize) -> Option<usize> {
    if n == 0 {
        return Some(0);
    }
    repeats_in_order(findings)
        .iter()
        .enumerate()
        .filter(|(_, repeat)| !**repeat)
        .nth(n - 1)
        .map(|(i, _)| i + 1)
}

/// The order findings are shown in: by file, then top to bottom (where placed), then
/// [`Finding::sort_key_cmp`].
pub fn output_order(a: &Finding, b: &Finding) -> Ordering {
    let start = |f: &Finding| f.placed.as_ref().and_then(|p| p.primary).map(|p| p.start);
    a.primary
        .path
        .cmp(&b.primary.path)
        .then_with(|| start(a).cmp(&start(b)))
        .then_with(|| a.cmp_in_file(b))
}
