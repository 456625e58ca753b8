//! The three cards of a result (seed 002): the model card (the weights: single-stream rate,
//! TTFT, TPOT), the engine card (the serving stack: peak throughput, where it peaked, the
//! scaling curve) and the platform card (the hardware, and cost only with its stated basis).

use std::borrow::Cow;

use serde_json::{Map, Value, json};

use crate::model::{Level, ResultDoc};

/// The aggregate throughput of a level: the labelled aggregate, else output tokens over the
/// measured window (DESIGN: "a level's aggregate is `output_tokens / duration_s`").
pub fn aggregate(level: &Level) -> Option<f64> {
    level
        .throughput_tok_s
        .as_ref()
        .and_then(|t| t.aggregate)
        .or_else(|| {
            let (tokens, secs) = (level.output_tokens?, level.duration_s?);
            #[expect(
                clippy::cast_precision_loss,
                reason = "token counts are far below 2^52"
            )]
            (secs > 0.0).then(|| tokens as f64 / secs)
        })
        .filter(|v| v.is_finite())
}

/// The level with the highest aggregate throughput.
pub fn peak(doc: &ResultDoc) -> Option<(Cow<'_, Level>, f64)> {
    doc.levels
        .iter()
        .filter_map(|l| aggregate(&l).map(|a| (l, a)))
        .max_by(|a, b| a.1.total_cmp(&b.1))
}

fn insert<T: Into<Value>>(map: &mut Map<String, Value>, key: &str, value: Option<T>) {
    if let Some(v) = value {
        map.insert(key.to_string(), v.into());
    }
}

/// The level's load under `prefix`: `concurrency` for a closed-loop level, `request_rate` (and
/// `max_concurrency`, `mean_in_flight` where recorded) for an open-loop one. A request count is
/// never shown as a concurrency.
fn insert_load(map: &mut Map<String, Value>, prefix: &str, level: &Level) {
    insert(map, &format!("{prefix}concurrency"), level.concurrency);
    if level.concurrency.is_none() {
        if let Some(rate) = level.request_rate {
            map.insert(format!("{prefix}request_rate"), json!(rate));
        }
        insert(
            map,
            &format!("{prefix}max_concurrency"),
            level.max_concurrency,
        );
    }
    insert(
        map,
        &format!("{prefix}mean_in_flight"),
        level.mean_in_flight,
    );
}

