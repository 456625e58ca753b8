//! Regression mode (`benchlint regress BASE HEAD`, DESIGN.md "Regression mode"): corpus
//! against corpus, for CI. Did HEAD make serving slower anywhere, beyond noise, with the engine
//! launch as the unit of replication?
//!
//! * [`vary`]: what is being compared (engine version, image, digest, harness revision,
//!   `--vary`), taken out of the fingerprint before configurations are matched.
//! * [`matching`]: configurations matched across the sides; an unmatched one paired with its
//!   nearest counterpart and NOT COMPARABLE with the C-codes of the mismatch (the checks of
//!   `crate::claims::compare_sides`, not a copy of them), or MISSING.
//! * [`cells`]: a cell per (configuration, level, metric) recorded on both sides; each launch
//!   summarised by the median of its runs; runs a level's own rules reject left out.
//! * [`decide`]: the statistics of every cell (`crate::stats`: Welch on the log ratio, the
//!   one-sided test toward worse adjusted by Benjamini–Hochberg across all cells, TOST, the
//!   noise floor, launches needed) and its verdict, first match wins, and the exit code.
//!
//! The reporters are `crate::report::regress_*`, pure functions of a [`Report`].

pub mod cells;
pub mod decide;
pub mod made;
pub mod matching;
pub mod metric;
pub mod sweep;
pub mod vary;

#[cfg(test)]
mod made_tests;
#[cfg(test)]
mod simulation;

use std::ops::Range;
use std::sync::Arc;

use crate::model::LevelKey;
use crate::model::loaded::LoadedResult;
use crate::stats::{LaunchesNeeded, LogRatio};
use crate::text::{FileText, PathText};
use crate::thresholds::Thresholds;
pub use made::{Cells, Tally};
pub use metric::RegressMetric;

/// How a regression run is judged.
#[derive(Debug, Clone)]
pub struct Options {
    /// T: a change worse than this fraction is a regression (0.05).
    pub threshold: f64,
    /// α: the false discovery rate of the regression tests, and the TOST level (0.05).
    pub alpha: f64,
    /// Fingerprint fields taken out before matching, beyond the defaults.
    pub varied: Vec<String>,
    /// Metrics compared (empty: every one).
    pub metrics: Vec<RegressMetric>,
    /// What fails the run.
    pub fail_on: FailOn,
    /// The thresholds of the config file (rate achieved, ...).
    pub thresholds: Thresholds,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            threshold: 0.05,
            alpha: 0.05,
            varied: Vec::new(),
            metrics: Vec::new(),
            fail_on: FailOn::Regression,
            thresholds: Thresholds::default(),
        }
    }
}

/// `--fail-on`: which cells make the exit code 1.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum FailOn {
    /// Any REGRESSION (significant after adjustment and worse than T).
    Regression,
    /// Only a confirmed REGRESSION (its whole interval worse than T).
    Confirmed,
    /// A REGRESSION, and any INCONCLUSIVE or NOT DECIDABLE cell.
    Undecided,
    /// Nothing: report only (exit 2 still stands for no comparable cell).
    None,
}

impl FailOn {
    /// The name on the command line.
    pub fn as_str(self) -> &'static str {
        match self {
            FailOn::Regression => "regression",
            FailOn::Confirmed => "confirmed",
            FailOn::Undecided => "undecided",
            FailOn::None => "none",
        }
    }
}

/// A side of the comparison.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Side {
    /// The corpus compared against.
    Base,
    /// The corpus under test.
    Head,
    /// A second corpus of BASE (`--control`).
    Control,
}

impl Side {
    /// `BASE`, `HEAD`, `CONTROL`.
    pub fn name(self) -> &'static str {
        match self {
            Side::Base => "BASE",
            Side::Head => "HEAD",
            Side::Control => "CONTROL",
        }
    }
}

/// One run's value in a cell: the run by its place in [`Report::runs`], which holds its id,
/// file and launch once for every cell it is in (a run is in a cell for each level and metric
/// it records, and a copy of its texts per cell made the cells most of a run's memory).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RunValue {
    /// The run: an index into [`Report::runs`].
    pub run: usize,
    /// The metric at the level.
    pub value: f64,
}

