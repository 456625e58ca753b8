//! The canonical-only corpora of the bench (`--clean` and `--heavy`): results made from the
//! replicated corpus in `testdata/clean`, every level regenerated with per-request samples and
//! summaries computed from them, laid out in deployments whose runs satisfy the replication
//! rules (three launches of fifteen runs per speculative workload, a prefill-heavy shape and a
//! does-not-fit result in each). A corpus whose size is not a multiple of 36 ends with
//! prefill-only deployments (five runs over two launches) and does-not-fit results, which need
//! no more replicates, so any size stays clean.

use std::fmt::Write as _;
use std::path::Path;

use serde_json::{Value, json};

use crate::Rng;
use crate::defects;

const PROSE: &str =
    include_str!("../../testdata/clean/replicated-corpus/workload-prose/prose-l2-r1.json");
const CODE: &str =
    include_str!("../../testdata/clean/replicated-corpus/workload-code/code-l2-r7.json");
const PREFILL: &str =
    include_str!("../../testdata/clean/replicated-corpus/workload-prefill-3k/prefill-l2-r1.json");
const DOES_NOT_FIT: &str =
    include_str!("../../testdata/clean/replicated-corpus/losing/glm5-753b-does-not-fit.json");
const POWER_TRACE: &str = include_str!("../../testdata/clean/replicated-corpus/complete.power.csv");
const QUALITY_GATE: &str =
    include_str!("../../testdata/clean/replicated-corpus/complete.quality-gate.csv");

/// The templates' windows are 120 s; the generated ones are eleven times longer, so a level holds
/// from 250 to 300 requests (one stream) to 1,800 to 2,200 (24 streams).
const WINDOW_SCALE: f64 = 11.0;

