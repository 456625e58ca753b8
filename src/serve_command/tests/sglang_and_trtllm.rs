//! SGLang's and TensorRT-LLM's flags: real-world commands, their own spellings only, SGLang's
//! speculative budget, chunked prefill and legacy expert parallelism.

use super::*;

// ---------------------------------------------------------------------------------------
// SGLang
// ---------------------------------------------------------------------------------------

#[test]
fn sglang_launch_server_real_world_command() {
    let line = "python3 -m sglang.launch_server --model-path deepseek-ai/DeepSeek-V3 \
        --tp 8 --dp-size 8 --enable-dp-attention --ep-size 8 --context-length 65536 \
        --max-running-requests 128 --chunked-prefill-size 8192 --disable-radix-cache \
        --disable-cuda-graph --kv-cache-dtype fp8_e5m2 --quantization fp8 \
        --mem-fraction-static 0.85 --trust-remote-code --host 0.0.0.0 --port 30000";
    let s = parse_line(line);
    assert_eq!(s.engine, Some(EngineKind::Sglang));
    assert_eq!(s.model, Some(text_at("deepseek-ai/DeepSeek-V3", 3)));
    assert_eq!(s.tensor_parallel_size, Some(at(8, 5)));
    assert_eq!(s.data_parallel_size, Some(at(8, 7)));
    assert_eq!(s.expert_parallel_size, Some(at(8, 10)));
    assert_eq!(s.max_model_len, Some(at(65536, 12)));
    assert_eq!(s.max_num_seqs, Some(at(128, 14)));
    assert_eq!(s.max_num_batched_tokens, Some(at(8192, 16)));
    assert_eq!(s.enable_prefix_caching, Some(at(false, 18)));
    assert_eq!(s.enforce_eager, Some(at(true, 19)));
    assert_eq!(s.kv_cache_dtype, Some(text_at("fp8_e5m2", 20)));
    assert_eq!(s.quantization, Some(text_at("fp8", 22)));
    assert!(s.unknown_flags.is_empty(), "{:?}", s.unknown_flags);
}

#[test]
fn sglang_absent_switches_stay_unknown_to_us() {
    let s = parse_line("python -m sglang.launch_server --model-path m --tp-size 2");
    assert_eq!(s.enforce_eager, None);
    assert_eq!(s.enable_prefix_caching, None);
    assert_eq!(s.speculative, None);
}

#[test]
fn sglang_speculative_budget_follows_vllm_meaning() {
    // topk 1: SGLang forces the verify window to num_steps + 1, so the budget is num_steps.
    let s = parse_line(
        "python -m sglang.launch_server --model-path m --speculative-algorithm EAGLE3 \
         --speculative-num-steps 3 --speculative-eagle-topk 1 \
         --speculative-num-draft-tokens 4 --speculative-draft-model-path d",
    );
    assert_eq!(
        s.speculative,
        Some(at(
            Speculative {
                enabled: true,
                method: Some("eagle3".into()),
                num_speculative_tokens: Some(3),
                draft_model: Some("d".into()),
            },
            5
        ))
    );
    assert!(s.unknown_flags.is_empty(), "{:?}", s.unknown_flags);
    // A tree (topk > 1): the window counts the verified token, one more than the budget.
    let s = parse_line(
        "sglang serve m --speculative-algorithm=NEXTN --speculative-eagle-topk 4 \
         --speculative-num-draft-tokens 8",
    );
    let spec = s.speculative.expect("nextn").value;
    assert_eq!(spec.method.as_deref(), Some("nextn"));
    assert_eq!(spec.num_speculative_tokens, Some(7));
    // Without the algorithm, SGLang does not speculate on these flags alone.
    let s = parse_line("sglang serve m --speculative-num-draft-tokens 4");
    assert_eq!(s.speculative, None);
}

