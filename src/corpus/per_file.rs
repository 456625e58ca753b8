//! The run over every file: files checked in parallel a chunk at a time, each file's findings
//! selected, capped, placed and handed over in path order while the next chunk is checked.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use super::keep_within;
use crate::diagnostic::{Finding, Location};
use crate::rules::{self};

use super::line_file;
use super::{
    Corpus, Entry, FileOutcome, FileRead, Hand, Handing, LoadedResult, Options, Pending, artifacts,
    beside, catch_panic, check_text, finding_at, internal_error, settle_pending,
};

/// Files processed in parallel between two merges: findings are merged in path order, so the
/// run's cap keeps the same findings whatever the threads do, and memory holds at most this
/// many files' findings beyond the cap.
const CHUNK: usize = 256;

/// Loads every file under `args`, its findings in [`Corpus::findings`].
pub fn load(args: &[PathBuf], options: &Options) -> Corpus {
    let mut findings = Vec::new();
    let mut corpus = load_each(args, options, &mut |_, mut f| findings.append(&mut f));
    findings.append(&mut corpus.findings);
    corpus.findings = findings;
    corpus
}

/// Loads every file under `args` for a command that reads the results, not the findings
/// (`summary`, `cards`, `capacity`, `compare`, `regress`): [`Corpus::findings`] keeps, in
/// [`load`]'s order, the first finding and those that say an input could not be read (E001 to
/// E004), the rest being no more than counted by the cap. Memory then holds the results'
/// summaries, not tens of findings a result.
pub fn load_results(args: &[PathBuf], options: &Options) -> Corpus {
    load_with(args, options, None, None)
}

/// [`load_results`], handing each result to `keep` instead of holding it in
/// [`Corpus::results`], which is left empty: results of the first pass in path order as their
/// files are merged, then those read once every file is (a run folder's companions, sidecars).
/// A command that puts its results away as they come ([`crate::model::loaded::spool`]) holds
/// none of them while the rest are read.
pub fn load_results_into(
    args: &[PathBuf],
    options: &Options,
    keep: &mut dyn FnMut(LoadedResult),
) -> Corpus {
    load_with(args, options, None, Some(keep))
}

/// Keeps, of a file's `findings`, what [`load_results`] keeps.
fn keep_inputs(kept: &mut Vec<Finding>, findings: Vec<Finding>) {
    for f in findings {
        if kept.is_empty() || super::says_unreadable(f.rule.code) {
            kept.push(f);
        }
    }
}

/// Loads every file under `args`, handing each file's findings to `on_file` as soon as that
/// file and every file before it are done, in path order, with the file's path (`None` for
/// findings on paths that could not be walked, handed first). What can only be known once
/// every file is read stays in [`Corpus::findings`]: a file no adapter reads (E004), since a
/// later result may name it as its artifact. The run's cap (`max_findings`) bounds what is
/// handed over; what is kept is left to the caller to bound with the rest of the run's
/// findings.
pub fn load_each(
    args: &[PathBuf],
    options: &Options,
    on_file: &mut dyn FnMut(Option<&str>, Vec<Finding>),
) -> Corpus {
    load_files(args, options, on_file, None, None)
}

/// [`load_each`], each result then handed to `keep` rather than held in [`Corpus::results`],
/// which is left empty: results of the first pass in path order as their files are merged,
/// then those read once every file is (a run folder's companions, sidecars).
pub fn load_each_into(
    args: &[PathBuf],
    options: &Options,
    on_file: &mut dyn FnMut(Option<&str>, Vec<Finding>),
    keep: &mut dyn FnMut(LoadedResult),
) -> Corpus {
    load_files(args, options, on_file, None, Some(keep))
}

