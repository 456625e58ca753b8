//! `benchlint capacity [PATH..] --floor 20`: per configuration, the highest concurrency whose
//! per-user rate clears the floor at every level up to it, with the aggregate throughput there
//! (seed 004: "define the service level first, then ask how much work each configuration does
//! while meeting it"; `research/stats.md` §8.3).
//!
//! A level passes when the lower end of its per-user 95% interval is at or above the floor,
//! fails when the upper end is below it, and is marginal otherwise: a marginal next level turns
//! the capacity into an interval `[last pass, marginal level]`. A configuration measured on one
//! engine launch is labelled single instance. `--replicas N` multiplies the aggregate (N
//! independent copies behind a router serve N times the users at the same per-user rate).
//!
//! Formats: `table` (comfy-table) and `json`. Exit status 0; 2 on bad arguments or a bad
//! config file.

use std::fmt::Write as _;
use std::io::IsTerminal;
use std::io::Write as _;
use std::path::PathBuf;

use clap::ValueEnum;
use comfy_table::{CellAlignment, Table, presets};
use serde_json::json;

use super::{EXIT_CLEAN, Output};
use crate::audit::{Capacity, LadderPoint};
use crate::claims::capacity::{LadderGather, capacity};
use crate::claims::num;
use crate::config::{self, GlobSidecars};
use crate::corpus::{self, Corpus, Options};
use crate::replication::{Order, SpooledCorpus};
use crate::text::FileText;

/// Arguments of `capacity`.
#[derive(Debug, clap::Args)]
pub struct CapacityArgs {
    /// Files and folders to read (default: the current folder).
    pub paths: Vec<PathBuf>,
    /// Service-level floor, tokens per second per user.
    #[arg(long, value_name = "TOK_S", default_value_t = 20.0, value_parser = parse_floor)]
    pub floor: f64,
    /// Independent replicas behind a router: multiplies the aggregate at the capacity.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..))]
    pub replicas: u64,
    /// Output format.
    #[arg(long, value_enum, default_value_t = CapacityFormat::Table)]
    pub format: CapacityFormat,
}

/// Output formats of `capacity`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum CapacityFormat {
    /// One table, one row per configuration.
    Table,
    /// One JSON document.
    Json,
}

/// A floor: a positive, finite number of tokens per second per user.
pub fn parse_floor(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v.is_finite() && v > 0.0 => Ok(v),
        _ => Err(format!(
            "`{s}` is not a positive number of tokens per second per user"
        )),
    }
}

/// Loads `paths` (default `.`) with the thresholds and sidecars of the nearest config file,
/// every result held (`regress`). No rule runs but those that say an input could not be read,
/// the only findings kept: the rest would be made and dropped, and M018's search of every
/// string would hold each document that is an array whole.
/// `Err` for a path that does not exist or a bad config file.
pub fn load(paths: &[PathBuf]) -> Result<(Corpus, Options), String> {
    let (paths, mut options) = options_for(paths)?;
    options.selection = options.selection.only(&corpus::UNREADABLE);
    Ok((corpus::load_results(&paths, &options), options))
}

/// [`load`], each result handed to `keep` as it is read rather than held
/// ([`corpus::load_results_into`]), for a command that keeps no finding (`capacity`,
/// `compare`): no rule runs but those that say an input could not be read, since the findings
/// of the rest would be made and dropped (a third of the CPU time of a load).
pub(super) fn load_into(
    paths: &[PathBuf],
    keep: &mut dyn FnMut(corpus::LoadedResult),
) -> Result<(Corpus, Options), String> {
    let (paths, mut options) = options_for(paths)?;
    options.put_away = true;
    options.selection = options.selection.only(&corpus::UNREADABLE);
    Ok((corpus::load_results_into(&paths, &options, keep), options))
}

