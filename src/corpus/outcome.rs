//! One file's outcome as its check goes (findings selected and capped as they are made,
//! results, claims), and how results are handed to a command that writes them out as they are
//! read (`import`, `sidecar`).

use std::path::PathBuf;

use super::ghost::Ghost;
use super::keep_within;
use super::park::{Parked, parks};
use crate::diagnostic::{Finding, Omitted};
use crate::text::PathText;

use super::{LoadedClaims, LoadedResult, Options};

#[derive(Default)]
pub(super) struct FileOutcome {
    pub(super) results: Vec<LoadedResult>,
    /// Results put away before those of `results` (a long JSON Lines file's, for a command
    /// that puts every result away: [`Parked`]).
    pub(super) parked: Parked,
    pub(super) claims: Vec<LoadedClaims>,
    pub(super) findings: Vec<Finding>,
    /// Findings past the file's cap for good, after every one of `findings` in the order they
    /// were made: never shown, each kept as what the cap counts it by ([`Light`]).
    pub(super) ghosts: Vec<Ghost>,
    pub(super) unknown: Vec<Finding>,
    pub(super) artifact_refs: Vec<PathBuf>,
    pub(super) internal: Vec<String>,
    pub(super) omitted: Omitted,
    /// How many of `findings` and of `unknown` the selection was applied to.
    pub(super) selected: (usize, usize),
    /// The harness whose companion the file is (a document it writes beside its results),
    /// when an adapter took a document of the file for one.
    pub(super) companion: Option<&'static str>,
    /// The result file of the run this sidecar attaches to, when it was read as one.
    pub(super) sidecar_of: Option<PathBuf>,
    /// A walked file that is not a result (a YAML file no adapter claims), skipped quietly.
    pub(super) skipped: bool,
    /// Other files of the run (as shown) whose level a result of this file left out, for want
    /// of the load it ran at: each carries its E003, and is no companion of that result.
    pub(super) left_out: Vec<String>,
    /// How many of `results` were handed over already (a JSON Lines file's, a chunk at a time).
    pub(super) handed: usize,
    /// Whether every finding the document being checked makes lies past the file's cap and is
    /// counted without being made: set for a document of a JSON Lines file checked apart while
    /// the file's kept findings already fill the cap, when another document of the file follows
    /// (whose cap drops and counts them as made). The file's last document's findings meet the
    /// file's last cap, which drops exact repeats uncounted first ([`FileOutcome::finish`]).
    pub(super) past_cap: bool,
    /// A document's own outcome, checked apart: once the findings it made hold the file's cap
    /// of distinct ones, those it makes after can never be shown, and are kept as ghosts.
    pub(super) light: Light,
}

/// Findings past the cap kept as ghosts ([`Ghost`]) while a document's results are finished: a
/// document of twenty thousand rows makes every finding of every row before the file's cap
/// applies, and kept whole they were most of what the run held.
#[derive(Default)]
pub(super) struct Light {
    /// The file and where the document's text starts in it, when this outcome is a document's
    /// own (checked apart): a ghost's places are the file's, as the findings kept are moved to
    /// once the document is checked.
    shift: Option<(PathText, usize)>,
    /// Whether the findings made from now on are ghosts.
    past: bool,
    /// How many findings to wait for before looking again.
    check_at: usize,
}

impl Light {
    /// Findings kept as ghosts once past the cap: for the own outcome of a document of the
    /// file `path` whose text starts at byte `base` of it.
    pub(super) fn on(path: PathText, base: usize) -> Self {
        Light {
            shift: Some((path, base)),
            ..Light::default()
        }
    }
}

impl FileOutcome {
    /// After a result's findings are made: once the findings of this document's own outcome
    /// hold `max_findings_per_file` that repeat none before them (the selection applied), every
    /// finding past the last of those, and every finding made from then on, is kept light. No
    /// finding there is ever among those the file's cap keeps: findings of the file put before
    /// them only push them further back, the cap cuts the end of the list, and exact repeats
    /// dropped are always later ones. Looked at again only once the findings double, so the
    /// looking stays within a sort of them all.
    pub(super) fn lighten_past_cap(&mut self, options: &Options) {
        if self.light.shift.is_none() || self.past_cap || self.light.past {
            return;
        }
        let cap = options.thresholds.max_findings_per_file;
        if self.findings.len() < self.light.check_at.max(2 * cap.max(8)) {
            return;
        }
        options.selection.apply(&mut self.findings);
        match crate::diagnostic::past_first_distinct(&self.findings, cap) {
            Some(from) => {
                let past = self.findings.split_off(from);
                self.light.past = true;
                for f in past {
                    self.push_ghost(f, options);
                }
            }
            None => self.light.check_at = self.findings.len() * 2,
        }
    }