/// One launch of a side in a cell: the median of its runs.
#[derive(Debug, Clone, PartialEq)]
pub struct Launch {
    /// The median of its runs.
    pub value: f64,
    /// Its runs, a range of [`SideCell::runs`]: all of one launch id, or all recording none.
    pub runs: Range<usize>,
}

/// One side of a cell.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct SideCell {
    /// Its launches, in launch-id order (the unrecorded launch last).
    pub launches: Vec<Launch>,
    /// The runs behind the launches, launch after launch.
    pub runs: Vec<RunValue>,
    /// Runs left out (indices into [`Report::runs`]), each with why (failed requests, rate not
    /// achieved, a zero level).
    pub rejected: Vec<(usize, &'static str)>,
}

/// What a report prints of each run it holds, once: its id as the file records it, the file
/// it was read from and its launch id.
#[derive(Debug, Clone, Default)]
pub struct Runs {
    ids: Vec<FileText>,
    paths: Vec<PathText>,
    launches: Vec<Option<FileText>>,
}

impl Runs {
    /// Adds a run; returns its index.
    pub fn push(&mut self, id: FileText, path: PathText, launch: Option<FileText>) -> usize {
        self.ids.push(id);
        self.paths.push(path);
        self.launches.push(launch);
        self.ids.len() - 1
    }

    /// The run's result id.
    pub fn id(&self, run: usize) -> &FileText {
        &self.ids[run]
    }

    /// The file the run was read from.
    pub fn path(&self, run: usize) -> &PathText {
        &self.paths[run]
    }

    /// The run's launch id, when it records one.
    pub fn launch(&self, run: usize) -> Option<&FileText> {
        self.launches[run].as_ref()
    }
}

impl SideCell {
    /// The launch summaries.
    pub fn values(&self) -> Vec<f64> {
        self.launches.iter().map(|l| l.value).collect()
    }

    /// Adds a launch whose runs' median is `value`, after those there are.
    pub fn push_launch(&mut self, value: f64, runs: Vec<RunValue>) {
        let at = self.runs.len();
        self.runs.extend(runs);
        self.launches.push(Launch {
            value,
            runs: at..self.runs.len(),
        });
    }

    /// How many runs are behind the launches.
    pub fn run_count(&self) -> usize {
        self.launches.iter().map(|l| l.runs.len()).sum()
    }

    /// The runs of `launch`, one of [`SideCell::launches`].
    pub fn runs_of(&self, launch: &Launch) -> &[RunValue] {
        &self.runs[launch.runs.clone()]
    }

    /// The launch id of `launch` (`None`: its runs record none).
    pub fn launch_id<'r>(&self, launch: &Launch, runs: &'r Runs) -> Option<&'r FileText> {
        self.runs_of(launch)
            .first()
            .and_then(|r| runs.launch(r.run))
    }

    /// The centre: the geometric mean of the launch summaries (the effect is on the log
    /// scale, so this is the centre the change is measured between).
    pub fn center(&self) -> Option<f64> {
        let v = self.values();
        let logs: Vec<f64> = v.iter().filter(|x| **x > 0.0).map(|x| x.ln()).collect();
        crate::stats::mean(&logs).map(f64::exp)
    }

    /// Half-width of the t-based 95% interval of the log mean, as a fraction (`± 1.4%`).
    pub fn ci_fraction(&self) -> Option<f64> {
        let v = self.values();
        let logs: Vec<f64> = v.iter().filter(|x| **x > 0.0).map(|x| x.ln()).collect();
        if logs.len() < 2 {
            return None;
        }
        let sd = crate::stats::sample_sd(&logs)?;
        #[expect(clippy::cast_precision_loss, reason = "launch counts are small")]
        let k = logs.len() as f64;
        let t = crate::stats::t_quantile(0.975, k - 1.0)?;
        Some((t * sd / k.sqrt()).exp_m1())
    }

    /// The launch CV (sample SD over mean of the launch summaries).
    pub fn cv(&self) -> Option<f64> {
        crate::stats::cv(&self.values())
    }
}

