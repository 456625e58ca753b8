//! What a skeleton can fill in before the team does: values benchlint can work out from what
//! the file records but does not accept as recorded on their own, each with the words that say
//! where it came from. The team checks them; `check` takes them as the sidecar's once the
//! sidecar is beside the file.
//!
//! In order of preference, for a value some results of the file lack:
//! 1. **The file's other results**: when every result that records it records the same value.
//!    A sidecar applies to every result of its file, so this is the only value it can hold
//!    without contradicting one of them (M019).
//! 2. **A serve command that is not verbatim** (`serve_command_source` typed or
//!    launcher-script): the settings it names. `check` derives nothing from such a command,
//!    since it records what someone meant to run; the team confirms it is what ran.
//! 3. **The device count** from the parallel sizes the result records: tensor × pipeline ×
//!    data parallel devices on one node (vLLM's and SGLang's layout), divided by the node
//!    count when one is recorded.
//! 4. **The precision** from a quantisation word in the model's name (`…-FP8`, `…-AWQ`,
//!    `…-MXFP4`): a name says what the checkpoint was published as, not what kernel ran.

use serde_json::Value;

use crate::corpus::LoadedResult;
use crate::corpus::checklist::serve_settings;

/// A value filled in for a pointer, and where it came from.
#[derive(Debug, Clone, PartialEq)]
pub struct Derived {
    /// The value.
    pub value: Value,
    /// Where it came from, in words.
    pub from: String,
}

/// What the results of one file record at `pointer`.
pub enum Recorded {
    /// None of them records it.
    Nowhere,
    /// Every one that records it records this value.
    Agreed(Value, usize),
    /// They record different values (shown, sorted, at most a few).
    Disagree(Vec<String>),
}

/// What `results` record at canonical `pointer` (a recorded null is no value).
pub fn recorded(results: &[&LoadedResult], pointer: &str) -> Recorded {
    let mut values: Vec<&Value> = results
        .iter()
        .filter_map(|r| r.value.pointer(pointer))
        .filter(|v| !v.is_null())
        .collect();
    let Some(first) = values.first().copied() else {
        return Recorded::Nowhere;
    };
    if values.iter().all(|v| *v == first) {
        return Recorded::Agreed(first.clone(), values.len());
    }
    let mut shown: Vec<String> = values.drain(..).map(short).collect();
    shown.sort();
    shown.dedup();
    shown.truncate(4);
    Recorded::Disagree(shown)
}

/// A value in a note: its JSON, cut at 40 characters.
fn short(v: &Value) -> String {
    let s = v.to_string();
    if s.chars().count() > 40 {
        format!("{}…", s.chars().take(40).collect::<String>())
    } else {
        s
    }
}

/// What the derivations below read of a result, besides the value derived ([`super::read_at`]).
pub(super) const INPUTS: [&str; 7] = [
    "/engine/serve_command",
    "/engine/serve_command_source",
    "/engine/tensor_parallel_size",
    "/engine/pipeline_parallel_size",
    "/engine/data_parallel_size",
    "/platform/nodes",
    "/model/name",
];

/// The value every one of `lacking` (results that lack `pointer`) lets benchlint work out from
/// its own record, when they agree; `None` when there is none or they differ.
pub fn from_results(lacking: &[&LoadedResult], pointer: &str) -> Option<Derived> {
    let mut found: Option<Derived> = None;
    for r in lacking {
        let d = from_result(r, pointer)?;
        match &found {
            Some(f) if f.value != d.value => return None,
            Some(_) => {}
            None => found = Some(d),
        }
    }
    found
}

fn from_result(r: &LoadedResult, pointer: &str) -> Option<Derived> {
    from_typed_command(r, pointer)
        .or_else(|| device_count(r, pointer))
        .or_else(|| precision_from_name(r, pointer))
}

/// A setting named in a serve command that `check` does not derive from (not verbatim).
fn from_typed_command(r: &LoadedResult, pointer: &str) -> Option<Derived> {
    let field = pointer.strip_prefix("/engine/")?;
    let source = r
        .value
        .pointer("/engine/serve_command_source")
        .and_then(Value::as_str);
    if matches!(
        source,
        Some("process" | "container-inspect" | "launch-command")
    ) {
        return None;
    }
    let serve = serve_settings(&r.value)?;
    let mut holder = serde_json::json!({});
    let argv = r
        .value
        .pointer("/engine/serve_command")
        .is_some_and(Value::is_array);
    crate::corpus::derive_settings(&mut holder, &serve, argv);
    let value = holder.pointer(&format!("/engine/{field}"))?.clone();
    let how = source.map_or_else(
        || "with no `serve_command_source`".to_string(),
        |s| format!("`serve_command_source` \"{s}\""),
    );
    Some(Derived {
        value,
        from: format!(
            "named in the serve command the file records ({how}, so not taken as recorded): check it is what ran"
        ),
    })
}