#[test]
fn sglang_serve_positional_model_and_graph_backend() {
    let s = parse_line("sglang serve Qwen/Qwen3-8B --cuda-graph-backend-decode disabled --dp 2");
    assert_eq!(s.model, Some(text_at("Qwen/Qwen3-8B", 2)));
    assert_eq!(s.enforce_eager, Some(at(true, 3)));
    assert_eq!(s.data_parallel_size, Some(at(2, 5)));
    let s = parse_line("sglang serve m --cuda-graph-backend-decode=full");
    assert_eq!(s.enforce_eager, Some(at(false, 3)));
}

#[test]
fn sglang_rejects_other_engines_spellings() {
    // argparse in SGLang has neither `-tp` nor underscore spellings: such a command never ran.
    let s = parse_line(
        "python -m sglang.launch_server --model-path m -tp 4 --max_running_requests 8 --pp 2",
    );
    assert_eq!(s.tensor_parallel_size, None);
    assert_eq!(s.max_num_seqs, None);
    assert_eq!(s.pipeline_parallel_size, None);
    assert_eq!(s.unknown_flags, ["--max_running_requests", "--pp", "-tp"]);
}

#[test]
fn sglang_chunked_prefill_off_records_nothing() {
    let s = parse_line("sglang serve m --chunked-prefill-size -1");
    assert_eq!(s.max_num_batched_tokens, None);
    assert!(s.unknown_flags.is_empty());
}

#[test]
fn sglang_legacy_ep_moe_takes_tp_size() {
    let s = parse_line("python -m sglang.launch_server --model-path m --tp 8 --enable-ep-moe");
    assert_eq!(s.expert_parallel_size, Some(at(8, 7)));
}

// ---------------------------------------------------------------------------------------
// TensorRT-LLM
// ---------------------------------------------------------------------------------------

#[test]
fn trtllm_serve_real_world_command() {
    let line = "trtllm-serve nvidia/Llama-3.3-70B-Instruct-FP8 --backend pytorch \
        --tp_size 4 --pp_size 1 --ep_size 4 --max_batch_size 128 --max_num_tokens 8192 \
        --max_seq_len 16384 --kv_cache_free_gpu_memory_fraction 0.9 --trust_remote_code \
        --extra_llm_api_options /tmp/extra.yaml --host 0.0.0.0 --port 8000";
    let s = parse_line(line);
    assert_eq!(s.engine, Some(EngineKind::TensorRtLlm));
    assert_eq!(
        s.model,
        Some(text_at("nvidia/Llama-3.3-70B-Instruct-FP8", 1))
    );
    assert_eq!(s.tensor_parallel_size, Some(at(4, 4)));
    assert_eq!(s.pipeline_parallel_size, Some(at(1, 6)));
    assert_eq!(s.expert_parallel_size, Some(at(4, 8)));
    assert_eq!(s.max_num_seqs, Some(at(128, 10)));
    assert_eq!(s.max_num_batched_tokens, Some(at(8192, 12)));
    assert_eq!(s.max_model_len, Some(at(16384, 14)));
    assert_eq!(s.enforce_eager, None);
    assert_eq!(s.enable_prefix_caching, None);
    assert!(s.unknown_flags.is_empty(), "{:?}", s.unknown_flags);
}

#[test]
fn trtllm_serve_subcommand_and_model_after_options() {
    let s = parse_line("trtllm-serve serve --tp_size=2 m --disable_kv_cache_reuse");
    assert_eq!(s.model, Some(text_at("m", 3)));
    assert_eq!(s.tensor_parallel_size, Some(at(2, 2)));
    assert_eq!(s.enable_prefix_caching, Some(at(false, 4)));
}

#[test]
fn trtllm_rejects_dash_spellings() {
    let s = parse_line("trtllm-serve m --tp-size 2 --max-batch-size 8");
    assert_eq!(s.tensor_parallel_size, None);
    assert_eq!(s.max_num_seqs, None);
    assert_eq!(s.unknown_flags, ["--max-batch-size", "--tp-size"]);
}