/// A cell's verdict (DESIGN.md "Regression mode", first match wins).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Verdict {
    /// Significant after adjustment and worse than T.
    Regression,
    /// Fewer than two launches on a side.
    NotDecidable,
    /// Neither significant nor equivalent.
    Inconclusive,
    /// The sides differ in more than what is compared.
    NotComparable,
    /// The cell is on one side only.
    Missing,
    /// Significant, worse, under T.
    SlowerWithinT,
    /// Significant, better, under T.
    FasterWithinT,
    /// TOST within ±T.
    Equivalent,
    /// The mirror of a regression.
    Improved,
}

impl Verdict {
    /// The name in JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::NotComparable => "not_comparable",
            Verdict::Missing => "missing",
            Verdict::NotDecidable => "not_decidable",
            Verdict::Regression => "regression",
            Verdict::Improved => "improved",
            Verdict::Equivalent => "equivalent",
            Verdict::SlowerWithinT => "slower_within_threshold",
            Verdict::FasterWithinT => "faster_within_threshold",
            Verdict::Inconclusive => "inconclusive",
        }
    }

    /// The word in tables.
    pub fn word(self, confirmed: bool) -> &'static str {
        match self {
            Verdict::NotComparable => "NOT COMPARABLE",
            Verdict::Missing => "MISSING",
            Verdict::NotDecidable => "NOT DECIDABLE",
            Verdict::Regression if confirmed => "REGRESSION (confirmed)",
            Verdict::Regression => "REGRESSION",
            Verdict::Improved if confirmed => "IMPROVED (confirmed)",
            Verdict::Improved => "IMPROVED",
            Verdict::Equivalent => "EQUIVALENT",
            Verdict::SlowerWithinT => "SLOWER WITHIN T",
            Verdict::FasterWithinT => "FASTER WITHIN T",
            Verdict::Inconclusive => "INCONCLUSIVE",
        }
    }

    /// Whether the cell reached the statistics (two sides that may be compared).
    pub fn is_comparable(self) -> bool {
        !matches!(self, Verdict::NotComparable | Verdict::Missing)
    }
}

/// A matched configuration (or a pair that failed to match, or one side's alone).
#[derive(Debug, Clone)]
pub struct Config {
    /// Its label (model, engine, platform, speculation, workload), from BASE when it has one.
    pub label: FileText,
    /// The short fingerprint (after the varied fields are taken out): BASE's, else HEAD's.
    pub fingerprint: String,
    /// Engine versions of BASE and HEAD as recorded (sorted, distinct).
    pub versions: (Vec<FileText>, Vec<FileText>),
    /// Speculative decoding is on.
    pub speculative: bool,
    /// Why the whole configuration is not comparable: (C-code or none, message).
    pub mismatches: Vec<(Option<&'static str>, FileText)>,
    /// Notes (a metric on one side only, launches without an id).
    pub notes: Vec<FileText>,
}

/// One cell.
#[derive(Debug, Clone)]
pub struct Cell {
    /// Index into [`Report::configs`].
    pub config: usize,
    /// The level.
    pub level: LevelKey,
    /// The metric.
    pub metric: RegressMetric,
    /// BASE's launches (`None`: not on BASE). Each side and the change are boxed: most cells
    /// of a corpus of unmatched configurations have none, and inline they made a cell about
    /// 470 bytes, held for every level and metric of every configuration.
    pub base: Option<Box<SideCell>>,
    /// HEAD's launches.
    pub head: Option<Box<SideCell>>,
    /// The control's launches.
    pub control: Option<Box<SideCell>>,
    /// The change, when both sides have two launches.
    pub stats: Option<Box<LogRatio>>,
    /// BH-adjusted q of "worse".
    pub q_worse: Option<f64>,
    /// BH-adjusted q of "better".
    pub q_better: Option<f64>,
    /// The noise floor (a fraction) and where it came from.
    pub noise_floor: (f64, &'static str),
    /// The verdict.
    pub verdict: Verdict,
    /// For a regression or improvement: the whole interval is beyond T.
    pub confirmed: bool,
    /// The C-codes behind a NOT COMPARABLE verdict.
    pub codes: Vec<&'static str>,
    /// Why, in words (a NOT COMPARABLE, MISSING or NOT DECIDABLE cell, a T below the floor).
    /// A reason the configuration gives every cell of it (its mismatches, a side without it)
    /// is made once and shared by them.
    pub reasons: Vec<Arc<FileText>>,
    /// For an INCONCLUSIVE cell: launches per side that would settle it.
    pub launches_needed: Option<LaunchesNeeded>,
}

/// Everything a regression run found.
pub struct Report {
    /// The options it ran with.
    pub options: Options,
    /// Configurations, in fingerprint order.
    pub configs: Vec<Config>,
    /// Cells, by configuration, level and metric: walked with [`Report::by_config`].
    pub cells: Cells,
    /// The runs the cells hold, by [`RunValue::run`].
    pub runs: Runs,
    /// Cells in the Benjamini–Hochberg family (those with statistics).
    pub family: usize,
    /// Whether a control corpus was given.
    pub control: bool,
    /// The counts of the cells' verdicts.
    pub tally: Tally,
    /// Why the run could not decide anything (no comparable cell), when so.
    pub no_comparable: Option<String>,
    /// The exit code: 0, 1, or 2 for no comparable cell.
    pub exit_code: u8,
}

impl Report {
    /// A report of cells at hand (decided), its counts and exit code found from them.
    pub fn of_cells(options: Options, configs: Vec<Config>, cells: Vec<Cell>, runs: Runs) -> Self {
        let family = cells.iter().filter(|c| c.stats.is_some()).count();
        let mut tally = Tally::default();
        for c in &cells {
            tally.add(c, options.fail_on);
        }
        Report::concluded(options, configs, (Cells::Held(cells), runs), family, tally)
    }

