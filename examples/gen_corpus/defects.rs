//! The defects of the `--heavy` corpus: what old result files really get wrong (a setting not
//! recorded, a retyped command, a sampled temperature, counters that disagree, a cost not
//! following from the peak), drawn per file so that `check` reports about 25 findings a file,
//! a mix of M, R, L and S codes, several at each level.

use serde_json::{Value, json};

use crate::Rng;

/// A defect of the whole result, and how often a file has it.
type FileDefect = (f64, fn(&mut Value));

/// A defect of one level, and how often a level has it.
type LevelDefect = (f64, fn(&mut Value));

const FILE_DEFECTS: [FileDefect; 13] = [
    // L002: TTFT reported without the prompt length.
    (0.2, |d| remove(&mut d["workload"], "prompt_tokens")),
    // M006: graph mode not recorded.
    (0.6, |d| remove(&mut d["engine"], "enforce_eager")),
    // M002: an image tag instead of a digest.
    (0.5, |d| d["engine"]["image_digest"] = json!("latest")),
    // M004: the serve command typed from memory.
    (0.5, |d| {
        d["engine"]["serve_command_source"] = json!("typed");
    }),
    // M011: multi-node without a parity check.
    (0.6, |d| remove(&mut d["platform"], "parity_check")),
    // M013: harness revision not recorded.
    (0.5, |d| remove(&mut d["harness"], "revision")),
    // M017: a quality gate that is not there.
    (0.5, |d| {
        d["artifacts"]["quality_gate"]["path"] = json!("missing.quality-gate.csv");
    }),
    // R004: sampled at a temperature (a configuration of its own, so S findings follow).
    (0.15, |d| d["workload"]["temperature"] = json!(0.7)),
    // R005: warm-up requests counted.
    (0.5, |d| d["workload"]["warmup_excluded"] = json!(false)),
    // R009: a short burst instead of a steady window.
    (0.5, |d| d["workload"]["window"]["ramp_s"] = json!(0)),
    // R014: levels run in ascending order.
    (0.5, |d| d["workload"]["level_order"] = json!("ascending")),
    // L004: a cost figure that does not follow from the peak.
    (0.6, |d| {
        scale(&mut d["cost"]["per_million_output_usd"], 0.5);
    }),
    // M018: a token pasted into the notes.
    (0.1, |d| {
        d["notes"] = json!("rerun with HF_TOKEN=hf_aVeRyReAlLoOkInGtOkEnVaLuE0123456789");
    }),
];

const LEVEL_DEFECTS: [LevelDefect; 6] = [
    // R002: the client counted 5% more tokens than the server.
    (0.7, |l| scale(&mut l["server_output_tokens"], 0.95)),
    // L003: an aggregate without the per-user rate beside it (nor the TPOT it can be
    // derived from).
    (0.35, |l| {
        remove(l, "per_user_tok_s");
        remove(l, "tpot_ms");
    }),
    // R010: a TTFT tail knee (and R017 where the level keeps its samples).
    (0.25, |l| scale(&mut l["ttft_s"]["p95"], 6.0)),
    // R006 (and R025): failed requests averaged in.
    (0.5, |l| l["failed"] = json!(3)),
    // R025 and R011: an aggregate that is not the level's tokens over its window.
    (0.5, |l| scale(&mut l["throughput_tok_s"]["aggregate"], 1.4)),
    // L001: a throughput whose phase was dropped for lack of a label.
    (0.3, |l| l["throughput_tok_s"] = json!({})),
];

fn remove(v: &mut Value, key: &str) {
    if let Some(map) = v.as_object_mut() {
        map.remove(key);
    }
}

fn scale(v: &mut Value, factor: f64) {
    if let Some(x) = v.as_f64() {
        *v = if v.is_u64() {
            #[expect(
                clippy::cast_possible_truncation,
                clippy::cast_sign_loss,
                reason = "counts"
            )]
            let scaled = (x * factor).round() as u64;
            json!(scaled)
        } else {
            json!((x * factor * 100.0).round() / 100.0)
        };
    }
}

/// Gives a result its share of defects (a does-not-fit result has no levels and keeps only the
/// file-wide ones that apply).
pub fn apply(d: &mut Value, rng: &mut Rng) {
    let measured = d["levels"].as_array().is_some_and(|l| !l.is_empty());
    for (share, defect) in FILE_DEFECTS {
        if rng.unit() < share && (measured || d["workload"].is_object()) {
            defect(d);
        }
    }
    if let Some(levels) = d["levels"].as_array_mut() {
        for level in levels {
            for (share, defect) in LEVEL_DEFECTS {
                if rng.unit() < share {
                    defect(level);
                }
            }
        }
    }
}
