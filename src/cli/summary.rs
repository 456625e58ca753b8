//! `benchlint summary [PATH..]`: per configuration and level, the median, minimum, maximum, n,
//! launches, CV and 95% interval of throughput, with the per-user median and TTFT p50 beside
//! them (seed 004: "Report median, minimum and maximum, the number of runs, and the coefficient
//! of variation"; DESIGN.md "Statistics").
//!
//! Formats: `table` (comfy-table, one table per configuration), `markdown`, `csv` (one row per
//! configuration and level) and `json`. A value that is not defined (the CV of one run, the
//! interval of one run) is `–` in the table and in Markdown, an empty cell in CSV and `null` in
//! JSON: never NaN. A CV above the S005 threshold is marked `!`.
//!
//! A result that does not record its model name, engine name, device model, precision or
//! workload is a configuration of its own (DESIGN.md conventions, "unknown is never equal to
//! unknown"): its table says so and what is missing (`unidentified` in JSON, empty for an
//! identified configuration), and it gets no interval, since one run of an unknown
//! configuration is not pooled with another.
//!
//! The corpus is read as `check` reads it: with the config found upward from the first path
//! (or `--config FILE`; none with `--isolated`), so its limits, `max_cv` and sidecar globs
//! apply, and with only what the summary reads kept of each result.
//!
//! Labels are made of what the files record (model and engine names): each format masks and
//! escapes them (`crate::text`), so a model name cannot start a line of its own in a CI log,
//! colour a terminal or inject markup.

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::io::{IsTerminal, Write};
use std::path::PathBuf;

use clap::ValueEnum;
use comfy_table::{CellAlignment, Table, presets};

use super::{EXIT_CLEAN, Output};
use crate::corpus;
use crate::model::LoadAxis;
use crate::numbers::fixed;
use crate::numbers::plural;
use crate::replication::{ConfigSummary, LevelSummary, Order, SpooledCorpus, spooled_summaries};

/// Arguments of `summary`.
#[derive(Debug, clap::Args)]
pub struct SummaryArgs {
    /// Files and folders to summarise (default: the current folder).
    pub paths: Vec<PathBuf>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = SummaryFormat::Table)]
    pub format: SummaryFormat,
    /// The config file to use instead of the `benchlint.toml` found upward from the first
    /// path (its limits, `max_cv` and sidecars apply).
    #[arg(long, value_name = "FILE", conflicts_with = "isolated")]
    pub config: Option<PathBuf>,
    /// Ignore every config file.
    #[arg(long)]
    pub isolated: bool,
}

/// Output formats of `summary`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum SummaryFormat {
    /// One table per configuration.
    Table,
    /// One JSON document.
    Json,
    /// One row per configuration and level.
    Csv,
    /// Markdown tables, one per configuration.
    Markdown,
}

/// What is shown for a value that is not defined.
const UNDEFINED: &str = "–";

/// Runs `summary`; a path that does not exist is an error (exit 2).
pub fn run(args: &SummaryArgs) -> Result<Output, String> {
    let paths = if args.paths.is_empty() {
        vec![PathBuf::from(".")]
    } else {
        args.paths.clone()
    };
    // A path that does not exist is a bad argument here: there is nothing to summarise.
    if let Some(missing) = paths.iter().find(|p| !p.exists()) {
        return Err(format!("`{}` does not exist", missing.display()));
    }
    // As `check` reads the corpus: the config's limits, thresholds and sidecars, and only
    // what the summary reads kept of each result.
    let options = match super::audit::config_options(&paths, args.config.as_deref(), args.isolated)
    {
        Ok(o) => crate::corpus::Options {
            drop_claims: true,
            put_away: true,
            // No finding is shown but a count of the inputs that could not be read: the other
            // rules' findings would be made, thrown away, and fill the caps that count is
            // bounded by.
            selection: o.selection.clone().only(&corpus::UNREADABLE),
            ..o
        },
        Err(rendered) => {
            let _ = std::io::stderr().write_all(rendered.as_bytes());
            return Ok(Output::stdout(Vec::new(), super::EXIT_TROUBLE));
        }
    };
    // Each result is put away in a temporary file as it is read, and each configuration's runs
    // read back when the summary reaches it: with every result its own configuration, holding
    // them all (or only their fingerprints) grew with the corpus.
    let mut spooled = SpooledCorpus::new(Order::LabelFingerprint);
    let mut corpus = corpus::load_results_into(&paths, &options, &mut |r| spooled.keep(&r));
    let problems = corpus
        .findings
        .iter()
        .filter(|f| corpus::says_unreadable(f.rule.code))
        .count();
    if problems > 0 {
        let _ = writeln!(
            std::io::stderr(),
            "benchlint: warning: {} could not be read; `benchlint check` lists {}",
            plural(problems, "input", "inputs"),
            if problems == 1 { "it" } else { "them" }
        );
    }
    let max_cv = options.thresholds.max_cv;
    // Each configuration's summary is made, written and let go in turn: with every result its
    // own configuration, the summaries of all of them would outweigh the results. A closed
    // pipe (`summary | head`) ends the writing, as it is no error. An error reading the
    // results back ends it too, and is said.
    let mut unread = None;
    let mut configs = spooled_summaries(spooled, max_cv)
        .map_while(|walked| walked.map_err(|e| unread = Some(e)).ok())
        .peekable();
    let any = configs.peek().is_some();
    let mut stdout = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
    let written = match args.format {
        SummaryFormat::Table | SummaryFormat::Markdown => {
            let markdown = args.format == SummaryFormat::Markdown;
            tables(configs, max_cv, markdown, &mut stdout)
        }
        SummaryFormat::Csv => csv(configs, &mut stdout),
        SummaryFormat::Json => json(configs, max_cv, &mut stdout),
    };
    let _ = written.and_then(|()| stdout.flush());
    drop(stdout);
    let internal_errors = std::mem::take(&mut corpus.internal_errors);
    corpus.release();
    if !any && unread.is_none() {
        let shown: Vec<String> = paths
            .iter()
            .map(|p| crate::text::line(&p.to_string_lossy()).into_owned())
            .collect();
        let _ = writeln!(
            std::io::stderr(),
            "benchlint: warning: no successful result found under {}",
            shown.join(", ")
        );
    }
    let troubled = corpus::report_internal_errors(&internal_errors);
    if let Some(e) = &unread {
        let _ = writeln!(
            std::io::stderr(),
            "benchlint: error: {}; the summary is incomplete",
            crate::text::line(e)
        );
    }
    let code = if troubled || unread.is_some() {
        super::EXIT_TROUBLE
    } else {
        EXIT_CLEAN
    };
    Ok(Output::stdout(Vec::new(), code))
}