/// The three cards of one result, as JSON. Absent values are left out, never guessed.
pub fn cards(doc: &ResultDoc) -> Value {
    let single = doc.levels.iter().find(|l| l.concurrency == Some(1));
    let mut model = Map::new();
    let m = doc.model.as_deref().cloned().unwrap_or_default();
    insert(&mut model, "name", m.name);
    insert(&mut model, "revision", m.revision);
    insert(&mut model, "precision", m.precision);
    insert(&mut model, "kernel", m.kernel);
    if let Some(l) = single {
        insert(
            &mut model,
            "single_stream_tok_s",
            l.per_user_tok_s
                .as_ref()
                .and_then(crate::model::PerUser::central),
        );
        insert(
            &mut model,
            "ttft_p50_s",
            l.ttft_s.as_ref().and_then(|t| t.p50),
        );
        insert(
            &mut model,
            "tpot_p50_ms",
            l.tpot_ms.as_ref().and_then(|t| t.p50),
        );
    }
    insert(
        &mut model,
        "prompt_tokens_mean",
        doc.workload
            .as_ref()
            .and_then(|w| w.prompt_tokens.as_ref()?.typical()),
    );

    let mut engine = Map::new();
    let e = doc.engine.as_deref().cloned().unwrap_or_default();
    insert(&mut engine, "name", e.name);
    insert(&mut engine, "version", e.version);
    insert(&mut engine, "max_num_seqs", e.max_num_seqs);
    if let Some((level, agg)) = peak(doc) {
        engine.insert("peak_aggregate_tok_s".into(), json!(agg));
        insert_load(&mut engine, "peak_", &level);
    }
    let curve: Vec<Value> = doc
        .levels
        .iter()
        .map(|l| {
            let mut point = Map::new();
            insert_load(&mut point, "", &l);
            insert(&mut point, "aggregate_tok_s", aggregate(&l));
            insert(
                &mut point,
                "per_user_tok_s",
                l.per_user_tok_s
                    .as_ref()
                    .and_then(crate::model::PerUser::central),
            );
            Value::Object(point)
        })
        .collect();
    engine.insert("scaling_curve".into(), Value::Array(curve));

    let mut platform = Map::new();
    let p = doc.platform.clone().unwrap_or_default();
    insert(&mut platform, "host", p.host.clone());
    insert(
        &mut platform,
        "device",
        p.device.as_ref().and_then(|d| d.model.clone()),
    );
    insert(
        &mut platform,
        "memory_gib",
        p.device.as_ref().and_then(|d| d.memory_gib),
    );
    insert(&mut platform, "devices", p.total_devices());
    insert(
        &mut platform,
        "peak_gpu_mem_gib",
        doc.levels
            .iter()
            .filter_map(|l| l.gpu_mem_gib)
            .reduce(f64::max),
    );
    // Seed 002: "Leave the hourly cost blank and no cost figure is produced."
    let hourly = doc
        .cost
        .as_ref()
        .and_then(|c| c.hourly_usd)
        .or(p.hourly_cost_usd);
    if let (Some(hourly), Some((level, agg))) = (hourly, peak(doc))
        && agg > 0.0
    {
        let per_million = hourly / (agg * 3600.0) * 1e6;
        platform.insert("hourly_cost_usd".into(), json!(hourly));
        platform.insert(
            "cost_per_million_output_usd".into(),
            json!((per_million * 100.0).round() / 100.0),
        );
        platform.insert(
                "cost_basis".into(),
                json!(format!(
                    "output tokens only, at the measured peak ({agg:.1} tok/s aggregate at {}) sustained for the whole hour; excludes prompt tokens, idle time and redundancy",
                    level.key()
                )),
            );
    }
    json!({ "result": doc.id, "model": model, "engine": engine, "platform": platform })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc(levels: Vec<(u64, f64)>, hourly: Option<f64>) -> ResultDoc {
        let mut d = ResultDoc {
            id: "r".into(),
            ..ResultDoc::default()
        };
        d.levels = levels
            .into_iter()
            .map(|(c, a)| Level {
                concurrency: Some(c),
                throughput_tok_s: Some(crate::model::Throughput {
                    aggregate: Some(a),
                    ..Default::default()
                }),
                ..Level::default()
            })
            .collect();
        d.cost = hourly.map(|h| {
            Box::new(crate::model::Cost {
                hourly_usd: Some(h),
                ..Default::default()
            })
        });
        d
    }

    #[test]
    fn cost_comes_only_with_an_hourly_cost_and_uses_the_peak() {
        let c = cards(&doc(vec![(8, 240.0), (16, 320.0), (24, 300.0)], Some(1.84)));
        assert_eq!(c["engine"]["peak_concurrency"], 16);
        // 1.84 / (320 × 3600) × 1e6 = 1.597…
        assert_eq!(c["platform"]["cost_per_million_output_usd"], 1.6);
        assert!(
            c["platform"]["cost_basis"]
                .as_str()
                .unwrap()
                .contains("320.0 tok/s")
        );
        let none = cards(&doc(vec![(8, 240.0)], None));
        assert!(
            none["platform"]
                .get("cost_per_million_output_usd")
                .is_none()
        );
    }

    #[test]
    fn aggregate_falls_back_to_tokens_over_the_window() {
        let l = Level {
            concurrency: Some(4),
            output_tokens: Some(24_000),
            duration_s: Some(120.0),
            ..Level::default()
        };
        assert_eq!(aggregate(&l), Some(200.0));
        let zero = Level {
            concurrency: Some(4),
            output_tokens: Some(24_000),
            duration_s: Some(0.0),
            ..Level::default()
        };
        assert_eq!(aggregate(&zero), None);
    }
}
