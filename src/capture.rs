//! Capturing a serve command verbatim, from a running process (`/proc/PID/cmdline` and
//! `environ`) or from `docker inspect` output, into a sidecar: never retyped (seed 004), with
//! every secret redacted before it is written anywhere.

use std::collections::BTreeMap;

use serde_json::{Map, Value, json};

use crate::secrets::{classify, redact_argv};
use crate::serve_command::{self, ServeSettings};

/// Environment variable prefixes that shape a run.
pub const ENV_PREFIXES: [&str; 6] = ["NCCL_", "VLLM_", "SGLANG_", "CUDA_", "TORCH_", "NVIDIA_"];

/// What was read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Captured {
    /// The argument vector, secrets redacted.
    pub argv: Vec<String>,
    /// Environment variables with a run-shaping prefix, secrets redacted, sorted.
    pub environment: BTreeMap<String, String>,
    /// `process` or `container-inspect`.
    pub source: &'static str,
    /// Container image reference, when inspected.
    pub image: Option<String>,
    /// Container image id (`sha256:…`), when inspected.
    pub image_digest: Option<String>,
}

/// Keeps run-shaping variables and redacts anything that looks like a secret.
pub fn filter_environment<'a>(
    vars: impl IntoIterator<Item = (&'a str, &'a str)>,
) -> BTreeMap<String, String> {
    let mut out = BTreeMap::new();
    for (k, v) in vars {
        if !ENV_PREFIXES.iter().any(|p| k.starts_with(p)) {
            continue;
        }
        let upper = k.to_ascii_uppercase();
        let secret_name = ["KEY", "TOKEN", "SECRET", "PASSWORD", "PASSWD", "CREDENTIAL"]
            .iter()
            .any(|s| upper.contains(s));
        let value = if secret_name || classify(Some(k), v).is_some() {
            "<redacted>".to_string()
        } else {
            v.to_string()
        };
        out.insert(k.to_string(), value);
    }
    out
}

/// Reads the command line and environment of process `pid` (Linux).
pub fn from_process(pid: u32) -> Result<Captured, String> {
    let proc = std::path::PathBuf::from(format!("/proc/{pid}"));
    let cmdline = std::fs::read(proc.join("cmdline")).map_err(|e| {
        format!(
            "cannot read the command line of process {pid}: {} (has it exited?)",
            crate::io::describe_io(&e)
        )
    })?;
    if cmdline.is_empty() {
        return Err(format!(
            "process {pid} has no command line (a kernel thread, or it is exiting)"
        ));
    }
    let argv: Vec<String> = cmdline
        .split(|&b| b == 0)
        .filter(|a| !a.is_empty())
        .map(|a| String::from_utf8_lossy(a).into_owned())
        .collect();
    // The environment may be unreadable (another user's process): the command still counts.
    let environ = std::fs::read(proc.join("environ")).unwrap_or_default();
    let pairs: Vec<(String, String)> = environ
        .split(|&b| b == 0)
        .filter_map(|kv| {
            let s = String::from_utf8_lossy(kv);
            let (k, v) = s.split_once('=')?;
            Some((k.to_string(), v.to_string()))
        })
        .collect();
    Ok(Captured {
        argv: redact_argv(&argv),
        environment: filter_environment(pairs.iter().map(|(k, v)| (k.as_str(), v.as_str()))),
        source: "process",
        image: None,
        image_digest: None,
    })
}

/// Reads `docker inspect CONTAINER` output (a JSON array with one object, or the object).
pub fn from_container_inspect(text: &str) -> Result<Captured, String> {
    let v: Value =
        serde_json::from_str(text).map_err(|e| format!("the inspect output is not JSON: {e}"))?;
    let obj = match &v {
        Value::Array(items) => items
            .first()
            .ok_or("the inspect output is an empty array")?,
        other => other,
    };
    let strings = |p: &str| -> Vec<String> {
        obj.pointer(p)
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(|x| x.as_str().map(ToString::to_string))
                    .collect()
            })
            .unwrap_or_default()
    };
    // The process a container runs is its entrypoint followed by its command (`Path` + `Args`
    // say the same at the top level).
    let mut argv = strings("/Config/Entrypoint");
    argv.extend(strings("/Config/Cmd"));
    if argv.is_empty()
        && let Some(path) = obj.get("Path").and_then(Value::as_str)
    {
        argv.push(path.to_string());
        argv.extend(strings("/Args"));
    }
    if argv.is_empty() {
        return Err("the inspect output names no entrypoint, command or path".into());
    }
    let env = strings("/Config/Env");
    let pairs: Vec<(&str, &str)> = env.iter().filter_map(|kv| kv.split_once('=')).collect();
    Ok(Captured {
        argv: redact_argv(&argv),
        environment: filter_environment(pairs),
        source: "container-inspect",
        image: obj
            .pointer("/Config/Image")
            .and_then(Value::as_str)
            .map(ToString::to_string),
        image_digest: obj
            .get("Image")
            .and_then(Value::as_str)
            .filter(|s| s.starts_with("sha256:"))
            .map(ToString::to_string),
    })
}