    /// The report of `cells`, whose counts are `tally`: its exit code and, when nothing could
    /// be compared, why.
    fn concluded(
        options: Options,
        configs: Vec<Config>,
        (cells, runs): (Cells, Runs),
        family: usize,
        tally: Tally,
    ) -> Self {
        let mut report = Report {
            options,
            configs,
            cells,
            runs,
            family,
            control: false,
            tally: Tally::default(),
            no_comparable: None,
            exit_code: 0,
        };
        report.no_comparable = (!tally.any_comparable()).then(|| {
            if tally.cells == 0 {
                "no cell: neither side holds a successful result with a level and a metric to compare"
                    .to_string()
            } else {
                format!(
                    "no comparable cell: all {} cells are NOT COMPARABLE or MISSING",
                    tally.cells
                )
            }
        });
        report.exit_code = if report.no_comparable.is_some() {
            2
        } else {
            u8::from(tally.failing > 0)
        };
        report.tally = tally;
        report
    }

    /// Whether `cell` meets `--fail-on`.
    pub fn fails(&self, cell: &Cell) -> bool {
        made::fails(self.options.fail_on, cell)
    }

    /// Each configuration's cells, decided, in configuration order (every configuration,
    /// those without cells too). A run's cells are made again at each walk, one at a time
    /// ([`made`]).
    pub fn by_config(&self) -> impl Iterator<Item = (usize, made::CellsOf<'_>)> + '_ {
        self.cells.by_config(self.configs.len(), &self.options)
    }

    /// Count of cells per verdict, in [`Verdict`] order.
    pub fn counts(&self) -> Vec<(Verdict, usize)> {
        self.tally.counts.iter().map(|(v, n)| (*v, *n)).collect()
    }
}

/// Compares `head` with `base` (and `control` against `base` for the noise floor), taking the
/// sides' results.
pub fn regress(
    base: Vec<LoadedResult>,
    head: Vec<LoadedResult>,
    control: Option<Vec<LoadedResult>>,
    options: &Options,
) -> Report {
    let has_control = control.is_some();
    let matched = matching::match_sides(base, head, control, options);
    let (configs, cells, runs, family, tally) = made::decide_all(matched, options);
    let mut report = Report::concluded(options.clone(), configs, (cells, runs), family, tally);
    report.control = has_control;
    report
}