/// Column headers of a configuration's table.
const HEADER: [&str; 12] = [
    "streams",
    "tok/s",
    "n",
    "launches",
    "median",
    "min",
    "max",
    "CV",
    "95% CI",
    "CI basis",
    "per-user p50",
    "TTFT p50 s",
];

/// The first column's title: `streams` or `req/s` when every level of the configuration lies
/// on that axis (the cells are then bare values), else `level` (each cell says its unit).
fn load_column(c: &ConfigSummary) -> (&'static str, bool) {
    let axes: BTreeSet<LoadAxis> = c.levels.iter().map(|l| l.key.axis()).collect();
    match axes.iter().next() {
        Some(LoadAxis::Streams) if axes.len() == 1 => ("streams", true),
        Some(LoadAxis::RequestRate) if axes.len() == 1 => ("req/s", true),
        _ => ("level", false),
    }
}

/// The cells of one level, as the table and Markdown show them.
fn cells(level: &LevelSummary, bare: bool) -> [String; 12] {
    let tok = |x: f64| fixed(x, 1);
    let opt = |x: Option<f64>, decimals: usize| {
        x.map_or_else(|| UNDEFINED.to_string(), |v| fixed(v, decimals))
    };
    let cv = match level.cv {
        Some(c) if level.high_cv => format!("{}% !", crate::numbers::bounded(c * 100.0, 1)),
        Some(c) => format!("{}%", crate::numbers::bounded(c * 100.0, 1)),
        None => UNDEFINED.to_string(),
    };
    let (ci, basis) = match &level.ci95 {
        Some(ci) => {
            let (low, clipped) = crate::numbers::nonnegative_low(ci.low);
            let mark = if clipped { " clipped" } else { "" };
            (
                format!("[{}, {}]{mark}", tok(low), tok(ci.high)),
                ci.basis.clone(),
            )
        }
        None => (UNDEFINED.to_string(), UNDEFINED.to_string()),
    };
    [
        if bare {
            level.key.value_text()
        } else {
            level.key.to_string()
        },
        level.figure.to_string(),
        level.n.to_string(),
        level.launches.to_string(),
        tok(level.median),
        tok(level.min),
        tok(level.max),
        cv,
        ci,
        basis,
        opt(level.per_user_median_tok_s, 1),
        opt(level.ttft_p50_s, 3),
    ]
}

/// The line above a configuration's table.
fn heading(c: &ConfigSummary) -> String {
    let unrecorded = match c.runs_without_launch_id {
        0 => String::new(),
        n => format!(
            " ({} without a launch id, counted as one launch)",
            plural(n, "run", "runs")
        ),
    };
    if !c.unidentified.is_empty() {
        return format!(
            "fingerprint {}: not identified ({} not recorded), so pooled with no other result: \
             1 run, no interval (`benchlint check` lists what is missing)",
            c.fingerprint,
            c.unidentified.join(", "),
        );
    }
    format!(
        "fingerprint {}: {} over {}{unrecorded}",
        c.fingerprint,
        plural(c.runs, "run", "runs"),
        plural(c.launches, "launch", "launches"),
    )
}