    /// Adds `finding`, a ghost once this outcome's findings are past the cap for good.
    pub(super) fn push_finding(&mut self, finding: Finding, options: &Options) {
        if self.light.past {
            self.push_ghost(finding, options);
        } else {
            self.findings.push(finding);
        }
    }

    fn push_ghost(&mut self, finding: Finding, options: &Options) {
        let Some((path, base)) = self.light.shift.as_ref() else {
            return self.findings.push(finding);
        };
        self.ghosts
            .extend(Ghost::of(finding, &options.selection, (path, *base)));
    }
}

impl FileOutcome {
    /// Drops the findings of rules the selection turns off on the file and gives the others
    /// their configured severity, then keeps at most `max_findings_per_file` (those made
    /// first), counting the rest: the caps count only findings that are shown. Called as
    /// findings are made (after each document), so each call selects only the new ones.
    pub(super) fn cap(&mut self, options: &Options) {
        select_from(&mut self.findings, self.selected.0, options);
        select_from(&mut self.unknown, self.selected.1, options);
        let cap = options.thresholds.max_findings_per_file;
        keep_within(
            &mut self.findings,
            cap,
            &mut self.omitted,
            &options.selection,
        );
        // Every ghost lies past the cap: the findings before it hold the cap's worth of
        // distinct ones.
        for g in std::mem::take(&mut self.ghosts) {
            g.count(&mut self.omitted);
        }
        let left = cap.saturating_sub(self.findings.len());
        keep_within(
            &mut self.unknown,
            left,
            &mut self.omitted,
            &options.selection,
        );
        self.selected = (self.findings.len(), self.unknown.len());
    }

    /// Adds what a document checked apart made ([`super::recognise::DocumentRun::check_apart`])
    /// after what this outcome holds, as checking it here would have: nothing of it selected or
    /// capped yet, which the next cap does.
    pub(super) fn absorb(&mut self, part: FileOutcome) {
        // Every field named: one added to the outcome must be decided here.
        let FileOutcome {
            results,
            mut parked,
            claims,
            findings,
            ghosts,
            unknown,
            artifact_refs,
            internal,
            omitted,
            selected: _,
            companion,
            sidecar_of,
            skipped,
            left_out,
            handed,
            past_cap: _,
            light: _,
        } = part;
        // Results handed over already are the first of the file's: a document hands its own
        // over only when it is the file's one document ([`super::recognise::DocumentRun::handing`]).
        debug_assert!(handed == 0 || self.results.is_empty());
        if self.results.is_empty() {
            self.handed = handed;
        }
        // A document of many results puts them away as it reads them ([`FileOutcome::park`]):
        // the first to give any keeps them put away (the file's one document, mostly); a later
        // one's come back after what this outcome holds, in the file's order.
        if self.has_no_result() {
            std::mem::swap(&mut self.parked, &mut parked);
        } else if let Err(e) = parked.drain(&mut |r| self.results.push(r)) {
            self.internal.push(e);
        }
        append(&mut self.results, results);
        append(&mut self.claims, claims);
        append(&mut self.findings, findings);
        append(&mut self.ghosts, ghosts);
        append(&mut self.unknown, unknown);
        append(&mut self.artifact_refs, artifact_refs);
        append(&mut self.internal, internal);
        self.omitted.add(omitted);
        // The first document that says so names the harness, as when checked in turn.
        self.companion = self.companion.or(companion);
        if self.sidecar_of.is_none() {
            self.sidecar_of = sidecar_of;
        }
        self.skipped |= skipped;
        self.left_out.extend(left_out);
    }

    /// Hands the results not handed yet to `hand`, read from `text` (which starts at byte
    /// `base` of the file), then keeps them lean.
    pub(super) fn hand_over(
        &mut self,
        hand: Handing<'_>,
        (path, (text, base), last): (&str, (&str, usize), bool),
        options: &Options,
    ) {
        let from = self.handed.min(self.results.len());
        (hand.to)(Handed {
            path,
            results: &mut self.results[from..],
            text,
            base,
            last,
        });
        for r in &mut self.results[from..] {
            super::lean::keep_lean(r, options);
        }
        self.handed = self.results.len();
    }

