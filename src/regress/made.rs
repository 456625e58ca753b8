//! A report's cells, made again one at a time whenever a reporter walks them, and the counts
//! a report opens with.
//!
//! A run over a corpus of many configurations has a cell for every level and metric of each
//! (140,000 for 10,000 results each its own configuration), and a configuration of thousands
//! of launches has thousands of runs in every cell: held until the report was written, the
//! cells were most of the run's memory. What a cell needs is the matched sides (held anyway:
//! the runs' values are read from them) and, when it is tested, the q that the
//! Benjamini–Hochberg adjustment over every tested cell gave it. So the run decides in two
//! walks: the first makes each cell, keeps the p of each tested cell with the few numbers its
//! verdict is read from, counts the others, and lets each cell go; the adjustment gives every
//! q, and with it every verdict and the counts; each later walk (a reporter's) makes the cells
//! again, tests them again (the same numbers, from the same values) and settles their
//! verdicts with the q kept for them.

use std::collections::BTreeMap;

use super::cells::{self, ConfigCells, Plan};
use super::decide::{self, Tested};
use super::matching::Matched;
use super::{Cell, Config, FailOn, Options, Runs, Verdict};

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

/// A configuration's cells made again and decided, one at a time.
struct Decided<'a> {
    cells: ConfigCells<'a>,
    q: &'a [(f64, f64)],
    options: &'a Options,
}

impl Iterator for Decided<'_> {
    type Item = Cell;

    fn next(&mut self) -> Option<Cell> {
        let mut cell = self.cells.next()?;
        if decide::test_cell(&mut cell, self.options)
            && let Some((&q, rest)) = self.q.split_first()
        {
            decide::settle_cell(&mut cell, q, self.options);
            self.q = rest;
        }
        Some(cell)
    }
}

/// A report's first walk over the matched sides `matched`: the configurations, the cells to
/// be made again, the runs, the size of the family and the counts (see the module's
/// documentation). A tested cell's verdict is known once the family is adjusted; what it is
/// read from is kept meanwhile, a few numbers a cell, so that the counts need no second walk.
pub fn decide_all(matched: Matched, options: &Options) -> (Vec<Config>, Cells, Runs, usize, Tally) {
    let plan = Plan::new(&matched, options);
    let mut configs = Vec::with_capacity(matched.groups.len());
    let mut first_tested = Vec::with_capacity(matched.groups.len());
    let mut tested: Vec<Tested> = Vec::new();
    let mut tally = Tally::default();
    for ci in 0..matched.groups.len() {
        first_tested.push(tested.len());
        let mut made = cells::cells_of(&matched, &plan, ci, options);
        for mut cell in made.by_ref() {
            if decide::test_cell(&mut cell, options)
                && let Some(t) = Tested::of(&cell)
            {
                tested.push(t);
            } else {
                tally.add(&cell, options.fail_on);
            }
        }
        let mut config = cells::config_of(&matched, ci);
        config.notes = made.notes();
        configs.push(config);
    }
    let p_worse: Vec<f64> = tested.iter().map(|t| t.p_worse).collect();
    let p_better: Vec<f64> = tested.iter().map(|t| t.p_better).collect();
    let q = decide::adjust(&p_worse, &p_better);
    drop((p_worse, p_better));
    for (t, &q) in tested.iter().zip(&q) {
        let (verdict, confirmed) = t.verdict(q, options);
        tally.add_verdict(verdict, confirmed, options.fail_on);
    }
    drop(tested);
    let family = q.len();
    let runs = cells::runs_of(&matched);
    let maker = Maker {
        matched,
        plan,
        q,
        first_tested,
    };
    (configs, Cells::Made(Box::new(maker)), runs, family, tally)
}

/// A configuration's cells, made one at a time.
pub type CellsOf<'a> = Box<dyn Iterator<Item = Cell> + 'a>;

impl Cells {
    /// Each configuration's cells (one entry for every one of `configs` configurations, in
    /// order, empty for one without cells), decided, made as they are asked for.
    pub fn by_config<'a>(
        &'a self,
        configs: usize,
        options: &'a Options,
    ) -> Box<dyn Iterator<Item = (usize, CellsOf<'a>)> + 'a> {
        match self {
            Cells::Held(cells) => {
                let mut of: Vec<Vec<&Cell>> = vec![Vec::new(); configs];
                for c in cells {
                    if let Some(list) = of.get_mut(c.config) {
                        list.push(c);
                    }
                }
                Box::new(of.into_iter().enumerate().map(|(ci, list)| {
                    let cells: CellsOf<'a> = Box::new(list.into_iter().cloned());
                    (ci, cells)
                }))
            }
            Cells::Made(maker) => Box::new((0..configs).map(move |ci| {
                let from = maker.first_tested.get(ci).copied().unwrap_or(0);
                let cells: CellsOf<'a> = Box::new(Decided {
                    cells: cells::cells_of(&maker.matched, &maker.plan, ci, options),
                    q: maker.q.get(from..).unwrap_or(&[]),
                    options,
                });
                (ci, cells)
            })),
        }
    }
}

/// Whether `cell` meets `fail_on`.
pub fn fails(fail_on: FailOn, cell: &Cell) -> bool {
    fails_as(fail_on, cell.verdict, cell.confirmed)
}

/// Whether a cell of `verdict`, `confirmed` or not, meets `fail_on`.
fn fails_as(fail_on: FailOn, verdict: Verdict, confirmed: bool) -> bool {
    match fail_on {
        FailOn::None => false,
        FailOn::Regression => verdict == Verdict::Regression,
        FailOn::Confirmed => verdict == Verdict::Regression && confirmed,
        FailOn::Undecided => matches!(
            verdict,
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
        self.add_verdict(cell.verdict, cell.confirmed, fail_on);
    }

    /// Counts in a cell of `verdict`, `confirmed` or not.
    pub fn add_verdict(&mut self, verdict: Verdict, confirmed: bool, fail_on: FailOn) {
        *self.counts.entry(verdict).or_default() += 1;
        self.confirmed += usize::from(verdict == Verdict::Regression && confirmed);
        self.failing += usize::from(fails_as(fail_on, verdict, confirmed));
        self.cells += 1;
    }

    /// Whether a cell reached the statistics.
    pub fn any_comparable(&self) -> bool {
        self.counts.keys().any(|v| v.is_comparable())
    }
}