fn legend(max_cv: f64, clipped: bool) -> String {
    let clipped = if clipped {
        " An interval marked clipped reached below zero, which throughput cannot: it is shown \
         from 0 (too few launches for an interval above zero; the JSON and CSV keep the bound as \
         computed)."
    } else {
        ""
    };
    format!(
        "CV above {:.0}% is marked !. 95% CI: t interval over the launch means (across k \
         launches), or over the runs of one launch (single instance: excludes the \
         launch-to-launch variance).{clipped} {UNDEFINED}: not defined. {}",
        max_cv * 100.0,
        crate::fingerprint::LABEL_LEGEND
    )
}

fn tables(
    configs: impl Iterator<Item = ConfigSummary>,
    max_cv: f64,
    markdown: bool,
    sink: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    let mut out = String::new();
    let (mut any, mut clipped) = (false, false);
    for c in configs {
        let c = &c;
        any = true;
        clipped |= c
            .levels
            .iter()
            .any(|l| l.ci95.as_ref().is_some_and(|ci| ci.low < 0.0));
        sink.write_all(out.as_bytes())?;
        out.clear();
        let mut table = Table::new();
        if markdown {
            table.load_style(presets::ASCII_MARKDOWN);
            let _ = write!(out, "### {}\n\n{}\n\n", c.label.md(), heading(c));
        } else {
            table.load_style(presets::UTF8_FULL_CONDENSED);
            let _ = write!(out, "{}\n{}\n", c.label.line(), heading(c));
        }
        if !std::io::stdout().is_terminal() {
            table.force_no_tty();
        }
        let (load_title, bare) = load_column(c);
        let mut header = HEADER.to_vec();
        header[0] = load_title;
        table.set_header(header);
        for level in &c.levels {
            table.add_row(cells(level, bare).to_vec());
        }
        for i in [0, 2, 3, 4, 5, 6, 7, 10, 11] {
            if let Some(col) = table.column_mut(i) {
                col.set_cell_alignment(CellAlignment::Right);
            }
        }
        out.push_str(&table.to_string());
        out.push_str("\n\n");
    }
    if any {
        out.push_str(&legend(max_cv, clipped));
        out.push('\n');
    }
    sink.write_all(out.as_bytes())
}

fn csv(
    configs: impl Iterator<Item = ConfigSummary>,
    sink: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    let num = |x: Option<f64>| x.map_or_else(String::new, |v| format!("{v}"));
    let mut out = String::from(
        "fingerprint,label,concurrency,request_rate,figure,n,launches,median,min,max,mean,cv,high_cv,\
         ci95_low,ci95_high,ci95_basis,per_user_median_tok_s,ttft_p50_s\n",
    );
    for c in configs {
        let c = &c;
        for l in &c.levels {
            let row = [
                c.fingerprint.clone(),
                crate::text::csv::input_text(c.label.raw()),
                l.concurrency.map_or_else(String::new, |c| c.to_string()),
                l.request_rate.map_or_else(String::new, |r| r.to_string()),
                l.figure.to_string(),
                l.n.to_string(),
                l.launches.to_string(),
                num(Some(l.median)),
                num(Some(l.min)),
                num(Some(l.max)),
                num(Some(l.mean)),
                num(l.cv),
                l.high_cv.to_string(),
                num(l.ci95.as_ref().map(|c| c.low)),
                num(l.ci95.as_ref().map(|c| c.high)),
                l.ci95
                    .as_ref()
                    .map_or_else(String::new, |c| c.basis.clone()),
                num(l.per_user_median_tok_s),
                num(l.ttft_p50_s),
            ];
            let fields: Vec<_> = row.iter().map(|f| crate::text::csv::field(f)).collect();
            out.push_str(&fields.join(","));
            out.push('\n');
        }
        sink.write_all(out.as_bytes())?;
        out.clear();
    }
    sink.write_all(out.as_bytes())
}

/// The JSON document, serialised straight to `sink` rather than built as a value first, each
/// configuration made as the serialiser reaches it.
#[derive(serde::Serialize)]
#[serde(bound(serialize = ""))]
struct SummaryDocument<I: Iterator<Item = ConfigSummary>> {
    tool: &'static str,
    version: &'static str,
    max_cv: f64,
    configurations: crate::text::json::Streamed<I>,
}

fn json(
    configs: impl Iterator<Item = ConfigSummary>,
    max_cv: f64,
    sink: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    let document = SummaryDocument {
        tool: "benchlint",
        version: env!("CARGO_PKG_VERSION"),
        max_cv,
        configurations: crate::text::json::Streamed::new(configs),
    };
    crate::text::json::to_writer_pretty(&mut *sink, &document)?;
    sink.write_all(b"\n")
}
