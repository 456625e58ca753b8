//! `AIPerf`'s DCGM GPU telemetry (`telemetry_data.endpoints.<exporter>.gpus.<gpu>`): one entry
//! per GPU the exporter watched, with its name, host and `metrics` summarised over the run
//! (`gpu_power_usage` in `W`, `sm_clock_frequency`, ...).
//!
//! - The GPU model and the host, when every GPU reported agrees.
//! - **Power.** The mean power (`gpu_power_usage.avg`, watts) of the GPUs that served is the
//!   level's `power_w.mean`, of kind `device`: DCGM reads each accelerator's own power sensor,
//!   never the wall. DCGM reports every GPU of the node it watches, also those the engine never
//!   touched (a real export: one A100 at 94.6 W holding the model and seven idle ones at about
//!   57 W each with no memory in use), so a GPU counts as serving when memory was in use on it
//!   (`gpu_memory_used.avg` above 0). With several serving GPUs the level's power is their sum
//!   (derived, naming how many); one GPU is its own figure. Nothing is mapped unless every GPU
//!   reports both metrics (power in watts): a partial sum would understate the power, and
//!   without the memory figure the idle GPUs cannot be told apart. Nor unless the level
//!   completed requests (tokens per watt divides its throughput by it). The telemetry window is
//!   the exporter's (`telemetry_data.summary` start and end), which may include the warm-up:
//!   the file's own account, not corrected here.

use serde_json::Value;

use super::map::{Builder, at, number, ptr, text};

/// Maps what the telemetry records; `served` says whether the level completed any request.
pub(super) fn map(b: &mut Builder<'_>, doc: &Value, served: bool) {
    let Some(endpoints) = at(doc, "/telemetry_data/endpoints").and_then(Value::as_object) else {
        return;
    };
    let mut names = Vec::new();
    let mut hosts = Vec::new();
    // (watts, source pointer) per serving GPU; `None` once a GPU lacks a figure.
    let mut power: Option<Vec<(f64, String)>> = Some(Vec::new());
    for (ep, e) in endpoints {
        let Some(gpus) = e.get("gpus").and_then(Value::as_object) else {
            continue;
        };
        for (g, gpu) in gpus {
            let base = ptr("/telemetry_data/endpoints", &[ep, "gpus", g]);
            if let Some(n) = gpu.get("gpu_name").and_then(text) {
                names.push((n, ptr(&base, &["gpu_name"])));
            }
            if let Some(h) = gpu.get("hostname").and_then(text) {
                hosts.push((h, ptr(&base, &["hostname"])));
            }
            let watts = gpu.pointer("/metrics/gpu_power_usage").and_then(|m| {
                let unit = m.get("unit").and_then(Value::as_str)?;
                let avg = m.get("avg").and_then(number)?;
                (unit.eq_ignore_ascii_case("w") && avg.is_finite() && avg >= 0.0).then_some(avg)
            });
            let memory = gpu
                .pointer("/metrics/gpu_memory_used/avg")
                .and_then(number)
                .filter(|m| m.is_finite());
            power = match (power, watts, memory) {
                (Some(mut list), Some(w), Some(m)) => {
                    if m > 0.0 {
                        list.push((w, ptr(&base, &["metrics", "gpu_power_usage", "avg"])));
                    }
                    Some(list)
                }
                _ => None,
            };
        }
    }
    for (list, canonical) in [(names, "/platform/device/model"), (hosts, "/platform/host")] {
        if let Some((first, src)) = list.first()
            && list.iter().all(|(n, _)| n == first)
        {
            b.put(canonical, first.clone(), src);
        }
    }
    if served && let Some(list) = power.filter(|l| !l.is_empty()) {
        level_power(b, &list);
    }
}

/// The level's device power: one GPU's mean, or the sum over the GPUs.
fn level_power(b: &mut Builder<'_>, gpus: &[(f64, String)]) {
    let total: f64 = gpus.iter().map(|(w, _)| w).sum();
    let (_, first) = &gpus[0];
    if gpus.len() == 1 {
        b.put("/levels/0/power_w/mean", total, first);
    } else {
        b.derived(
            "/levels/0/power_w/mean",
            total,
            &format!(
                "the sum of gpu_power_usage.avg over the {} GPUs with memory in use",
                gpus.len()
            ),
            first,
        );
    }
    b.derived(
        "/levels/0/power_w/kind",
        "device",
        "DCGM telemetry, which reads the accelerators' own power sensors",
        first,
    );
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::super::Source;
    use super::*;
    use crate::model::Provenance;

    fn gpu(watts: f64, memory: Option<f64>) -> Value {
        let mut metrics = json!({ "gpu_power_usage": { "unit": "W", "avg": watts } });
        if let Some(m) = memory {
            metrics["gpu_memory_used"] = json!({ "unit": "GB", "avg": m });
        }
        json!({ "gpu_name": "NVIDIA A100-SXM4-80GB", "hostname": "gpu-03", "metrics": metrics })
    }

    fn mapped(gpus: &Value, served: bool) -> crate::adapters::Mapped {
        let doc = json!({ "telemetry_data": { "endpoints": { "dcgm:9400": { "gpus": gpus } } } });
        let source = Source {
            path: "./a.json",
            file_name: "a.json",
            doc_index: 0,
            doc_count: 1,
            folder: None,
            alone: false,
        };
        let mut b = Builder::new(&doc, &source, "");
        map(&mut b, &doc, served);
        b.finish()
    }

    #[test]
    fn the_serving_gpus_power_is_the_levels_device_power() {
        let m = mapped(
            &json!({ "gpu_0": gpu(94.6, Some(73.2)), "gpu_1": gpu(120.4, Some(73.0)), "gpu_2": gpu(56.9, Some(0.0)) }),
            true,
        );
        let power = &m.value["levels"][0]["power_w"];
        assert!(
            (power["mean"].as_f64().unwrap() - 215.0).abs() < 1e-9,
            "{power}"
        );
        assert_eq!(power["kind"], "device");
        assert!(matches!(
            m.provenance.get("/levels/0/power_w/mean").as_deref(),
            Some(Provenance::Derived { from, .. }) if from.contains("2 GPUs with memory in use")
        ));
        assert_eq!(
            m.value["platform"]["device"]["model"],
            "NVIDIA A100-SXM4-80GB"
        );
    }

    #[test]
    fn one_serving_gpu_is_its_own_figure() {
        let m = mapped(
            &json!({ "gpu_0": gpu(94.6, Some(73.2)), "gpu_1": gpu(56.9, Some(0.0)) }),
            true,
        );
        assert_eq!(m.value["levels"][0]["power_w"]["mean"], 94.6);
        assert!(matches!(
            m.provenance.get("/levels/0/power_w/mean").as_deref(),
            Some(Provenance::Recorded { .. })
        ));
    }

    #[test]
    fn no_power_without_every_figure_or_without_requests() {
        // A GPU without its memory figure: the idle ones cannot be told apart.
        let m = mapped(
            &json!({ "gpu_0": gpu(94.6, Some(73.2)), "gpu_1": gpu(56.9, None) }),
            true,
        );
        assert!(
            m.value.pointer("/levels/0/power_w").is_none(),
            "{}",
            m.value
        );
        // A level that completed nothing has no throughput to divide.
        let m = mapped(&json!({ "gpu_0": gpu(94.6, Some(73.2)) }), false);
        assert!(
            m.value.pointer("/levels/0/power_w").is_none(),
            "{}",
            m.value
        );
    }
}
