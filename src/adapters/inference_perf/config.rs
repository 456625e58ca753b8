//! The run's `config.yaml` for inference-perf: finding it beside the reports or one folder up,
//! and filling from it what the reports do not record (model, tokenizer, engine, API, load
//! type, dataset, fixed output length and the stage rates).

use serde_json::Value;

use super::stage_index;
use crate::adapters::Mapped;
use crate::adapters::map::{at, count, number, text};
use crate::io::beside::Place;
use crate::model::Provenance;

/// Names the run's configuration is saved under, beside the reports or one folder up.
const CONFIG_NAMES: [&str; 2] = ["config.yaml", "config.yml"];

/// inference-perf's `config.yaml`: `load` (with its `type`, `stages` or `sweep`) beside the
/// server, API, data or tokenizer sections.
pub(super) fn is_config(v: &Value) -> bool {
    v.get("load").is_some_and(|l| {
        l.is_object()
            && ["type", "stages", "sweep"]
                .iter()
                .any(|k| l.get(*k).is_some())
    }) && ["server", "api", "data", "tokenizer"]
        .iter()
        .any(|k| v.get(*k).is_some_and(Value::is_object))
        && v.get("schema").is_none()
}

/// YAML files of a folder consulted for a run configuration under another name, at most.
const MAX_CONFIG_CANDIDATES: usize = 8;

/// The name of the run's configuration in `place`: `config.yaml` (or `.yml`), else the first
/// YAML file (by name, of the first few) whose content is one. inference-perf reads its
/// configuration from wherever `--config_file` names, so a copy kept beside the reports goes
/// by whatever name its user gave it; what makes it the configuration is what it holds.
pub(super) fn config_name(folder: &crate::io::beside::Folder<'_>, place: Place) -> Option<String> {
    let found = folder.cached(place, "inference-perf-config", |f| {
        let is = |name: &str| f.yaml(place, name).is_some_and(|v| is_config(&v));
        if let Some(name) = CONFIG_NAMES.iter().find(|n| is(n)) {
            return Some((*name).to_string());
        }
        f.names(place)
            .iter()
            .filter(|n| {
                std::path::Path::new(n.as_str())
                    .extension()
                    .is_some_and(|e| {
                        e.eq_ignore_ascii_case("yaml") || e.eq_ignore_ascii_case("yml")
                    })
                    && !CONFIG_NAMES.contains(&n.as_str())
            })
            .take(MAX_CONFIG_CANDIDATES)
            .find(|n| is(n))
            .cloned()
    })?;
    Option::clone(&found)
}

/// Fills what the run's `config.yaml` records and the reports do not, pointing into it.
/// `stages` are the names of the files behind the result's levels, in level order.
pub(super) fn apply_config(result: &mut Mapped, config: &Value, path: &str, stages: &[String]) {
    stage_rates(result, config, path, stages);
    let mut fill = |canonical: &str, src: &str, value: Option<Value>| {
        let Some(value) = value else { return };
        if result.value.pointer(canonical).is_some() {
            return;
        }
        crate::json::insert_at(&mut result.value, canonical, value);
        result.provenance.insert(
            canonical,
            Provenance::Beside {
                path: path.to_string(),
                pointer: src.to_string(),
            },
        );
    };
    let name = |src: &str| {
        at(config, src)
            .and_then(text)
            .filter(|s| !is_placeholder(s))
    };
    fill(
        "/model/name",
        "/server/model_name",
        name("/server/model_name").map(Value::from),
    );
    fill(
        "/workload/tokenizer",
        "/tokenizer/pretrained_model_name_or_path",
        name("/tokenizer/pretrained_model_name_or_path").map(Value::from),
    );
    // The server type the client was set up for; `mock` is inference-perf's own test server.
    fill(
        "/engine/name",
        "/server/type",
        name("/server/type")
            .map(|s| s.to_ascii_lowercase())
            .filter(|s| s != "mock")
            .map(Value::from),
    );
    fill(
        "/harness/backend",
        "/api/type",
        name("/api/type").map(Value::from),
    );
    fill(
        "/labels/load_type",
        "/load/type",
        name("/load/type").map(Value::from),
    );
    fill(
        "/workload/ignore_eos",
        "/server/ignore_eos",
        at(config, "/server/ignore_eos")
            .and_then(Value::as_bool)
            .map(Value::from),
    );
    fill(
        "/workload/dataset",
        "/data/type",
        name("/data/type").map(Value::from),
    );
    // A fixed output length: the shared-prefix generator's, or a distribution whose bounds meet.
    let fixed = at(config, "/data/shared_prefix/output_len")
        .and_then(count)
        .map(|n| (n, "/data/shared_prefix/output_len"))
        .or_else(|| {
            let min = at(config, "/data/output_distribution/min").and_then(count)?;
            let max = at(config, "/data/output_distribution/max").and_then(count)?;
            (min == max).then_some((max, "/data/output_distribution/max"))
        })
        .filter(|(n, _)| *n >= 1);
    if let Some((n, src)) = fixed {
        fill("/workload/max_output_tokens", src, Some(Value::from(n)));
    }
}

/// Values a shared config leaves for the user to fill (`<your-hf-token>`).
fn is_placeholder(s: &str) -> bool {
    s.starts_with('<') && s.ends_with('>')
}

/// The rate of `load.stages[i]`, when it is a positive number.
fn stage_rate(config: &Value, i: u64) -> Option<(f64, String)> {
    let src = format!("/load/stages/{i}/rate");
    at(config, &src)
        .and_then(number)
        .filter(|r| *r > 0.0)
        .map(|r| (r, src))
}

/// The rate of a configuration with exactly one stage.
pub(super) fn single_stage_rate(config: &Value) -> Option<(f64, String)> {
    let stages = at(config, "/load/stages")?.as_array()?;
    (stages.len() == 1).then(|| stage_rate(config, 0)).flatten()
}

/// Keys by the config's stage rates the levels whose report does not record the rate it asked
/// for (older versions): level `i` comes from the stage file `stages[i]` (`stage_N_...`, rate
/// of `load.stages[N]`); a summary (no stage files) is the config's single stage.
fn stage_rates(result: &mut Mapped, config: &Value, path: &str, stages: &[String]) {
    let count = result.value["levels"].as_array().map_or(0, Vec::len);
    for i in 0..count {
        let pointer = format!("/levels/{i}/request_rate");
        if result.value.pointer(&pointer).is_some() {
            continue;
        }
        let rate = if stages.is_empty() {
            single_stage_rate(config)
        } else {
            stages
                .get(i)
                .and_then(|n| stage_index(n))
                .and_then(|n| stage_rate(config, n))
        };
        if let Some((r, src)) = rate {
            crate::json::insert_at(&mut result.value, &pointer, Value::from(r));
            result.provenance.insert(
                pointer,
                Provenance::Beside {
                    path: path.to_string(),
                    pointer: src,
                },
            );
        }
    }
}
