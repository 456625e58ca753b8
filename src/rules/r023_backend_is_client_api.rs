//! `backend-is-client-api` (R023): the client API label names an engine that the file does not
//! show served the run.

use super::{Emitter, ResultCtx, declare_rule};
use crate::diagnostic::Location;

declare_rule! {
    /// ## What it checks
    /// Whether `harness.backend`, the client API the harness spoke, names a serving engine
    /// (vLLM, SGLang, TensorRT-LLM, TGI, LMDeploy, llama.cpp, DeepSpeed-MII, ScaleLLM), and
    /// then either:
    ///
    /// - `engine.name` is absent: the only engine name in the file is the client's label, and
    ///   whoever reads the file, or a dashboard that groups by `backend`, takes it for the
    ///   server. This case is reported at info severity: most such runs did hit the engine the
    ///   backend names, and M002 already asks for the engine name; or
    /// - `engine.name` names a different engine: the file carries two engine names, and
    ///   anything that groups by `backend` files the run under the wrong one (the message names
    ///   both).
    ///
    /// Names are compared after normalising case, `_` and the usual spellings (`sgl` and
    /// `sglang`; `trt`, `trtllm`, `trt-llm` and `tensorrt-llm`; `llamacpp` and `llama.cpp`), and
    /// a backend's API suffix is dropped (`vllm-chat`, `sglang-oai`, `lmdeploy-chat` name their
    /// engine's API). A generic API (`openai`, `openai-chat`, `openai_http`, `chat`), a backend
    /// that agrees with `engine.name`, and an `engine.name` the table does not know (a gateway,
    /// a platform) are not reported. The finding sits at `harness.backend`.
    ///
    /// ## Why is this bad?
    /// vLLM's and SGLang's benchmark clients write `backend`, and it is the request function
    /// the client used, not the server that answered: DESIGN.md's table of real formats says
    /// "`backend` is the client API, not the engine". research/formats.md §0.4 and §10: a real
    /// vLLM result file benchmarks an SGLang server with `"backend": "vllm"`, and the only
    /// engine hint in it is user metadata `"framework": "sgl"`. A chart keyed on `backend`
    /// credits vLLM with SGLang's numbers.
    ///
    /// ## Example
    /// ```json
    /// { "harness": { "name": "vllm-benchmark-serving", "backend": "vllm" },
    ///   "engine": { "name": "sglang", "version": "0.4.6" } }
    /// ```
    ///
    /// ## What to do instead
    /// Record the engine that served the run in `engine.name` (vLLM's `--metadata engine=...`,
    /// or a sidecar), and keep `backend` for what it is. Where the client can speak a generic
    /// API to every engine, prefer it.
    /// ```json
    /// { "harness": { "name": "vllm-benchmark-serving", "backend": "openai" },
    ///   "engine": { "name": "sglang", "version": "0.4.6" } }
    /// ```
    pub static RULE = {
        code: "R023",
        name: "backend-is-client-api",
        severity: Warning,
        scope: Result,
        source: "DESIGN.md (real formats: `backend` is the client API, not the engine); research/formats.md §0.4, §10",
        summary: "the client API label names an engine the file does not show served the run",
    }
}

/// Serving engines, with the spellings harnesses and people use for each (lowercase, `_`
/// written `-`). The first spelling is the canonical name.
const ENGINES: &[(&str, &[&str])] = &[
    ("vllm", &["vllm"]),
    ("sglang", &["sglang", "sgl"]),
    (
        "tensorrt-llm",
        &["tensorrt-llm", "tensorrtllm", "trt-llm", "trtllm", "trt"],
    ),
    ("tgi", &["tgi", "text-generation-inference"]),
    ("lmdeploy", &["lmdeploy"]),
    (
        "llama.cpp",
        &["llama.cpp", "llamacpp", "llama-cpp", "llama-server"],
    ),
    ("deepspeed-mii", &["deepspeed-mii", "deepspeed", "mii"]),
    ("scalellm", &["scalellm"]),
];