/// `platform.devices_per_node` from the parallel sizes recorded.
fn device_count(r: &LoadedResult, pointer: &str) -> Option<Derived> {
    if pointer != "/platform/devices_per_node" {
        return None;
    }
    let size = |key: &str| {
        r.value
            .pointer(&format!("/engine/{key}_parallel_size"))
            .and_then(Value::as_u64)
    };
    let tp = size("tensor")?;
    let (pp, dp) = (size("pipeline"), size("data"));
    let assumed: Vec<&str> = [("pipeline", pp), ("data", dp)]
        .iter()
        .filter(|(_, v)| v.is_none())
        .map(|(name, _)| *name)
        .collect();
    let (pp, dp) = (pp.unwrap_or(1), dp.unwrap_or(1));
    let nodes = r
        .value
        .pointer("/platform/nodes")
        .and_then(Value::as_u64)
        .unwrap_or(1)
        .max(1);
    let total = tp.checked_mul(pp)?.checked_mul(dp)?;
    if total == 0 || total % nodes != 0 {
        return None;
    }
    let per_node = total / nodes;
    let mut basis = vec![if nodes > 1 {
        format!("over the {nodes} nodes recorded")
    } else {
        "if the run used one node".to_string()
    }];
    if !assumed.is_empty() {
        basis.push(format!(
            "with the {} parallel size taken as 1",
            assumed.join(" and ")
        ));
    }
    Some(Derived {
        value: Value::from(per_node),
        from: format!(
            "tensor × pipeline × data parallel sizes ({tp} × {pp} × {dp}) {}: check it",
            basis.join(", ")
        ),
    })
}

/// Quantisation words a model name may carry, and the precision each names.
const PRECISION_WORDS: [(&str, &str); 13] = [
    ("fp8", "fp8"),
    ("fp4", "fp4"),
    ("nvfp4", "nvfp4"),
    ("mxfp4", "mxfp4"),
    ("int8", "int8"),
    ("int4", "int4"),
    ("w8a8", "w8a8"),
    ("w4a16", "w4a16"),
    ("w8a16", "w8a16"),
    ("awq", "awq"),
    ("gptq", "gptq"),
    ("bf16", "bf16"),
    ("fp16", "fp16"),
];

/// `model.precision` from a quantisation word in the model's name.
fn precision_from_name(r: &LoadedResult, pointer: &str) -> Option<Derived> {
    if pointer != "/model/precision" {
        return None;
    }
    let name = r.value.pointer("/model/name")?.as_str()?;
    let last = name.rsplit('/').next().unwrap_or(name);
    let words: Vec<String> = last
        .split(['-', '_', '.', ' '])
        .map(str::to_ascii_lowercase)
        .collect();
    let found: Vec<&str> = PRECISION_WORDS
        .iter()
        .filter(|(word, _)| words.iter().any(|w| w == word))
        .map(|(_, p)| *p)
        .collect();
    // Two words (`…-FP8-KV-FP16`) leave it open.
    let [precision] = found.as_slice() else {
        return None;
    };
    Some(Derived {
        value: Value::from(*precision),
        from: format!(
            "the model's name `{last}` says {precision}; a name is what the checkpoint was published as: check it"
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::corpus::{LoadedResult, Origin};
    use crate::model::ProvenanceMap;
    use serde_json::json;

    fn result(value: &Value) -> LoadedResult {
        let mut full = json!({
            "schema": "benchlint/result/v1", "id": "r", "measured_at": "2026-01-01T00:00:00Z",
            "outcome": "ok", "levels": [{"concurrency": 1}]
        });
        for (k, v) in value.as_object().unwrap() {
            full[k] = v.clone();
        }
        LoadedResult {
            origin: Origin {
                path: "a.json".into(),
                doc_start: 0,
                format: "vllm",
            },
            doc: serde_json::from_value(full.clone()).unwrap(),
            value: full.into(),
            provenance: ProvenanceMap::default(),
            checklist: None,
        }
    }

    #[test]
    fn a_typed_command_fills_settings_to_check() {
        let r = result(&json!({"engine": {
            "serve_command": "vllm serve m --max-num-seqs 64 --enforce-eager",
            "serve_command_source": "typed"}}));
        let d = from_results(&[&r], "/engine/max_num_seqs").unwrap();
        assert_eq!(d.value, json!(64));
        assert!(d.from.contains("\"typed\""), "{}", d.from);
        assert_eq!(
            from_results(&[&r], "/engine/enforce_eager").unwrap().value,
            json!(true)
        );
        assert!(from_results(&[&r], "/engine/kv_cache_dtype").is_none());
    }

    #[test]
    fn device_count_and_precision_from_what_is_recorded() {
        let r = result(&json!({
            "engine": {"tensor_parallel_size": 4, "data_parallel_size": 2},
            "model": {"name": "MiniMaxAI/MiniMax-M2.5-MXFP4"}}));
        assert_eq!(
            from_results(&[&r], "/platform/devices_per_node")
                .unwrap()
                .value,
            json!(8)
        );
        assert_eq!(
            from_results(&[&r], "/model/precision").unwrap().value,
            json!("mxfp4")
        );
        let two = result(&json!({"model": {"name": "x/Model-FP8-KV-FP16"}}));
        assert!(from_results(&[&two], "/model/precision").is_none());
    }

    #[test]
    fn the_other_results_agree_or_not() {
        let a = result(&json!({"platform": {"host": "h1"}}));
        let b = result(&json!({"platform": {"host": "h1"}}));
        let c = result(&json!({"platform": {"host": "h2"}}));
        assert!(matches!(
            recorded(&[&a, &b], "/platform/host"),
            Recorded::Agreed(_, 2)
        ));
        assert!(matches!(
            recorded(&[&a, &c], "/platform/host"),
            Recorded::Disagree(v) if v == vec!["\"h1\"", "\"h2\""]
        ));
        assert!(matches!(
            recorded(&[&a], "/platform/nodes"),
            Recorded::Nowhere
        ));
    }
}
