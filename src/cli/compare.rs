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

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::PathBuf;

use clap::ValueEnum;
use serde_json::json;

use super::capacity::load;
use super::{EXIT_CLEAN, EXIT_FINDINGS, Output};
use crate::claims::{
    Basis, CompareOptions, Comparison, Metric, ResolvedSide, Runs, compare_sides, num, pct,
    resolve_side,
};
use crate::diagnostic::Severity;
use crate::model::{Level, LevelKey, LoadAxis, Outcome, RequestRate};
use crate::stats::IntervalBasis;
use crate::text::Text;

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
struct Named {
    /// What was typed.
    arg: String,
    /// The configuration's index in `Runs::configs`.
    config: usize,
    /// How it was found.
    by: &'static str,
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
    let hex = arg.len() >= 4 && arg.len() <= 16 && arg.bytes().all(|b| b.is_ascii_hexdigit());
    if hex {
        let lower = arg.to_ascii_lowercase();
        let matches: Vec<usize> = runs
            .configs
            .iter()
            .enumerate()
            .filter(|(_, c)| format!("{:016x}", c.fingerprint.hash64()).starts_with(&lower))
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

/// Runs `compare`.
pub fn run(args: &CompareArgs) -> Result<Output, String> {
    let metric =
        Metric::parse(&args.metric).ok_or_else(|| format!("`{}` is not a metric", args.metric))?;
    let (corpus, options) = load(&args.paths)?;
    let runs = Runs::new(&corpus.results);
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
    let ids = |m: &[usize]| -> Vec<String> {
        m.iter()
            .map(|&i| corpus.results[i].doc.id.clone())
            .collect()
    };
    let side_a = resolve_side(
        &corpus.results,
        &runs.index,
        &ids(&ma),
        Some(level),
        1,
        metric,
    );
    let side_b = resolve_side(
        &corpus.results,
        &runs.index,
        &ids(&mb),
        Some(level),
        1,
        metric,
    );
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
        let set: BTreeSet<LevelKey> = runs.results[i].doc.levels.iter().map(Level::key).collect();
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

struct View<'v, 'a> {
    runs: &'v Runs<'a>,
    a: &'v Named,
    b: &'v Named,
    side_a: &'v ResolvedSide,
    side_b: &'v ResolvedSide,
    cmp: &'v Comparison,
    level: LevelKey,
    basis: BasisArg,
}

impl View<'_, '_> {
    fn interval_words(side: &ResolvedSide) -> String {
        match side.interval() {
            None => "one run, no interval".to_string(),
            Some(iv) => {
                let over = match iv.basis {
                    IntervalBasis::AcrossLaunches { launches } => {
                        format!("across {launches} launches")
                    }
                    IntervalBasis::SingleInstance { runs } => {
                        format!("single instance, {runs} runs of one launch")
                    }
                };
                let (low, clipped) = crate::numbers::nonnegative_low(iv.low);
                let why = if clipped {
                    format!("; {}", crate::numbers::CLIPPED_AT_ZERO)
                } else {
                    String::new()
                };
                format!(
                    "95% interval {} to {} ({over}{why})",
                    num(low),
                    num(iv.high)
                )
            }
        }
    }

    fn side_text(&self, out: &mut String, name: &str, n: &Named, side: &ResolvedSide) {
        let config = &self.runs.configs[n.config];
        let unit = self.cmp.metric.unit();
        let _ = writeln!(
            out,
            "{name}: {} ({})",
            crate::text::line(config.fingerprint.label()),
            config.fingerprint.short()
        );
        let _ = writeln!(
            out,
            "   `{}` ({}): {} over {}",
            crate::text::line(&n.arg),
            n.by,
            plural(side.points.len(), "run", "runs"),
            plural(side.launches(), "launch", "launches")
        );
        let _ = writeln!(
            out,
            "   {} {unit}, {}; launch means {}",
            side.value().map_or_else(|| "no value".into(), num),
            Self::interval_words(side),
            side.launch_means()
                .iter()
                .map(|m| num(*m))
                .collect::<Vec<_>>()
                .join(", ")
        );
    }

    fn text(&self) -> Vec<u8> {
        let cmp = self.cmp;
        let mut out = String::new();
        let _ = writeln!(
            out,
            "{} at {} ({} basis)",
            cmp.metric,
            self.level,
            match self.basis {
                BasisArg::Hardware => "hardware",
                BasisArg::Deployment => "deployment",
            }
        );
        self.side_text(&mut out, "A", self.a, self.side_a);
        self.side_text(&mut out, "B", self.b, self.side_b);
        let _ = writeln!(
            out,
            "effect: B/A = {}, {}",
            cmp.ratio.map_or_else(|| "none".into(), num),
            cmp.effect_words()
        );
        // Sentences that quote labels and ids from the files: masked and escaped whole.
        let quoting = |s: &str| Text::quoting(s).line().into_owned();
        let _ = writeln!(
            out,
            "noise floor: {} from {}",
            crate::claims::pct_abs(cmp.noise.value),
            quoting(&cmp.noise.source())
        );
        let _ = writeln!(out, "verdict: {}", cmp.verdict_words());
        if let Some(s) = cmp.stat_finding() {
            let _ = writeln!(
                out,
                "  {} {}: {}",
                s.rule.code,
                s.rule.name,
                quoting(&s.message)
            );
        }
        if cmp.mismatches.is_empty() {
            out.push_str("matched basis: no mismatch found\n");
        } else {
            let _ = writeln!(out, "mismatches ({}):", cmp.mismatches.len());
            for m in &cmp.mismatches {
                let _ = writeln!(
                    out,
                    "  {} {} ({}): {}",
                    m.rule.code,
                    m.rule.name,
                    m.rule.severity.as_str(),
                    quoting(&m.message)
                );
            }
        }
        out.into_bytes()
    }

    fn side_json(&self, n: &Named, side: &ResolvedSide) -> serde_json::Value {
        let config = &self.runs.configs[n.config];
        let iv = side.interval();
        json!({
            "argument": n.arg,
            "found_by": n.by,
            "label": config.fingerprint.label(),
            "fingerprint": config.fingerprint.short(),
            "results": side.points.iter().map(|p| self.runs.results[p.result].doc.id.clone()).collect::<Vec<_>>(),
            "runs": side.points.len(),
            "launches": side.launches(),
            "launch_means": side.launch_means(),
            "value": side.value(),
            "interval": iv.as_ref().map(|iv| json!({
                "low": iv.low,
                "high": iv.high,
                "single_instance": matches!(iv.basis, IntervalBasis::SingleInstance { .. }),
            })),
            "per_user_tok_s": side.per_user(),
        })
    }

    fn json(&self) -> Vec<u8> {
        let cmp = self.cmp;
        let ab = cmp.ab.as_ref();
        let stat = cmp.stat_finding();
        let doc = json!({
            "metric": cmp.metric.as_str(),
            "concurrency": self.level.streams(),
            "request_rate": self.level.rate(),
            "basis": match self.basis { BasisArg::Hardware => "hardware", BasisArg::Deployment => "deployment" },
            "a": self.side_json(self.a, self.side_a),
            "b": self.side_json(self.b, self.side_b),
            "ratio": cmp.ratio,
            "effect_rel": ab.map(|x| x.effect_rel),
            "effect_ci95_rel": ab.and_then(|x| x.ci_rel).filter(|(l, h)| l.is_finite() && h.is_finite()).map(|(l, h)| [l, h]),
            "effect": ab.map(|x| pct(x.effect_rel)),
            "noise_floor": {
                "value": cmp.noise.value,
                "static": cmp.noise.static_floor,
                "from_controls": cmp.noise.from_controls,
                "source": cmp.noise.source(),
                "controls": cmp.noise.controls.iter().map(|c| json!({
                    "label": c.label,
                    "fingerprint": c.fingerprint,
                    "concurrency": c.concurrency,
                    "launch_means": c.launch_means,
                })).collect::<Vec<_>>(),
            },
            "verdict": cmp.verdict_words(),
            "finding": stat.map(|s| json!({ "code": s.rule.code, "name": s.rule.name, "message": s.message })),
            "mismatches": cmp.mismatches.iter().map(|m| json!({
                "code": m.rule.code,
                "name": m.rule.name,
                "severity": m.rule.severity.as_str(),
                "unknown": m.unknown,
                "message": m.message,
            })).collect::<Vec<_>>(),
        });
        crate::text::json::pretty_redacted(doc)
    }
}

fn plural(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
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
