//! What the regression reporters share: the words and numbers of a cell as every format shows
//! them (centre and interval of a side, the change with its interval, q), the order cells are
//! listed in (failing cells first, worst first), and the headline counts.

use std::fmt::Write as _;

use crate::numbers::num;
use crate::regress::{Cell, Report, SideCell, Verdict};

/// A fraction as a signed percentage with one decimal (`+8.1%`, `-0.5%`).
pub fn signed_pct(x: f64) -> String {
    format!("{:+.1}%", x * 100.0)
}

/// A fraction as an unsigned percentage with one decimal.
pub fn pct(x: f64) -> String {
    format!("{:.1}%", x * 100.0)
}

/// `5210 ±1.4%`: a side's centre and the half-width of its 95% interval.
pub fn side_center(s: Option<&SideCell>) -> String {
    match s.and_then(SideCell::center) {
        Some(c) => match s.and_then(SideCell::ci_fraction) {
            Some(ci) => format!("{} ±{}", num(c), pct(ci)),
            None => format!("{} ±?", num(c)),
        },
        None => "–".into(),
    }
}

/// The launch CV and the launches and runs behind a side: `1.1% k=3 r=3`.
pub fn side_spread(s: Option<&SideCell>) -> String {
    match s {
        Some(s) => {
            let cv = s.cv().map_or_else(|| "–".into(), pct);
            format!("{cv} k={} r={}", s.launches.len(), s.run_count())
        }
        None => "–".into(),
    }
}

/// `+8.1% [+7.0, +9.2]`, or `–` for a cell without statistics.
pub fn change(c: &Cell) -> String {
    match &c.stats {
        Some(s) => {
            let (lo, hi) = s.change_ci();
            format!(
                "{} [{:+.1}, {:+.1}]",
                signed_pct(s.change()),
                lo * 100.0,
                hi * 100.0
            )
        }
        None => "–".into(),
    }
}

/// The q of the one-sided test in the direction of the estimate.
pub fn q(c: &Cell) -> String {
    let Some(s) = &c.stats else {
        return "–".into();
    };
    let q = if s.d >= 0.0 { c.q_worse } else { c.q_better };
    match q {
        Some(v) if v < 0.001 => "<0.001".into(),
        Some(v) => format!("{v:.3}"),
        None => "–".into(),
    }
}

/// How bad a cell is, for ordering: failing first, then by verdict, then by the size of the
/// change toward worse, then by `place`, the cell's place among all cells (so that ties keep
/// configuration, level and metric order).
pub type Badness = (u8, Verdict, i64, usize);

/// The [`Badness`] of `c`, the cell at `place`.
pub fn badness(report: &Report, c: &Cell, place: usize) -> Badness {
    let worse = c.stats.as_deref().map_or(0.0, |s| s.d);
    #[expect(
        clippy::cast_possible_truncation,
        reason = "a rank key, rounded on purpose"
    )]
    let key = -(worse * 1e6).round() as i64;
    (u8::from(!report.fails(c)), c.verdict, key, place)
}

/// The worst of the cells offered, worst first, with what a reporter shows of each (a line):
/// at most `keep` of them, or the fewest whose lines reach `bytes` in all, whichever is
/// fewer. A report's cells are walked a configuration at a time, so a list of the worst is
/// gathered as they pass, holding what it may print, never every cell; a line is made only
/// for a cell that is kept when offered.
pub struct Worst {
    keep: usize,
    bytes: usize,
    held: std::collections::BinaryHeap<(Badness, String)>,
    held_bytes: usize,
    offered: usize,
}

impl Worst {
    /// At most `keep` cells.
    pub fn counted(keep: usize) -> Self {
        Worst {
            keep,
            bytes: usize::MAX,
            held: std::collections::BinaryHeap::new(),
            held_bytes: 0,
            offered: 0,
        }
    }

    /// The fewest cells whose lines reach `bytes`: past them, nothing printed is kept.
    pub fn sized(bytes: usize) -> Self {
        Worst {
            bytes,
            ..Worst::counted(usize::MAX)
        }
    }

    /// Offers the cell of `key`, whose line `line` makes.
    pub fn offer(&mut self, key: Badness, line: impl FnOnce() -> String) {
        self.offered += 1;
        if self.keep == 0 {
            return;
        }
        // A cell after the last held, when those held are already enough, is never shown.
        let full = self.held.len() >= self.keep || self.held_bytes >= self.bytes;
        if full && self.held.peek().is_some_and(|(last, _)| key > *last) {
            return;
        }
        let line = line();
        self.held_bytes += line.len();
        self.held.push((key, line));
        while self.held.len() > self.keep
            || self
                .held
                .peek()
                .is_some_and(|(_, last)| self.held_bytes - last.len() >= self.bytes)
        {
            if let Some((_, last)) = self.held.pop() {
                self.held_bytes -= last.len();
            }
        }
    }

    /// How many cells were offered.
    pub fn offered(&self) -> usize {
        self.offered
    }

    /// The lines held, worst first.
    pub fn into_lines(self) -> Vec<String> {
        self.held
            .into_sorted_vec()
            .into_iter()
            .map(|(_, line)| line)
            .collect()
    }
}

/// `2 × REGRESSION (1 confirmed) · 31 × EQUIVALENT · ...`.
pub fn headline_counts(report: &Report) -> String {
    let mut parts = Vec::new();
    for (v, n) in report.counts() {
        let mut s = format!("{n} × {}", v.word(false));
        if v == Verdict::Regression {
            let confirmed = report.tally.confirmed;
            if confirmed > 0 {
                let _ = write!(s, " ({confirmed} confirmed)");
            }
        }
        parts.push(s);
    }
    parts.join(" · ")
}

/// The footnote of an inconclusive cell: launches per side that would settle it.
pub fn launches_note(c: &Cell, threshold: f64) -> Option<String> {
    let need = c.launches_needed?;
    let cv = |s: Option<&SideCell>| s.and_then(SideCell::cv);
    let spread = cv(c.base.as_deref())
        .into_iter()
        .chain(cv(c.head.as_deref()))
        .fold(0.0f64, f64::max);
    let have = format!(
        "{}+{}",
        c.base.as_deref().map_or(0, |s| s.launches.len()),
        c.head.as_deref().map_or(0, |s| s.launches.len())
    );
    let n = match need {
        crate::stats::LaunchesNeeded::PerSide(n) => format!("≈ {n} launches per side"),
        crate::stats::LaunchesNeeded::Beyond => {
            format!("more than {} launches per side", crate::stats::MAX_LAUNCHES)
        }
    };
    Some(format!(
        "need {n} to resolve ±{} at launch CV {} (have {have})",
        crate::regress::decide::pct(threshold),
        pct(spread)
    ))
}

/// The exit policy in one sentence.
pub fn exit_words(report: &Report) -> String {
    match report.exit_code {
        0 => format!(
            "exit 0: no cell meets --fail-on {}",
            report.options.fail_on.as_str()
        ),
        1 => format!(
            "exit 1: {} --fail-on {}",
            crate::numbers::plural(report.tally.failing, "cell meets", "cells meet"),
            report.options.fail_on.as_str()
        ),
        _ => format!(
            "exit 2: {}",
            report
                .no_comparable
                .as_deref()
                .unwrap_or("no comparable cell")
        ),
    }
}