/// Loads every file under `args` as [`load`] does, handing each file's results to `hand` (with
/// their canonical JSON) on the worker that read the file, as soon as it is read (a JSON Lines
/// file's a chunk of lines at a time if `hand` takes them so), and
/// keeping them lean afterwards: a command that writes each result's canonical JSON (`import`,
/// `sidecar`) holds the results of the files being read (one a worker), never the corpus's.
/// The files are handed over in no set order (each file's results in its order); load with
/// `options.lean` off, or the results handed over are lean already. [`Corpus::findings`] keeps
/// what [`load_results`] keeps.
pub fn load_streaming(args: &[PathBuf], options: &Options, hand: Handing<'_>) -> Corpus {
    load_with(args, options, Some(hand), None)
}

/// [`load_streaming`], each result then handed to `keep` rather than held in
/// [`Corpus::results`], which is left empty ([`load_results_into`]): for a command that needs
/// no more of a result, once it has written it, than where it was read.
pub fn load_streaming_into(
    args: &[PathBuf],
    options: &Options,
    hand: Handing<'_>,
    keep: &mut dyn FnMut(LoadedResult),
) -> Corpus {
    load_with(args, options, Some(hand), Some(keep))
}

/// Where each result goes instead of [`Corpus::results`], if anywhere.
type Keep<'k> = Option<&'k mut dyn FnMut(LoadedResult)>;

/// [`load_results`], handing each file's results to `hand` when there is one, and each result
/// to `keep` when there is one.
fn load_with(args: &[PathBuf], options: &Options, hand: Hand<'_>, keep: Keep<'_>) -> Corpus {
    let mut kept = Vec::new();
    let mut corpus = load_files(
        args,
        options,
        &mut |_, f| keep_inputs(&mut kept, f),
        hand,
        keep,
    );
    keep_inputs(&mut kept, std::mem::take(&mut corpus.findings));
    corpus.findings = kept;
    corpus
}

