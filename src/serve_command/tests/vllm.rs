//! vLLM's flags: the real-world command, its spellings, the speculative config in every form,
//! eager mode, prefix caching, expert parallelism, the model length and JSON arguments.

use super::*;

// ---------------------------------------------------------------------------------------
// vLLM
// ---------------------------------------------------------------------------------------

#[test]
fn vllm_serve_real_world_command() {
    let line = "vllm serve meta-llama/Llama-3.1-70B-Instruct \
        --tensor-parallel-size 4 --max-model-len 32768 --max-num-seqs 256 \
        --max-num-batched-tokens 8192 --gpu-memory-utilization 0.92 \
        --kv-cache-dtype fp8 --enable-prefix-caching --dtype bfloat16 \
        --revision 5206a32e --quantization fp8 --port 8000 --served-model-name llama";
    let s = parse_line(line);
    assert_eq!(s.engine, Some(EngineKind::Vllm));
    assert_eq!(
        s.model,
        Some(text_at("meta-llama/Llama-3.1-70B-Instruct", 2))
    );
    assert_eq!(s.tensor_parallel_size, Some(at(4, 3)));
    assert_eq!(s.max_model_len, Some(at(32768, 5)));
    assert_eq!(s.max_num_seqs, Some(at(256, 7)));
    assert_eq!(s.max_num_batched_tokens, Some(at(8192, 9)));
    assert_eq!(s.kv_cache_dtype, Some(text_at("fp8", 13)));
    assert_eq!(s.enable_prefix_caching, Some(at(true, 15)));
    assert_eq!(s.dtype, Some(text_at("bfloat16", 16)));
    assert_eq!(s.revision, Some(text_at("5206a32e", 18)));
    assert_eq!(s.quantization, Some(text_at("fp8", 20)));
    assert_eq!(s.enforce_eager, None);
    assert_eq!(s.speculative, None);
    assert_eq!(s.pipeline_parallel_size, None);
    assert_eq!(s.expert_parallel_size, None);
    assert_eq!(s.data_parallel_size, None);
    assert!(s.unknown_flags.is_empty(), "{:?}", s.unknown_flags);
}

#[test]
fn vllm_equals_form_underscores_and_short_flags() {
    let s = parse(&words(
        "vllm serve m --max_num_seqs=64 --tensor_parallel_size=2 -pp=2 -dp 2 -q awq \
         --max-model-len=32k --max_num_batched_tokens 8K --kv_cache_dtype=fp8_e5m2",
    ));
    assert_eq!(s.max_num_seqs, Some(at(64, 3)));
    assert_eq!(s.tensor_parallel_size, Some(at(2, 4)));
    assert_eq!(s.pipeline_parallel_size, Some(at(2, 5)));
    assert_eq!(s.data_parallel_size, Some(at(2, 6)));
    assert_eq!(s.quantization, Some(text_at("awq", 8)));
    assert_eq!(s.max_model_len, Some(at(32_000, 10)));
    assert_eq!(s.max_num_batched_tokens, Some(at(8192, 11)));
    assert_eq!(s.kv_cache_dtype, Some(text_at("fp8_e5m2", 13)));
    assert!(s.unknown_flags.is_empty(), "{:?}", s.unknown_flags);
}

#[test]
fn vllm_api_server_takes_model_from_flag() {
    let s = parse_line(
        "python3 -m vllm.entrypoints.openai.api_server --model Qwen/Qwen3-8B -tp 2 --enforce-eager",
    );
    assert_eq!(s.engine, Some(EngineKind::Vllm));
    assert_eq!(s.model, Some(text_at("Qwen/Qwen3-8B", 3)));
    assert_eq!(s.tensor_parallel_size, Some(at(2, 5)));
    assert_eq!(s.enforce_eager, Some(at(true, 7)));
}

#[test]
fn vllm_serve_model_positional_only_right_after_serve() {
    // argparse fills vLLM's optional positional only there; a later word is stray.
    let s = parse_line("vllm serve --port 8000 m");
    assert_eq!(s.model, None);
    let s = parse_line("vllm serve --model=m --port 8000");
    assert_eq!(s.model, Some(text_at("m", 2)));
}

#[test]
fn vllm_speculative_config_four_tokens() {
    let line = r#"vllm serve openai/gpt-oss-120b --speculative-config '{"method":"eagle3","num_speculative_tokens":4,"model":"nvidia/gpt-oss-120b-Eagle3"}' --enforce-eager"#;
    let s = parse_line(line);
    assert_eq!(
        s.speculative,
        Some(at(
            Speculative {
                enabled: true,
                method: Some("eagle3".into()),
                num_speculative_tokens: Some(4),
                draft_model: Some("nvidia/gpt-oss-120b-Eagle3".into()),
            },
            3
        ))
    );
    assert_eq!(s.enforce_eager, Some(at(true, 5)));
    assert!(s.unknown_flags.is_empty());
}

#[test]
fn vllm_speculative_config_underscore_and_equals_forms() {
    let s = parse_line(
        r#"vllm serve m --speculative_config='{"method":"ngram","num_speculative_tokens":"5"}'"#,
    );
    let spec = s.speculative.expect("speculative").value;
    assert_eq!(spec.method.as_deref(), Some("ngram"));
    assert_eq!(spec.num_speculative_tokens, Some(5));
    assert_eq!(spec.draft_model, None);
}