    /// Puts the results held away once they are [`super::park::PARK_AT`] or more, for a command
    /// that puts every result away itself (`Options::put_away`, `Options::results_on_disk`):
    /// the results of a long JSON
    /// Lines file, or of a document of many (an aggregate of twenty thousand rows), are then
    /// never all held. Where results are handed over (`import`, `sidecar`), only once every
    /// result held was handed (the rest are the hand's next): handed, they are lean and wait
    /// only to be counted and given to the command at the file's end, which held twenty
    /// thousand of them for an aggregate.
    pub(super) fn park(&mut self, options: &Options, handing: bool) {
        let handed_all = !handing || self.handed >= self.results.len();
        if (options.put_away || options.results_on_disk) && handed_all && parks(self.results.len())
        {
            self.parked.park(&mut self.results);
            if handing {
                // Those left (that could not be put away) were handed.
                self.handed = self.results.len();
            }
        }
    }

    /// Whether the file gave no result (held or put away).
    pub(super) fn has_no_result(&self) -> bool {
        self.results.is_empty() && self.parked.is_empty()
    }

    /// Every result of the file, those put away read back first, to `keep`, in the file's
    /// order. One that cannot be read back is an internal error of the file (`path`): the run
    /// does not pass with results missing.
    pub(super) fn drain_results(&mut self, path: &str, keep: &mut dyn FnMut(LoadedResult)) {
        if let Err(e) = self.parked.drain(keep) {
            self.internal.push(crate::guard::internal_error(
                "the loader",
                &format!("`{path}`"),
                &e,
            ));
        }
        self.results.drain(..).for_each(keep);
    }

    /// The results put away read back before those held, for a caller that holds them all.
    pub(super) fn unpark(&mut self, path: &str) {
        if self.parked.is_empty() {
            return;
        }
        let mut all = Vec::with_capacity(self.parked.len() + self.results.len());
        self.drain_results(path, &mut |r| all.push(r));
        self.results = all;
    }

    /// The last cap, once the file is checked: every finding selected (whatever was done to
    /// the list between caps) and exact repeats dropped first.
    pub(super) fn finish(&mut self, options: &Options) {
        options.selection.apply(&mut self.findings);
        options.selection.apply(&mut self.unknown);
        self.selected = (self.findings.len(), self.unknown.len());
        crate::diagnostic::dedup_in_order(&mut self.findings);
        crate::diagnostic::dedup_in_order(&mut self.unknown);
        if !self.ghosts.is_empty() {
            let ghosts = std::mem::take(&mut self.ghosts);
            self.ghosts = Ghost::not_repeating(ghosts, &self.findings);
        }
        self.cap(options);
    }
}

/// `part` added after what `list` holds: taken as it is when `list` is empty (a file of one
/// document, whose outcome is all of its file's), so a document's findings and results are never
/// copied into a second list as large.
fn append<T>(list: &mut Vec<T>, mut part: Vec<T>) {
    if list.is_empty() {
        std::mem::swap(list, &mut part);
    } else {
        list.append(&mut part);
    }
}

/// Applies the selection to `findings[from..]`.
pub(super) fn select_from(findings: &mut Vec<Finding>, from: usize, options: &Options) {
    if from < findings.len() {
        let mut new = findings.split_off(from);
        options.selection.apply(&mut new);
        findings.append(&mut new);
    }
}

/// Some of a file's results, as they are handed over.
pub struct Handed<'h> {
    /// The file, as reached from the command line.
    pub path: &'h str,
    /// The results, with their canonical JSON.
    pub results: &'h mut [LoadedResult],
    /// The text they were read from: the file's, or a chunk of a JSON Lines file's lines.
    pub text: &'h str,
    /// Where `text` starts in the file: the results' offsets (their documents, their sample
    /// arrays held apart) are the file's.
    pub base: usize,
    /// Whether these are the file's last (every file with results is handed over once with
    /// this set, its last results or none).
    pub last: bool,
}

/// What each file's results are handed to, on the worker that read the file, before they are
/// kept lean ([`load_streaming`]).
pub type HandTo<'a> = &'a (dyn Fn(Handed<'_>) + Sync);

/// Where results are handed, and how.
#[derive(Clone, Copy)]
pub struct Handing<'a> {
    /// What they are handed to.
    pub to: HandTo<'a>,
    /// Whether a JSON Lines file's results are handed a chunk of lines at a time, as they are
    /// checked, rather than all once the file is read.
    pub in_chunks: bool,
}

/// Where results are handed, if anywhere.
pub type Hand<'a> = Option<Handing<'a>>;
