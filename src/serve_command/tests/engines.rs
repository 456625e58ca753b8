//! Engine recognition: each launcher, engine names as the result formats spell them, and
//! arguments before the launcher.

use super::*;

// ---------------------------------------------------------------------------------------
// Engine recognition
// ---------------------------------------------------------------------------------------

#[test]
fn recognises_each_launcher() {
    let cases = [
        ("vllm serve m", Some(EngineKind::Vllm)),
        ("/opt/venv/bin/vllm serve m", Some(EngineKind::Vllm)),
        (
            "python -m vllm.entrypoints.openai.api_server --model m",
            Some(EngineKind::Vllm),
        ),
        (
            "python3 -m vllm.entrypoints.openai.api_server --model m",
            Some(EngineKind::Vllm),
        ),
        (
            "/usr/bin/python3.12 -u -m vllm.entrypoints.openai.api_server",
            Some(EngineKind::Vllm),
        ),
        (
            "/usr/bin/env python3 -m vllm.entrypoints.openai.api_server",
            Some(EngineKind::Vllm),
        ),
        (
            "python -X dev -mvllm.entrypoints.openai.api_server",
            Some(EngineKind::Vllm),
        ),
        (
            "python3 -m vllm.entrypoints.cli.main serve m",
            Some(EngineKind::Vllm),
        ),
        (
            "python -m sglang.launch_server --model-path m",
            Some(EngineKind::Sglang),
        ),
        ("sglang serve m", Some(EngineKind::Sglang)),
        ("trtllm-serve m", Some(EngineKind::TensorRtLlm)),
        ("trtllm-serve serve m", Some(EngineKind::TensorRtLlm)),
        (
            "python3 -m tensorrt_llm.commands.serve serve m",
            Some(EngineKind::TensorRtLlm),
        ),
        (
            "VLLM_USE_V1=1 CUDA_VISIBLE_DEVICES=0,1 vllm serve m",
            Some(EngineKind::Vllm),
        ),
        ("python -c 'import vllm' serve", None),
        ("python script.py --model m", None),
        ("vllm bench serve --model m", None),
        ("pythonic -m vllm.entrypoints.openai.api_server", None),
        ("my-launcher --model m", None),
    ];
    for (line, engine) in cases {
        assert_eq!(parse_line(line).engine, engine, "{line}");
    }
}

#[test]
fn engine_names_match_the_result_format() {
    assert_eq!(EngineKind::Vllm.name(), "vllm");
    assert_eq!(EngineKind::Sglang.name(), "sglang");
    assert_eq!(EngineKind::TensorRtLlm.name(), "tensorrt-llm");
}

#[test]
fn arguments_before_the_launcher_are_ignored() {
    // `-tp 8` belongs to the wrapper here, not to vLLM.
    let s = parse_line("wrapper -tp 8 --x y vllm serve m -tp 2");
    assert_eq!(s.model, Some(text_at("m", 7)));
    assert_eq!(s.tensor_parallel_size, Some(at(2, 8)));
    assert!(s.unknown_flags.is_empty(), "{:?}", s.unknown_flags);
}