#[test]
fn vllm_speculative_config_malformed_json_is_on_with_unknown_budget() {
    let s = parse_line(
        r#"vllm serve m --speculative-config '{"method": "eagle", num_speculative_tokens: 4'"#,
    );
    assert_eq!(
        s.speculative,
        Some(at(
            Speculative {
                enabled: true,
                method: None,
                num_speculative_tokens: None,
                draft_model: None,
            },
            3
        ))
    );
    assert_eq!(s.unknown_flags, ["--speculative-config"]);
}

#[test]
fn vllm_speculative_config_null_is_an_explicit_off() {
    for value in ["null", "None", "''"] {
        let s = parse_line(&format!("vllm serve m --speculative-config {value}"));
        let spec = s.speculative.expect(value);
        assert!(!spec.value.enabled, "{value}");
        assert_eq!(spec.arg_index, 3);
    }
}

#[test]
fn vllm_speculative_config_dotted_keys() {
    let s = parse_line(
        "vllm serve m --speculative-config '{\"method\":\"eagle\"}' \
         --speculative-config.method ngram --speculative_config.num_speculative_tokens=5",
    );
    // vLLM re-emits dotted keys as one JSON argument after the others: it replaces the JSON.
    assert_eq!(
        s.speculative,
        Some(at(
            Speculative {
                enabled: true,
                method: Some("ngram".into()),
                num_speculative_tokens: Some(5),
                draft_model: None,
            },
            5
        ))
    );
    assert!(s.unknown_flags.is_empty(), "{:?}", s.unknown_flags);
}

#[test]
fn vllm_legacy_speculative_flags() {
    let s = parse_line("vllm serve m --speculative-model d --num-speculative-tokens 3");
    assert_eq!(
        s.speculative,
        Some(at(
            Speculative {
                enabled: true,
                method: None,
                num_speculative_tokens: Some(3),
                draft_model: Some("d".into()),
            },
            3
        ))
    );
    let s = parse_line("vllm serve m --speculative-model [ngram] --num-speculative-tokens 2");
    let spec = s.speculative.expect("ngram").value;
    assert_eq!(spec.method.as_deref(), Some("ngram"));
    assert_eq!(spec.draft_model, None);
    // A budget without the enabling flag turns nothing on.
    assert_eq!(
        parse_line("vllm serve m --num-speculative-tokens 2").speculative,
        None
    );
}

#[test]
fn enforce_eager_absent_present_and_negated() {
    assert_eq!(parse_line("vllm serve m -tp 2").enforce_eager, None);
    assert_eq!(
        parse_line("vllm serve m --enforce-eager").enforce_eager,
        Some(at(true, 3))
    );
    assert_eq!(
        parse_line("vllm serve m --enforce_eager").enforce_eager,
        Some(at(true, 3))
    );
    assert_eq!(
        parse_line("vllm serve m --enforce-eager --no-enforce-eager").enforce_eager,
        Some(at(false, 4))
    );
    // A switch with a value is rejected by argparse: not believed.
    let s = parse_line("vllm serve m --enforce-eager=true");
    assert_eq!(s.enforce_eager, None);
    assert_eq!(s.unknown_flags, ["--enforce-eager"]);
}

#[test]
fn prefix_caching_on_off_and_absent() {
    assert_eq!(
        parse_line("vllm serve m --no-enable-prefix-caching").enable_prefix_caching,
        Some(at(false, 3))
    );
    assert_eq!(
        parse_line("vllm serve m --no_enable_prefix_caching").enable_prefix_caching,
        Some(at(false, 3))
    );
    assert_eq!(
        parse_line("vllm serve m --enable-prefix-caching").enable_prefix_caching,
        Some(at(true, 3))
    );
    assert_eq!(parse_line("vllm serve m").enable_prefix_caching, None);
}

#[test]
fn vllm_expert_parallel_size_is_tp_times_dp() {
    let s = parse_line("vllm serve m -tp 4 -dp 2 --enable-expert-parallel");
    assert_eq!(s.expert_parallel_size, Some(at(8, 7)));
    let s = parse_line("vllm serve m -ep --tensor-parallel-size 8");
    assert_eq!(s.expert_parallel_size, Some(at(8, 3)));
    let s = parse_line("vllm serve m -tp 8 --no-enable-expert-parallel");
    assert_eq!(s.expert_parallel_size, Some(at(1, 5)));
    assert_eq!(parse_line("vllm serve m -tp 8").expert_parallel_size, None);
}

#[test]
fn vllm_max_model_len_auto_hands_back_to_engine() {
    for value in ["auto", "-1", "AUTO"] {
        let s = parse_line(&format!(
            "vllm serve m --max-model-len 4096 --max-model-len {value}"
        ));
        assert_eq!(s.max_model_len, None, "{value}");
        assert!(s.unknown_flags.is_empty(), "{value}");
    }
}

#[test]
fn vllm_optimisation_level_and_json_args_are_understood() {
    let s = parse_line(
        "vllm serve m -O3 -O 0 --compilation-config '{\"level\":3}' -cc.mode 3 --max-num-seqs 8",
    );
    assert!(s.unknown_flags.is_empty(), "{:?}", s.unknown_flags);
    assert_eq!(s.max_num_seqs, Some(at(8, 10)));
}
