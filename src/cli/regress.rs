//! `benchlint regress BASE HEAD [--control BASE2]`: corpus against corpus, for CI (DESIGN.md
//! "Regression mode"). BASE, HEAD and the control are each read as `check` reads a path (every
//! format, sidecars, the nearest config file's thresholds and sidecar globs); the comparison is
//! `crate::regress`, the outputs `crate::report::regress_*`.
//!
//! Exit status: 0 when no cell meets `--fail-on`, 1 when one does, 2 on bad arguments, a bad
//! config file, an input that could not be read on any side (a result that cannot be read may
//! be the one that regressed: never a silent pass), or no comparable cell at all. With
//! `--format github` and `$GITHUB_STEP_SUMMARY` set, the Markdown report is appended to the
//! step summary as well.

use std::io::Write as _;
use std::path::PathBuf;

use clap::ValueEnum;

use super::{EXIT_TROUBLE, Output};
use crate::corpus::Corpus;
use crate::regress::{FailOn, Options, RegressMetric, regress, vary};
use crate::report::{regress_github, regress_json, regress_markdown, regress_text};

/// Arguments of `regress`.
#[derive(Debug, clap::Args)]
pub struct RegressArgs {
    /// The corpus compared against: a result file or a folder.
    pub base: PathBuf,
    /// The corpus under test.
    pub head: PathBuf,
    /// A second corpus of BASE (same build, other launches): the same-vs-same noise floor.
    #[arg(long, value_name = "BASE2")]
    pub control: Option<PathBuf>,
    /// T: a change worse than this is a regression (`5%` or `0.05`).
    #[arg(long, value_name = "T", default_value = "5%", value_parser = parse_threshold)]
    pub threshold: f64,
    /// α: the false discovery rate of the regression tests and the TOST level.
    #[arg(long, value_name = "A", default_value_t = 0.05, value_parser = parse_alpha)]
    pub alpha: f64,
    /// A fingerprint field that is part of what is compared, beyond the engine version, image,
    /// digest and harness revision (repeatable).
    #[arg(long, value_name = "FIELD", value_parser = vary::parse_field)]
    pub vary: Vec<String>,
    /// A metric to compare (repeatable; default: every one both sides record).
    #[arg(long, value_name = "NAME", value_parser = parse_metric)]
    pub metric: Vec<String>,
    /// Which cells fail the run.
    #[arg(long, value_enum, default_value_t = FailOn::Regression)]
    pub fail_on: FailOn,
    /// Output format.
    #[arg(long, value_enum, default_value_t = RegressFormat::Human)]
    pub format: RegressFormat,
    /// Write the output to FILE instead of stdout.
    #[arg(short = 'o', long = "output", value_name = "FILE")]
    pub output: Option<PathBuf>,
}

/// Output formats of `regress`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum RegressFormat {
    /// One table per configuration.
    Human,
    /// Markdown for a pull-request comment or the step summary.
    Markdown,
    /// One JSON document (schemas/regress.schema.json).
    Json,
    /// GitHub Actions annotations (and the step summary).
    Github,
}

/// `5%`, `0.05`: a fraction in (0, 1).
fn parse_threshold(s: &str) -> Result<f64, String> {
    let (num, scale) = match s.strip_suffix('%') {
        Some(n) => (n, 0.01),
        None => (s, 1.0),
    };
    match num.trim().parse::<f64>() {
        Ok(v) if v.is_finite() && v * scale > 0.0 && v * scale < 1.0 => Ok(v * scale),
        _ => Err(format!(
            "`{s}` is not a threshold: give a percentage such as 5% or a fraction such as 0.05"
        )),
    }
}

fn parse_alpha(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v > 0.0 && v < 0.5 => Ok(v),
        _ => Err(format!(
            "`{s}` is not a level: give a number between 0 and 0.5, such as 0.05"
        )),
    }
}

fn parse_metric(s: &str) -> Result<String, String> {
    RegressMetric::parse(s)
        .map(|m| m.as_str().to_string())
        .ok_or_else(|| {
            let names: Vec<&str> = RegressMetric::ALL.iter().map(|m| m.as_str()).collect();
            format!("`{s}` is not a metric; one of {}", names.join(", "))
        })
}

