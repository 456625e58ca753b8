//! `benchlint compare A B [PATH..]`: the A/B verdict for two configurations, with its numbers
//! and every way the two are not a matched basis.
//!
//! A and B are result ids (standing for the configuration the result belongs to: all its
//! successful runs) or configuration fingerprints in the short form `benchlint summary` prints
//! (a unique prefix of at least 4 hex digits is enough). The metric is `aggregate_tok_s` unless
//! `--metric` names another; the level is `--concurrency`, else the highest level every run of
//! both sides measured.
//!
//! The verdict is DESIGN.md's (first match wins): difference (two or more launches per side and
//! the 95% interval of the effect wholly beyond the noise floor), tie within noise, not
//! decidable: single launch, not decidable: underpowered. The noise floor is the larger of the
//! static floor and what same-vs-same controls on the same platform and model show, and the
//! output says which. Mismatches are C001–C008 and C012; the statistical finding, if any, is
//! C009, C010 or C011.
//!
//! Formats: `text` and `json`. Exit status: 0, or 1 when a mismatch at error severity makes the
//! comparison unsound; 2 on bad arguments (an unknown id or fingerprint, no shared level).

mod neighbourhood;
#[cfg(test)]
mod neighbourhood_tests;
mod view;

use std::collections::BTreeSet;
use std::path::PathBuf;

use clap::ValueEnum;

use super::capacity::load_into;
use super::{EXIT_CLEAN, EXIT_FINDINGS, Output};
use crate::claims::{
    Basis, CompareOptions, Metric, Runs, compare_sides, platform_model, resolve_side,
};
use crate::corpus::Options;
use crate::diagnostic::Severity;
use crate::model::loaded::LoadedResult;
use crate::model::{LevelKey, LoadAxis, Outcome, RequestRate};
use crate::replication::{Order, SpooledCorpus};
use neighbourhood::{Gathering, Neighbourhood, platform_hash};
use view::View;

/// Arguments of `compare`.
#[derive(Debug, clap::Args)]
pub struct CompareArgs {
    /// Side A (the baseline): a result id or a configuration fingerprint.
    pub a: String,
    /// Side B (compared against A): a result id or a configuration fingerprint.
    pub b: String,
    /// Files and folders to read (default: the current folder).
    pub paths: Vec<PathBuf>,
    /// The metric compared.
    #[arg(long, default_value = "aggregate_tok_s", value_parser = parse_metric)]
    pub metric: String,
    /// The level compared (default: the highest level both sides measured).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..), conflicts_with = "request_rate")]
    pub concurrency: Option<u64>,
    /// The open-loop level compared, in requests per second (`inf` for an unbounded rate), for
    /// ladders driven by a request rate.
    #[arg(long, value_name = "RATE", value_parser = parse_rate)]
    pub request_rate: Option<RequestRate>,
    /// The basis of the comparison: hardware (settings matched) or deployment (each side at
    /// its own best precision and speculation).
    #[arg(long, value_enum, default_value_t = BasisArg::Hardware)]
    pub basis: BasisArg,
    /// Output format.
    #[arg(long, value_enum, default_value_t = CompareFormat::Text)]
    pub format: CompareFormat,
}

/// `--basis`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum BasisArg {
    /// Speculation and settings matched, off against off.
    Hardware,
    /// Each side at its own best setting.
    Deployment,
}

/// Output formats of `compare`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum CompareFormat {
    /// Plain text.
    Text,
    /// One JSON document.
    Json,
}

fn parse_metric(s: &str) -> Result<String, String> {
    Metric::parse(s)
        .map(|m| m.as_str().to_string())
        .ok_or_else(|| {
            let names: Vec<&str> = Metric::ALL.iter().map(|m| m.as_str()).collect();
            format!("`{s}` is not a metric; one of {}", names.join(", "))
        })
}

/// A side named on the command line.
pub(super) struct Named {
    /// What was typed.
    pub(super) arg: String,
    /// The configuration's index in `Runs::configs`.
    pub(super) config: usize,
    /// How it was found.
    pub(super) by: &'static str,
}

