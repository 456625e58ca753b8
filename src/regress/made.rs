//! A report's cells, made again a configuration at a time whenever a reporter walks them, and
//! the counts a report opens with, found by one walk.
//!
//! A run over a corpus of many configurations has a cell for every level and metric of each
//! (140,000 for 10,000 results each its own configuration): held until the report was
//! written, they were most of the run's memory. What the cells of one configuration need is
//! the matched sides (held anyway: the runs' values are read from them) and, for each cell
//! that is tested, the q that the Benjamini–Hochberg adjustment over every tested cell gave
//! it. So the run decides in two walks: the first makes each configuration's cells, keeps
//! the p of each tested cell and lets the cells go; the adjustment gives every q; each later
//! walk makes a configuration's cells again, tests them again (the same numbers, from the
//! same values) and settles their verdicts with the q kept for them.

use std::borrow::Cow;
use std::collections::BTreeMap;

use super::cells::{self, Plan};
use super::decide;
use super::matching::Matched;
use super::{Cell, FailOn, Options, Verdict};

/// Where a report's cells come from.
pub enum Cells {
    /// Every cell held, in configuration order (a report made from cells at hand).
    Held(Vec<Cell>),
    /// Made again from the matched sides at each walk.
    Made(Box<Maker>),
}

/// What makes a configuration's cells again, decided.
pub struct Maker {
    matched: Matched,
    plan: Plan,
    /// The (q of "worse", q of "better") of every tested cell, in cell order.
    q: Vec<(f64, f64)>,
    /// For each configuration, where its tested cells start in `q`.
    first_tested: Vec<usize>,
}

impl Maker {
    /// The cells of configuration `ci`, decided.
    fn cells_of(&self, ci: usize, options: &Options) -> Vec<Cell> {
        let (_, mut cells) = cells::of_config(&self.matched, &self.plan, ci, options);
        let tested = decide::test(&mut cells, options);
        let from = self.first_tested[ci];
        let q = self.q.get(from..from + tested.len()).unwrap_or(&[]);
        decide::settle(&mut cells, &tested, q, options);
        cells
    }
}

/// The configurations, the cells made and decided, the runs and the size of the family of
/// the matched sides `m`: the first walk (see the module's documentation).
pub fn decide_all(
    matched: Matched,
    options: &Options,
) -> (Vec<super::Config>, Cells, super::Runs, usize) {
    let plan = Plan::new(&matched, options);
    let mut configs = Vec::with_capacity(matched.groups.len());
    let mut first_tested = Vec::with_capacity(matched.groups.len());
    let (mut p_worse, mut p_better) = (Vec::new(), Vec::new());
    for ci in 0..matched.groups.len() {
        let (config, mut cells) = cells::of_config(&matched, &plan, ci, options);
        first_tested.push(p_worse.len());
        for i in decide::test(&mut cells, options) {
            let stats = cells[i].stats.as_deref();
            p_worse.push(stats.map_or(1.0, |s| s.p_worse));
            p_better.push(stats.map_or(1.0, |s| s.p_better));
        }
        configs.push(config);
    }
    let q = decide::adjust(&p_worse, &p_better);
    let family = q.len();
    let runs = cells::runs_of(&matched);
    let maker = Maker {
        matched,
        plan,
        q,
        first_tested,
    };
    (configs, Cells::Made(Box::new(maker)), runs, family)
}

impl Cells {
    /// Each configuration's cells (one entry for every one of `configs` configurations, in
    /// order, empty for one without cells), decided.
    pub fn by_config<'a>(
        &'a self,
        configs: usize,
        options: &'a Options,
    ) -> Box<dyn Iterator<Item = (usize, Cow<'a, [Cell]>)> + 'a> {
        match self {
            Cells::Held(cells) => {
                let mut of: Vec<Vec<Cell>> = vec![Vec::new(); configs];
                for c in cells {
                    if let Some(list) = of.get_mut(c.config) {
                        list.push(c.clone());
                    }
                }
                Box::new(
                    of.into_iter()
                        .enumerate()
                        .map(|(ci, c)| (ci, Cow::Owned(c))),
                )
            }
            Cells::Made(maker) => {
                Box::new((0..configs).map(move |ci| (ci, Cow::Owned(maker.cells_of(ci, options)))))
            }
        }
    }
}

/// Whether `cell` meets `fail_on`.
pub fn fails(fail_on: FailOn, cell: &Cell) -> bool {
    match fail_on {
        FailOn::None => false,
        FailOn::Regression => cell.verdict == Verdict::Regression,
        FailOn::Confirmed => cell.verdict == Verdict::Regression && cell.confirmed,
        FailOn::Undecided => matches!(
            cell.verdict,
            Verdict::Regression | Verdict::Inconclusive | Verdict::NotDecidable
        ),
    }
}

/// What a report says of all its cells before listing any.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Tally {
    /// Cells per verdict, in [`Verdict`] order.
    pub counts: BTreeMap<Verdict, usize>,
    /// REGRESSION cells whose whole interval is worse than T.
    pub confirmed: usize,
    /// Cells that meet `--fail-on`.
    pub failing: usize,
    /// Every cell.
    pub cells: usize,
}

impl Tally {
    /// Counts `cell` in.
    pub fn add(&mut self, cell: &Cell, fail_on: FailOn) {
        *self.counts.entry(cell.verdict).or_default() += 1;
        self.confirmed += usize::from(cell.verdict == Verdict::Regression && cell.confirmed);
        self.failing += usize::from(fails(fail_on, cell));
        self.cells += 1;
    }

    /// Whether a cell reached the statistics.
    pub fn any_comparable(&self) -> bool {
        self.counts.keys().any(|v| v.is_comparable())
    }
}
