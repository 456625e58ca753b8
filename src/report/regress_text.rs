//! The terminal table of `benchlint regress`, in benchstat's spirit: one block per
//! configuration, a row per level and metric with BASE's centre, interval and launch CV,
//! HEAD's, the change with its 95% interval, q and the verdict; failing cells marked `✗`;
//! footnotes for the launches an inconclusive cell needs and for every reason. Text from the
//! files (labels, versions, reasons) is escaped for a terminal or a CI log
//! ([`crate::text::FileText::line`]).

use std::fmt::Write as _;

use comfy_table::{CellAlignment, Table, presets};

use super::regress_common::{
    change, exit_words, headline_counts, launches_note, q, side_center, side_spread,
};
use crate::regress::Report;

/// Renders `report` as the terminal table.
pub fn render(report: &Report) -> Vec<u8> {
    let mut out = Vec::new();
    // Writing into memory cannot fail.
    let _ = render_to(report, &mut out);
    out
}

/// [`render`], written to `sink` a configuration at a time: the table of a corpus of thousands
/// of configurations is tens of megabytes, and is never held whole.
///
/// # Errors
///
/// Whatever writing to `sink` returns.
pub fn render_to(report: &Report, sink: &mut dyn std::io::Write) -> std::io::Result<()> {
    let o = &report.options;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "benchlint regress: T = {}, α = {} (one-sided toward worse, Benjamini–Hochberg over m = {} cells{})",
        crate::regress::decide::pct(o.threshold),
        o.alpha,
        report.family,
        if report.control {
            ", noise floor from --control"
        } else {
            ""
        }
    );
    for (ci, cells) in report.by_config() {
        let config = &report.configs[ci];
        let mut cells = cells.peekable();
        if cells.peek().is_none() {
            continue;
        }
        let join = |v: &[crate::text::FileText]| {
            v.iter()
                .map(|t| t.line().into_owned())
                .collect::<Vec<_>>()
                .join(", ")
        };
        let _ = write!(
            out,
            "\nconfig {}: {}{}\nBASE {}  HEAD {}\n",
            config.fingerprint,
            config.label.line(),
            if config.speculative { " [SD]" } else { "" },
            join(&config.versions.0),
            join(&config.versions.1),
        );
        let mut table = Table::new();
        table.load_style(presets::UTF8_FULL_CONDENSED);
        table.force_no_tty();
        table.set_header(vec![
            "level",
            "metric",
            "BASE",
            "cv k r",
            "HEAD",
            "cv k r",
            "vs base [95% CI]",
            "q",
            "verdict",
        ]);
        // Each note once, numbered as first met; found by its text, not by reading the notes
        // so far for each cell.
        let mut notes: Vec<String> = Vec::new();
        let mut note_of: std::collections::HashMap<String, usize> =
            std::collections::HashMap::new();
        for c in cells {
            let c = &c;
            let mut verdict = c.verdict.word(c.confirmed).to_string();
            if report.fails(c) {
                verdict = format!("✗ {verdict}");
            }
            if !c.codes.is_empty() {
                let _ = write!(verdict, " ({})", c.codes.join(", "));
            }
            let mut parts: Vec<String> = launches_note(c, o.threshold).into_iter().collect();
            parts.extend(c.reasons.iter().map(|r| r.line().into_owned()));
            if !parts.is_empty() {
                let text = parts.join("; ");
                let at = *note_of.entry(text).or_insert_with_key(|text| {
                    notes.push(text.clone());
                    notes.len() - 1
                });
                let _ = write!(verdict, " [{}]", at + 1);
            }
            table.add_row(vec![
                c.level.value_text(),
                format!("{} {}", c.metric.as_str(), c.metric.arrow()),
                side_center(c.base.as_deref()),
                side_spread(c.base.as_deref()),
                side_center(c.head.as_deref()),
                side_spread(c.head.as_deref()),
                change(c),
                q(c),
                verdict,
            ]);
        }
        for col in [0, 2, 3, 4, 5, 6, 7] {
            if let Some(column) = table.column_mut(col) {
                column.set_cell_alignment(CellAlignment::Right);
            }
        }
        out.push_str(&table.to_string());
        out.push('\n');
        for (n, note) in notes.iter().enumerate() {
            let _ = writeln!(out, "  [{}] {note}", n + 1);
        }
        for note in &config.notes {
            let _ = writeln!(out, "  note: {}", note.line());
        }
        sink.write_all(out.as_bytes())?;
        out.clear();
    }
    let _ = write!(
        out,
        "\n{}\n{}\n",
        headline_counts(report),
        exit_words(report)
    );
    let _ = writeln!(
        out,
        "Each launch is the median of its runs; BASE and HEAD: geometric mean of the launches \
         ±95% t interval; cv: launch CV; k launches, r runs. vs base: change of HEAD from BASE \
         with its 95% Welch interval on the log ratio; q: Benjamini–Hochberg adjusted one-sided \
         p in the direction of the change. ↑ higher is better, ↓ lower is better.{}",
        if report.tally.failing > 0 {
            " ✗: the cell fails the run."
        } else {
            ""
        }
    );
    sink.write_all(out.as_bytes())
}