/// The sidecar for a capture: the command, its source, the settings it names and the
/// environment (collective settings also under `platform.fabric.collectives`).
pub fn sidecar(c: &Captured) -> Value {
    let settings: ServeSettings = serve_command::parse(&c.argv);
    let mut engine = Map::new();
    if let Some(kind) = settings.engine {
        engine.insert("name".into(), json!(kind.name()));
    }
    if let Some(image) = &c.image {
        engine.insert("image".into(), json!(image));
    }
    if let Some(d) = &c.image_digest {
        engine.insert("image_digest".into(), json!(d));
    }
    engine.insert("serve_command".into(), json!(c.argv));
    engine.insert("serve_command_source".into(), json!(c.source));
    if !c.environment.is_empty() {
        engine.insert("environment".into(), json!(c.environment));
    }
    let mut derived = json!({});
    crate::corpus::derive_settings(&mut derived, &settings, true);
    if let Some(Value::Object(fields)) = derived.get("engine").cloned() {
        for (k, v) in fields {
            engine.entry(k).or_insert(v);
        }
    }
    let mut doc = json!({ "engine": engine });
    let nccl: Map<String, Value> = c
        .environment
        .iter()
        .filter(|(k, _)| k.starts_with("NCCL_"))
        .map(|(k, v)| (k.clone(), json!(v)))
        .collect();
    if !nccl.is_empty() {
        doc["platform"] = json!({ "fabric": { "collectives": nccl } });
    }
    if let Some(model) = settings.model {
        doc["model"] = json!({ "name": model.value });
    }
    doc
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn environment_keeps_run_shaping_variables_and_redacts_secrets() {
        let env = filter_environment([
            ("NCCL_IB_HCA", "mlx5_0"),
            ("VLLM_API_KEY", "abc123"),
            ("HF_TOKEN", "hf_abcdefghijklmnopqrstuvwxyz0123456789"),
            ("PATH", "/usr/bin"),
            ("CUDA_VISIBLE_DEVICES", "0,1"),
        ]);
        assert_eq!(env.get("NCCL_IB_HCA").map(String::as_str), Some("mlx5_0"));
        assert_eq!(
            env.get("VLLM_API_KEY").map(String::as_str),
            Some("<redacted>")
        );
        assert!(!env.contains_key("HF_TOKEN") && !env.contains_key("PATH"));
        assert_eq!(env.len(), 3);
    }

    #[test]
    fn container_inspect_gives_digest_argv_and_environment() {
        let text = r#"[{"Id": "c0ffee", "Image": "sha256:4b8f2c1d9e7a6b5c3d2e1f0a9b8c7d6e5f4a3b2c1d0e9f8a7b6c5d4e3f2a1b0c",
            "Config": {"Image": "vllm/vllm-openai:v0.11.0", "Entrypoint": ["vllm", "serve"],
            "Cmd": ["Qwen/Qwen3-8B", "--enforce-eager", "--max-num-seqs", "32", "--api-key", "sk-abcdefghijklmnopqrstuvwx"],
            "Env": ["NCCL_DEBUG=INFO", "OPENAI_API_KEY=sk-abcdefghijklmnopqrstuvwx", "VLLM_USE_V1=1"]}}]"#;
        let c = from_container_inspect(text).unwrap();
        let s = sidecar(&c);
        assert_eq!(s["engine"]["serve_command_source"], "container-inspect");
        assert_eq!(s["engine"]["enforce_eager"], true);
        assert_eq!(s["engine"]["max_num_seqs"], 32);
        assert_eq!(s["engine"]["name"], "vllm");
        assert!(
            s["engine"]["image_digest"]
                .as_str()
                .unwrap()
                .starts_with("sha256:4b8f")
        );
        assert_eq!(s["platform"]["fabric"]["collectives"]["NCCL_DEBUG"], "INFO");
        let text_out = s.to_string();
        assert!(
            !text_out.contains("sk-abcdefghijklmnopqrstuvwx"),
            "{text_out}"
        );
        assert!(crate::schema::validate(crate::schema::Kind::Sidecar, &s).is_empty());
    }
}
