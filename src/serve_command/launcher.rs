//! Recognising the engine launcher in an argument vector.

use super::EngineKind;

/// Where the model positional may appear.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum ModelArg {
    /// No positional model (`--model` / `--model-path` only).
    None,
    /// Right after the subcommand (`vllm serve MODEL`, `sglang serve MODEL`): argparse's
    /// optional positional is only filled there.
    Immediate,
    /// The first positional anywhere (click, `trtllm-serve`).
    Anywhere,
}

/// A recognised launcher: the engine, where its arguments start, and the positional rule.
pub(super) struct Launch {
    pub(super) engine: Option<EngineKind>,
    pub(super) start: usize,
    pub(super) model: ModelArg,
}

/// Finds the first launcher anywhere in `argv`.
pub(super) fn find_launcher(argv: &[String]) -> Option<Launch> {
    (0..argv.len()).find_map(|i| launcher_at(argv, i))
}

fn launcher_at(argv: &[String], i: usize) -> Option<Launch> {
    let base = argv[i].rsplit('/').next().unwrap_or_default();
    let next = argv.get(i + 1).map(String::as_str);
    let launch = |engine, start, model| {
        Some(Launch {
            engine: Some(engine),
            start,
            model,
        })
    };
    match base {
        "vllm" if next == Some("serve") => launch(EngineKind::Vllm, i + 2, ModelArg::Immediate),
        "sglang" if next == Some("serve") => launch(EngineKind::Sglang, i + 2, ModelArg::Immediate),
        "trtllm-serve" => Some(trtllm_subcommand(argv, i + 1)),
        _ if is_python(base) => python_module(argv, i + 1),
        _ => None,
    }
}

/// `python`, `python3`, `python3.12`, but not `pythonic` (a vLLM tool-call parser name).
fn is_python(base: &str) -> bool {
    base.strip_prefix("python")
        .is_some_and(|v| v.bytes().all(|b| b.is_ascii_digit() || b == b'.'))
}

/// Reads `-m MODULE` after a Python interpreter, skipping interpreter options.
fn python_module(argv: &[String], mut i: usize) -> Option<Launch> {
    let (module, after) = loop {
        let arg = argv.get(i)?.as_str();
        match arg {
            "-m" => break (argv.get(i + 1)?.as_str(), i + 2),
            "-X" | "-W" => i += 2,
            _ if arg.starts_with("-c") => return None,
            _ if arg.starts_with("-m") => break (&arg[2..], i + 1),
            _ if arg.starts_with('-') => i += 1,
            _ => return None,
        }
    };
    let serve_next = argv.get(after).is_some_and(|a| a == "serve");
    let launch = |engine, start, model| {
        Some(Launch {
            engine: Some(engine),
            start,
            model,
        })
    };
    match module {
        "vllm.entrypoints.openai.api_server" | "vllm.entrypoints.api_server" => {
            launch(EngineKind::Vllm, after, ModelArg::None)
        }
        "vllm.entrypoints.cli.main" if serve_next => {
            launch(EngineKind::Vllm, after + 1, ModelArg::Immediate)
        }
        "sglang.launch_server" => launch(EngineKind::Sglang, after, ModelArg::None),
        "sglang.cli.main" if serve_next => {
            launch(EngineKind::Sglang, after + 1, ModelArg::Immediate)
        }
        "tensorrt_llm.commands.serve" => Some(trtllm_subcommand(argv, after)),
        _ => None,
    }
}

/// `trtllm-serve` runs `serve` unless its first argument names another subcommand.
fn trtllm_subcommand(argv: &[String], i: usize) -> Launch {
    let (start, model) = match argv.get(i).map(String::as_str) {
        Some("serve" | "grpc" | "mm_embedding_serve") => (i + 1, ModelArg::Anywhere),
        Some("disaggregated" | "disaggregated_mpi_worker") => (i + 1, ModelArg::None),
        _ => (i, ModelArg::Anywhere),
    };
    Launch {
        engine: Some(EngineKind::TensorRtLlm),
        start,
        model,
    }
}
