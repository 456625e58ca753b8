//! The run's cap over two ordered streams of findings: the files' own (already bounded by the
//! cap, in memory) and those known only once every file is read ([`super::Last`], held on disk
//! past a budget). Merged as one stable sort and deduplication of the two would order them, the
//! first `cap` listed and the rest counted as they pass, so that a run whose corpus-wide rules
//! make millions of findings holds no more of them than the cap lists.

use crate::diagnostic::{Finding, Omitted, permute, repeats, sort_findings};

/// Findings of `last` listed, held a block at a time.
const BLOCK: usize = if cfg!(test) { 4 } else { 1024 };

/// The finding the next one is compared with for an exact repeat: the last one kept.
enum Before {
    Nothing,
    /// One of `files`.
    File(usize),
    /// The last of `last`'s findings listed (the last of the last block).
    Listed,
    /// One of `last`'s findings past the cap, the one held in `counted`.
    Counted,
}

/// `files` and `last` as [`sort_findings`] of the two one after the other, then
/// [`crate::corpus::keep_within`] at `cap` with every rule counted, would give them: the first
/// `cap` returned, the rest counted into `omitted`. `last` must come in sorted order without
/// repeats ([`super::Last`] does); `files` is sorted here. Of two equal findings, the one of
/// `files` comes first, as it did in the list made whole.
///
/// The list returned is `files`' own, grown once to its length and its findings moved within
/// it: a second list of them, made while the first is still held, would hold them twice.
pub fn merge_within(
    mut files: Vec<Finding>,
    last: impl Iterator<Item = Finding>,
    cap: usize,
    omitted: &mut Omitted,
) -> Vec<Finding> {
    sort_findings(&mut files);
    // Which of `files` are listed, the findings of `last` listed (in blocks, so that none is
    // held twice while a list of them grows), and for each place of the list whether `last`
    // fills it.
    let mut keep = vec![false; files.len()];
    let mut tail: Vec<Vec<Finding>> = Vec::new();
    let mut from_last: Vec<bool> = Vec::with_capacity(files.len().min(cap));
    let mut before = Before::Nothing;
    // The last of `last`'s findings counted, in one box filled again for each.
    let mut counted: Option<Box<Finding>> = None;
    let mut next_file = 0;
    let mut last = last.peekable();
    loop {
        let take_last = match (files.get(next_file), last.peek()) {
            (None, None) => break,
            (Some(_), None) => false,
            (None, Some(_)) => true,
            // Ties go to `files`: a stable sort keeps the order of the list made whole.
            (Some(f), Some(l)) => l.sort_key_cmp(f).is_lt(),
        };
        let candidate = if take_last {
            last.peek()
        } else {
            files.get(next_file)
        };
        let Some(candidate) = candidate else { break };
        let repeat = match &before {
            Before::Nothing => false,
            Before::File(i) => repeats(&files[*i], candidate),
            Before::Listed => tail
                .last()
                .and_then(|b| b.last())
                .is_some_and(|f| repeats(f, candidate)),
            Before::Counted => counted.as_ref().is_some_and(|f| repeats(f, candidate)),
        };
        let listed = from_last.len() < cap;
        if !repeat && !listed {
            omitted.count(candidate.severity, candidate.pre_rule);
        }
        if take_last {
            let Some(f) = last.next() else { break };
            if repeat {
                continue;
            }
            if listed {
                match tail.last_mut() {
                    Some(block) if block.len() < BLOCK => block.push(f),
                    _ => {
                        let mut block = Vec::with_capacity(BLOCK);
                        block.push(f);
                        tail.push(block);
                    }
                }
                from_last.push(true);
                before = Before::Listed;
            } else {
                match counted.as_mut() {
                    Some(slot) => **slot = f,
                    None => counted = Some(Box::new(f)),
                }
                before = Before::Counted;
            }
        } else {
            let i = next_file;
            next_file += 1;
            if repeat {
                continue;
            }
            if listed {
                keep[i] = true;
                from_last.push(false);
            }
            before = Before::File(i);
        }
    }
    let mut kept = keep.iter();
    files.retain(|_| kept.next().copied().unwrap_or(false));
    let own = files.len();
    files.reserve_exact(from_last.len() - own);
    for block in tail {
        files.extend(block);
    }
    // The `k`-th place takes the next of the files' own, or the next of `last`'s after them.
    let (mut own_at, mut last_at) = (0, own);
    let order: Vec<usize> = from_last
        .iter()
        .map(|&l| {
            let at = if l { &mut last_at } else { &mut own_at };
            *at += 1;
            *at - 1
        })
        .collect();
    permute(&mut files, &order);
    files
}

#[cfg(test)]
#[path = "within_tests.rs"]
mod tests;
