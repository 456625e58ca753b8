//! Words and numbers shared by the audit renderers (Markdown, HTML, SVG): fixed-decimal
//! formatting, units, the sentences that say what a verdict, an estimate or a capacity means.
//! Everything here returns plain text; each renderer escapes it for its own format.

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use crate::audit::{AuditReport, Capacity, ClaimOutcome, ConfigLadder, Estimate, Verdict};
use crate::text::{FileText, Text};

/// What the renderers say about the run that produced the report (never a timestamp: the
/// same corpus gives the same bytes).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AuditContext {
    /// Version of benchlint (`env!("CARGO_PKG_VERSION")`).
    pub version: String,
    /// The corpus paths as given on the command line.
    pub inputs: Vec<FileText>,
    /// The claims file as given on the command line.
    pub claims_file: Option<FileText>,
    /// Whether the rule pages ship beside the report, in `rules/` (`audit -o DIR` writes them):
    /// rule codes then link to them; otherwise they name `benchlint rule CODE`, never a page
    /// that is not there.
    pub rule_pages: bool,
}

impl AuditContext {
    /// The context of this build of benchlint, for these inputs (rule pages not shipped).
    pub fn new(inputs: Vec<FileText>, claims_file: Option<FileText>) -> Self {
        AuditContext {
            version: env!("CARGO_PKG_VERSION").to_string(),
            inputs,
            claims_file,
            rule_pages: false,
        }
    }
}

/// Every verdict, in the order the summary counts them.
pub const VERDICTS: [Verdict; 5] = [
    Verdict::Upheld,
    Verdict::Restated,
    Verdict::Unresolved,
    Verdict::Retracted,
    Verdict::PreRule,
];

/// Whether a verdict makes `benchlint audit` exit 1: restated, unresolved or retracted.
pub fn verdict_fails(v: Verdict) -> bool {
    matches!(
        v,
        Verdict::Restated | Verdict::Unresolved | Verdict::Retracted
    )
}

/// `v` with `decimals` fixed decimals and thousands separators (`3,553.3`); `n/a` when it is
/// not finite. Never `-0.0`.
pub fn fixed(v: f64, decimals: usize) -> String {
    if !v.is_finite() {
        return "n/a".into();
    }
    let s = format!("{:.*}", decimals, v.abs());
    let negative = v < 0.0 && s.bytes().any(|b| matches!(b, b'1'..=b'9'));
    let (int, frac) = s
        .split_once('.')
        .map_or((s.as_str(), None), |(i, f)| (i, Some(f)));
    let mut grouped = String::with_capacity(s.len() + int.len() / 3 + 1);
    if negative {
        grouped.push('-');
    }
    for (i, c) in int.chars().enumerate() {
        if i > 0 && (int.len() - i) % 3 == 0 {
            grouped.push(',');
        }
        grouped.push(c);
    }
    if let Some(f) = frac {
        grouped.push('.');
        grouped.push_str(f);
    }
    grouped
}

/// The unit of a claims metric, in words.
pub fn metric_unit(metric: &str) -> &'static str {
    match metric {
        "decode_tok_s" | "aggregate_tok_s" | "prefill_tok_s" => "tok/s",
        "per_user_tok_s" => "tok/s per user",
        "ttft_p50_s" | "ttft_p95_s" => "s",
        "tpot_p50_ms" => "ms",
        "cost_per_million_usd" => "USD per million tokens",
        "tok_s_per_w" => "tok/s per W",
        _ => "",
    }
}

/// Decimals shown for a metric's values.
pub fn metric_decimals(metric: &str) -> usize {
    match metric {
        "ttft_p50_s" | "ttft_p95_s" => 3,
        "cost_per_million_usd" | "tok_s_per_w" => 2,
        m if m.ends_with("_tok_s") || m.ends_with("_ms") => 1,
        _ => 2,
    }
}

/// Whether a claim is a ratio (`kind: ratio`).
pub fn is_ratio(claim: &ClaimOutcome) -> bool {
    claim.kind == "ratio"
}

/// A ratio as shown: `2.20×`.
pub fn ratio(v: f64) -> String {
    format!("{}×", fixed(v, 2))
}

/// A value of `claim` with its unit: `2.20×` for a ratio, `537.6 tok/s` for a figure.
pub fn claim_value(claim: &ClaimOutcome, v: f64) -> String {
    if is_ratio(claim) {
        return ratio(v);
    }
    let unit = metric_unit(claim.metric.raw());
    let n = fixed(v, metric_decimals(claim.metric.raw()));
    if unit.is_empty() {
        n
    } else {
        format!("{n} {unit}")
    }
}

