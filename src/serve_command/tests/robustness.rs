//! An unknown engine, repeated and missing flags, unknown flags, the end-of-options marker,
//! counts, and degenerate, gigantic and arbitrary input that never panics.

use super::*;

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
