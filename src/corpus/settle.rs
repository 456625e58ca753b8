//! The files whose fate is known only once every file is read: a sidecar or a harness's
//! companion is named as its result's when that result was read, else read again alone as what
//! its content is.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use crate::diagnostic::Finding;

use super::{Corpus, Entry, FileRead, Hand, Options, beside, check_chunk};

/// A file whose fate waits for the rest of the run.
pub(super) enum Pending {
    /// A sidecar, and the result file it attaches to.
    Sidecar(PathBuf, Vec<Finding>),
    /// A companion of the named harness's results.
    Companion(&'static str, Vec<Finding>),
}

/// Settles the files whose fate depends on the others: a sidecar whose result was read, or a
/// companion with a result beside it, is named as theirs; the others are read again, alone
/// ([`Entry::alone`]), as what their content is (a sweep's warm-up or a summary copied without
/// its stages is then the result it describes), and what is still a companion of nothing
/// gets a finding.
pub(super) fn settle_pending(
    entries: &[Entry],
    pending: Vec<(usize, Pending)>,
    options: &Options,
    (run, hood, left_out): (&[&Path], &beside::Neighbourhood<'_>, &BTreeSet<String>),
    (corpus, hand): (&mut Corpus, Hand<'_>),
) {
    if pending.is_empty() {
        return;
    }
    // The lines of the paths that could not be walked come first, then one a file.
    let offset = corpus.read.len() - entries.len();
    let owners = super::fates::Owners::of(&corpus.read);
    let mut again: Vec<(usize, Entry, Vec<Finding>, Option<&'static str>)> = Vec::new();
    let mut named: Vec<(usize, String)> = Vec::new();
    for (i, p) in pending {
        let read_at = offset + i;
        let (owner, first, harness) = match p {
            Pending::Sidecar(owner, first) => {
                let shown = super::fates::shown(&owner);
                (
                    owners.has_results(&shown).then(|| format!("`{shown}`")),
                    first,
                    None,
                )
            }
            Pending::Companion(harness, first) => {
                let config = entries[i].path().extension().is_some_and(|e| {
                    e.eq_ignore_ascii_case("yaml") || e.eq_ignore_ascii_case("yml")
                });
                (
                    owners.beside(entries[i].display.raw(), harness, config),
                    first,
                    Some(harness),
                )
            }
        };
        if let Some(owner) = owner {
            let fate = if left_out.contains(entries[i].display.raw()) {
                // Its level is not in the result: the file's E003 says why.
                format!(
                    "none ({} {}: its level is left out of {owner})",
                    crate::rules::e003_schema_violation::RULE.code,
                    crate::rules::e003_schema_violation::RULE.name
                )
            } else if harness.is_some() {
                format!("companion of {owner}")
            } else {
                format!("sidecar of {owner}")
            };
            named.push((read_at, fate));
            continue;
        }
        let mut entry = entries[i].clone();
        entry.alone = true;
        again.push((read_at, entry, first, harness));
    }
    drop(owners);
    for (read_at, fate) in named {
        corpus.read[read_at].read_as = fate.into();
    }
    let alone: Vec<Entry> = again.iter().map(|a| a.1.clone()).collect();
    let outcomes = check_chunk(&alone, options, (run, hood), hand);
    let mut added = false;
    for ((read_at, entry, first, harness), mut o) in again.into_iter().zip(outcomes) {
        // What the first pass said of the file was handed over already.
        o.findings
            .retain(|f| !first.iter().any(|g| super::fates::same_finding(f, g)));
        let said = o
            .findings
            .iter()
            .chain(&o.unknown)
            .any(|f| f.rule.code.starts_with('E'));
        // Held with the corpus's results, as every result of a file read again is.
        o.unpark(entry.display.raw());
        if o.results.is_empty() && o.claims.is_empty() {
            if let (Some(harness), false) = (harness.or(o.companion), said) {
                o.unknown.push(super::fates::companion_of_nothing(
                    entry.display.raw(),
                    harness,
                ));
            }
        } else {
            added = true;
        }
        corpus.read[read_at] = FileRead::of(&entry.display, entry.seen, &o);
        corpus.results.extend(o.results);
        corpus.claims.extend(o.claims);
        corpus.findings.extend(o.findings);
        corpus.findings.extend(o.unknown);
        corpus.internal_errors.extend(o.internal);
    }
    if added {
        // Results stay in path order, whichever pass read them.
        corpus.results.sort_by(|a, b| {
            (a.origin.path.raw(), a.origin.doc_start)
                .cmp(&(b.origin.path.raw(), b.origin.doc_start))
        });
    }
}
