//! `benchlint regress --format markdown`: a pull-request comment or `$GITHUB_STEP_SUMMARY`.
//! A headline, the failing cells first, then per configuration its full table and a text
//! picture of the two ladders (each level's BASE and HEAD intervals on one axis), then the
//! method. Kept under GitHub's 1 MiB summary limit: past [`LIMIT`], configuration details are
//! left out from the last one up (the failing cells, the headline and the method always stay),
//! and the summary says how many were left out. Text from the files is escaped for Markdown
//! ([`crate::text::FileText::md`]).

use std::fmt::Write as _;

use super::regress_common::{
    Worst, badness, change, exit_words, headline_counts, launches_note, q, side_center, side_spread,
};
use crate::regress::{Cell, RegressMetric, Report, SideCell};

/// The most bytes written: under GitHub's 1024k step summary cap, with room for what a job
/// appends around it.
pub const LIMIT: usize = 1_000_000;

/// Width of a ladder picture's axis, in characters.
const WIDTH: usize = 40;

const HEADER: &str = "| level | metric | BASE | cv k r | HEAD | cv k r | vs base [95% CI] | q | verdict |\n\
                      |---:|---|---:|---:|---:|---:|---:|---:|---|\n";

fn row(report: &Report, c: &Cell, with_config: bool) -> String {
    let mut verdict = c.verdict.word(c.confirmed).to_string();
    if report.fails(c) {
        verdict = format!("❌ **{verdict}**");
    }
    if !c.codes.is_empty() {
        let _ = write!(verdict, " ({})", c.codes.join(", "));
    }
    let mut notes: Vec<String> = c.reasons.iter().map(|r| r.md()).collect();
    notes.extend(launches_note(c, report.options.threshold));
    if !notes.is_empty() {
        let _ = write!(verdict, "<br>{}", notes.join("<br>"));
    }
    let level = if with_config {
        format!(
            "`{}` {}",
            report.configs[c.config].fingerprint,
            c.level.value_text()
        )
    } else {
        c.level.value_text()
    };
    format!(
        "| {level} | {} {} | {} | {} | {} | {} | {} | {} | {verdict} |\n",
        c.metric.as_str(),
        c.metric.arrow(),
        side_center(c.base.as_deref()),
        side_spread(c.base.as_deref()),
        side_center(c.head.as_deref()),
        side_spread(c.head.as_deref()),
        change(c),
        q(c),
    )
}

/// The 95% interval of a side's launch mean, in the metric's unit.
fn interval(s: &SideCell) -> Option<(f64, f64, f64)> {
    let c = s.center()?;
    let h = s.ci_fraction().unwrap_or(0.0);
    Some((c / (1.0 + h), c, c * (1.0 + h)))
}

/// One side's bar on the axis `[lo, hi]`.
fn bar(iv: (f64, f64, f64), lo: f64, hi: f64) -> String {
    #[expect(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        clippy::cast_precision_loss,
        reason = "a position on a 40-character axis"
    )]
    let at = |x: f64| -> usize {
        let f = if hi > lo { (x - lo) / (hi - lo) } else { 0.5 };
        ((f * (WIDTH - 1) as f64)
            .round()
            .clamp(0.0, (WIDTH - 1) as f64)) as usize
    };
    let (a, m, b) = (at(iv.0), at(iv.1), at(iv.2));
    (0..WIDTH)
        .map(|i| {
            if i == m {
                '●'
            } else if i == a {
                '['
            } else if i == b {
                ']'
            } else if i > a && i < b {
                '━'
            } else {
                '·'
            }
        })
        .collect()
}

/// What the picture of a configuration draws of one cell: its metric, whether the cell
/// chooses the picture's metric (the first with comparable cells on both sides), and the two
/// lines of its intervals when both sides have one.
type PictureCell = (RegressMetric, bool, Option<String>);