/// The paths to read (`.` when none) and how: lean, with the thresholds and sidecars of the
/// nearest config file.
pub fn options_for(paths: &[PathBuf]) -> Result<(Vec<PathBuf>, Options), String> {
    let paths = if paths.is_empty() {
        vec![PathBuf::from(".")]
    } else {
        paths.to_vec()
    };
    if let Some(missing) = paths.iter().find(|p| !p.exists()) {
        return Err(format!("`{}` does not exist", missing.display()));
    }
    // Lean, as `check` loads: nothing read here needs a result's canonical JSON.
    let mut options = Options {
        lean: true,
        drop_claims: true,
        ..Options::default()
    };
    let config = config::for_run(&paths, None, false).map_err(|e| {
        // The diagnostic, with its snippet, is written as it is; the error says no more.
        let _ = std::io::Write::write_all(
            &mut std::io::stderr(),
            e.render(std::io::stderr().is_terminal()).as_bytes(),
        );
        super::ALREADY_SHOWN.to_string()
    })?;
    if let Some(c) = config {
        if let Some(t) = &c.thresholds {
            options.thresholds = t.clone();
        }
        options.sidecars = GlobSidecars::new(c.sidecars.clone(), &c.dir);
    }
    Ok((paths, options))
}

/// One configuration's row.
struct Row {
    label: Box<str>,
    fingerprint: String,
    /// The ids of the configuration's runs, in path order (the JSON lists them; the table,
    /// which holds every row to measure its columns, does not, and they are not gathered).
    results: Vec<FileText>,
    capacity: Capacity,
    per_user: Option<f64>,
    runs: usize,
    launches: usize,
}

/// Runs `capacity`. Each result is put away as it is read, and each configuration's runs read
/// back in turn, their ladder gathered a run at a time: with every result its own
/// configuration, or twenty thousand runs of one, memory holds the rows, not the results.
pub fn run(args: &CapacityArgs) -> Result<Output, String> {
    let mut spooled = SpooledCorpus::new(Order::LabelShort);
    load_into(&args.paths, &mut |r| spooled.keep(&r))?;
    let mut unread = None;
    let rows = rows(spooled, args).map_while(|row| row.map_err(|e| unread = Some(e)).ok());
    // Written a configuration at a time (the table once its widths are measured over every
    // row): the whole output built first would hold a table or a document of every
    // configuration. A closed pipe (`capacity | head`) ends the writing, as it is no error.
    let mut stdout = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
    let written = match args.format {
        CapacityFormat::Json => json_output(rows, args, &mut stdout),
        CapacityFormat::Table => table_output(&rows.collect::<Vec<_>>(), args, &mut stdout),
    };
    let _ = written.and_then(|()| std::io::Write::flush(&mut stdout));
    drop(stdout);
    if let Some(e) = unread {
        let _ = writeln!(
            std::io::stderr(),
            "benchlint: error: {}; the capacity table is incomplete",
            crate::text::line(&e)
        );
        return Ok(Output::stdout(Vec::new(), super::EXIT_TROUBLE));
    }
    Ok(Output::stdout(Vec::new(), EXIT_CLEAN))
}

/// Each configuration's row, by label then fingerprint, its runs read back one at a time.
fn rows(spooled: SpooledCorpus, args: &CapacityArgs) -> impl Iterator<Item = Result<Row, String>> {
    let mut walk = spooled.configurations();
    let (floor, replicas) = (args.floor, args.replicas);
    let ids = args.format == CapacityFormat::Json;
    std::iter::from_fn(move || {
        let (fingerprint, numbers) = match walk.next()? {
            Ok(group) => group,
            Err(e) => return Some(Err(e)),
        };
        let mut gathered = LadderGather::default();
        let mut results = Vec::with_capacity(if ids { numbers.len() } else { 0 });
        for number in numbers {
            match walk.read(number) {
                Ok(run) => {
                    gathered.add(&run.doc);
                    if ids {
                        results.push(run.doc.id.as_str().into());
                    }
                }
                Err(e) => return Some(Err(e)),
            }
        }
        let points = gathered.ladder();
        let cap = capacity(&points, floor, replicas);
        let at: Option<&LadderPoint> = cap.level.and_then(|k| points.iter().find(|p| p.key == k));
        Some(Ok(Row {
            label: fingerprint.label().into(),
            fingerprint: fingerprint.short(),
            results,
            per_user: at.and_then(|p| p.per_user_tok_s.map(|e| e.value)),
            runs: points.iter().map(|p| p.runs).max().unwrap_or(0),
            launches: points.iter().map(|p| p.launches).max().unwrap_or(0),
            capacity: cap,
        }))
    })
}

fn capacity_words(c: &Capacity) -> String {
    match (c.level, c.marginal_interval) {
        (Some(_), Some((lo, hi))) => format!("{}–{hi} (marginal)", lo.value_text()),
        (Some(k), None) => k.to_string(),
        (None, _) => format!(
            "none: {}",
            c.none_because.unwrap_or("no level clears the floor")
        ),
    }
}