/// A side typed as a fingerprint: 4 to 16 hex digits, in either case, the start of a
/// configuration's [`crate::fingerprint::Fingerprint::hash64`] as `summary` prints it.
pub(super) struct FingerprintPrefix(String);

impl FingerprintPrefix {
    /// `arg` as a fingerprint prefix, when it can be one.
    pub(super) fn of(arg: &str) -> Option<Self> {
        let hex = arg.len() >= 4 && arg.len() <= 16 && arg.bytes().all(|b| b.is_ascii_hexdigit());
        hex.then(|| FingerprintPrefix(arg.to_ascii_lowercase()))
    }

    /// Whether it names the configuration of fingerprint hash `hash64`.
    pub(super) fn names(&self, hash64: u64) -> bool {
        format!("{hash64:016x}").starts_with(&self.0)
    }
}

/// Finds the configuration `arg` names: a result id first, then a fingerprint prefix.
fn find(runs: &Runs<'_>, arg: &str) -> Result<Named, String> {
    if let Some(&i) = runs.index.get(arg) {
        let doc = &runs.results[i].doc;
        if doc.outcome != Outcome::Ok {
            return Err(format!(
                "result `{arg}` did not produce figures (outcome {})",
                doc.outcome.as_str()
            ));
        }
        let config = runs.config_of[i]
            .ok_or_else(|| format!("result `{arg}` belongs to no configuration"))?;
        return Ok(Named {
            arg: arg.to_string(),
            config,
            by: "result id",
        });
    }
    if let Some(prefix) = FingerprintPrefix::of(arg) {
        let matches: Vec<usize> = runs
            .configs
            .iter()
            .enumerate()
            .filter(|(_, c)| prefix.names(c.fingerprint.hash64()))
            .map(|(i, _)| i)
            .collect();
        match matches.as_slice() {
            [one] => {
                return Ok(Named {
                    arg: arg.to_string(),
                    config: *one,
                    by: "fingerprint",
                });
            }
            [] => {}
            many => {
                return Err(format!(
                    "fingerprint `{arg}` matches {} configurations; give more digits",
                    many.len()
                ));
            }
        }
    }
    Err(format!(
        "`{arg}` is neither a result id nor a configuration fingerprint in the corpus (see `benchlint summary`)"
    ))
}

/// Runs `compare`. Each result is put away as it is read; what the comparison reads of the
/// corpus (the sides' configurations, the runs they are told from, their controls) is read
/// back and held, not the corpus ([`neighbourhood`]).
pub fn run(args: &CompareArgs) -> Result<Output, String> {
    let metric =
        Metric::parse(&args.metric).ok_or_else(|| format!("`{}` is not a metric", args.metric))?;
    let mut gathering = Gathering::new(SpooledCorpus::new(Order::LabelFingerprint));
    let (_, options) = load_into(&args.paths, &mut |r| gathering.keep(&r))?;
    compare_gathered(gathering, args, metric, &options)
}

/// `compare` on the results `gathering` put away, through the part of them it reads.
fn compare_gathered(
    gathering: Gathering,
    args: &CompareArgs,
    metric: Metric,
    options: &Options,
) -> Result<Output, String> {
    let unread = |e: String| format!("the corpus could not be read back: {e}");
    let mut hood = Neighbourhood::walk(gathering).map_err(unread)?;
    let part = hood.sides([&args.a, &args.b]).map_err(unread)?;
    let platforms = side_platforms(&part, args)?;
    let part = hood.with_controls(part, &platforms).map_err(unread)?;
    drop(hood);
    compare_in(&part, args, metric, options)
}

/// The platforms and models (by [`platform_hash`]) whose controls the sides are judged
/// against: those of each side's first run, as [`crate::claims::noise_floor`] takes them.
fn side_platforms(results: &[LoadedResult], args: &CompareArgs) -> Result<Vec<u64>, String> {
    let runs = Runs::new(results);
    let mut platforms = Vec::new();
    for arg in [&args.a, &args.b] {
        let named = find(&runs, arg)?;
        let first = runs.configs[named.config].members[0];
        let doc = runs
            .index
            .get(results[first].doc.id.as_str())
            .map_or(&results[first].doc, |&i| &results[i].doc);
        if let Some(k) = platform_model(doc) {
            platforms.push(platform_hash(&k));
        }
    }
    Ok(platforms)
}