/// Most results (two in three) record the per-request samples of one level: the single-stream
/// level (a few hundred requests), or in one of eight the top level (about 2,000). Samples at every
/// level would make files of 150 KB; this keeps the corpus near 15 KB a file.
fn sampled_level(i: u64, levels: usize) -> Option<usize> {
    match i % 3 {
        0 => None,
        _ if (i / 3).is_multiple_of(8) => Some(levels - 1),
        _ => Some(0),
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Prose,
    Code,
    Prefill,
    DoesNotFit,
}

/// One result of a deployment: what it measured, in which launch, which repeat.
#[derive(Clone, Copy)]
struct Slot {
    kind: Kind,
    launch: u32,
    repeat: u32,
}

/// A self-sufficient group of results: every configuration in it has the runs and launches
/// the S rules ask for, so a corpus made of whole units reports nothing.
fn unit(room: u64) -> Vec<Slot> {
    let slot = |kind, launch, repeat| Slot {
        kind,
        launch,
        repeat,
    };
    let prefill = [(4, 1), (4, 2), (4, 3), (5, 1), (5, 2)].map(|(l, r)| slot(Kind::Prefill, l, r));
    if room >= 36 {
        let mut slots = Vec::with_capacity(36);
        for launch in 1..=3 {
            slots.extend((1..=5).map(|r| slot(Kind::Prose, launch, r)));
            slots.extend((6..=10).map(|r| slot(Kind::Code, launch, r)));
        }
        slots.extend(prefill);
        slots.push(slot(Kind::DoesNotFit, 6, 1));
        slots
    } else if room >= 5 {
        prefill.to_vec()
    } else {
        vec![slot(Kind::DoesNotFit, 6, 1)]
    }
}

/// Writes `n` canonical results into `out` (with their paired artifact files); returns the
/// bytes of JSON written.
pub fn write_corpus(out: &Path, n: u64, seed: u64, heavy: bool) -> usize {
    let templates: Vec<Value> = [PROSE, CODE, PREFILL, DOES_NOT_FIT]
        .iter()
        .map(|t| serde_json::from_str(t).expect("template parses"))
        .collect();
    let mut rng = Rng(seed);
    let mut bytes = 0;
    let (mut i, mut block) = (0u64, 0u64);
    while i < n {
        let slots = unit(n - i);
        // How fast this deployment is against the template, the same for all its runs.
        let speed = 0.9 + 0.2 * rng.unit();
        for slot in slots {
            let dir = out.join(format!("d{:03}", i / 1000));
            if i % 1000 == 0 {
                std::fs::create_dir_all(&dir).expect("create the output folder");
            }
            let template = &templates[slot.kind as usize];
            let mut file_rng = Rng(seed ^ i.wrapping_mul(0xA24B_AED4_963E_E407));
            let name = format!("r{i:06}");
            let mut samples = Vec::new();
            let mut doc = result(
                template,
                slot,
                block,
                &name,
                speed,
                &mut file_rng,
                &mut samples,
                i,
            );
            if heavy {
                defects::apply(&mut doc, &mut file_rng);
            }
            let text = with_samples(&format!("{doc:#}\n"), &samples);
            bytes += text.len();
            std::fs::write(dir.join(format!("{name}.json")), &text).expect("write a result");
            if slot.kind != Kind::DoesNotFit {
                std::fs::write(dir.join(format!("{name}.power.csv")), POWER_TRACE)
                    .expect("write a power trace");
                std::fs::write(dir.join(format!("{name}.quality-gate.csv")), QUALITY_GATE)
                    .expect("write a quality gate");
            }
            i += 1;
        }
        block += 1;
    }
    bytes
}

/// A date for each deployment (one day each), as `YYYY-MM-DD`.
fn day(block: u64) -> String {
    format!(
        "{}-{:02}-{:02}",
        2020 + block / 336,
        1 + (block / 28) % 12,
        1 + block % 28
    )
}

#[expect(
    clippy::too_many_arguments,
    reason = "one call site, every argument named"
)]
fn result(
    template: &Value,
    slot: Slot,
    block: u64,
    name: &str,
    speed: f64,
    rng: &mut Rng,
    samples: &mut Vec<String>,
    i: u64,
) -> Value {
    let mut d = template.clone();
    let date = day(block);
    let kind = match slot.kind {
        Kind::Prose => "prose",
        Kind::Code => "code",
        Kind::Prefill => "prefill3k",
        Kind::DoesNotFit => "does-not-fit",
    };
    let launch_hour = [1, 7, 13, 19, 21, 23][slot.launch as usize - 1];
    // Inside a launch the prose repeats run first, then the code ones (repeats 6 to 10).
    let minutes = 5 + 20 * ((slot.repeat - 1) % 10);
    d["id"] = json!(format!(
        "pool{block:05}-{kind}-l{}-r{}",
        slot.launch, slot.repeat
    ));
    d["launch"] = json!({
        "id": format!("pool{block:05}-launch-{}", slot.launch),
        "started_at": format!("{date}T{launch_hour:02}:00:00Z"),
    });
    d["repeat"] = json!(slot.repeat);
    d["measured_at"] = json!(format!(
        "{date}T{:02}:{:02}:00Z",
        launch_hour + minutes / 60,
        minutes % 60
    ));
    d["labels"] = json!({ "deployment": format!("pool-{block:05}") });
    d["notes"] = json!(format!(
        "Generated {kind} run (launch {}, repeat {}).",
        slot.launch, slot.repeat
    ));
    if slot.kind == Kind::DoesNotFit {
        return d;
    }
    d["workload"]["window"]["measure_s"] = json!(120.0 * WINDOW_SCALE);
    d["artifacts"]["power_trace"]["path"] = json!(format!("{name}.power.csv"));
    d["artifacts"]["quality_gate"]["path"] = json!(format!("{name}.quality-gate.csv"));
    let cap = d["workload"]["max_output_tokens"].as_f64().unwrap_or(256.0);
    let speed = speed * (0.99 + 0.02 * rng.unit());
    let levels = d["levels"].as_array().cloned().unwrap_or_default();
    let sampled = sampled_level(i, levels.len());
    let mut peak = (0.0, 0);
    let regenerated: Vec<Value> = levels
        .iter()
        .enumerate()
        .map(|(k, t)| {
            let (level, raw) = level(t, speed, cap, rng);
            let aggregate = level["throughput_tok_s"]["aggregate"]
                .as_f64()
                .unwrap_or(0.0);
            if aggregate > peak.0 {
                peak = (aggregate, level["concurrency"].as_u64().unwrap_or(0));
            }
            let mut level = level;
            if sampled == Some(k) {
                level["samples"] = json!(placeholder(samples.len()));
                samples.push(raw);
            }
            level
        })
        .collect();
    d["levels"] = Value::Array(regenerated);
    cost(&mut d, peak);
    d
}

/// The cost per million output tokens at the measured peak, with its basis (rule L004).
fn cost(d: &mut Value, (peak, streams): (f64, u64)) {
    let hourly = d["cost"]["hourly_usd"].as_f64().unwrap_or(1.84);
    d["cost"]["per_million_output_usd"] = json!(round(hourly * 1e6 / (peak * 3600.0), 2));
    let basis = d["cost"]["basis"].as_str().unwrap_or_default();
    let rest = basis.split_once(") ").map_or("", |(_, rest)| rest);
    d["cost"]["basis"] = json!(format!(
        "output tokens only, at the measured peak ({peak} tok/s aggregate at {streams} streams) {rest}"
    ));
}

fn placeholder(k: usize) -> String {
    format!("@@samples-{k}@@")
}

/// Puts each level's samples in place, one line per metric, as harnesses that dump raw
/// arrays write them (a pretty-printed array would take a line per request).
fn with_samples(text: &str, samples: &[String]) -> String {
    let mut text = text.to_string();
    for (k, raw) in samples.iter().enumerate() {
        text = text.replacen(&format!("\"{}\"", placeholder(k)), raw, 1);
    }
    text
}

fn round(x: f64, decimals: i32) -> f64 {
    let scale = 10f64.powi(decimals);
    (x * scale).round() / scale
}