/// The columns of the table.
const HEADER: [&str; 8] = [
    "configuration",
    "fingerprint",
    "capacity",
    "aggregate tok/s",
    "per user tok/s",
    "runs",
    "launches",
    "basis",
];

/// The columns aligned right.
const RIGHT: [usize; 5] = [2, 3, 4, 5, 6];

/// One configuration's cells.
fn cells(r: &Row) -> [String; 8] {
    let c = &r.capacity;
    [
        crate::text::line(&r.label).into_owned(),
        r.fingerprint.clone(),
        capacity_words(c),
        c.aggregate_tok_s.map_or_else(|| "–".into(), num),
        r.per_user.map_or_else(|| "–".into(), num),
        r.runs.to_string(),
        r.launches.to_string(),
        if c.single_instance {
            "single instance".into()
        } else {
            "across launches".into()
        },
    ]
}

/// The table, written a configuration at a time: the widths are measured over every row first,
/// then each row is made again and written ([`crate::text::table`]), so the run never holds a
/// table of every configuration.
fn table_output(
    rows: &[Row],
    args: &CapacityArgs,
    sink: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "Capacity at {} tok/s per user{}",
        num(args.floor),
        if args.replicas > 1 {
            format!(", {} replicas", args.replicas)
        } else {
            String::new()
        }
    );
    if rows.is_empty() {
        out.push_str("no configuration with a successful run\n");
        return sink.write_all(out.as_bytes());
    }
    if let Some(layout) =
        crate::text::table::Layout::measure(&HEADER, rows.iter().map(cells), &RIGHT)
    {
        out.push_str(&layout.head(&HEADER));
        sink.write_all(out.as_bytes())?;
        for r in rows {
            sink.write_all(layout.row(&cells(r)).as_bytes())?;
        }
        out = layout.foot();
    } else {
        // A cell too wide to lay out unwrapped: comfy-table wraps it.
        let mut table = Table::new();
        table.load_style(presets::UTF8_FULL_CONDENSED);
        table.set_header(HEADER.to_vec());
        for r in rows {
            table.add_row(cells(r).to_vec());
        }
        for i in RIGHT {
            if let Some(col) = table.column_mut(i) {
                col.set_cell_alignment(CellAlignment::Right);
            }
        }
        let _ = write!(out, "{table}");
    }
    out.push('\n');
    out.push_str(
        "capacity: the highest level (streams in flight, or requests per second for a rate-driven ladder) whose \
         per-user 95% interval clears the floor at every level up to it; marginal: the next level's interval \
         straddles the floor\n",
    );
    out.push_str(crate::fingerprint::LABEL_LEGEND);
    out.push('\n');
    sink.write_all(out.as_bytes())
}

/// The JSON document: the floor, the replicas and each configuration, made and redacted (every
/// secret among its labels and ids replaced by `"<redacted>"`) as the writer reaches it.
fn json_output(
    rows: impl Iterator<Item = Row>,
    args: &CapacityArgs,
    sink: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    #[derive(serde::Serialize)]
    #[serde(bound(serialize = ""))]
    struct Document<I: Iterator<Item = serde_json::Value>> {
        floor_tok_s: f64,
        replicas: u64,
        configurations: crate::text::json::Streamed<I>,
    }
    let configs = rows.map(|r| {
        let mut config = json!({
            "label": FileText::from(&*r.label),
            "fingerprint": r.fingerprint,
            "results": r.results,
            "capacity": r.capacity.concurrency,
            "capacity_request_rate": r.capacity.request_rate,
            "none_because": r.capacity.none_because,
            "aggregate_tok_s": r.capacity.aggregate_tok_s,
            "per_user_tok_s": r.per_user,
            "marginal_interval": r.capacity.marginal_interval.map(|(a, b)| [a, b]),
            "single_instance": r.capacity.single_instance,
            "runs": r.runs,
            "launches": r.launches,
        });
        crate::secrets::redact_value(&mut config);
        config
    });
    let document = Document {
        floor_tok_s: args.floor,
        replicas: args.replicas,
        configurations: crate::text::json::Streamed::new(configs),
    };
    crate::text::json::to_writer_pretty(&mut *sink, &document)?;
    sink.write_all(b"\n")
}