/// `compare` on `results` (the corpus, or the part of it the comparison reads: the same
/// output either way).
fn compare_in(
    results: &[LoadedResult],
    args: &CompareArgs,
    metric: Metric,
    options: &Options,
) -> Result<Output, String> {
    let runs = Runs::new(results);
    let a = find(&runs, &args.a)?;
    let b = find(&runs, &args.b)?;
    let members = |n: &Named| runs.configs[n.config].members.clone();
    let (ma, mb) = (members(&a), members(&b));
    let level = match (args.concurrency, args.request_rate) {
        (Some(c), _) => LevelKey::Streams(c),
        (None, Some(r)) => LevelKey::Rate(r),
        (None, None) => shared_level(&runs, &ma, &mb).ok_or_else(|| {
            "A and B share no level that every run measured; name one with --concurrency or --request-rate"
                .to_string()
        })?,
    };
    let ids =
        |m: &[usize]| -> Vec<String> { m.iter().map(|&i| results[i].doc.id.clone()).collect() };
    let side_a = resolve_side(results, &runs.index, &ids(&ma), Some(level), 1, metric);
    let side_b = resolve_side(results, &runs.index, &ids(&mb), Some(level), 1, metric);
    for (name, s) in [("A", &side_a), ("B", &side_b)] {
        if let Some(p) = &s.problem {
            return Err(format!("{name} cannot be compared: {p}"));
        }
    }
    let basis = match args.basis {
        BasisArg::Hardware => Basis::Hardware,
        BasisArg::Deployment => Basis::Deployment,
    };
    let opts = CompareOptions {
        metric,
        basis: Some(basis),
        service_level_matched: false,
        name_a: "A".into(),
        name_b: "B".into(),
    };
    let cmp = compare_sides(&runs, &side_a, &side_b, &opts, &options.thresholds);
    let unsound = cmp
        .mismatches
        .iter()
        .any(|m| m.rule.severity == Severity::Error);
    let code = if unsound { EXIT_FINDINGS } else { EXIT_CLEAN };
    let view = View {
        runs: &runs,
        a: &a,
        b: &b,
        side_a: &side_a,
        side_b: &side_b,
        cmp: &cmp,
        level,
        basis: args.basis,
    };
    let bytes = match args.format {
        CompareFormat::Text => view.text(),
        CompareFormat::Json => view.json(),
    };
    Ok(Output::stdout(bytes, code))
}

/// The highest level every run of both sides measured: the highest shared concurrency, else
/// the highest shared request rate.
fn shared_level(runs: &Runs<'_>, a: &[usize], b: &[usize]) -> Option<LevelKey> {
    let mut common: Option<BTreeSet<LevelKey>> = None;
    for &i in a.iter().chain(b) {
        let set: BTreeSet<LevelKey> = runs.results[i].doc.levels.keys().collect();
        common = Some(match common {
            None => set,
            Some(c) => c.intersection(&set).copied().collect(),
        });
    }
    let common = common?;
    common
        .iter()
        .rev()
        .find(|k| k.axis() == LoadAxis::Streams)
        .or_else(|| {
            common
                .iter()
                .rev()
                .find(|k| k.axis() == LoadAxis::RequestRate)
        })
        .copied()
}

/// A request rate as typed: a positive number, or `inf`.
fn parse_rate(s: &str) -> Result<RequestRate, String> {
    if s.eq_ignore_ascii_case("inf") {
        return Ok(RequestRate::Unbounded);
    }
    match s.parse::<f64>() {
        Ok(r) if r.is_finite() && r > 0.0 => Ok(RequestRate::PerSecond(r)),
        _ => Err(format!(
            "`{s}` is not a request rate: give requests per second, or inf"
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn metrics_are_checked_at_parse_time() {
        assert_eq!(parse_metric("ttft_p95_s").unwrap(), "ttft_p95_s");
        assert!(
            parse_metric("tokens")
                .unwrap_err()
                .contains("aggregate_tok_s")
        );
    }
}