/// numpy's default (type-7) quantile of sorted values.
fn quantile(sorted: &[f64], q: f64) -> f64 {
    #[expect(clippy::cast_precision_loss, reason = "a few thousand samples")]
    let h = (sorted.len() - 1) as f64 * q;
    #[expect(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        reason = "h >= 0, small"
    )]
    let lo = h.floor() as usize;
    let hi = (lo + 1).min(sorted.len() - 1);
    sorted[lo] + (h - h.floor()) * (sorted[hi] - sorted[lo])
}

fn sorted(values: &[f64]) -> Vec<f64> {
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    v
}

/// One level from its template: `speed` scales the request count and the per-user rate, the
/// requests are drawn around the template's figures, and every summary is computed from them.
/// Returns the level and its samples as compact JSON.
fn level(t: &Value, speed: f64, cap: f64, rng: &mut Rng) -> (Value, String) {
    let f = |v: &Value| v.as_f64().unwrap_or(0.0);
    let template_requests = f(&t["requests"]).max(1.0);
    #[expect(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        reason = "small counts"
    )]
    let n = (template_requests * WINDOW_SCALE * speed).round().max(1.0) as usize;
    let mean_output = f(&t["output_tokens"]) / template_requests;
    let user = f(&t["per_user_tok_s"]["mean"]) * speed;
    let ttft_median = f(&t["ttft_s"]["p50"]);
    let (mut ttft, mut tpot, mut per_user, mut tokens) = (
        Vec::with_capacity(n),
        Vec::with_capacity(n),
        Vec::with_capacity(n),
        Vec::with_capacity(n),
    );
    for _ in 0..n {
        tokens.push(cap.min((mean_output * (0.88 + 0.24 * rng.unit())).round()));
        let rate = round(user * (0.955 + 0.09 * rng.unit()), 2);
        per_user.push(rate);
        tpot.push(round(1000.0 / rate, 2));
        // A few requests queue behind a long prefill: the tail of the distribution.
        let tail = if rng.below(33) == 0 {
            1.5 + rng.unit()
        } else {
            1.0
        };
        ttft.push(round(ttft_median * (0.8 + 0.4 * rng.unit()) * tail, 4));
    }
    let duration = 120.0 * WINDOW_SCALE;
    let total: f64 = tokens.iter().sum();
    let aggregate = round(total / duration, 2);
    #[expect(
        clippy::cast_possible_truncation,
        clippy::cast_sign_loss,
        reason = "token counts"
    )]
    let total_count = total as u64;
    let decode_share = f(&t["throughput_tok_s"]["decode"]) / f(&t["throughput_tok_s"]["aggregate"]);
    #[expect(clippy::cast_precision_loss, reason = "a few thousand samples")]
    let mean_rate = per_user.iter().sum::<f64>() / n as f64;
    let (s_ttft, s_tpot, s_user) = (sorted(&ttft), sorted(&tpot), sorted(&per_user));
    let level = json!({
        "concurrency": t["concurrency"],
        "requests": n,
        "failed": 0,
        "duration_s": duration,
        "output_tokens": total_count,
        "server_output_tokens": total_count,
        "throughput_tok_s": {
            "decode": round(aggregate * decode_share, 2),
            "prefill": round(f(&t["throughput_tok_s"]["prefill"]) * speed, 1),
            "aggregate": aggregate,
        },
        "per_user_tok_s": {
            "mean": round(mean_rate, 2),
            "median": round(quantile(&s_user, 0.5), 2),
            "p10": round(quantile(&s_user, 0.1), 2),
        },
        "ttft_s": {
            "p50": round(quantile(&s_ttft, 0.5), 4),
            "p95": round(quantile(&s_ttft, 0.95), 4),
            "p99": round(quantile(&s_ttft, 0.99), 4),
        },
        "tpot_ms": {
            "p50": round(quantile(&s_tpot, 0.5), 2),
            "p95": round(quantile(&s_tpot, 0.95), 2),
        },
        "e2e_s": {
            "p50": round(f(&t["e2e_s"]["p50"]) / speed, 3),
            "p95": round(f(&t["e2e_s"]["p95"]) / speed, 3),
        },
        "gpu_mem_gib": t["gpu_mem_gib"],
    });
    let mut raw = String::from("{");
    for (k, (name, values)) in [
        ("ttft_s", &ttft),
        ("tpot_ms", &tpot),
        ("per_user_tok_s", &per_user),
        ("output_tokens", &tokens),
    ]
    .into_iter()
    .enumerate()
    {
        let sep = if k == 0 { "" } else { "," };
        // Token counts are integers; the timings keep the decimals they were rounded to.
        let items: Vec<String> = values
            .iter()
            .map(|v| {
                if name == "output_tokens" {
                    format!("{v:.0}")
                } else {
                    v.to_string()
                }
            })
            .collect();
        let _ = write!(raw, "{sep}\n          \"{name}\": [{}]", items.join(", "));
    }
    raw.push_str("\n        }");
    (level, raw)
}