/// What the claim is, as a phrase: `ratio of aggregate_tok_s`, `figure of ttft_p50_s` (the
/// metric as the claims file writes it).
pub fn claim_kind(claim: &ClaimOutcome) -> Text {
    let kind = if claim.kind.is_empty() {
        "claim".to_string()
    } else {
        claim.kind.clone()
    };
    let mut t = Text::own(kind);
    if !claim.metric.is_empty() {
        t.push_own(" of ");
        t.push_file(claim.metric.raw());
    }
    t
}

/// The verdict in one plain sentence after the verdict word: `ratio of aggregate_tok_s,
/// published 2.20×, restated 1.05×.`
pub fn verdict_sentence(claim: &ClaimOutcome) -> Text {
    let mut s = claim_kind(claim);
    s.push_own(format!(
        ", published {}",
        claim_value(claim, claim.published_value)
    ));
    match (claim.restated_value, claim.verdict) {
        (Some(r), _) => s.push_own(format!(", restated {}", claim_value(claim, r))),
        (None, Verdict::Retracted) => s.push_own(", retracted: no value replaces it"),
        (None, Verdict::Unresolved) => s.push_own(", not yet resolved: no value replaces it"),
        (None, Verdict::Restated) => s.push_own(", no restated value could be computed"),
        (None, Verdict::Upheld | Verdict::PreRule) => {}
    }
    s.push_own(".");
    s
}

/// `5 claims: 1 upheld, 1 restated, 1 unresolved, 1 retracted, 1 pre-rule.` (verdicts with
/// no claim left out).
pub fn verdict_counts(report: &AuditReport) -> String {
    let n = report.claims.len();
    let mut parts = Vec::new();
    for v in VERDICTS {
        let k = report.claims.iter().filter(|c| c.verdict == v).count();
        if k > 0 {
            parts.push(format!("{k} {}", v.as_str()));
        }
    }
    let noun = if n == 1 { "claim" } else { "claims" };
    if parts.is_empty() {
        format!("{n} {noun}.")
    } else {
        format!("{n} {noun}: {}.", parts.join(", "))
    }
}

/// A rule code's page as shipped beside a report (`rules/C005-constant-total-concurrency.md`,
/// or `.html` for the HTML report) and its name, when benchlint knows the code.
pub fn rule_page(code: &str, html: bool) -> Option<(String, &'static str)> {
    let rule = crate::rules::find_rule(code)?;
    let page = super::rule_page_name(rule.meta);
    let page = if html {
        page.replace(".md", ".html")
    } else {
        page
    };
    Some((format!("rules/{page}"), rule.meta.name))
}

/// An estimate with its 95% interval: `537.6 (520.1–555.0)`; `198.1 (0.0–824.5, clipped at
/// 0: too few launches for an interval above zero)` when the interval reaches below zero,
/// which no throughput or rate can (the JSON keeps the bound as computed); `33.1 (no
/// interval)` when the bounds are equal; `—` when absent.
pub fn estimate(e: Option<&Estimate>, decimals: usize) -> String {
    match e {
        None => "—".into(),
        Some(e) if e.high <= e.low => format!("{} (no interval)", fixed(e.value, decimals)),
        Some(e) => {
            let (low, clipped) = crate::numbers::nonnegative_low(e.low);
            let why = if clipped {
                format!(", {}", crate::numbers::CLIPPED_AT_ZERO)
            } else {
                String::new()
            };
            format!(
                "{} ({}–{}{why})",
                fixed(e.value, decimals),
                fixed(low, decimals),
                fixed(e.high, decimals)
            )
        }
    }
}

/// The floor, as shown: `20.0 tok/s per user`.
pub fn floor_text(floor: f64) -> String {
    format!("{} tok/s per user", fixed(floor, 1))
}

/// The capacity of a ladder at the floor, in sentences.
pub fn capacity_sentence(ladder: &ConfigLadder, floor: f64) -> String {
    let Some(cap) = &ladder.capacity else {
        return format!(
            "Capacity at {}: not computed (no level has a per-user rate).",
            floor_text(floor)
        );
    };
    capacity_text(cap)
}