/// Loads one side; counts the inputs it could not read, with a warning.
fn side(name: &str, path: &PathBuf) -> Result<(Corpus, usize), String> {
    let (corpus, _) = super::capacity::load(std::slice::from_ref(path))?;
    let unread = corpus
        .findings
        .iter()
        .filter(|f| crate::corpus::says_unreadable(f.rule.code))
        .count();
    if unread > 0 {
        let _ = writeln!(
            std::io::stderr(),
            "benchlint: error: {name}: {} could not be read (`benchlint check {}` lists {})",
            crate::numbers::plural(unread, "input", "inputs"),
            crate::text::line(&path.to_string_lossy()),
            if unread == 1 { "it" } else { "them" }
        );
    }
    Ok((corpus, unread))
}

/// Runs `regress`.
pub fn run(args: &RegressArgs) -> Result<Output, String> {
    let (base, bad_base) = side("BASE", &args.base)?;
    let (head, bad_head) = side("HEAD", &args.head)?;
    let control = match &args.control {
        Some(p) => Some(side("CONTROL", p)?),
        None => None,
    };
    // The thresholds a level's rules use come from BASE's config file (read again, not the
    // corpus: loading BASE a second time for them doubled the run's reading).
    let (_, base_options) = super::capacity::options_for(std::slice::from_ref(&args.base))?;
    let options = Options {
        threshold: args.threshold,
        alpha: args.alpha,
        varied: args.vary.clone(),
        metrics: args
            .metric
            .iter()
            .filter_map(|m| RegressMetric::parse(m))
            .collect(),
        fail_on: args.fail_on,
        thresholds: base_options.thresholds,
    };
    let bad_control = control.as_ref().map_or(0, |(_, n)| *n);
    let report = regress(
        base.results,
        head.results,
        control.map(|(c, _)| c.results),
        &options,
    );
    // JSON and the table are written as they are made, to stdout or to the file, never held: a
    // report of every cell of a large corpus is hundreds of megabytes.
    let streamed = matches!(args.format, RegressFormat::Json | RegressFormat::Human);
    let bytes = match args.format {
        RegressFormat::Human | RegressFormat::Json if streamed => Vec::new(),
        RegressFormat::Human => regress_text::render(&report),
        RegressFormat::Markdown => regress_markdown::render(&report),
        RegressFormat::Json => regress_json::render(&report),
        RegressFormat::Github => {
            if let Some(summary) = std::env::var_os("GITHUB_STEP_SUMMARY").filter(|s| !s.is_empty())
            {
                let md = regress_markdown::render(&report);
                let appended = std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(&summary)
                    .and_then(|mut f| f.write_all(&md));
                if let Err(e) = appended {
                    return Err(format!("cannot write the step summary: {e}"));
                }
            }
            regress_github::render(&report)
        }
    };
    if let Some(reason) = &report.no_comparable {
        let _ = writeln!(std::io::stderr(), "benchlint: error: {reason}");
    }
    let unread = bad_base + bad_head + bad_control;
    let code = if unread > 0 {
        EXIT_TROUBLE
    } else {
        report.exit_code
    };
    if let Some(path) = &args.output {
        if streamed {
            super::output::write_file_with(path, &mut |sink| {
                if args.format == RegressFormat::Json {
                    regress_json::render_to(&report, sink)
                } else {
                    regress_text::render_to(&report, sink)
                }
            })?;
        } else {
            super::write_file(path, &bytes)?;
        }
        return Ok(Output::stdout(Vec::new(), code));
    }
    if streamed {
        // A closed pipe (`regress … | head`) ends the writing, as it is no error.
        let mut stdout = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
        let written = if args.format == RegressFormat::Json {
            regress_json::render_to(&report, &mut stdout)
        } else {
            regress_text::render_to(&report, &mut stdout)
        };
        let _ = written.and_then(|()| stdout.flush());
        return Ok(Output::stdout(Vec::new(), code));
    }
    Ok(Output::stdout(bytes, code))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thresholds_as_percent_or_fraction() {
        assert!((parse_threshold("5%").unwrap() - 0.05).abs() < 1e-15);
        assert!((parse_threshold("0.1").unwrap() - 0.1).abs() < 1e-15);
        assert!(parse_threshold("0").is_err());
        assert!(parse_threshold("150%").is_err());
        assert!(parse_threshold("x").is_err());
        assert!(parse_alpha("0.6").is_err());
        assert!(
            parse_metric("tokens")
                .unwrap_err()
                .contains("aggregate_tok_s")
        );
    }
}