/// [`load_each`], handing each file's results to `hand` when there is one, and each result to
/// `keep` when there is one ([`load_results_into`]).
fn load_files(
    args: &[PathBuf],
    options: &Options,
    on_file: &mut dyn FnMut(Option<&str>, Vec<Finding>),
    hand: Hand<'_>,
    mut keep: Keep<'_>,
) -> Corpus {
    let (entries, problems, skipped) = super::discover::discover_all(args, &options.walk);
    // Most files hold one result: room for them from the start, rather than doubling a list
    // of half-kilobyte results (and holding the old list and the new while it is copied); none
    // when each result goes to `keep`.
    let mut corpus = Corpus {
        files: entries.len(),
        results: if keep.is_some() {
            Vec::new()
        } else {
            Vec::with_capacity(entries.len())
        },
        read: Vec::with_capacity(entries.len() + problems.len()),
        ..Corpus::default()
    };
    let mut unwalked = Vec::new();
    for p in problems {
        corpus.read.push(FileRead {
            path: p.display.as_str().into(),
            read_as: "none (E001 unreadable-file)".into(),
            results: 0,
            seen: None,
        });
        let mut f = finding_at(
            &rules::e001_unreadable_file::RULE,
            Location::new(p.display.clone(), ""),
            format!("`{}` could not be read: {}", p.display, p.message),
            None,
        );
        // Placed nowhere: a file the walk refused (a symlink leading out of the corpus) is
        // never opened again to place or draw a snippet of it.
        f.placed = Some(crate::diagnostic::Placed {
            primary: None,
            related: Vec::new(),
        });
        unwalked.push(f);
    }
    // Findings handed over so far, for the run's cap.
    options.selection.apply(&mut unwalked);
    let mut handed = unwalked.len();
    // Whether an error was handed over: a run that read nothing and said why in an error needs
    // no other finding to fail.
    let mut handed_error = !unwalked.is_empty();
    on_file(None, unwalked);
    // The files read in this run: a run folder's logs read together make one result. Sorted
    // and borrowed: a set of copies held one more path a file through the whole load.
    let mut run: Vec<&Path> = entries.iter().map(Entry::path).collect();
    run.sort_unstable();
    run.dedup();
    // What documents may consult beside themselves (a run folder's other files), shared so
    // that each folder is read once.
    let hood = beside::Neighbourhood::new(&run, options.thresholds.json_limits());
    let mut unknown = Vec::new();
    // Artifact paths kept only where they may withdraw an E004: a file this run reads. A power
    // trace or a CSV score is never one, and keeping every such path held more than half a
    // kilobyte a result.
    let named: BTreeSet<&std::ffi::OsStr> = entries
        .iter()
        .filter(|e| e.named)
        .filter_map(|e| e.path().file_name())
        .collect();
    let may_be_read = |p: &Path| {
        p.file_name().is_some_and(|n| {
            named.contains(n) || super::discover::is_candidate(&n.to_string_lossy())
        })
    };
    let mut referenced: BTreeSet<String> = BTreeSet::new();
    let mut left_out: BTreeSet<String> = BTreeSet::new();
    // Files whose fate is known only once every file is read: companions and sidecars, by
    // their index in `entries`, with the first pass's findings on them.
    let mut pending: Vec<(usize, Pending)> = Vec::new();
    let run_cap = options.thresholds.max_findings;
    // Results handed to `keep` rather than held.
    let mut kept_results = 0;
    // The next chunk is checked while this one is merged and its findings written: the
    // workers never wait for the writer, and at most two chunks beyond it are in memory.
    let (to_merge, merged) = std::sync::mpsc::sync_channel::<Vec<FileOutcome>>(1);
    std::thread::scope(|scope| {
        scope.spawn(|| {
            for chunk in entries.chunks(CHUNK) {
                if to_merge
                    .send(check_chunk(chunk, options, (&run[..], &hood), hand))
                    .is_err()
                {
                    break;
                }
            }
            drop(to_merge);
        });
        for (k, (chunk, outcomes)) in entries.chunks(CHUNK).zip(merged.iter()).enumerate() {
            for (j, (e, mut o)) in chunk.iter().zip(outcomes).enumerate() {
                corpus.read.push(FileRead::of(&e.display, e.seen, &o));
                if o.has_no_result() && o.claims.is_empty() {
                    if let Some(owner) = o.sidecar_of.take() {
                        pending.push((k * CHUNK + j, Pending::Sidecar(owner, o.findings.clone())));
                    } else if let Some(harness) = o.companion {
                        pending.push((
                            k * CHUNK + j,
                            Pending::Companion(harness, o.findings.clone()),
                        ));
                    } else if o.skipped {
                        let last = corpus.read.len() - 1;
                        corpus.read[last].read_as =
                            "skipped (a YAML file that is not a result)".into();
                    }
                }
                if o.omitted.total() > 0 {
                    corpus.capped_files.push(e.display.raw().to_string());
                }
                corpus.omitted.add(o.omitted);
                left_out.extend(std::mem::take(&mut o.left_out));
                // The files' own findings first; the E004s held back (one a file at most)
                // are bounded with the run's last findings, once those a result's artifact
                // withdraws are gone.
                keep_within(
                    &mut o.findings,
                    run_cap.saturating_sub(handed),
                    &mut corpus.omitted,
                    &options.selection,
                );
                if let Some(keep) = keep.as_mut() {
                    kept_results += o.results.len() + o.parked.len();
                    o.drain_results(e.display.raw(), &mut **keep);
                } else {
                    o.unpark(e.display.raw());
                }
                // A file of many results (a long JSON Lines file) hands its list over rather
                // than have it copied while both are held.
                if corpus.results.is_empty() && o.results.len() > corpus.results.capacity() {
                    corpus.results = o.results;
                } else {
                    corpus.results.extend(o.results);
                }
                corpus.claims.extend(o.claims);
                handed += o.findings.len();
                handed_error |= o
                    .findings
                    .iter()
                    .any(|f| f.severity == crate::diagnostic::Severity::Error);
                on_file(Some(e.display.raw()), o.findings);
                unknown.extend(o.unknown);
                referenced.extend(
                    o.artifact_refs
                        .iter()
                        .filter(|p| may_be_read(p))
                        .map(|p| artifacts::normal(p)),
                );
                corpus.internal_errors.extend(o.internal);
            }
        }
    });
    settle_pending(
        &entries,
        pending,
        options,
        (&run[..], &hood, &left_out),
        (&mut corpus, hand),
    );
    if let Some(keep) = keep.as_mut() {
        kept_results += corpus.results.len();
        corpus.results.drain(..).for_each(&mut **keep);
        corpus.results = Vec::new();
    }
    // A JSON artifact (a quality-gate output, say) is recognised for what it is, not reported
    // as an unknown format.
    for r in &mut corpus.read {
        if r.results == 0 && referenced.contains(&artifacts::normal(Path::new(r.path.raw()))) {
            r.read_as = "artifact (named by a result)".into();
        }
    }
    corpus.findings.extend(
        unknown
            .into_iter()
            .filter(|f| !referenced.contains(&artifacts::normal(Path::new(f.primary.path.raw())))),
    );
    // A folder walked without finding one result checked nothing: a file in it in a format
    // no adapter reads is then an error, so the run does not pass. (A file named on its own
    // keeps its warning: the user asked about that file and is told what it is.)
    let walked = args.iter().any(|a| a.is_dir());
    if walked && kept_results == 0 && corpus.results.is_empty() && corpus.claims.is_empty() {
        let mut escalated = false;
        for f in corpus
            .findings
            .iter_mut()
            .filter(|f| f.rule.code == rules::e004_unknown_format::RULE.code)
        {
            escalated = true;
            f.severity = crate::diagnostic::Severity::Error;
            f.message.push_own(
                " (no file of this run could be read as a result, so nothing was checked)",
            );
        }
        let errors = handed_error
            || corpus
                .findings
                .iter()
                .any(|f| f.severity == crate::diagnostic::Severity::Error);
        if !escalated && !errors && (!entries.is_empty() || skipped.count > 0) {
            corpus
                .findings
                .push(super::fates::read_nothing(args, &corpus.read, &skipped));
        }
    }
    corpus
}

