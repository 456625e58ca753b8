//! What a `GuideLLM` benchmark was run with, beside its figures: the settings every sampled
//! request was sent with, the data the prompts came from, and the warm-up its window excludes.

use serde_json::Value;

use crate::adapters::map::{Builder, at, count, flag, number, ptr};

/// Sampled request bodies read per status for the request settings.
const SAMPLED_BODIES: usize = 32;

/// The HTTP body every sampled request was sent with (`request_args`, a JSON string, 0.5+):
/// output cap, `ignore_eos`, temperature, when all sampled requests agree.
pub(super) fn request_settings(b: &mut Builder<'_>, base: &str) {
    let doc = b.doc();
    let mut bodies = Vec::new();
    for status in ["successful", "errored", "incomplete"] {
        let Some(list) = at(doc, &ptr(base, &["requests", status])).and_then(Value::as_array)
        else {
            continue;
        };
        // The first sampled requests are enough to see the settings (each body holds a prompt).
        for (j, r) in list.iter().enumerate().take(SAMPLED_BODIES) {
            let Some(args) = r.get("request_args").and_then(Value::as_str) else {
                continue;
            };
            if let Ok(parsed) = serde_json::from_str::<Value>(args) {
                let body = parsed.get("body").cloned().unwrap_or(parsed);
                bodies.push((
                    body,
                    ptr(base, &["requests", status, &j.to_string(), "request_args"]),
                ));
            }
        }
    }
    let Some((_, src)) = bodies.first() else {
        return;
    };
    let src = src.clone();
    let agreed = |keys: &[&str]| -> Option<Value> {
        let pick = |body: &Value| {
            keys.iter()
                .find_map(|k| body.get(*k).filter(|v| !v.is_null()).cloned())
        };
        let first = pick(&bodies[0].0)?;
        bodies
            .iter()
            .all(|(body, _)| pick(body).as_ref() == Some(&first))
            .then_some(first)
    };
    if let Some(n) = agreed(&["max_tokens", "max_completion_tokens"])
        .as_ref()
        .and_then(count)
        .filter(|n| *n >= 1)
    {
        b.put("/workload/max_output_tokens", n, &src);
    }
    if let Some(v) = agreed(&["ignore_eos"]).as_ref().and_then(flag) {
        b.put("/workload/ignore_eos", v, &src);
    }
    if let Some(t) = agreed(&["temperature"])
        .as_ref()
        .and_then(number)
        .filter(|t| *t >= 0.0)
    {
        b.put("/workload/temperature", t, &src);
    }
}

/// The data the prompts came from: a dataset path, or a synthetic spec with token counts
/// (`prompt_tokens=256,output_tokens=128` up to 0.6; `spec.data[]` objects from 0.7).
pub(super) fn data_spec(b: &mut Builder<'_>, base: &str, legacy: bool) {
    let doc = b.doc();
    // ≥ 0.7: the scenario's data entries.
    if let Some(entries) = at(doc, "/config/spec/data").and_then(Value::as_array) {
        if let [entry] = entries.as_slice() {
            let e = "/config/spec/data/0";
            let synthetic = entry
                .get("kind")
                .and_then(Value::as_str)
                .is_some_and(|k| k.starts_with("synthetic"));
            if synthetic {
                let varies = at(doc, &ptr(e, &["output_tokens_stdev"]))
                    .and_then(number)
                    .is_some_and(|s| s > 0.0);
                if !b.has("/workload/max_output_tokens") {
                    let _ = b.whole(
                        "/workload/max_output_tokens",
                        &ptr(e, &["output_tokens_max"]),
                        1,
                    ) || (!varies
                        && b.whole(
                            "/workload/max_output_tokens",
                            &ptr(e, &["output_tokens"]),
                            1,
                        ));
                }
            } else {
                let _ = b.string("/workload/dataset", &ptr(e, &["path"]))
                    || b.string("/workload/dataset", &ptr(e, &["data"]));
                if b.has("/workload/dataset") {
                    b.put("/workload/prompts", "dataset", e);
                }
            }
        }
        return;
    }
    // ≤ 0.6: a string (or a list of one) in `args.data` or the benchmark's request loader.
    let srcs = if legacy {
        vec![ptr(base, &["request_loader", "data"])]
    } else {
        vec!["/args/data/0".to_string(), "/args/data".to_string()]
    };
    let Some((spec, src)) = srcs.iter().find_map(|s| {
        at(doc, s)
            .and_then(Value::as_str)
            .map(|v| (v.to_string(), s.clone()))
    }) else {
        return;
    };
    if spec.contains('=') {
        let pairs: Vec<(&str, &str)> = spec
            .split(',')
            .filter_map(|kv| kv.split_once('='))
            .map(|(k, v)| (k.trim(), v.trim()))
            .collect();
        let get = |k: &str| {
            pairs
                .iter()
                .find(|(key, _)| *key == k)
                .and_then(|(_, v)| v.parse::<u64>().ok())
        };
        let varies = get("output_tokens_stdev").is_some_and(|s| s > 0);
        let cap = get("output_tokens_max").or(if varies { None } else { get("output_tokens") });
        if let Some(n) = cap.filter(|n| *n >= 1)
            && !b.has("/workload/max_output_tokens")
        {
            b.put("/workload/max_output_tokens", n, &src);
        }
    } else {
        b.put("/workload/dataset", spec, &src);
        b.put("/workload/prompts", "dataset", &src);
    }
}

/// Warm-up: the measured window starts after it, so it is excluded from every figure.
pub(super) fn warmup(b: &mut Builder<'_>, base: &str, legacy: bool) {
    let doc = b.doc();
    let p = |tokens: &[&str]| ptr(base, tokens);
    if legacy {
        if b.whole(
            "/workload/warmup_requests",
            &p(&["args", "warmup_number"]),
            0,
        ) {
            b.put(
                "/workload/warmup_excluded",
                true,
                &p(&["args", "warmup_number"]),
            );
        } else if at(doc, &p(&["args", "warmup_duration"]))
            .and_then(number)
            .is_some_and(|d| d > 0.0)
        {
            b.put(
                "/workload/warmup_excluded",
                true,
                &p(&["args", "warmup_duration"]),
            );
        }
        return;
    }
    let ramp = p(&["warmup_duration"]);
    if at(doc, &ramp).and_then(number).is_some_and(|d| d > 0.0) {
        b.put("/workload/warmup_excluded", true, &ramp);
        b.put("/workload/window/mode", "steady", &ramp);
        b.real("/workload/window/ramp_s", &ramp, 1.0);
        b.real("/workload/window/measure_s", &p(&["duration"]), 1.0);
    }
}
