//! `benchlint regress --format json`: one document with every cell, every launch value and
//! the run values behind each launch (`schemas/regress.schema.json`, `benchlint schema
//! regress`). Text from the files is masked; the JSON writer escapes hidden characters.

use serde_json::{Value, json};

use crate::model::{LevelKey, RequestRate};
use crate::regress::{Cell, Report, Runs, SideCell};
use crate::stats::LaunchesNeeded;

fn level(key: LevelKey) -> Value {
    match key {
        LevelKey::Streams(n) => json!({ "kind": "concurrency", "value": n }),
        LevelKey::Rate(RequestRate::PerSecond(r)) => json!({ "kind": "request_rate", "value": r }),
        LevelKey::Rate(RequestRate::Unbounded) => json!({ "kind": "request_rate", "value": "inf" }),
        LevelKey::Unstated => json!({ "kind": "unstated", "value": null }),
    }
}

/// A side of a cell as the document shows it: its launches written as the writer reaches
/// them (a configuration of thousands of launches has thousands in every cell, each with its
/// runs, and a cell built whole as a JSON value first was ten times its text).
#[derive(serde::Serialize)]
struct SideJson<'a> {
    center: Option<f64>,
    ci95_fraction: Option<f64>,
    cv: Option<f64>,
    launches: crate::text::json::Streamed<Box<dyn Iterator<Item = Value> + 'a>>,
    rejected: Value,
}

fn side<'a>(s: Option<&'a SideCell>, runs: &'a Runs) -> Option<SideJson<'a>> {
    let s = s?;
    let launches: Box<dyn Iterator<Item = Value> + 'a> = Box::new(s.launches.iter().map(|l| {
        json!({
            "id": s.launch_id(l, runs).map(|i| i.masked().into_owned()),
            "value": l.value,
            "runs": s.runs_of(l).iter().map(|r| json!({
                "id": runs.id(r.run), "path": runs.path(r.run), "value": r.value,
            })).collect::<Vec<_>>(),
        })
    }));
    Some(SideJson {
        center: s.center(),
        ci95_fraction: s.ci_fraction(),
        cv: s.cv(),
        launches: crate::text::json::Streamed::new(launches),
        rejected: s
            .rejected
            .iter()
            .map(|&(run, why)| json!({ "id": runs.id(run), "reason": why }))
            .collect(),
    })
}

/// A cell as the document shows it, its members in their order.
#[derive(serde::Serialize)]
struct CellJson<'a> {
    configuration: &'a str,
    level: Value,
    metric: &'static str,
    better: &'static str,
    base: Option<SideJson<'a>>,
    head: Option<SideJson<'a>>,
    control: Option<SideJson<'a>>,
    effect: Value,
    tests: Value,
    noise_floor: Value,
    verdict: &'static str,
    confirmed: bool,
    fails: bool,
    codes: &'a [&'static str],
    reasons: &'a [std::sync::Arc<crate::text::FileText>],
    launches_needed_per_side: Value,
}

/// A cell made by the walk of the report's cells, written when the writer reaches it.
struct WrittenCell<'r> {
    report: &'r Report,
    cell: Cell,
}

impl serde::Serialize for WrittenCell<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        cell(self.report, &self.cell).serialize(serializer)
    }
}

fn cell<'a>(report: &'a Report, c: &'a Cell) -> CellJson<'a> {
    let config = &report.configs[c.config];
    let (effect, tests) = match &c.stats {
        Some(s) => {
            let (lo, hi) = s.change_ci();
            (
                json!({ "change": s.change(), "ci": [lo, hi], "ci_level": 1.0 - report.options.alpha,
                        "log_ratio": s.raw, "se": s.se, "df": s.df }),
                json!({ "p_worse": s.p_worse, "p_better": s.p_better, "q_worse": c.q_worse,
                        "q_better": c.q_better, "p_tost": s.p_tost }),
            )
        }
        None => (Value::Null, Value::Null),
    };
    let needed = match c.launches_needed {
        Some(LaunchesNeeded::PerSide(n)) => json!(n),
        Some(LaunchesNeeded::Beyond) => json!(format!(">{}", crate::stats::MAX_LAUNCHES)),
        None => Value::Null,
    };
    CellJson {
        configuration: &config.fingerprint,
        level: level(c.level),
        metric: c.metric.as_str(),
        better: c.metric.better(),
        base: side(c.base.as_deref(), &report.runs),
        head: side(c.head.as_deref(), &report.runs),
        control: side(c.control.as_deref(), &report.runs),
        effect,
        tests,
        noise_floor: json!({ "value": c.noise_floor.0, "source": c.noise_floor.1 }),
        verdict: c.verdict.as_str(),
        confirmed: c.confirmed,
        fails: report.fails(c),
        codes: &c.codes,
        reasons: &c.reasons,
        launches_needed_per_side: needed,
    }
}

/// Renders `report` as JSON.
pub fn render(report: &Report) -> Vec<u8> {
    let mut bytes = Vec::new();
    render_to(report, &mut bytes).expect("JSON serialises into memory");
    bytes
}

/// The document's parts in their order, the configurations and cells each made as the writer
/// reaches it: a report of ten thousand configurations is a quarter of a gigabyte of JSON,
/// and made whole as a JSON value first it took ten times that.
#[derive(serde::Serialize)]
#[serde(bound(serialize = ""))]
struct Document<C: Iterator<Item = Value>, K: Iterator<Item: serde::Serialize>> {
    tool: &'static str,
    version: &'static str,
    schema: &'static str,
    params: Value,
    configurations: crate::text::json::Streamed<C>,
    cells: crate::text::json::Streamed<K>,
    summary: Value,
}

/// [`render`], written to `out` as it is made.
pub fn render_to(report: &Report, out: &mut dyn std::io::Write) -> std::io::Result<()> {
    let o = &report.options;
    let counts: serde_json::Map<String, Value> = report
        .counts()
        .into_iter()
        .map(|(v, n)| (v.as_str().to_string(), json!(n)))
        .collect();
    let document = Document {
        tool: "benchlint",
        version: env!("CARGO_PKG_VERSION"),
        schema: "benchlint/regress/v1",
        params: json!({
            "threshold": o.threshold,
            "alpha": o.alpha,
            "fail_on": o.fail_on.as_str(),
            "vary": o.varied,
            "metrics": o.metrics.iter().map(|m| m.as_str()).collect::<Vec<_>>(),
            "family": report.family,
            "control": report.control,
        }),
        configurations: crate::text::json::Streamed::new(report.configs.iter().map(|c| {
            json!({
                "fingerprint": c.fingerprint,
                "label": c.label,
                "base_versions": c.versions.0,
                "head_versions": c.versions.1,
                "speculative": c.speculative,
                "mismatches": c.mismatches.iter()
                    .map(|(code, m)| json!({ "code": code, "message": m }))
                    .collect::<Vec<_>>(),
                "notes": c.notes,
            })
        })),
        cells: crate::text::json::Streamed::new(
            report
                .by_config()
                .flat_map(|(_, cells)| cells)
                .map(|cell| WrittenCell { report, cell }),
        ),
        summary: json!({
            "counts": counts,
            "failing": report.tally.failing,
            "exit_code": report.exit_code,
            "reason": report.no_comparable,
        }),
    };
    crate::text::json::pretty_line_to(out, &document)
}
