//! A whole check: load the corpus, run the corpus-wide rules, sort, count.

use std::path::PathBuf;

use crate::corpus::{self, Corpus, Options};
use crate::diagnostic::{Finding, Severity, sort_findings};

mod corpus_rules;
mod held;
mod keyed;
mod last;
mod put_away;
mod within;

pub use held::{BUDGET, Held};
pub use keyed::{Key, KeyedMerge, KeyedRuns};
pub use last::{BATCH, Last};
use within::merge_within;

/// Counts for the summary line and the JSON summary.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct Summary {
    /// Files read.
    pub files: usize,
    /// Canonical results loaded.
    pub results: usize,
    /// Findings at error severity.
    pub errors: usize,
    /// Findings at warning severity.
    pub warnings: usize,
    /// Findings at info severity.
    pub infos: usize,
    /// Findings hidden by the baseline (`--baseline`), not counted above.
    pub suppressed: usize,
    /// Findings past the caps (`max_findings_per_file`, `max_findings`): counted above, not
    /// listed.
    pub omitted: usize,
}

/// The outcome of `check`.
#[derive(Debug, Default)]
pub struct Checked {
    /// The loaded corpus (its own findings moved into `findings`).
    pub corpus: Corpus,
    /// Every finding, sorted ([`check`]); or, from [`check_each`], those known only once every
    /// file is read (corpus-wide rules, E004, E006), sorted.
    pub findings: Vec<Finding>,
    /// The counts (from [`check_each`]: of the corpus only, files, results and findings past
    /// the caps; the caller counts the findings it writes).
    pub summary: Summary,
}

/// Loads `paths` and runs every rule.
pub fn check(paths: &[PathBuf], options: &Options) -> Checked {
    // The files' own findings, bounded by the run's cap as they are handed over.
    let mut files = Vec::new();
    let (mut checked, held) = run(paths, options, BUDGET, &mut |mut file| {
        files.append(&mut file);
    });
    // The run's bound, on the findings in output order (the same ones are kept on every run),
    // taken as the corpus-wide findings come back from disk: those past it are counted, never
    // all held at once.
    let mut last = held.finish(usize::MAX);
    let all = merge_within(
        files,
        last.by_ref(),
        options.thresholds.max_findings,
        &mut checked.corpus.omitted,
    );
    close(&mut checked, &last);
    checked.summary = summarise(&checked.corpus, &all);
    checked.findings = all;
    checked
}

/// Loads `paths` and runs every rule, handing each file's findings to `on_file` (selected,
/// sorted, deduplicated, placed) as soon as that file and every file before it are done, in
/// path order, so a writer can print them while the next files are read and memory holds the
/// findings of the files in flight only. The findings known only once every file is read
/// (corpus-wide rules, E006, and E004, which a later result naming the file as its artifact
/// would withdraw) come after, from the [`Last`] returned: in order, within what the run's cap
/// (`max_findings`) leaves, held on disk past a few megabytes. Once they are out, [`close`]
/// counts those past the cap into the corpus and the summary.
pub fn check_each(
    paths: &[PathBuf],
    options: &Options,
    on_file: &mut dyn FnMut(Vec<Finding>),
) -> (Checked, Last) {
    check_each_within(paths, options, BUDGET, on_file)
}

/// [`check_each`] holding `budget` bytes of the last findings in memory before writing a run of
/// them to disk.
pub fn check_each_within(
    paths: &[PathBuf],
    options: &Options,
    budget: usize,
    on_file: &mut dyn FnMut(Vec<Finding>),
) -> (Checked, Last) {
    let mut handed = 0;
    let (mut checked, held) = run(paths, options, budget, &mut |file| {
        handed += file.len();
        on_file(file);
    });
    checked.summary = summarise(&checked.corpus, &[]);
    let last = held.finish(options.thresholds.max_findings.saturating_sub(handed));
    (checked, last)
}

/// Once every finding of `last` is out: those past the cap counted into the corpus and the
/// summary, and a failure to read back what was held on disk an internal error (exit 2).
pub fn close(checked: &mut Checked, last: &Last) {
    checked.corpus.omitted.add(last.omitted());
    if let Some(failure) = last.failure() {
        checked.corpus.internal_errors.push(format!(
            "{failure}; the findings listed are incomplete (is the temporary folder full?)"
        ));
    }
    checked.summary = summarise(&checked.corpus, &[]);
}

/// The run shared by [`check`] and [`check_each`]: each file's findings, sorted,
/// to `on_file` in path order (a finding on another file than the one that made it waits for
/// that file's turn); the rest, selected, in `findings`.
fn run<'o>(
    paths: &[PathBuf],
    options: &'o Options,
    budget: usize,
    on_file: &mut dyn FnMut(Vec<Finding>),
) -> (Checked, Held<'o>) {
    let mut waiting: Vec<Finding> = Vec::new();
    let mut per_file = |path: Option<&str>, file: Vec<Finding>| {
        let Some(path) = path else {
            waiting.extend(file);
            return;
        };
        // The loader selected, deduplicated and ordered the file's own findings on its
        // worker; only a finding that waited for this file's turn makes a sort needed here.
        if waiting.is_empty() && file.iter().all(|f| f.primary.path.raw() == path) {
            if !file.is_empty() {
                on_file(file);
            }
            return;
        }
        let (mut now, later): (Vec<Finding>, Vec<Finding>) = std::mem::take(&mut waiting)
            .into_iter()
            .chain(file)
            .partition(|f| f.primary.path.raw() <= path);
        waiting = later;
        if now.is_empty() {
            return;
        }
        sort_findings(&mut now);
        on_file(now);
    };
    // Put away as they are read, or held (the results are then the caller's to read).
    let mut put_away = options
        .results_on_disk
        .then(|| put_away::PutAway::new(options));
    let mut corpus = match put_away.as_mut() {
        Some(away) => corpus::load_each_into(paths, options, &mut per_file, &mut |r| away.keep(r)),
        None => corpus::load_each(paths, options, &mut per_file),
    };
    let mut held = Held::new(&options.selection, budget);
    for f in std::mem::take(&mut corpus.findings)
        .into_iter()
        .chain(waiting)
    {
        held.push(f);
    }
    let root = crate::corpus::corpus_path(&options.walk.shown(paths));
    let mut runner = corpus_rules::Runner::new(options, &root, &mut held);
    match put_away {
        Some(away) => {
            corpus.put_away = away.len();
            away.run(&corpus.claims, &mut runner);
        }
        None => corpus_rules::run_on_all(&corpus.results, &corpus.claims, &mut runner),
    }
    let internal = runner.finish();
    corpus.internal_errors.extend(internal);
    (
        Checked {
            corpus,
            ..Checked::default()
        },
        held,
    )
}

/// The counts of the corpus (files, results, findings past the caps) and of `findings`.
pub fn summarise(corpus: &Corpus, findings: &[Finding]) -> Summary {
    let o = corpus.omitted;
    let mut s = Summary {
        files: corpus.files,
        results: corpus.results.len() + corpus.put_away,
        errors: o.errors,
        warnings: o.warnings,
        infos: o.infos,
        omitted: o.total(),
        ..Summary::default()
    };
    count(&mut s, findings);
    s
}

/// Adds `findings` to the counts by severity.
pub fn count(s: &mut Summary, findings: &[Finding]) {
    for f in findings {
        match f.severity {
            Severity::Error => s.errors += 1,
            Severity::Warning => s.warnings += 1,
            Severity::Info => s.infos += 1,
        }
    }
}