/// The engine a name designates: one of the spellings, alone or followed by `-` and an API
/// suffix (`vllm-chat`, `sglang-oai-chat`).
pub(crate) fn engine(name: &str) -> Option<&'static str> {
    let norm = name.trim().to_lowercase().replace(['_', ' '], "-");
    ENGINES
        .iter()
        .flat_map(|(engine, spellings)| spellings.iter().map(move |s| (*engine, *s)))
        .filter(|(_, s)| {
            norm == *s
                || norm
                    .strip_prefix(*s)
                    .is_some_and(|rest| rest.starts_with('-'))
        })
        // The longest spelling decides (`trt-llm` before `trt`).
        .max_by_key(|(_, s)| s.len())
        .map(|(engine, _)| engine)
}

pub fn check(ctx: &ResultCtx<'_>, out: &mut Emitter<'_>) {
    let Some(backend) = ctx
        .result
        .harness
        .as_ref()
        .and_then(|h| h.backend.as_deref())
    else {
        return;
    };
    let Some(named) = engine(backend) else {
        return;
    };
    let recorded = ctx
        .result
        .engine
        .as_ref()
        .and_then(|e| e.name.as_deref())
        .filter(|n| !n.trim().is_empty());
    match recorded {
        None => {
            out.emit(
                "/harness/backend",
                format!(
                    "`backend` is `{backend}`, the client API the harness spoke, and no `engine.name` is \
                     recorded: the only engine name in the file is this label, so readers and dashboards that \
                     take it for the server credit the run to {named} without evidence"
                ),
            )
            .label("the client API, not the engine")
            .help(
                "record the engine that served the run in `engine.name` (vLLM `--metadata engine=...`, or a \
                 sidecar); `backend` only says which request format the client used",
            )
            // Most such runs did hit the engine the backend names, and M002 already asks for
            // the engine: this is a note on how to read the label, not a second failure.
            .severity(crate::diagnostic::Severity::Info);
        }
        Some(name) => {
            let Some(actual) = engine(name) else {
                return;
            };
            if actual == named {
                return;
            }
            out.emit(
                "/harness/backend",
                format!(
                    "`backend` `{backend}` names {named}, but `engine.name` is `{name}`: the file carries \
                     two engine names, and anything that groups results by `backend` files this {actual} run \
                     under {named}"
                ),
            )
            .label(format!("the client API, not the {actual} server"))
            .help(
                "`backend` is the client's request format, not the engine; where the client can speak a \
                 generic API (`openai`, `openai-chat`), use it, and keep the engine in `engine.name`",
            )
            .related(Location::new(String::new(), "/engine/name".to_string()));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::engine;

    #[test]
    fn engine_spellings_and_api_suffixes_are_normalised() {
        assert_eq!(engine("vllm"), Some("vllm"));
        assert_eq!(engine("vLLM"), Some("vllm"));
        assert_eq!(engine("vllm-chat"), Some("vllm"));
        assert_eq!(engine("sgl"), Some("sglang"));
        assert_eq!(engine("sglang-oai-chat"), Some("sglang"));
        assert_eq!(engine("TensorRT-LLM"), Some("tensorrt-llm"));
        assert_eq!(engine("trt_llm"), Some("tensorrt-llm"));
        assert_eq!(engine("trt"), Some("tensorrt-llm"));
        assert_eq!(engine("llama.cpp"), Some("llama.cpp"));
        assert_eq!(engine("deepspeed-mii"), Some("deepspeed-mii"));
        assert_eq!(engine("lmdeploy-chat"), Some("lmdeploy"));
    }

    #[test]
    fn generic_apis_and_unknown_names_are_no_engine() {
        for name in [
            "openai",
            "openai-chat",
            "openai_http",
            "chat",
            "completions",
            "triton",
            "vllmx",
            "",
        ] {
            assert_eq!(engine(name), None, "{name}");
        }
    }
}