fn capacity_text(cap: &Capacity) -> String {
    let mut s = format!("Capacity at {}: ", floor_text(cap.floor_tok_s));
    match (cap.level, cap.aggregate_tok_s) {
        (Some(c), Some(a)) => {
            let _ = write!(s, "{c}, {} tok/s aggregate.", fixed(a, 1));
        }
        (Some(c), None) => {
            let _ = write!(s, "{c}.");
        }
        (None, _) => {
            let _ = write!(
                s,
                "none: {}.",
                cap.none_because
                    .unwrap_or("not even the first level clears the floor")
            );
        }
    }
    if let Some((pass, marginal)) = cap.marginal_interval {
        let _ = write!(
            s,
            " Marginal: the per-user interval at {marginal} straddles the floor, so the capacity lies between {} and {marginal}.",
            pass.value_text()
        );
    }
    if cap.single_instance {
        s.push_str(" Single instance: the levels rest on one launch, so each interval is within that launch only.");
    }
    s
}

/// Which ladders hold each result: built once per report, so that finding a claim's ladders
/// costs its own ids, not a walk of every ladder's results per claim.
pub struct LadderIndex<'a> {
    report: &'a AuditReport<'a>,
    by_result: BTreeMap<FileText, Vec<usize>>,
}

impl<'a> LadderIndex<'a> {
    /// The index of `report`'s ladders.
    pub fn new(report: &'a AuditReport<'a>) -> Self {
        let mut by_result: BTreeMap<FileText, Vec<usize>> = BTreeMap::new();
        for j in 0..report.ladders.len() {
            let Some(runs) = report.ladders.runs_of(j) else {
                continue;
            };
            for r in runs.iter() {
                let at = by_result.entry(r.clone()).or_default();
                if at.last() != Some(&j) {
                    at.push(j);
                }
            }
        }
        LadderIndex { report, by_result }
    }

    /// The ladders that hold any of a claim's runs, in report order.
    pub fn of(&self, claim: &ClaimOutcome) -> Vec<(usize, Cow<'a, ConfigLadder>)> {
        let held: BTreeSet<usize> = claim
            .subject
            .iter()
            .chain(&claim.baseline)
            .filter_map(|r| self.by_result.get(r))
            .flatten()
            .copied()
            .collect();
        held.into_iter()
            .filter_map(|j| Some((j, self.report.ladders.get(j)?)))
            .collect()
    }
}

/// A fragment id made of `prefix`, `-` and the ASCII letters, digits, `-` and `_` of `s`
/// (others become `-`), with the index to keep it unique.
pub fn anchor(prefix: &str, index: usize, s: &str) -> String {
    let body: String = s
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c.to_ascii_lowercase()
            } else {
                '-'
            }
        })
        .take(60)
        .collect();
    format!("{prefix}-{}-{body}", index + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Fixed decimals, thousands separators, no negative zero.
    #[test]
    fn fixed_formats_deterministically() {
        assert_eq!(fixed(3553.25, 1), "3,553.2");
        assert_eq!(fixed(1_234_567.0, 0), "1,234,567");
        assert_eq!(fixed(999.96, 1), "1,000.0");
        assert_eq!(fixed(-0.04, 1), "0.0");
        assert_eq!(fixed(-1234.5, 1), "-1,234.5");
        assert_eq!(fixed(0.223, 3), "0.223");
        assert_eq!(fixed(f64::NAN, 1), "n/a");
    }

    /// A ratio claim shows ×, a figure its unit.
    #[test]
    fn values_carry_their_unit() {
        let mut c = ClaimOutcome {
            id: "x".into(),
            statement: None,
            kind: "ratio".into(),
            metric: "aggregate_tok_s".into(),
            verdict: Verdict::Restated,
            codes: vec![],
            published_value: 2.2,
            restated_value: Some(1.047),
            basis: None,
            reasons: vec![],
            subject: vec![],
            baseline: vec![],
        };
        assert_eq!(
            verdict_sentence(&c).raw(),
            "ratio of aggregate_tok_s, published 2.20×, restated 1.05×."
        );
        c.kind = "figure".into();
        c.metric = "ttft_p50_s".into();
        c.published_value = 0.2234;
        c.restated_value = None;
        c.verdict = Verdict::Retracted;
        assert_eq!(
            verdict_sentence(&c).raw(),
            "figure of ttft_p50_s, published 0.223 s, retracted: no value replaces it."
        );
    }

    /// Anchors keep only safe characters and stay unique by index.
    #[test]
    fn anchors_are_safe() {
        assert_eq!(
            anchor("claim", 0, "Pairs vs <cluster>"),
            "claim-1-pairs-vs--cluster-"
        );
    }
}
