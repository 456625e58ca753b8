use super::count::{Count, parse_count};
use super::flags::NumStyle;
use super::*;

fn words(line: &str) -> Vec<String> {
    split_command_line(line)
}

fn parse_line(line: &str) -> ServeSettings {
    parse(&words(line))
}

fn at<T>(value: T, arg_index: usize) -> Found<T> {
    Found { value, arg_index }
}

fn text_at(value: &str, arg_index: usize) -> Found<String> {
    at(value.to_owned(), arg_index)
}

// ---------------------------------------------------------------------------------------
// split_command_line
// ---------------------------------------------------------------------------------------

#[test]
fn split_keeps_single_quoted_json_as_one_word() {
    let line =
        r#"vllm serve m --speculative-config '{"method": "eagle", "num_speculative_tokens": 4}'"#;
    assert_eq!(
        words(line),
        [
            "vllm",
            "serve",
            "m",
            "--speculative-config",
            r#"{"method": "eagle", "num_speculative_tokens": 4}"#,
        ]
    );
}

#[test]
fn split_double_quotes_unescape_only_shell_specials() {
    let line = r#"a "{\"k\": \"v\"}" "x\ny" "\$HOME" "c:\path""#;
    assert_eq!(
        words(line),
        ["a", r#"{"k": "v"}"#, "x\\ny", "$HOME", "c:\\path"]
    );
}

#[test]
fn split_joins_line_continuations() {
    let line = "vllm serve m \\\n  --tensor-parallel-size 4 \\\r\n  --max-num-seqs 64\n";
    assert_eq!(
        words(line),
        [
            "vllm",
            "serve",
            "m",
            "--tensor-parallel-size",
            "4",
            "--max-num-seqs",
            "64"
        ]
    );
    // A continuation inside a word glues the halves together, as in sh.
    assert_eq!(words("--max-num-\\\nseqs"), ["--max-num-seqs"]);
    assert_eq!(words("\"ab\\\ncd\""), ["abcd"]);
}

#[test]
fn split_handles_escapes_empty_words_comments_and_no_expansion() {
    assert_eq!(words(r"a\ b c\\d"), ["a b", r"c\d"]);
    assert_eq!(words("x '' \"\" y"), ["x", "", "", "y"]);
    assert_eq!(words("a # comment\nb c#d"), ["a", "b", "c#d"]);
    assert_eq!(words("$MODEL ~/x *.json"), ["$MODEL", "~/x", "*.json"]);
    assert_eq!(words("  \t \n "), Vec::<String>::new());
}

#[test]
fn split_survives_unterminated_quotes_and_trailing_backslash() {
    assert_eq!(words("a 'b c"), ["a", "b c"]);
    assert_eq!(words("a \"b \\"), ["a", "b \\"]);
    assert_eq!(words("a \\"), ["a", "\\"]);
}

#[test]
fn split_keeps_unicode_intact() {
    assert_eq!(
        words("m\u{e9}del 'd\u{e9}j\u{e0} vu' \u{1F680}\\ x"),
        ["m\u{e9}del", "d\u{e9}j\u{e0} vu", "\u{1F680} x"]
    );
}

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

// ---------------------------------------------------------------------------------------
// Unknown engine, repeats, robustness
// ---------------------------------------------------------------------------------------

#[test]
fn unknown_engine_reads_flags_of_every_engine() {
    let s = parse_line(
        "/entrypoint.sh --model m --max_num_seqs 8 --tp_size 2 --context-length 4096 --foo bar --enforce-eager",
    );
    assert_eq!(s.engine, None);
    assert_eq!(s.model, Some(text_at("m", 1)));
    assert_eq!(s.max_num_seqs, Some(at(8, 3)));
    assert_eq!(s.tensor_parallel_size, Some(at(2, 5)));
    assert_eq!(s.max_model_len, Some(at(4096, 7)));
    assert_eq!(s.enforce_eager, Some(at(true, 11)));
    assert_eq!(s.unknown_flags, ["--foo"]);
}

#[test]
fn repeated_flag_last_wins() {
    let s = parse_line("vllm serve m --max-num-seqs 64 --max-num-seqs=128");
    assert_eq!(s.max_num_seqs, Some(at(128, 5)));
}

#[test]
fn missing_and_bad_values_are_not_recorded() {
    let s = parse_line("vllm serve m --max-num-seqs lots -tp 2.5 --max-model-len -3 --revision");
    assert_eq!(s.max_num_seqs, None);
    assert_eq!(s.tensor_parallel_size, None);
    assert_eq!(s.max_model_len, None);
    assert_eq!(s.revision, None);
    assert_eq!(
        s.unknown_flags,
        ["--max-model-len", "--max-num-seqs", "--revision", "-tp"]
    );
    // A value that is really the next flag is not swallowed.
    let s = parse_line("vllm serve m --max-num-seqs --enforce-eager");
    assert_eq!(s.max_num_seqs, None);
    assert_eq!(s.enforce_eager, Some(at(true, 4)));
    assert_eq!(s.unknown_flags, ["--max-num-seqs"]);
    // Overflow and empty values.
    let s = parse_line(
        "vllm serve m --max-num-seqs 99999999999999999999 --dtype= --max-model-len 99999999T",
    );
    assert_eq!(
        (s.max_num_seqs, s.dtype, s.max_model_len),
        (None, None, None)
    );
    assert_eq!(
        s.unknown_flags,
        ["--dtype", "--max-model-len", "--max-num-seqs"]
    );
}

#[test]
fn unknown_flags_sorted_deduplicated_and_arity_guessed() {
    let s = parse_line(
        "vllm serve m --zeta 1 --alpha --enable-foo --zeta=2 --enable-foo --alpha x --bar-baz",
    );
    assert_eq!(
        s.unknown_flags,
        ["--alpha", "--bar-baz", "--enable-foo", "--zeta"]
    );
    // `--enable-*` is guessed to be a switch, so the model is still found after it in TRT.
    let s = parse_line("trtllm-serve --enable_something m");
    assert_eq!(s.model, Some(text_at("m", 2)));
}

#[test]
fn end_of_options_marker() {
    let s = parse_line("trtllm-serve -- --not-a-flag");
    assert_eq!(s.model, Some(text_at("--not-a-flag", 2)));
    assert!(s.unknown_flags.is_empty());
}

#[test]
fn human_readable_counts() {
    let count = |v| match parse_count(v, NumStyle::Human) {
        Count::Value(n) => Some(n),
        _ => None,
    };
    assert_eq!(count("1k"), Some(1_000));
    assert_eq!(count("1K"), Some(1_024));
    assert_eq!(count("25.6k"), Some(25_600));
    assert_eq!(count("2M"), Some(2_097_152));
    assert_eq!(count("1.5K"), None);
    assert_eq!(count("+12"), Some(12));
    assert_eq!(count(" 7 "), Some(7));
    assert_eq!(count("k"), None);
    assert_eq!(count("1.k"), None);
    assert_eq!(count("\u{e9}"), None);
}

#[test]
fn empty_and_degenerate_inputs() {
    assert_eq!(parse(&[]), ServeSettings::default());
    assert_eq!(parse_line("vllm").engine, None);
    assert_eq!(parse_line("vllm serve").model, None);
    assert_eq!(parse_line("python -m").engine, None);
    assert_eq!(parse_line("python -X").engine, None);
    let s = parse_line("vllm serve - --max-num-seqs");
    assert_eq!(s.model, Some(text_at("-", 2)));
    assert_eq!(s.unknown_flags, ["--max-num-seqs"]);
    let s = parse(&[
        String::new(),
        "=".into(),
        "-".into(),
        "--".into(),
        "--=x".into(),
    ]);
    assert_eq!(s.engine, None);
}

#[test]
fn gigantic_and_unicode_inputs() {
    let huge = "x".repeat(1 << 20);
    let s = parse(&[
        "vllm".into(),
        "serve".into(),
        huge.clone(),
        format!("--{huge}"),
        format!("--max-num-seqs={huge}"),
        "--speculative-config".into(),
        format!("{}{}", "[".repeat(100_000), "]".repeat(100_000)),
        "--mod\u{e8}le".into(),
        "\u{1F680}".into(),
        "--dtype=\u{1F680}".into(),
    ]);
    assert_eq!(s.model.map(|m| m.value.len()), Some(1 << 20));
    assert_eq!(s.dtype, Some(text_at("\u{1F680}", 9)));
    assert!(s.speculative.is_some_and(|f| f.value.enabled));
    assert!(s.unknown_flags.contains(&"--mod\u{e8}le".to_owned()));
    assert!(s.unknown_flags.contains(&"--max-num-seqs".to_owned()));
}

#[test]
fn arbitrary_token_soup_never_panics_and_keeps_invariants() {
    const VOCAB: &[&str] = &[
        "vllm",
        "serve",
        "sglang",
        "trtllm-serve",
        "python",
        "-m",
        "sglang.launch_server",
        "--",
        "-",
        "-tp",
        "--tp",
        "-O",
        "-O3",
        "--max-num-seqs",
        "--max-model-len=auto",
        "--speculative-config",
        "{",
        "{\"method\":1}",
        "--speculative-config.model",
        "--speculative-algorithm",
        "--speculative-eagle-topk",
        "1",
        "0",
        "-1",
        "18446744073709551616",
        "--enable-expert-parallel",
        "--no-enable-expert-parallel",
        "--enable-ep-moe",
        "--no-",
        "--x.",
        "--.y",
        "=",
        "--=",
        "\u{e9}",
        "--disable-radix-cache=1",
        "5k",
        "--chunked-prefill-size",
    ];
    // A fixed xorshift generator: reproducible without a dependency.
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for _ in 0..3_000 {
        let len = usize::try_from(next() % 12).unwrap_or(0);
        let argv: Vec<String> = (0..len)
            .map(|_| VOCAB[usize::try_from(next() % VOCAB.len() as u64).unwrap_or(0)].to_owned())
            .collect();
        let s = parse(&argv);
        assert!(s.unknown_flags.windows(2).all(|w| w[0] < w[1]), "{argv:?}");
        let indexes = [
            s.model.map(|f| f.arg_index),
            s.tensor_parallel_size.map(|f| f.arg_index),
            s.max_num_seqs.map(|f| f.arg_index),
            s.speculative.map(|f| f.arg_index),
            s.expert_parallel_size.map(|f| f.arg_index),
        ];
        assert!(
            indexes.into_iter().flatten().all(|i| i < argv.len()),
            "{argv:?}"
        );
        let line = argv.join(" ");
        let _ = parse(&split_command_line(&line));
    }
}
