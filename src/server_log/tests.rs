//! The log scan on the start lines vLLM and SGLang print, and on a log of another program.

use super::*;

fn scan(text: &str) -> LogFacts {
    let mut s = LogScan::default();
    let mut offset = 0;
    for line in text.split('\n') {
        if !s.line(offset, line) {
            break;
        }
        offset += line.len() + 1;
    }
    s.finish()
}

fn get<'a>(f: &'a LogFacts, pointer: &str) -> Option<&'a Value> {
    f.facts
        .iter()
        .find(|x| x.pointer == pointer)
        .map(|x| &x.value)
}

#[test]
fn vllm_start_lines_give_identity_and_effective_settings() {
    let log = "noise\n\
        (APIServer pid=1) INFO 06-04 [utils.py:344]  ▄▄ ▄█ █     █  version 0.22.0\n\
        (APIServer pid=1) INFO 06-04 [utils.py:278] non-default args: {'model': 'M/x', 'tensor_parallel_size': 2, 'max_num_seqs': 4, 'enable_prefix_caching': True}\n\
        (APIServer pid=1) INFO [scheduler.py:239] Chunked prefill is enabled with max_num_batched_tokens=8192.\n\
        (EngineCore pid=2) INFO [core.py:112] Initializing a V1 LLM engine (v0.22.0) with config: model='M/x', speculative_config=None, revision=None, dtype=torch.bfloat16, max_seq_len=196608, tensor_parallel_size=2, pipeline_parallel_size=1, quantization=fp8, enforce_eager=False, kv_cache_dtype=fp8, served_model_name=M/x, enable_prefix_caching=True\n\
        later lines are never read";
    let f = scan(log);
    assert_eq!(get(&f, "/engine/name"), Some(&Value::from("vllm")));
    assert_eq!(get(&f, "/engine/version"), Some(&Value::from("0.22.0")));
    assert_eq!(
        get(&f, "/engine/tensor_parallel_size"),
        Some(&Value::from(2))
    );
    assert_eq!(
        get(&f, "/engine/pipeline_parallel_size"),
        Some(&Value::from(1))
    );
    assert_eq!(get(&f, "/engine/max_num_seqs"), Some(&Value::from(4)));
    assert_eq!(
        get(&f, "/engine/max_model_len"),
        Some(&Value::from(196_608))
    );
    assert_eq!(
        get(&f, "/engine/max_num_batched_tokens"),
        Some(&Value::from(8192))
    );
    assert_eq!(get(&f, "/engine/enforce_eager"), Some(&Value::from(false)));
    assert_eq!(
        get(&f, "/engine/speculative/enabled"),
        Some(&Value::from(false))
    );
    assert_eq!(get(&f, "/engine/kv_cache_dtype"), Some(&Value::from("fp8")));
    assert_eq!(get(&f, "/model/precision"), Some(&Value::from("fp8")));
    assert_eq!(get(&f, "/model/name"), Some(&Value::from("M/x")));
    assert_eq!(get(&f, "/model/revision"), None);
    // Each value points at the line it came from.
    let seqs = f
        .facts
        .iter()
        .find(|x| x.pointer == "/engine/max_num_seqs")
        .unwrap();
    assert!(log[seqs.offset..].starts_with("(APIServer pid=1) INFO 06-04 [utils.py:278]"));
}

#[test]
fn sglang_server_args_give_settings_but_no_version() {
    let log = "[2026-06-03 17:27:44] server_args=ServerArgs(model_path='amd/GLM', served_model_name='amd/GLM', tp_size=2, pp_size=1, dp_size=1, ep_size=1, kv_cache_dtype='fp8_e4m3', max_running_requests=16, context_length=None, chunked_prefill_size=16384, disable_radix_cache=False, disable_cuda_graph=False, quantization=None, dtype='auto', speculative_algorithm=None)";
    let f = scan(log);
    assert_eq!(get(&f, "/engine/name"), Some(&Value::from("sglang")));
    assert_eq!(get(&f, "/engine/version"), None);
    assert_eq!(get(&f, "/engine/max_num_seqs"), Some(&Value::from(16)));
    assert_eq!(get(&f, "/engine/max_model_len"), None);
    assert_eq!(
        get(&f, "/engine/max_num_batched_tokens"),
        Some(&Value::from(16_384))
    );
    assert_eq!(
        get(&f, "/engine/enable_prefix_caching"),
        Some(&Value::from(true))
    );
    assert_eq!(get(&f, "/model/precision"), None);
    assert_eq!(
        get(&f, "/engine/speculative/enabled"),
        Some(&Value::from(false))
    );
}

#[test]
fn a_log_of_another_program_gives_nothing() {
    assert!(scan("hello\nversion 3\nno engine here").facts.is_empty());
}