/// [`PictureCell`] of `c`.
fn picture_cell(c: &Cell) -> PictureCell {
    let chooses = c.base.is_some() && c.head.is_some() && c.verdict.is_comparable();
    let lines = match (
        c.base.as_deref().and_then(interval),
        c.head.as_deref().and_then(interval),
    ) {
        (Some(b), Some(h)) => {
            let lo = b.0.min(h.0);
            let hi = b.2.max(h.2);
            let pad = (hi - lo) * 0.1;
            let (lo, hi) = (lo - pad, hi + pad);
            let level = c.level.value_text();
            let mut out = String::new();
            let _ = writeln!(
                out,
                "{level:>6}  B {}  {}",
                bar(b, lo, hi),
                side_center(c.base.as_deref())
            );
            let _ = writeln!(
                out,
                "{:>6}  H {}  {}  {}",
                "",
                bar(h, lo, hi),
                side_center(c.head.as_deref()),
                c.verdict.word(c.confirmed)
            );
            Some(out)
        }
        _ => None,
    };
    (c.metric, chooses, lines)
}

/// The picture of one configuration: for its first metric with comparable cells, each level's
/// BASE and HEAD intervals side by side on that level's own axis.
fn picture(cells: &[PictureCell]) -> Option<String> {
    let metric = cells.iter().find(|(_, chooses, _)| *chooses)?.0;
    let mut out = format!(
        "```text\n{} {} — each level: BASE (B) and HEAD (H), 95% interval of the launch mean, ● centre\n",
        metric.as_str(),
        metric.arrow()
    );
    for (_, _, lines) in cells.iter().filter(|(m, _, _)| *m == metric) {
        if let Some(lines) = lines {
            out.push_str(lines);
        }
    }
    out.push_str("```\n");
    Some(out)
}

/// The details of one configuration, made as its cells pass.
#[derive(Default)]
struct Details {
    cells: usize,
    failing: usize,
    rows: String,
    picture: Vec<PictureCell>,
}

impl Details {
    fn add(&mut self, report: &Report, c: &Cell) {
        self.cells += 1;
        self.failing += usize::from(report.fails(c));
        self.rows.push_str(&row(report, c, false));
        self.picture.push(picture_cell(c));
    }

    /// The block of configuration `ci`, or none for a configuration without cells.
    fn finish(self, report: &Report, ci: usize) -> Option<String> {
        if self.cells == 0 {
            return None;
        }
        let config = &report.configs[ci];
        let failing = self.failing;
        let join = |v: &[crate::text::FileText]| {
            v.iter()
                .map(crate::text::FileText::md)
                .collect::<Vec<_>>()
                .join(", ")
        };
        let mut out = format!(
            "<details{}><summary><code>{}</code> {}{} — BASE {} · HEAD {}{}</summary>\n\n",
            if failing > 0 { " open" } else { "" },
            config.fingerprint,
            config.label.md(),
            if config.speculative { " [SD]" } else { "" },
            join(&config.versions.0),
            join(&config.versions.1),
            if failing > 0 {
                format!(" — ❌ {failing} failing")
            } else {
                String::new()
            }
        );
        for n in &config.notes {
            let _ = writeln!(out, "- note: {}", n.md());
        }
        if !config.notes.is_empty() {
            out.push('\n');
        }
        out.push_str(HEADER);
        out.push_str(&self.rows);
        out.push('\n');
        if let Some(p) = picture(&self.picture) {
            out.push_str(&p);
        }
        out.push_str("\n</details>\n\n");
        Some(out)
    }
}

/// Renders `report` as Markdown, under [`LIMIT`] bytes.
pub fn render(report: &Report) -> Vec<u8> {
    render_within(report, LIMIT)
}