/// Checks the files of `chunk` in parallel. A bug on one file is an internal error for that
/// file, not the end of the run.
pub(super) fn check_chunk(
    chunk: &[Entry],
    options: &Options,
    (run, hood): (&[&Path], &beside::Neighbourhood<'_>),
    hand: Hand<'_>,
) -> Vec<FileOutcome> {
    chunk
        .par_iter()
        .map(|e| {
            catch_panic(|| process_file(e, options, (run, hood), hand)).unwrap_or_else(|message| {
                FileOutcome {
                    internal: vec![internal_error(
                        "the loader",
                        &format!("`{}`", e.display.raw()),
                        &message,
                    )],
                    ..FileOutcome::default()
                }
            })
        })
        .collect()
}

pub(super) fn process_file(
    entry: &Entry,
    options: &Options,
    (run, hood): (&[&Path], &beside::Neighbourhood<'_>),
    hand: Hand<'_>,
) -> FileOutcome {
    // A JSON Lines file is read from the file a chunk of lines at a time, never whole.
    if line_file::reads_by_line(entry, hand) {
        return line_file::process_line_file(entry, options, hood, hand);
    }
    let mut out = FileOutcome::default();
    let path = entry.display.raw();
    let (text, bom) =
        match crate::io::read_seen(entry.path(), options.thresholds.max_file_bytes, entry.seen) {
            Ok(t) => t,
            Err(e) => {
                // Placed nowhere: a file the loader refused (swapped after the walk, say) is
                // never opened again to place or draw a snippet of it.
                out.findings.push(line_file::unreadable(path, &e));
                out.finish(options);
                return out;
            }
        };
    check_text(entry, &text, bom, options, (run, hood, hand), &mut out);
    out.finish(options);
    // Positions are resolved now, while the text is in memory: the report never reads the
    // file again unless it shows a snippet.
    crate::positions::place_in_text(path, &text, &mut out.findings);
    crate::positions::place_in_text(path, &text, &mut out.unknown);
    // In the order shown, here on the worker: the run's cap then keeps the first shown, and
    // the writer has little left to sort.
    out.findings.sort_by(crate::diagnostic::output_order);
    if let Some(hand) = hand {
        out.hand_over(hand, (path, (&text, 0), true), options);
    }
    out
}