/// [`render`] under `limit` bytes (at least a few thousand).
fn render_within(report: &Report, limit: usize) -> Vec<u8> {
    let o = &report.options;
    let t = crate::regress::decide::pct(o.threshold);
    // One walk: the failing rows, worst first, those that fit under the limit (the rest are
    // cut); and each configuration's details while they may fit, from the first on (past the
    // first that cannot, every later one is left out, so that what is shown is a prefix; the
    // cut is made below, once the headline's length is known).
    let mut failing = Worst::sized(limit);
    let mut place = 0;
    let mut blocks: Vec<String> = Vec::new();
    let mut total = 0;
    let mut past = 0;
    for (ci, cells) in report.by_config() {
        let mut details = Details::default();
        for c in cells {
            if report.fails(&c) {
                failing.offer(badness(report, &c, place), || row(report, &c, true));
            }
            place += 1;
            if total > limit {
                details.cells += 1;
            } else {
                details.add(report, &c);
            }
        }
        if total > limit {
            past += usize::from(details.cells > 0);
        } else if let Some(block) = details.finish(report, ci) {
            total += block.len();
            blocks.push(block);
        }
    }
    let failing_rows = failing.into_lines();
    let mut head = String::from("## benchlint regress\n\n");
    let _ = writeln!(
        head,
        "{}\n",
        match report.exit_code {
            2 => format!(
                "⚠️ **Nothing could be compared**: {}",
                report
                    .no_comparable
                    .as_deref()
                    .unwrap_or("no comparable cell")
            ),
            1 => format!(
                "❌ **{} fail --fail-on {}** (T = {t})",
                crate::numbers::plural(report.tally.failing, "cell", "cells"),
                o.fail_on.as_str()
            ),
            _ => format!(
                "✅ **No cell fails --fail-on {}** (T = {t})",
                o.fail_on.as_str()
            ),
        }
    );
    let _ = writeln!(head, "{}\n", headline_counts(report));
    if !failing_rows.is_empty() {
        head.push_str("### Failing cells\n\n");
        head.push_str(&HEADER.replacen("| level |", "| configuration, level |", 1));
        for r in &failing_rows {
            head.push_str(r);
        }
        head.push('\n');
    }
    let footer = format!(
        "---\n{}. Each launch (one engine start) is the median of its runs; the change is the \
         difference of the mean log launch summaries with its {:.0}% Welch interval; q is \
         Benjamini–Hochberg adjusted over m = {} cells (one-sided, in the direction of the \
         change); EQUIVALENT is TOST within ±{t} at α = {}; the noise floor is the larger of the \
         static floor and a same-vs-same control{}.\n",
        exit_words(report),
        (1.0 - o.alpha) * 100.0,
        report.family,
        o.alpha,
        if report.control {
            " (--control)"
        } else {
            " (BASE launches)"
        }
    );
    let fixed = head.len() + footer.len() + 200;
    let mut dropped = past;
    while fixed + total > limit {
        let Some(last) = blocks.pop() else { break };
        total -= last.len();
        dropped += 1;
    }
    let mut out = head;
    if !blocks.is_empty() {
        out.push_str("### By configuration\n\n");
    }
    for b in &blocks {
        out.push_str(b);
    }
    if dropped > 0 {
        let _ = writeln!(
            out,
            "_{} left out to stay under GitHub's 1 MiB summary limit; `--format json` holds every cell._\n",
            crate::numbers::plural(dropped, "configuration", "configurations")
        );
    }
    out.push_str(&footer);
    // A single failing table larger than the limit is cut at a row boundary.
    if out.len() > limit {
        let mut end = limit - 200;
        while !out.is_char_boundary(end) {
            end -= 1;
        }
        let cut = out[..end].rfind('\n').unwrap_or(0);
        out.truncate(cut);
        out.push_str("\n\n_Cut to stay under GitHub's 1 MiB summary limit; `--format json` holds every cell._\n");
    }
    out.into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::LevelKey;
    use crate::regress::{Config, Launch, Options, RegressMetric, SideCell, Verdict};
    use crate::text::FileText;

    fn side(v: f64) -> SideCell {
        SideCell {
            launches: (0..3)
                .map(|i| Launch {
                    value: v * (1.0 + 0.01 * f64::from(i)),
                    runs: 0..0,
                })
                .collect(),
            ..SideCell::default()
        }
    }

    /// Configuration `i`, its fingerprint its number, labelled `label`.
    fn config(i: usize, label: String) -> Config {
        Config {
            label: FileText::new(label),
            fingerprint: format!("{i:012x}"),
            versions: (Vec::new(), Vec::new()),
            speculative: false,
            mismatches: Vec::new(),
            notes: Vec::new(),
        }
    }

    /// The report of `cells`, decided, of `configs`, with the default options.
    fn held(configs: Vec<Config>, cells: Vec<Cell>) -> Report {
        Report::of_cells(
            Options::default(),
            configs,
            cells,
            crate::regress::Runs::default(),
        )
    }

    #[test]
    fn a_huge_report_stays_under_the_limit_and_keeps_every_failing_cell() {
        let configs: Vec<Config> = (0..3000)
            .map(|i| {
                let mut c = config(i, format!("model-{i} · vllm · 8 × H100 · workload {i}"));
                c.versions = (vec![FileText::new("0.11.0")], vec![FileText::new("0.11.1")]);
                c
            })
            .collect();
        let mut cells = Vec::new();
        for ci in 0..configs.len() {
            for (li, metric) in RegressMetric::ALL.into_iter().enumerate() {
                let mut c = crate::regress::cells::blank_cell(
                    ci,
                    LevelKey::Streams(1 << li),
                    metric,
                    Verdict::Equivalent,
                );
                c.base = Some(Box::new(side(100.0)));
                c.head = Some(Box::new(side(100.0)));
                // One failing cell in every hundredth configuration.
                if ci % 100 == 0 && li == 0 {
                    c.verdict = Verdict::Regression;
                }
                cells.push(c);
            }
        }
        let report = held(configs, cells);
        assert_eq!(report.exit_code, 1);
        let md = String::from_utf8(render(&report)).unwrap();
        assert!(md.len() <= LIMIT, "{}", md.len());
        let failing_rows = md
            .split("### By configuration")
            .next()
            .unwrap()
            .matches("❌ **REGRESSION**")
            .count();
        assert_eq!(failing_rows, 30);
        assert!(md.contains("left out to stay under GitHub's 1 MiB summary limit"));
        assert!(
            md.trim_end().ends_with("(BASE launches)."),
            "{}",
            &md[md.len() - 300..]
        );
    }

    /// Drawn reports under drawn limits: what is shown of the configurations is their first
    /// blocks in order, as many as fit, and the rest are counted as left out.
    #[test]
    fn the_configurations_shown_are_the_first_that_fit() {
        let mut state = 17;
        for case in 0..150 {
            let n = crate::seeded::below(&mut state, 40);
            let configs: Vec<Config> = (0..n)
                .map(|i| config(i, format!("model-{i} · vllm")))
                .collect();
            let mut cells = Vec::new();
            let mut with_cells = Vec::new();
            for ci in 0..n {
                let k = crate::seeded::below(&mut state, 8);
                if k > 0 {
                    with_cells.push(format!("{ci:012x}"));
                }
                for li in 0..k {
                    let verdict = if crate::seeded::below(&mut state, 6) == 0 {
                        Verdict::Regression
                    } else {
                        Verdict::Equivalent
                    };
                    let mut c = crate::regress::cells::blank_cell(
                        ci,
                        LevelKey::Streams(1 << li),
                        RegressMetric::ALL[li % RegressMetric::ALL.len()],
                        verdict,
                    );
                    c.base = Some(Box::new(side(100.0)));
                    c.head = Some(Box::new(side(
                        90.0 + 3.0 * f64::from(u8::try_from(li).unwrap_or(0)),
                    )));
                    cells.push(c);
                }
            }
            let report = held(configs, cells);
            let limit = 3_000 + crate::seeded::below(&mut state, 40_000);
            let md = String::from_utf8(render_within(&report, limit)).unwrap();
            assert!(md.len() <= limit, "case {case}: {} > {limit}", md.len());
            let whole = String::from_utf8(render_within(&report, usize::MAX / 2)).unwrap();
            let shown: Vec<&str> = md
                .split("<details")
                .skip(1)
                .filter_map(|b| b.split("<code>").nth(1)?.split("</code>").next())
                .collect();
            assert_eq!(shown[..], with_cells[..shown.len()], "case {case}");
            let cut = md.contains("_Cut to stay under");
            if !cut {
                let left = with_cells.len() - shown.len();
                if left > 0 {
                    let said = format!(
                        "{} left out",
                        crate::numbers::plural(left, "configuration", "configurations")
                    );
                    assert!(md.contains(&said), "case {case}: {said}");
                    // The next block would not have fitted.
                    let next = whole
                        .split("<details")
                        .nth(shown.len() + 1)
                        .map_or(0, str::len);
                    assert!(md.len() + next > limit - 200, "case {case}");
                } else {
                    assert_eq!(md, whole, "case {case}");
                }
            }
        }
    }
}
